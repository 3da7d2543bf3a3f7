// `generate --verify` and `--format`, and the `bcastgen inspect` command.
// The broken kernel comes from a test-only template (tests/clang/), rendered
// with the generator's own renderer and verified in memory.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bcastgen/clang/verify.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/spec.h"
#include "render.h"

namespace {

namespace fs = std::filesystem;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CmdResult {
  int code = -1;
  std::string out, err;
};

// Runs the bcastgen tool (`exe`: a copy of it); stdout and stderr captured apart.
CmdResult bcastgen(const std::string& args, const std::string& exe = BCASTGEN_EXE) {
  const std::string err_file = fs::temp_directory_path() / ("verify_test_err_" + std::to_string(getpid()));
  const std::string cmd = exe + " " + args + " 2>" + err_file;
  CmdResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err_file);
  fs::remove(err_file);
  return r;
}

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/bcastgen_verify_XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The test-only template, rendered with some of its breakages switched on.
std::string broken_kernel(bool typo, bool unused, bool runtime_bound) {
  const std::string text = slurp(std::string(BCASTGEN_SOURCE_DIR) + "/tests/clang/broken_kernel.cpp.mustache");
  bcastgen::gen::Values values;
  values.set("name", "broken_add").flag("typo", typo).flag("unused", unused).flag("runtime_bound", runtime_bound);
  return bcastgen::gen::render_text("broken_kernel.cpp.mustache", text, values);
}

bcastgen::clangtool::VerifyResult verify_one(const std::string& code) {
  return bcastgen::clangtool::verify_generated({{"broken.cpp", code}}, "broken.cpp");
}

TEST(Verify, TheTestTemplateAsIsPasses) {
  const auto r = verify_one(broken_kernel(false, false, false));
  EXPECT_TRUE(r.ok) << r.report;
  EXPECT_TRUE(r.report.empty());
}

TEST(Verify, CatchesACompileErrorAndNamesTheKernel) {
  const auto r = verify_one(broken_kernel(true, false, false));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.kernels, std::vector<std::string>{"broken_add"});
  EXPECT_TRUE(contains(r.report, "bcastgen: verify: kernel 'broken_add':\nbroken.cpp:")) << r.report;
  EXPECT_TRUE(contains(r.report, "error: use of undeclared identifier 'rr'")) << r.report;
  EXPECT_FALSE(contains(r.report, "<bcastgen-verify>")) << r.report;  // virtual paths are not shown
  // Reported once, though every flag set sees it.
  EXPECT_EQ(r.report.find("undeclared identifier 'rr'"), r.report.rfind("undeclared identifier 'rr'")) << r.report;
}

TEST(Verify, WarningsFailToo) {
  const auto r = verify_one(broken_kernel(false, true, false));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.report, "warning: unused variable 'unused_variable'")) << r.report;
}

TEST(Verify, RunsTheInspectChecks) {
  const auto r = verify_one(broken_kernel(false, false, true));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.kernels, std::vector<std::string>{"broken_add"});
  EXPECT_TRUE(contains(r.report, "kernel 'broken_add' (avx2): loop 'j': bound 'n' is not an integer constant expression"))
      << r.report;
}

TEST(Verify, AcceptsTheDemoFromMemory) {
  const std::string spec_path = std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml";
  const bcastgen::gen::Spec spec = bcastgen::gen::parse_spec(slurp(spec_path), spec_path);
  bcastgen::gen::GenerateOptions options;
  options.stem = "demo";
  const auto files = bcastgen::gen::generate(spec, options).files;
  const auto r = bcastgen::clangtool::verify_generated(files, "demo.cpp");
  EXPECT_TRUE(r.ok) << r.report;
  EXPECT_GT(r.seconds, 0);
}

TEST(VerifyCli, GenerateVerifyWritesTheFiles) {
  TempDir dir;
  const CmdResult r = bcastgen("generate " + std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml -o " + dir.path() +
                         " --verify");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "demo.cpp"));
}

