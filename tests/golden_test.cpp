// Golden text: the files generated for tests/golden/golden.yaml (golden.h,
// golden.cpp and whatever else `generate` returns) must equal the checked-in
// ones beside it byte for byte, so that any change to the generated code
// shows up as a reviewed diff. After an intended change, run
// scripts/update-golden.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/spec.h"

namespace {

const std::string kGoldenDir = std::string(BCASTGEN_SOURCE_DIR) + "/tests/golden";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "" when equal; else the first line that differs, 1-based, both versions.
std::string first_difference(const std::string& name, const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  std::istringstream e(expected), a(actual);
  std::string le, la;
  for (int line = 1;; ++line) {
    const bool he = static_cast<bool>(std::getline(e, le)), ha = static_cast<bool>(std::getline(a, la));
    if (!he && !ha) {  // same lines, different final newline
      return name + ": the files differ only in their last newline";
    }
    if (he != ha || le != la) {
      return name + ":" + std::to_string(line) + ": first differing line\n  checked in: " +
             (he ? le : std::string("<end of file>")) + "\n  generated:  " + (ha ? la : std::string("<end of file>"));
    }
  }
}

bcastgen::gen::GeneratedFiles generate_golden() {
  const bcastgen::gen::Spec spec = bcastgen::gen::parse_spec(slurp(kGoldenDir + "/golden.yaml"), "golden.yaml");
  bcastgen::gen::GenerateOptions o;
  o.stem = "golden";
  o.source_name = "golden.yaml";
  return bcastgen::gen::generate(spec, o);
}

// The checked-in outputs: every file in tests/golden but the spec.
std::set<std::string> checked_in_outputs() {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kGoldenDir)) {
    const std::string name = e.path().filename().string();
    if (name != "golden.yaml") names.insert(name);
  }
  return names;
}

TEST(Golden, GeneratedCodeMatchesCheckedInFiles) {
  const bcastgen::gen::GeneratedFiles g = generate_golden();
  ASSERT_EQ(g.files.count("golden.h"), 1u);
  ASSERT_EQ(g.files.count("golden.cpp"), 1u);
  std::set<std::string> generated;
  for (const auto& [name, text] : g.files) {
    generated.insert(name);
    const std::string path = kGoldenDir + "/" + name;
    if (!std::filesystem::exists(path)) {
      ADD_FAILURE() << "golden output is stale: run scripts/update-golden.sh\n" << name
                    << ": generated, but not checked in";
      continue;
    }
    const std::string diff = first_difference(name, slurp(path), text);
    if (!diff.empty()) ADD_FAILURE() << "golden output is stale: run scripts/update-golden.sh\n" << diff;
  }
  for (const std::string& name : checked_in_outputs()) {
    if (!generated.count(name)) {
      ADD_FAILURE() << "golden output is stale: run scripts/update-golden.sh\n" << name
                    << ": checked in, but no longer generated";
    }
  }
}

// The golden spec covers what it claims to: the three inner-loop shapes of
// binary kernels, and two fused expressions.
TEST(Golden, SpecCoversTheIntendedPlans) {
  using bcastgen::gen::Access;
  const bcastgen::gen::GeneratedFiles g = generate_golden();
  ASSERT_EQ(g.plans.size(), 5u);
  EXPECT_EQ(g.plans[0].classes, (std::vector<Access>{Access::Stream, Access::Splat}));
  EXPECT_EQ(g.plans[1].classes[1], Access::Pattern);
  EXPECT_EQ(g.plans[2].classes, (std::vector<Access>{Access::Splat, Access::Stream}));
  EXPECT_EQ(g.plans[2].out_dtype, bcastgen::DType::Bool);
  EXPECT_EQ(g.plans[3].spec.inputs.size(), 3u);
  EXPECT_EQ(g.plans[4].spec.inputs[1].dtype, bcastgen::DType::Bool);
  ASSERT_EQ(g.plans[0].isas.size(), 4u);  // avx512, avx2, neon, scalar
}

TEST(Golden, FirstDifferenceNamesTheLine) {
  EXPECT_EQ(first_difference("f", "a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(first_difference("f", "a\nb\nc\n", "a\nB\nc\n"),
            "f:2: first differing line\n  checked in: b\n  generated:  B");
  EXPECT_EQ(first_difference("f", "a\n", "a\nb\n"),
            "f:2: first differing line\n  checked in: <end of file>\n  generated:  b");
  EXPECT_EQ(first_difference("f", "a\n", "a"), "f: the files differ only in their last newline");
}

}  // namespace
