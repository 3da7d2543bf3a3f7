// The inspect checks on real generated output: every test spec
// (tests/kernels/*.yaml, generated at build time into
// ${CMAKE_BINARY_DIR}/tests/kernels/<stem>.cpp) and examples/demo.yaml
// (generated in memory), and the golden output tests/golden/golden.cpp. Every kernel passes, every loop has a constant trip
// count, every variant's stores are counted and cover out_numel, and the
// intrinsics belong to the variant's ISA.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/clang/inspect.h"
#include "bcastgen/cpu.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/spec.h"

namespace {

namespace fs = std::filesystem;
using bcastgen::clangtool::InspectReport;
using bcastgen::clangtool::KernelReport;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Kernels the header declares: one `<kernel>_shape` namespace each.
std::size_t declared_kernels(const std::string& header) {
  static const std::regex shape_ns(R"(\nnamespace \w+_shape \{)");
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(header.begin(), header.end(), shape_ns),
                                                std::sregex_iterator()));
}

// `min_variants`: 3 parsed for x86-64 (avx512, avx2, scalar), 2 for
// AArch64 (neon, scalar); the other architecture's variants compile out.
// Returns how many variants peel their rows.
int expect_all_clean(const InspectReport& r, std::size_t kernels, std::size_t min_variants = 3) {
  int peeled_variants = 0;
  EXPECT_TRUE(r.parsed) << (r.diagnostics.empty() ? "" : r.diagnostics.front());
  if (!r.parsed) return 0;
  EXPECT_EQ(r.kernels.size(), kernels);
  EXPECT_EQ(r.finding_count(), 0u) << bcastgen::clangtool::render_text(r);
  for (const KernelReport& k : r.kernels) {
    SCOPED_TRACE(k.name);
    int peeled = 0;
    EXPECT_TRUE(k.out_numel.has_value());
    if (!k.out_numel) continue;
    EXPECT_GE(k.variants.size(), min_variants);
    for (const auto& v : k.variants) {
      SCOPED_TRACE(v.function);
      // A streaming variant is <isa>_nt (half_stream.yaml).
      const std::string isa = v.name.size() > 3 && v.name.compare(v.name.size() - 3, 3, "_nt") == 0
                                  ? v.name.substr(0, v.name.size() - 3)
                                  : v.name;
      bcastgen::Isa parsed;
      EXPECT_TRUE(bcastgen::parse_isa(isa, &parsed));  // a row of the ISA table
      if (!v.peel.empty()) {
        // A peeled row (cpu_intel_xeon.yaml, interleaved.yaml): its masked head and rest depend
        // on where the row starts; generated_kernels_test checks the values.
        EXPECT_FALSE(v.stored.has_value());
        EXPECT_NE(v.stored_note.find("a peeled row's masked head and rest"), std::string::npos) << v.stored_note;
        EXPECT_NE(v.peel.find("a pointer's offset in its 64-byte line"), std::string::npos) << v.peel;
        EXPECT_EQ(v.name, "avx512");
        ++peeled;
        continue;
      }
      EXPECT_TRUE(v.stored.has_value()) << v.stored_note;
      if (v.stored) {
        EXPECT_EQ(*v.stored, *k.out_numel);
      }
      for (const auto& l : v.loops) EXPECT_TRUE(l.trips.has_value()) << l.var << " line " << l.line;
      if (v.name == "scalar") {
        EXPECT_TRUE(v.intrinsics.empty());
      }
      if (isa == "avx2") {
        EXPECT_FALSE(v.intrinsics.count("avx512"));
      }
    }
    if (peeled == 0) {
      EXPECT_EQ(k.shape_checks.back(), "every variant stores " + std::to_string(*k.out_numel) + " elements = out_numel");
    }
    peeled_variants += peeled;
  }
  return peeled_variants;
}

// One per spec: its header (its sources may be shards).
std::vector<std::string> test_spec_outputs() {
  std::vector<std::string> stems;
  for (const auto& e : fs::directory_iterator(BCASTGEN_TEST_KERNELS_DIR)) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".h" && stem.size() > 2 && stem.compare(stem.size() - 2, 2, "_c") != 0) {
      stems.push_back(stem);
    }
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// Inspects <stem>.cpp, or each of its shards (the test specs are generated
// sharded), as one report.
InspectReport inspect_output(const std::string& dir, const std::string& stem) {
  std::vector<std::string> sources;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (bcastgen::gen::is_shard_file_name(stem, e.path().filename().string())) sources.push_back(e.path().string());
  }
  if (sources.empty()) sources.push_back(dir + "/" + stem + ".cpp");
  std::sort(sources.begin(), sources.end());
  InspectReport all;
  all.parsed = true;
  for (const std::string& path : sources) {
    bcastgen::clangtool::SourceInput input;
    input.path = path;
    input.code = slurp(path);
    input.args = {"-I" + dir};
    InspectReport r = bcastgen::clangtool::inspect(input);
    all.file += (all.file.empty() ? "" : " ") + r.file;
    all.parsed = all.parsed && r.parsed;
    all.diagnostics.insert(all.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
    all.kernels.insert(all.kernels.end(), r.kernels.begin(), r.kernels.end());
  }
  return all;
}

class InspectTestSpec : public ::testing::TestWithParam<std::string> {};