TEST(VerifyCli, FormatIsDeterministicAndVerifies) {
  TempDir a, b;
  const std::string spec = std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml";
  ASSERT_EQ(bcastgen("generate " + spec + " -o " + a.path() + " --format --verify").code, 0);
  ASSERT_EQ(bcastgen("generate " + spec + " -o " + b.path() + " --format").code, 0);
  EXPECT_EQ(slurp(a / "demo.cpp"), slurp(b / "demo.cpp"));
  EXPECT_EQ(slurp(a / "demo.h"), slurp(b / "demo.h"));
  TempDir plain;
  ASSERT_EQ(bcastgen("generate " + spec + " -o " + plain.path()).code, 0);
  EXPECT_NE(slurp(a / "demo.cpp"), slurp(plain / "demo.cpp"));  // --format is off by default
}

TEST(InspectCli, GeneratedBiasAddPassesWithConstantLoopsAndIntrinsicsPerIsa) {
  TempDir dir;
  ASSERT_EQ(bcastgen("generate " + std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml -o " + dir.path()).code, 0);
  const CmdResult r = bcastgen("inspect " + (dir / "demo.cpp"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "kernel bias_add  out [1,64,56,56]  200704 elements")) << r.out;
  EXPECT_TRUE(contains(r.out, "      avx512:  _mm512_add_ps _mm512_loadu_ps _mm512_set1_ps _mm512_storeu_ps")) << r.out;
  EXPECT_TRUE(contains(r.out, "      avx2:    _mm256_add_ps _mm256_loadu_ps _mm256_set1_ps _mm256_storeu_ps")) << r.out;
  EXPECT_TRUE(contains(r.out, "64 trips")) << r.out;
  EXPECT_TRUE(contains(r.out, "5 kernel(s), ")) << r.out;
  EXPECT_TRUE(contains(r.out, ", 0 problem(s)")) << r.out;

  const CmdResult j = bcastgen("inspect --json " + (dir / "demo.cpp"));
  ASSERT_EQ(j.code, 0) << j.err;
  const nlohmann::json report = nlohmann::json::parse(j.out);
  EXPECT_TRUE(report["ok"].get<bool>());
  EXPECT_EQ(report["kernels"][0]["name"], "bias_add");
  EXPECT_EQ(report["kernels"][0]["variants"][0]["stored"], 200704);
}

TEST(InspectCli, HandWrittenRuntimeBoundExitsNonZeroAndNamesTheLoop) {
  const CmdResult r = bcastgen("inspect " + std::string(BCASTGEN_SOURCE_DIR) + "/tests/clang/runtime_bound_kernel.cpp");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "runtime_bound_kernel.cpp:11:3: kernel 'add' (scalar): loop 'i': bound 'n' is not an "
                              "integer constant expression: it uses parameter 'n' [loop-bound]"))
      << r.out;
}

TEST(InspectCli, Errors) {
  EXPECT_EQ(bcastgen("inspect /nonexistent/kernels.cpp").code, 3);
  TempDir dir;
  std::ofstream(dir / "none.cpp") << "int f() { return 0; }\n";
  EXPECT_EQ(bcastgen("inspect " + (dir / "none.cpp")).code, 2);
  std::ofstream(dir / "bad.cpp") << "int f() { return missing; }\n";
  const CmdResult bad = bcastgen("inspect " + (dir / "bad.cpp"));
  EXPECT_EQ(bad.code, 4);
  EXPECT_TRUE(contains(bad.out, "does not compile")) << bad.out;
}

// The tool loads its Clang commands from bcastgen-clang.so beside it or in
// ../lib/bcastgen; a copy of the tool without the module says where it
// looked, exits 2 and writes nothing.
TEST(InspectCli, WithoutItsModuleTheToolSaysWhereItLookedAndExitsTwo) {
  TempDir bin, out;
  const std::string exe = bin / "bcastgen";
  fs::copy_file(BCASTGEN_EXE, exe);
  fs::permissions(exe, fs::perms::owner_all);
  const std::string demo = std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml";
  const CmdResult r = bcastgen("inspect " + std::string(BCASTGEN_SOURCE_DIR) + "/generated/demo.cpp", exe);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "bcastgen: inspect is unavailable: no bcastgen-clang.so at " + (bin / "bcastgen-clang.so")))
      << r.err;
  const CmdResult v = bcastgen("generate " + demo + " -o " + out.path() + " --verify", exe);
  EXPECT_EQ(v.code, 2) << v.err;
  EXPECT_TRUE(contains(v.err, "--verify is unavailable")) << v.err;
  EXPECT_TRUE(fs::is_empty(out.path()));
  EXPECT_EQ(bcastgen("generate " + demo + " -o " + out.path(), exe).code, 0);  // the rest works
}

}  // namespace
