// The fuzz targets (fuzz/*_fuzzer.cpp) replayed on their checked-in seed
// corpora (fuzz/corpus/<target>/) and on every input that once found a bug
// (fuzz/regressions/<target>/), in the ordinary test suite, and the
// regressions under the sanitizer build too (scripts/test.sh leaves the
// seeds there to its fuzz stage, which runs them first under ASan and
// UBSan). Each input runs in a forked child, so a broken invariant
// (FUZZ_CHECK aborts) or a crash fails that input and names it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bcastgen/gen/shape_parse.h"

extern "C" int fuzz_spec(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_shape_rules(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_plan(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_expr(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;
using Entry = int (*)(const std::uint8_t*, std::size_t);

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs every file of fuzz/<kind>/<target>/ through `entry`; returns how many.
int replay(const std::string& kind, const std::string& target, Entry entry) {
  const fs::path dir = fs::path(BCASTGEN_FUZZ_DIR) / kind / target;
  if (!fs::is_directory(dir)) return 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::vector<std::uint8_t> bytes = read_bytes(f);
    const pid_t pid = fork();
    if (pid == 0) {
      entry(bytes.data(), bytes.size());
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << target << " fails on " << f.string() << " (see its stderr above); reproduce with the fuzz build: "
        << "build-fuzz/fuzz/" << target << "_fuzzer " << f.string();
  }
  return static_cast<int>(files.size());
}

struct Target {
  const char* name;
  Entry entry;
};

class FuzzReplay : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzReplay, SeedCorpus) {
  const int n = replay("corpus", GetParam().name, GetParam().entry);
  EXPECT_GT(n, 0) << "no seed corpus in fuzz/corpus/" << GetParam().name;
}

TEST_P(FuzzReplay, Regressions) { replay("regressions", GetParam().name, GetParam().entry); }

INSTANTIATE_TEST_SUITE_P(Targets, FuzzReplay,
                         ::testing::Values(Target{"spec", fuzz_spec}, Target{"shape_rules", fuzz_shape_rules},
                                           Target{"plan", fuzz_plan}, Target{"expr", fuzz_expr}),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// what the fuzzers found, as readable regression tests (the raw inputs are
// in fuzz/regressions/)

// shape_rules: a shape text holding a NUL byte gave a message cut short at
// the NUL ("bad shape '"), losing what was wrong and where; control bytes
// were echoed raw. They are now shown as \xHH.
TEST(FuzzFindings, ShapeErrorsShowUnprintableBytes) {
  try {
    bcastgen::gen::parse_shape(std::string("[2,\0]", 5));
    ADD_FAILURE() << "accepted";
  } catch (const bcastgen::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "bad shape '[2,\\x00]': expected a dim at column 4");
  }
  try {
    bcastgen::gen::parse_shape("2x3\x1b");
    ADD_FAILURE() << "accepted";
  } catch (const bcastgen::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "bad shape '2x3\\x1b': unexpected '\\x1b' at column 4");
  }
}

}  // namespace