TEST_P(InspectTestSpec, EveryKernelPasses) {
  const std::string dir = BCASTGEN_TEST_KERNELS_DIR, base = dir + "/" + GetParam();
  // cpu_zen4.yaml's streams have no avx512 variant (cpu_kinds.h: zen4 runs them in avx2);
  // cpu_intel_xeon.yaml's first seven kernels peel their rows in avx512,
  // and interleaved.yaml's il_peeled_rows (its wisdom entry's peel).
  EXPECT_EQ(expect_all_clean(inspect_output(dir, GetParam()), declared_kernels(slurp(base + ".h")),
                             GetParam() == "cpu_zen4" ? 2 : 3),
            GetParam() == "cpu_intel_xeon" ? 7 : GetParam() == "interleaved" ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(Generated, InspectTestSpec, ::testing::ValuesIn(test_spec_outputs()),
                         [](const auto& info) { return info.param; });

// The checked-in golden output, with its two fused kernels (bn_relu, causal_mask).
TEST(InspectGolden, EveryKernelPasses) {
  const std::string base = std::string(BCASTGEN_SOURCE_DIR) + "/tests/golden/golden";
  bcastgen::clangtool::SourceInput input;
  input.path = base + ".cpp";
  input.code = slurp(input.path);
  input.args = {"-I" + std::string(BCASTGEN_SOURCE_DIR) + "/tests/golden"};
  const InspectReport r = bcastgen::clangtool::inspect(input);
  expect_all_clean(r, declared_kernels(slurp(base + ".h")));
  std::set<std::string> names;
  for (const KernelReport& k : r.kernels) names.insert(k.name);
  EXPECT_TRUE(names.count("bn_relu") && names.count("causal_mask"));
}

// examples/demo.yaml, generated in memory, as inspect's input; its spec in `spec`.
bcastgen::clangtool::SourceInput demo_input(bcastgen::gen::Spec& spec) {
  const std::string spec_path = std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml";
  spec = bcastgen::gen::parse_spec(slurp(spec_path), spec_path);
  bcastgen::gen::GenerateOptions options;
  options.stem = "demo";
  const auto files = bcastgen::gen::generate(spec, options).files;
  bcastgen::clangtool::SourceInput input;
  input.path = "/inspect-demo/demo.cpp";
  input.code = files.at("demo.cpp");
  for (const auto& [path, content] : files) input.files["/inspect-demo/" + path] = content;  // demo.h, ...
  return input;
}

TEST(InspectDemo, BiasAddLoopsAndIntrinsicsPerIsa) {
  bcastgen::gen::Spec spec;
  const InspectReport r = bcastgen::clangtool::inspect(demo_input(spec));
  expect_all_clean(r, spec.kernels.size());
  ASSERT_FALSE(r.kernels.empty());
  const KernelReport& k = r.kernels.front();
  EXPECT_EQ(k.name, "bias_add");
  EXPECT_EQ(k.out_numel, 200704);
  ASSERT_EQ(k.variants.size(), 3u);
  // [1,64,56,56] + [1,64,1,1]: 64 rows of 3136, in 64-, 32- and 1-element steps.
  const std::vector<std::pair<std::string, std::int64_t>> steps{{"avx512", 64}, {"avx2", 32}, {"scalar", 1}};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& v = k.variants[i];
    EXPECT_EQ(v.name, steps[i].first);
    EXPECT_EQ(v.depth, 2);
    ASSERT_EQ(v.loops.size(), 2u);
    EXPECT_EQ(v.loops[0].trips, 64);
    EXPECT_EQ(v.loops[1].end, 3136);
    EXPECT_EQ(v.loops[1].step, steps[i].second);
    EXPECT_EQ(v.loops[1].trips, 3136 / steps[i].second);
    EXPECT_EQ(v.stored, 200704);
  }
  EXPECT_EQ(k.variants[0].intrinsics.at("avx512"),
            (std::vector<std::string>{"_mm512_add_ps", "_mm512_loadu_ps", "_mm512_set1_ps", "_mm512_storeu_ps"}));
  EXPECT_EQ(k.variants[1].intrinsics.at("avx2"),
            (std::vector<std::string>{"_mm256_add_ps", "_mm256_loadu_ps", "_mm256_set1_ps", "_mm256_storeu_ps"}));
}

// The same file parsed for AArch64 (clang's arm_neon.h, the cross
// libstdc++ of g++-aarch64-linux-gnu): the NEON variants, their NEON
// intrinsics and their stores counted (vst1q_*, and memcpy for bool bytes).
TEST(InspectDemo, NeonVariantsWhenParsedForAarch64) {
  if (!fs::exists("/usr/aarch64-linux-gnu/include")) {
    GTEST_SKIP() << "no AArch64 headers (g++-aarch64-linux-gnu, scripts/install-deps.sh)";
  }
  bcastgen::gen::Spec spec;
  bcastgen::clangtool::SourceInput input = demo_input(spec);
  input.args = {"--target=aarch64-linux-gnu"};
  const InspectReport r = bcastgen::clangtool::inspect(input);
  expect_all_clean(r, spec.kernels.size(), 2);
  ASSERT_FALSE(r.kernels.empty());
  const KernelReport& bias = r.kernels.front();
  ASSERT_EQ(bias.variants.size(), 2u);
  const auto& neon = bias.variants[0];
  EXPECT_EQ(neon.name, "neon");
  ASSERT_EQ(neon.loops.size(), 2u);
  EXPECT_EQ(neon.loops[1].step, 16);  // 4 lanes x unroll 4
  EXPECT_EQ(neon.loops[1].trips, 196);
  EXPECT_EQ(neon.intrinsics.at("neon"),
            (std::vector<std::string>{"vaddq_f32", "vdupq_n_f32", "vld1q_f32", "vst1q_f32"}));
  EXPECT_FALSE(neon.intrinsics.count("avx2"));
}

}  // namespace
