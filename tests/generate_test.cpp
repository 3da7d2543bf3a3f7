// gen::generate (the library entry point: strings in, strings out) and
// `bcastgen generate` (files on disk: written all or nothing, only when they
// change, with the documented exit codes); and the generated code compiles
// warning-free with GCC and Clang.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/gen/version.h"
#include "bcastgen/gen/wisdom.h"

namespace {

namespace fs = std::filesystem;
using bcastgen::gen::GeneratedFiles;
using bcastgen::gen::GenerateOptions;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// A fresh directory under /tmp, removed when the test ends.
class TempDir {
 public:
  TempDir() {
    std::string t = "/tmp/bcastgen_generate_test_XXXXXX";
    if (mkdtemp(t.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
    path_ = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

struct CmdResult {
  int code = -1;
  std::string out, err;
};

std::string show(const CmdResult& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

// Runs a shell command with stdout and stderr captured.
CmdResult run_command(const std::string& cmd, const TempDir& scratch) {
  const std::string out = scratch / ".stdout", err = scratch / ".stderr";
  const int status = std::system((cmd + " >" + quote(out) + " 2>" + quote(err) + " </dev/null").c_str());
  CmdResult r;
  r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

CmdResult bcastgen(std::initializer_list<std::string> args) {
  TempDir scratch;
  std::string cmd = quote(BCASTGEN_EXE);
  for (const auto& a : args) cmd += " " + quote(a);
  return run_command(cmd, scratch);
}

// Every file under `dir` (relative path -> content).
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> m;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    m[rel] = e.is_regular_file() ? slurp(e.path().string()) : std::string("<dir>");
  }
  return m;
}

const std::string kSourceDir = BCASTGEN_SOURCE_DIR;
const std::string kDemo = kSourceDir + "/examples/demo.yaml";

GeneratedFiles generate_demo(bool emit_runtime = false) {
  const bcastgen::gen::Spec spec = bcastgen::gen::parse_spec(slurp(kDemo), "demo.yaml");
  GenerateOptions o;
  o.stem = "demo";
  o.source_name = "demo.yaml";
  o.emit_runtime = emit_runtime;
  return bcastgen::gen::generate(spec, o);
}

const char* kBiasAddOnly = R"(namespace: only
isa: [avx512, avx2, scalar]
kernels:
  - name: bias_add
    op: add
    dtype: f32
    rule: numpy
    a: [1, 64, 56, 56]
    b: [1, 64, 1, 1]
)";

// The text of function `name` in `code`: from its signature to the closing brace at column 0.
std::string function_text(const std::string& code, const std::string& signature) {
  const auto start = code.find(signature);
  if (start == std::string::npos) return "";
  const auto end = code.find("\n}\n", start);
  return code.substr(start, end == std::string::npos ? std::string::npos : end + 3 - start);
}

// ---------------------------------------------------------------------------
// the library API

TEST(Generate, ReturnsHeaderAndSource) {
  const GeneratedFiles g = generate_demo();
  EXPECT_EQ(g.files.count("demo.h"), 1u);
  EXPECT_EQ(g.files.count("demo.cpp"), 1u);
  // Everything else it returns is named after the stem too (no runtime asked for).
  for (const auto& [name, text] : g.files) EXPECT_EQ(name.rfind("demo", 0), 0u) << name;
  ASSERT_EQ(g.plans.size(), 5u);
  EXPECT_EQ(g.plans[0].spec.name, "bias_add");
  EXPECT_EQ(g.plans[4].spec.name, "expand");
  const std::string& h = g.files.at("demo.h");
  const std::string& cpp = g.files.at("demo.cpp");
  EXPECT_TRUE(contains(h, "#pragma once"));
  EXPECT_TRUE(contains(h, "namespace demo {"));
  EXPECT_TRUE(contains(h, "void bias_add(const float* a, const float* b, float* out);")) << h;
  EXPECT_TRUE(contains(h, "void mask_gt(const float* a, const float* b, bool* out);")) << h;
  EXPECT_TRUE(contains(h, "inline constexpr std::array<std::int64_t, 4> out{ 8, 7, 6, 5 };")) << h;
  EXPECT_TRUE(contains(h, "bcastgen::KernelTable demo_kernels();")) << h;
  EXPECT_TRUE(contains(cpp, "#include \"demo.h\"")) << cpp.substr(0, 400);
  EXPECT_TRUE(contains(cpp, "bcastgen::KernelTable demo_kernels() {"));

  // Another stem names the files and the table.
  GenerateOptions o;
  o.stem = "my-model";
  const GeneratedFiles m = bcastgen::gen::generate(bcastgen::gen::parse_spec(kBiasAddOnly, "x.yaml"), o);
  ASSERT_EQ(m.files.count("my-model.h"), 1u);
  ASSERT_EQ(m.files.count("my-model.cpp"), 1u);
  EXPECT_TRUE(contains(m.files.at("my-model.cpp"), "#include \"my-model.h\""));
  EXPECT_TRUE(contains(m.files.at("my-model.h"), "bcastgen::KernelTable my_model_kernels();"));
}

TEST(Generate, Deterministic) {
  const GeneratedFiles g1 = generate_demo(true), g2 = generate_demo(true);
  EXPECT_EQ(g1.files, g2.files);
  // A spec parsed again from the same text gives the same output too.
  const auto spec = bcastgen::gen::parse_spec(kBiasAddOnly, "x.yaml");
  GenerateOptions o;
  EXPECT_EQ(bcastgen::gen::generate(spec, o).files, bcastgen::gen::generate(spec, o).files);
}

TEST(Generate, BannerNamesSourceAndVersionWithoutAbsolutePaths) {
  const GeneratedFiles g = generate_demo();
  const std::string banner = std::string("// Generated by bcastgen ") + bcastgen::gen::kVersion +
                             " from demo.yaml. DO NOT EDIT.\n// Regenerate with: bcastgen generate demo.yaml -o <dir>\n";
  int code_files = 0;
  for (const auto& [name, text] : g.files) {
    const std::string ext = name.substr(name.rfind('.'));
    if (ext == ".h" || ext == ".cpp") {  // C and C++ files open with the banner
      ++code_files;
      EXPECT_EQ(text.rfind(banner, 0), 0u) << name << ":\n" << text.substr(0, 300);
    }
    EXPECT_FALSE(contains(text, "/work")) << name;
    EXPECT_FALSE(contains(text, "/tmp")) << name;
    EXPECT_FALSE(contains(text, kSourceDir)) << name;
  }
  EXPECT_GE(code_files, 2);
  EXPECT_STRNE(bcastgen::gen::kVersion, "");
}

// A loop with a constant trip count and step: over a nest (" {") or, in a
// variant's driver, over the split loop's blocks.
const std::regex kCountedLoop(
    R"(^\s*for \(std::int64_t (\w+) = 0; \1 < \d+; (\+\+\1|\1 \+= \d+)\)( \{| \w+_block\(\1, [\w, ]+\);)$)");
// The one loop with run-time bounds by design: `<kernel>_range(begin, end)`
// runs the blocks [begin, end) of the split loop for a thread pool.
const std::regex kRangeLoop(R"(^  for \(std::int64_t i0 = begin; i0 < end; \+\+i0\) \w+_block\(i0, [\w, ]+\);$)");
// A repeating operand's pattern, built once per row.
const std::regex kPatternFill(R"(^\s*for \(int k = 0; k < \d+; \+\+k\) pattern\w+\[k\] = \w+\[k % \d+\];$)");

TEST(Generate, BiasAddHasOnlyConstantLoops) {
  GenerateOptions o;
  o.stem = "only";
  const GeneratedFiles g = bcastgen::gen::generate(bcastgen::gen::parse_spec(kBiasAddOnly, "only.yaml"), o);
  const std::string& cpp = g.files.at("only.cpp");
  int counted = 0, ranges = 0;
  for (const std::string& l : lines(cpp)) {
    if (!contains(l, "for (")) continue;
    if (std::regex_match(l, kRangeLoop)) {
      ++ranges;
    } else {
      ++counted;
      EXPECT_TRUE(std::regex_match(l, kCountedLoop)) << "loop with a run-time bound or stride: " << l;
    }
  }
  // Per variant (avx512, avx2, scalar): the row loop in the block, the driver
  // over the 64 channels, and the range driver.
  EXPECT_EQ(counted, 6) << cpp;
  EXPECT_EQ(ranges, 3) << cpp;
  for (const char* v : {"avx512", "avx2", "scalar"}) {
    EXPECT_TRUE(contains(cpp, std::string("  for (std::int64_t i0 = 0; i0 < 64; ++i0) ") + v + "_block(i0, in0, in1, out);"))
        << v;
  }
  EXPECT_TRUE(contains(cpp, "  const float* in0_1 = in0 + i0 * 3136;\n  const float* in1_1 = in1 + i0;\n"
                            "  float* out_1 = out + i0 * 3136;\n")) << cpp;
  EXPECT_TRUE(contains(cpp, "for (std::int64_t j = 0; j < 3136; j += 64) {")) << cpp;  // avx512
  EXPECT_TRUE(contains(cpp, "for (std::int64_t j = 0; j < 3136; j += 32) {")) << cpp;  // avx2
  EXPECT_TRUE(contains(cpp, "for (std::int64_t j = 0; j < 3136; ++j) {")) << cpp;      // scalar
  // No shape or stride is passed at run time: the signature is pointers only.
  EXPECT_TRUE(contains(cpp, "void bias_add(const float* a, const float* b, float* out) {")) << cpp;

  const std::string z = function_text(cpp, "inline void avx512_block(");
  ASSERT_FALSE(z.empty()) << cpp;
  // The vector forms are the wrappers of the ISA's SIMD header.
  EXPECT_TRUE(contains(z, "namespace v = bcastgen::simd::avx512;")) << z;
  EXPECT_TRUE(contains(z, "= v::load_f32(in0_1 + j);")) << z;
  EXPECT_TRUE(contains(z, "= v::add_f32(")) << z;
  EXPECT_TRUE(contains(z, "const __m512 t1 = v::splat_f32(in1_1[0]);")) << z;  // b splatted once per channel
  EXPECT_TRUE(contains(z, "store_f32(out_1 + j, ")) << z;
  EXPECT_FALSE(contains(z, "__m256")) << z;
  const std::string y = function_text(cpp, "inline void avx2_block(");
  ASSERT_FALSE(y.empty()) << cpp;
  EXPECT_TRUE(contains(y, "namespace v = bcastgen::simd::avx2;")) << y;
  EXPECT_TRUE(contains(y, "const __m256 t2_0 = v::add_f32(")) << y;
  EXPECT_FALSE(contains(y, "__m512")) << y;
  const std::string s = function_text(cpp, "inline void scalar_block(");
  ASSERT_FALSE(s.empty()) << cpp;
  EXPECT_FALSE(contains(s, "_mm")) << s;
  EXPECT_FALSE(contains(s, "simd")) << s;
  EXPECT_TRUE(contains(cpp, "target(\"avx512f,avx512bw,avx512dq,avx512vl,f16c,bmi,bmi2\")")) << cpp;
}

// A step of four AVX2 vectors calls each f32 math function once for the
// four (simd/math_pack.inl, the vocabulary's math_pack), node by node, or
// twice for two (math_pack_of: log1p), or once per vector (expm1); a kernel
// without such a function keeps its vector-by-vector order.
TEST(Generate, AvxTwoStepsCallMathOverFourVectors) {
  GenerateOptions o;
  o.stem = "pack";
  const GeneratedFiles g = bcastgen::gen::generate(bcastgen::gen::parse_spec(R"(
isa: [avx2]
kernels:
  - {name: gate, inputs: {x: [4096], z: [4096]}, expr: 'sigmoid(x) * fast_tanh(z)'}
  - {name: pairs, inputs: {x: [4096]}, expr: 'log1p(x) + expm1(x)'}
  - {name: plain, inputs: {x: [4096]}, expr: 'x * 2 + 1'}
)", "pack.yaml"),
                                                 o);
  const std::string& cpp = g.files.at("pack.cpp");
  const std::string gate = function_text(cpp, "inline void avx2_block(");
  ASSERT_FALSE(gate.empty()) << cpp;
  EXPECT_TRUE(contains(gate, "const v::x4::f32v t1_x4 = v::x4::sigmoid_f32(v::x4::f32v{{t0_0, t0_1, t0_2, t0_3}});\n"
                             "    const __m256 t1_0 = t1_x4.v[0];\n")) << gate;
  EXPECT_TRUE(contains(gate, "v::x4::fast_tanh_f32(v::x4::f32v{{t2_0, t2_1, t2_2, t2_3}})")) << gate;
  // Node by node: the products of the four vectors after both functions.
  ASSERT_NE(gate.find("multiply_f32(t1_0, t3_0)"), std::string::npos) << gate;
  EXPECT_LT(gate.find("v::x4::fast_tanh_f32"), gate.find("multiply_f32(t1_0, t3_0)")) << gate;
  const std::string pairs = cpp.substr(cpp.find("namespace pairs_impl"));
  EXPECT_TRUE(contains(pairs, "const v::x2::f32v t1_x2_0 = v::x2::log1p_f32(v::x2::f32v{{t0_0, t0_1}});\n"
                              "    const __m256 t1_0 = t1_x2_0.v[0];\n"
                              "    const __m256 t1_1 = t1_x2_0.v[1];\n"
                              "    const v::x2::f32v t1_x2_1 = v::x2::log1p_f32(v::x2::f32v{{t0_2, t0_3}});\n")) << pairs;
  EXPECT_TRUE(contains(pairs, "expm1_f32(t0_3)")) << pairs;
  EXPECT_FALSE(contains(pairs, "v::x4::") || contains(pairs, "v::x2::expm1")) << pairs;
  const std::string plain = cpp.substr(cpp.find("namespace plain_impl"));
  EXPECT_FALSE(contains(plain.substr(0, plain.find("}  // namespace plain_impl")), "x4")) << plain;
}

// A plan for a CPU kind takes the vocabulary's packs for that kind
// (math_pack_on): zen4 calls fast_log over two vectors, generic over four, and
// the variant's reasons (explain, the generated comment) say so.
TEST(Generate, ACpuKindsPlanTakesItsMathPacks) {
  auto generated = [](const std::string& cpu) {
    GenerateOptions o;
    o.stem = "e";
    return bcastgen::gen::generate(
        bcastgen::gen::parse_spec(cpu + "isa: [avx2]\nkernels:\n  - {name: e, inputs: {x: [4096]}, expr: 'fast_log(x)'}\n",
                                  "e.yaml"),
        o);
  };
  const GeneratedFiles zen4 = generated("cpu: zen4\n"), generic = generated("");
  const std::string z = function_text(zen4.files.at("e.cpp"), "inline void avx2_block(");
  EXPECT_TRUE(contains(z, "const v::x2::f32v t1_x2_0 = v::x2::fast_log_f32(v::x2::f32v{{t0_0, t0_1}});")) << z;
  EXPECT_TRUE(contains(z, "v::x2::fast_log_f32(v::x2::f32v{{t0_2, t0_3}})")) << z;
  EXPECT_FALSE(contains(z, "v::x4::")) << z;
  const std::string g = function_text(generic.files.at("e.cpp"), "inline void avx2_block(");
  EXPECT_TRUE(contains(g, "v::x4::fast_log_f32(v::x4::f32v{{t0_0, t0_1, t0_2, t0_3}})")) << g;
  const std::string why = "math functions take several of a step's vectors a call (simd/math_pack.inl): t1 = fast_log(t0) : f32 takes ";
  ASSERT_EQ(zen4.plans.size(), 1u);
  EXPECT_TRUE(contains(zen4.plans[0].isas.at(0).why, why + "2 (zen4)")) << zen4.plans[0].isas.at(0).why;
  const std::string& generic_why = generic.plans[0].isas.at(0).why;
  EXPECT_TRUE(contains(generic_why, why + "4") && !contains(generic_why, "(zen4)")) << generic_why;
}

TEST(Generate, DemoLoopsAreCountedOrPatternFills) {
  const GeneratedFiles g = generate_demo();
  const std::string& cpp = g.files.at("demo.cpp");
  int fills = 0, ranges = 0;
  for (const std::string& l : lines(cpp)) {
    if (!contains(l, "for (")) continue;
    const bool is_fill = std::regex_match(l, kPatternFill), is_range = std::regex_match(l, kRangeLoop);
    fills += is_fill;
    ranges += is_range;
    EXPECT_TRUE(is_fill || is_range || std::regex_match(l, kCountedLoop)) << l;
  }
  EXPECT_EQ(fills, 3) << cpp;  // mean_sub's repeating b, on avx512, avx2 and neon
  EXPECT_EQ(ranges, 20) << cpp;  // 5 kernels x 4 variants
  EXPECT_TRUE(contains(cpp, "for (int k = 0; k < 48; ++k) pattern1[k] = in1[k % 3];")) << cpp;
  EXPECT_TRUE(contains(cpp, "for (int k = 0; k < 24; ++k) pattern1[k] = in1[k % 3];")) << cpp;
  EXPECT_TRUE(contains(cpp, "for (int k = 0; k < 12; ++k) pattern1[k] = in1[k % 3];")) << cpp;
}

// Kernels whose variants are the same code share the first one's: the issue
// 77 example, [1, 64, 56, 56] + [1, 64, 1, 1] and [64, 3136] + [64, 1],
// coalesce to one nest. Each keeps its entry points and checks; the manifest
// and a comment say whose variants it calls. (generated_kernels_test runs the
// test specs' many sharing kernels against the reference.)
TEST(Generate, IdenticalPlansShareOneImplementation) {
  GenerateOptions o;
  o.stem = "k";
  o.source_name = "share.yaml";
  const GeneratedFiles g = bcastgen::gen::generate(bcastgen::gen::parse_spec(R"(namespace: sh
isa: [avx2, scalar]
kernels:
  - {name: nchw_bias, op: add, dtype: f32, rule: numpy, a: [1, 64, 56, 56], b: [1, 64, 1, 1]}
  - {name: flat_bias, op: add, dtype: f32, rule: numpy, a: [64, 3136], b: [64, 1]}
  - {name: flat_scale, op: multiply, dtype: f32, rule: numpy, a: [64, 3136], b: [64, 1]}
  - {name: wide_bias, op: add, dtype: f32, rule: numpy, a: [32, 6272], b: [32, 1]}
)", "share.yaml"), o);
  EXPECT_EQ(g.shares_code_with, (std::vector<std::string>{"", "nchw_bias", "", ""}));
  const std::string& code = g.files.at("k.cpp");
  auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = code.find(needle); at != std::string::npos; at = code.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("BCASTGEN_KERNEL(\"bcastgen.kernel:nchw_bias:"), 2u);  // avx2, scalar
  EXPECT_EQ(count("BCASTGEN_KERNEL(\"bcastgen.kernel:flat_bias:"), 0u);
  EXPECT_EQ(count("BCASTGEN_KERNEL(\"bcastgen.shares:flat_bias:nchw_bias\")"), 1u);
  EXPECT_TRUE(contains(code, "return nchw_bias_impl::avx2;")) << code;
  EXPECT_TRUE(contains(code, "// The variants are nchw_bias's"));
  EXPECT_TRUE(contains(code, "void flat_bias_checked("));  // its own entries and checks
  const nlohmann::json m = nlohmann::json::parse(g.files.at("k.manifest.json"));
  EXPECT_EQ(m["kernels"][1]["shares_code_with"], "nchw_bias");
  EXPECT_EQ(m["kernels"][1]["isas"][0]["function"], "sh::nchw_bias_impl::avx2");  // the function that runs
  EXPECT_FALSE(m["kernels"][0].contains("shares_code_with"));
  EXPECT_FALSE(m["kernels"][3].contains("shares_code_with"));  // another nest: its own
}

// A spec of `count` kernels: pairs of one nest under two shapes (they
// share code), and kernels of their own.
std::string shard_spec(int count) {
  std::string s = "namespace: sd\nisa: [avx2, scalar]\nkernels:\n";
  for (int i = 0; i < count; ++i) {
    const std::string k = std::to_string(i);
    s += "  - {name: k" + k + ", op: add, dtype: f32, rule: numpy, ";
    if (i % 4 == 1) {  // [1,c,8,8] + [1,c,1,1] coalesces to [c,64] + [c,1]: the previous kernel's code
      const std::string c = std::to_string(i + 1);
      s += "a: [" + c + ", 64], b: [" + c + ", 1]}\n";
    } else {
      const std::string c = std::to_string(i + 2);
      s += "a: [1, " + c + ", 8, 8], b: [1, " + c + ", 1, 1]}\n";
    }
  }
  return s;
}

GeneratedFiles generate_sharded(const std::string& spec, std::size_t shards) {
  GenerateOptions o;
  o.stem = "k";
  o.source_name = "shards.yaml";
  o.shards = shards;
  return bcastgen::gen::generate(bcastgen::gen::parse_spec(spec, "shards.yaml"), o);
}

// --shards N: each kernel's code, entries and C entries in exactly one
// shard, the one a hash of its name picks (the owner's, for kernels that
// share code); the table in k.cpp lists every kernel in spec order; the
// manifest names each kernel's file. The same spec gives the same files;
// one kernel more moves none; one shard more moves kernels only into it.
TEST(Generate, ShardsPutEachKernelInOneTranslationUnit) {
  const std::string spec = shard_spec(16);
  const GeneratedFiles g = generate_sharded(spec, 3);
  ASSERT_EQ(g.shards, 3u);
  ASSERT_EQ(g.shard_of.size(), 16u);
  std::set<std::string> names;
  for (const auto& [name, text] : g.files) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"k.cpp", "k.h", "k.manifest.json", "k_c.h", "k_shard0.cpp", "k_shard1.cpp",
                                          "k_shard2.cpp"}));
  const std::string& table = g.files.at("k.cpp");
  const nlohmann::json m = nlohmann::json::parse(g.files.at("k.manifest.json"));
  EXPECT_EQ(m["files"]["shards"], nlohmann::json({"k_shard0.cpp", "k_shard1.cpp", "k_shard2.cpp"}));
  std::size_t last_row = 0;
  std::set<std::size_t> used;
  for (std::size_t i = 0; i < 16; ++i) {
    const std::string name = "k" + std::to_string(i);
    SCOPED_TRACE(name);
    const std::string mine = bcastgen::gen::shard_file_name("k", g.shard_of[i]);
    used.insert(g.shard_of[i]);
    for (std::size_t s = 0; s < 3; ++s) {
      const std::string& code = g.files.at(bcastgen::gen::shard_file_name("k", s));
      const bool here = s == g.shard_of[i];
      EXPECT_EQ(contains(code, "void " + name + "_checked("), here);
      EXPECT_EQ(contains(code, "bcastgen_status sd_" + name + "("), here);
      // Its type-erased entries, with external linkage for the table.
      EXPECT_EQ(contains(code, "\nvoid " + name + "_erased("), here);
      EXPECT_EQ(contains(code, "\nconst bcastgen::KernelInput " + name + "_inputs[] = {"), here);
    }
    EXPECT_FALSE(contains(table, "void " + name + "_checked("));
    EXPECT_TRUE(contains(table, "extern const bcastgen::KernelNode " + name + "_nodes[];\n"));
    const std::size_t row = table.find("      {\"" + name + "\", \"add(a, b)\",");
    ASSERT_NE(row, std::string::npos);
    EXPECT_GT(row, last_row);  // spec order
    last_row = row;
    EXPECT_EQ(m["kernels"][i]["file"], mine);
    if (!g.shares_code_with[i].empty()) {
      const std::size_t owner = static_cast<std::size_t>(std::stoi(g.shares_code_with[i].substr(1)));
      EXPECT_EQ(g.shard_of[i], g.shard_of[owner]);  // its variants are in its own translation unit
    }
  }
  EXPECT_EQ(std::count(g.shares_code_with.begin(), g.shares_code_with.end(), ""), 12);
  EXPECT_EQ(used.size(), 3u);  // 12 owners over 3 shards: none empty (this spec; empty shards are allowed)

  EXPECT_EQ(generate_sharded(spec, 3).files, g.files);
  const GeneratedFiles more = generate_sharded(shard_spec(17), 3);
  EXPECT_EQ(std::vector<std::size_t>(more.shard_of.begin(), more.shard_of.begin() + 16), g.shard_of);
  const GeneratedFiles four = generate_sharded(spec, 4);
  int moved = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    if (four.shard_of[i] == g.shard_of[i]) continue;
    EXPECT_EQ(four.shard_of[i], 3u) << i;
    ++moved;
  }
  EXPECT_LT(moved, 16);
  // One shard is the one file of before, byte for byte.
  GenerateOptions o;
  o.stem = "k";
  o.source_name = "shards.yaml";
  EXPECT_EQ(generate_sharded(spec, 1).files, bcastgen::gen::generate(bcastgen::gen::parse_spec(spec, "shards.yaml"), o).files);
}

// kAutoShards: one file for a small spec; for a large one, as many shards
// as keep about kShardSourceBytes of kernel code each on average.
TEST(Generate, AutoShardsBoundTheShardSize) {
  EXPECT_EQ(generate_sharded(shard_spec(8), bcastgen::gen::kAutoShards).shards, 1u);
  const GeneratedFiles g = generate_sharded(shard_spec(160), bcastgen::gen::kAutoShards);
  ASSERT_GE(g.shards, 2u);
  std::size_t bytes = 0;
  for (const auto& [name, text] : g.files) {
    if (bcastgen::gen::is_shard_file_name("k", name)) bytes += text.size();
  }
  EXPECT_EQ(g.files.count(bcastgen::gen::shard_file_name("k", g.shards - 1)), 1u);
  // The count is decided from an estimate of the code, before it is emitted.
  EXPECT_LE(bytes / g.shards, bcastgen::gen::kShardSourceBytes * 5 / 4);
  EXPECT_GE(bytes / g.shards, bcastgen::gen::kShardSourceBytes / 2);
  EXPECT_THROW(generate_sharded(shard_spec(2), bcastgen::gen::kMaxShards + 1), bcastgen::InvalidArgument);
}

TEST(Generate, ShardFileNames) {
  EXPECT_EQ(bcastgen::gen::shard_file_name("model", 12), "model_shard12.cpp");
  EXPECT_TRUE(bcastgen::gen::is_shard_file_name("model", "model_shard0.cpp"));
  EXPECT_TRUE(bcastgen::gen::is_shard_file_name("model", "model_shard12.cpp"));
  for (const char* other : {"model.cpp", "model_shard.cpp", "model_shard01.cpp", "model_shard1.h", "model_shard1x.cpp",
                            "other_shard1.cpp", "model_shard-1.cpp"}) {
    EXPECT_FALSE(bcastgen::gen::is_shard_file_name("model", other)) << other;
  }
}

TEST(Generate, EmitRuntimeAddsRuntimeHeaders) {
  const GeneratedFiles plain = generate_demo(false), with = generate_demo(true);
  EXPECT_GT(with.files.size(), plain.files.size() + 4);
  for (const char* h : {"bcastgen/cpu.h", "bcastgen/registry.h", "bcastgen/view.h", "bcastgen/ops.h",
                        "bcastgen/types.h", "bcastgen/errors.h"}) {
    ASSERT_EQ(with.files.count(h), 1u) << h;
    EXPECT_EQ(with.files.at(h), slurp(kSourceDir + "/runtime/include/" + h)) << h;
  }
  for (const auto& [name, text] : with.files) {
    if (plain.files.count(name)) {
      EXPECT_EQ(text, plain.files.at(name)) << name;
      continue;
    }
    EXPECT_EQ(name.rfind("bcastgen/", 0), 0u) << name;
    const std::string ext = name.substr(name.find_last_of('.'));
    EXPECT_TRUE(ext == ".h" || ext == ".inl") << name;  // .inl: simd/math_f32.inl, included per ISA
  }
}

// ---------------------------------------------------------------------------
// the command line

struct FileId {
  ino_t ino = 0;
  long long sec = 0, nsec = 0;
  bool operator==(const FileId& o) const { return ino == o.ino && sec == o.sec && nsec == o.nsec; }
};

FileId file_id(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return {st.st_ino, static_cast<long long>(st.st_mtim.tv_sec), static_cast<long long>(st.st_mtim.tv_nsec)};
}

TEST(GenerateCli, WritesHeaderAndSource) {
  TempDir dir;
  const std::string out = dir / "gen";
  const CmdResult r = bcastgen({"generate", kDemo, "-o", out});
  ASSERT_EQ(r.code, 0) << show(r);
  const GeneratedFiles g = generate_demo();
  const std::string n = std::to_string(g.files.size());
  EXPECT_TRUE(contains(r.err, "5 kernel(s), " + n + " of " + n + " file(s) written")) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  // Byte for byte what the library returns: demo.h, demo.cpp and the rest.
  const auto files = snapshot(out);
  EXPECT_EQ(files.count("demo.h"), 1u);
  EXPECT_EQ(files.count("demo.cpp"), 1u);
  EXPECT_EQ(files, g.files);
}

TEST(GenerateCli, UnchangedFilesAreNotRewritten) {
  TempDir dir;
  const std::string out = dir / "gen";
  ASSERT_EQ(bcastgen({"generate", kDemo, "-o", out}).code, 0);
  const std::string n = std::to_string(generate_demo().files.size());
  const FileId h1 = file_id(out + "/demo.h"), c1 = file_id(out + "/demo.cpp");
  usleep(50 * 1000);  // a rewrite would get a new inode (rename) and a later mtime
  const CmdResult r = bcastgen({"generate", kDemo, "-o", out});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.err, "0 of " + n + " file(s) written")) << show(r);
  EXPECT_TRUE(file_id(out + "/demo.h") == h1);
  EXPECT_TRUE(file_id(out + "/demo.cpp") == c1);

  // A changed file is rewritten, the others are left alone.
  spit(out + "/demo.cpp", "// edited\n");
  const FileId edited = file_id(out + "/demo.cpp");
  usleep(50 * 1000);
  const CmdResult again = bcastgen({"generate", kDemo, "-o", out});
  ASSERT_EQ(again.code, 0) << show(again);
  EXPECT_TRUE(contains(again.err, "1 of " + n + " file(s) written")) << show(again);
  EXPECT_TRUE(file_id(out + "/demo.h") == h1);
  EXPECT_FALSE(file_id(out + "/demo.cpp") == edited);
  EXPECT_EQ(slurp(out + "/demo.cpp"), generate_demo().files.at("demo.cpp"));
}

// --shards and --list-outputs: fewer shards than before remove the stale
// ones; one shard is the unsharded output again; --list-outputs writes
// nothing; a bad count exits 2.
TEST(GenerateCli, ShardsReplaceStaleShards) {
  TempDir dir;
  const std::string out = dir / "gen";
  const CmdResult four = bcastgen({"generate", kDemo, "-o", out, "--shards", "4"});
  ASSERT_EQ(four.code, 0) << show(four);
  EXPECT_TRUE(contains(four.err, "(4 shards)")) << show(four);
  for (const char* f : {"demo_shard0.cpp", "demo_shard3.cpp"}) EXPECT_TRUE(fs::exists(out + "/" + f)) << f;
  const CmdResult two = bcastgen({"generate", kDemo, "-o", out, "--shards", "2"});
  ASSERT_EQ(two.code, 0) << show(two);
  EXPECT_TRUE(contains(two.err, "; 2 stale shard(s) removed")) << show(two);
  EXPECT_FALSE(fs::exists(out + "/demo_shard2.cpp"));
  EXPECT_FALSE(fs::exists(out + "/demo_shard3.cpp"));
  const CmdResult one = bcastgen({"generate", kDemo, "-o", out});  // auto: the demo is one file
  ASSERT_EQ(one.code, 0) << show(one);
  EXPECT_EQ(snapshot(out), generate_demo().files);

  const std::string listed = dir / "listed";
  const CmdResult list = bcastgen({"generate", kDemo, "--list-outputs", "--shards", "2"});
  ASSERT_EQ(list.code, 0) << show(list);
  EXPECT_EQ(list.out, "demo.cpp\ndemo.h\ndemo.manifest.json\ndemo_c.h\ndemo_shard0.cpp\ndemo_shard1.cpp\n");
  for (const char* bad : {"0", "x", "4097", "-1"}) {
    const CmdResult r = bcastgen({"generate", kDemo, "-o", listed, "--shards", bad});
    EXPECT_EQ(r.code, 2) << bad << ": " << show(r);
    EXPECT_TRUE(contains(r.err, "--shards: '" + std::string(bad) + "' is not auto or a count from 1 to 4096")) << show(r);
  }
  const CmdResult no_dir = bcastgen({"generate", kDemo});
  EXPECT_EQ(no_dir.code, 2) << show(no_dir);
  EXPECT_FALSE(fs::exists(listed));
}

// The output directory, populated before a failing run, stays as it was.
void expect_failure_leaves_output(const std::string& spec_text, int expected_code, const std::string& expected_err) {
  TempDir dir;
  const std::string spec = dir / "bad.yaml", out = dir / "out";
  spit(spec, spec_text);
  fs::create_directories(out + "/bcastgen");
  spit(out + "/bad.h", "// an older bad.h\n");
  spit(out + "/bad.cpp", "// an older bad.cpp\n");
  spit(out + "/bcastgen/cpu.h", "// not the runtime\n");
  const auto before = snapshot(out);
  const CmdResult r = bcastgen({"generate", spec, "-o", out, "--emit-runtime"});
  EXPECT_EQ(r.code, expected_code) << show(r);
  EXPECT_TRUE(contains(r.err, expected_err)) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_EQ(snapshot(out), before);
}

// The kernel table's name depends on the output (its stem): a kernel that
// bears it is refused when the files are named, nothing written.
TEST(GenerateCli, AKernelNamedLikeTheTableExitsTwoAndWritesNothing) {
  expect_failure_leaves_output(
      "kernels:\n  - name: bad_kernels\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n", 2,
      "bad.yaml:2:5: kernel 'bad_kernels': kernel name 'bad_kernels' is the kernel table function of the output "
      "bad.h: rename the kernel or the output\n");
}

TEST(GenerateCli, RuleFailureExitsOneAndWritesNothing) {
  expect_failure_leaves_output(
      "kernels:\n  - name: bias_add\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [1, 64, 56, 56]\n"
      "    b: [1, 63, 1, 1]\n",
      1,
      "bad.yaml:7:8: kernel 'bias_add': numpy: a [1,64,56,56] and b [1,63,1,1] do not broadcast: axis 1 has 64 vs "
      "63\n");
}

// --cpu overrides the spec's cpu: the banner names the kind and how to
// regenerate; an unknown kind exits 2 and writes nothing; a spec's unknown
// cpu: is reported at its place.
TEST(GenerateCli, CpuKindFromTheCommandLine) {
  TempDir dir;
  const std::string out = dir / "gen";
  const CmdResult r = bcastgen({"generate", kDemo, "-o", out, "--cpu", "zen4"});
  ASSERT_EQ(r.code, 0) << show(r);
  const std::string cpp = slurp(out + "/demo.cpp");
  EXPECT_TRUE(contains(cpp, "// Regenerate with: bcastgen generate demo.yaml -o <dir> --cpu zen4\n")) << cpp.substr(0, 400);
  EXPECT_TRUE(contains(slurp(out + "/demo.manifest.json"), "\"cpu\": \"zen4\""));
  EXPECT_NE(cpp, generate_demo().files.at("demo.cpp"));

  TempDir bad;
  const std::string none = bad / "out";
  const CmdResult u = bcastgen({"generate", kDemo, "-o", none, "--cpu", "zen9"});
  EXPECT_EQ(u.code, 2) << show(u);
  EXPECT_TRUE(contains(u.err, "--cpu: unknown CPU kind 'zen9' (valid: generic, intel-xeon, zen3, zen4, zen5, native)"))
      << show(u);
  EXPECT_FALSE(fs::exists(none));
  expect_failure_leaves_output("cpu: [zen4]\nkernels: [{name: k, inputs: {a: [2]}, expr: a}]\n", 2,
                               "bad.yaml:1:6: unknown cpu a list (valid: generic, intel-xeon, zen3, zen4, zen5)");
}

// ---------------------------------------------------------------------------
// Wisdom files (bcastgen tune, generate --wisdom)

// Two streams with main loops, planned for zen4 (grouped, unroll 4, in the avx2 variant).
const char* const kTunedSpec =
    "cpu: zen4\n"
    "kernels:\n"
    "  - {name: row_add, inputs: {a: [8, 768], b: [768]}, expr: a + b}\n"
    "  - {name: scale, inputs: {x: [4, 1000], s: [4, 1]}, expr: x * s}\n";

// A wisdom file for kTunedSpec as `spec_text` plans it: row_add grouped at
// unroll 2, scale not tuned.
std::string wisdom_for(const std::string& spec_text) {
  namespace gen = bcastgen::gen;
  const GeneratedFiles plain = gen::generate(gen::parse_spec(spec_text, "tuned.yaml"), GenerateOptions{});
  gen::Wisdom w;
  w.cpu = bcastgen::CpuKind::Zen4;
  w.machine = "AuthenticAMD family 25 model 17";
  w.spec = "tuned.yaml";
  gen::WisdomEntry e;
  e.fingerprint = gen::kernel_fingerprint(plain.plans.at(0));
  e.tuning.interleave = false;
  e.tuning.unroll = 2;
  e.tuning.measured = "grouped x2 1000 ns";
  w.kernels["row_add"] = e;
  return gen::wisdom_text(w);
}

// The vector ISA plans of kernel `name` in a manifest: (interleave, unroll) each.
std::vector<std::pair<bool, int>> vector_plans(const std::string& manifest, const std::string& name) {
  std::vector<std::pair<bool, int>> v;
  const nlohmann::json j = nlohmann::json::parse(manifest);
  for (const auto& k : j.at("kernels")) {
    if (k["name"] != name) continue;
    for (const auto& ip : k["isas"]) {
      if (ip["vector"] && ip["main_trips"].get<int>() > 0) v.emplace_back(ip["interleave"], ip["unroll"]);
    }
  }
  return v;
}

// generate --wisdom plans the kernels it has an entry for as measured, the
// others as the kind says; the banner and the plan lines say so; the same
// spec and file give the same bytes.
TEST(GenerateCli, WisdomPlansEachKernelAsMeasured) {
  TempDir dir;
  spit(dir / "tuned.yaml", kTunedSpec);
  spit(dir / "w.json", wisdom_for(kTunedSpec));
  const CmdResult r = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "out", "--wisdom", dir / "w.json"});
  ASSERT_EQ(r.code, 0) << show(r);
  const std::string manifest = slurp(dir / "out/tuned.manifest.json");
  const auto row_add = vector_plans(manifest, "row_add"), scale = vector_plans(manifest, "scale");
  ASSERT_FALSE(row_add.empty());
  ASSERT_FALSE(scale.empty());
  for (const auto& [interleave, unroll] : row_add) {
    EXPECT_FALSE(interleave);
    EXPECT_EQ(unroll, 2);
  }
  for (const auto& [interleave, unroll] : scale) {
    EXPECT_FALSE(interleave);
    EXPECT_EQ(unroll, 4);
  }
  const std::string cpp = slurp(dir / "out/tuned.cpp");
  EXPECT_TRUE(contains(cpp, "// Regenerate with: bcastgen generate tuned.yaml -o <dir> --cpu zen4 --wisdom w.json\n"))
      << cpp.substr(0, 600);
  EXPECT_TRUE(contains(cpp, "order and unroll from wisdom w.json (grouped x2 1000 ns)")) << cpp.substr(0, 4000);
  const CmdResult again = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "again", "--wisdom", dir / "w.json"});
  ASSERT_EQ(again.code, 0) << show(again);
  EXPECT_EQ(snapshot(dir / "again"), snapshot(dir / "out"));
  const CmdResult plain = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "plain"});
  ASSERT_EQ(plain.code, 0) << show(plain);
  EXPECT_NE(slurp(dir / "plain/tuned.cpp"), cpp);
}

// An entry's "isa": the variants of the ISAs that include it are left out,
// so that the dispatcher runs the tuned one on those CPUs; a tuned kernel's
// variants are as measured, where the kind's row would leave some out
// (scale, untuned: zen4 runs a stream's avx2 variant on AVX-512 CPUs).
TEST(GenerateCli, WisdomIsaLeavesOutTheWiderVariants) {
  for (const std::string isa : {"avx2", "avx512"}) {
    SCOPED_TRACE(isa);
    TempDir dir;
    spit(dir / "tuned.yaml", kTunedSpec);
    std::string w = wisdom_for(kTunedSpec);
    w.replace(w.find("\"interleave\""), 0, "\"isa\": \"" + isa + "\", ");
    spit(dir / "w.json", w);
    const CmdResult r = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "out", "--wisdom", dir / "w.json"});
    ASSERT_EQ(r.code, 0) << show(r);
    const std::string cpp = slurp(dir / "out/tuned.cpp");
    EXPECT_EQ(contains(cpp, "\"bcastgen.kernel:row_add:avx512\""), isa == "avx512") << cpp.substr(0, 4000);
    EXPECT_TRUE(contains(cpp, "\"bcastgen.kernel:row_add:avx2\"")) << cpp.substr(0, 4000);
    EXPECT_FALSE(contains(cpp, "\"bcastgen.kernel:scale:avx512\"")) << cpp.substr(0, 4000);
    EXPECT_EQ(contains(cpp, "order, unroll and variant from wisdom w.json (grouped x2 1000 ns); runs on avx512 CPUs too"),
              isa == "avx2")
        << cpp.substr(0, 4000);
    // The manifest lists the ISAs whose CPUs run the avx2 variant: row_add's
    // as the file says, scale's as zen4 runs a stream.
    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "out/tuned.manifest.json"));
    for (const auto& k : j.at("kernels")) {
      for (const auto& ip : k.at("isas")) {
        const bool runs_for_avx512 = ip["isa"] == "avx2" && (k["name"] == "scale" || isa == "avx2");
        EXPECT_EQ(ip.contains("runs_for"), runs_for_avx512) << k["name"] << " " << ip.dump();
        if (runs_for_avx512) {
          EXPECT_EQ(ip["runs_for"], nlohmann::json::array({"avx512"})) << ip.dump();
        }
      }
    }
  }
}

// An entry's "peel": scale's rows of 1000 floats start at 2 offsets in the
// 64-byte lines, so its avx512 variant peels them as the file says, on a kind
// (zen4) whose row does not; row_add's rows are on the lines and never peel.
TEST(GenerateCli, WisdomPeelPeelsRowsAsMeasured) {
  namespace gen = bcastgen::gen;
  for (const bool peel : {true, false}) {
    SCOPED_TRACE(peel ? "peeled" : "unpeeled");
    TempDir dir;
    spit(dir / "tuned.yaml", kTunedSpec);
    gen::Wisdom w = gen::parse_wisdom(wisdom_for(kTunedSpec), "w.json");
    const GeneratedFiles plain = gen::generate(gen::parse_spec(kTunedSpec, "tuned.yaml"), GenerateOptions{});
    gen::WisdomEntry e;
    e.fingerprint = gen::kernel_fingerprint(plain.plans.at(1));
    e.tuning.measured = "grouped x4 peeled avx512 900 ns";
    e.tuning.peel = peel;
    w.kernels["scale"] = e;
    w.kernels["row_add"].tuning.peel = true;
    const std::string text = gen::wisdom_text(w);
    EXPECT_TRUE(contains(text, peel ? "\"peel\": true" : "\"peel\": false")) << text;
    EXPECT_EQ(gen::parse_wisdom(text, "w.json").kernels.at("scale").tuning.peel, std::optional<bool>(peel));
    spit(dir / "w.json", text);
    const CmdResult r = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "out", "--wisdom", dir / "w.json"});
    ASSERT_EQ(r.code, 0) << show(r);
    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "out/tuned.manifest.json"));
    int peeled = 0;
    for (const auto& k : j.at("kernels")) {
      for (const auto& ip : k.at("isas")) {
        const bool expected =
            peel && k["name"] == "scale" && ip["isa"].get<std::string>().rfind("avx512", 0) == 0;
        EXPECT_EQ(ip["peel"], expected) << k["name"] << " " << ip.dump();
        peeled += expected;
      }
    }
    EXPECT_EQ(peeled > 0, peel);
    EXPECT_TRUE(contains(slurp(dir / "out/tuned.cpp"),
                         "order, unroll and peel from wisdom w.json (grouped x4 peeled avx512 900 ns)"));
  }
}

// A bad, foreign or stale wisdom file: exit 2, a message naming the file
// and the place, and the output directory as it was.
TEST(GenerateCli, BadOrForeignWisdomExitsTwoAndWritesNothing) {
  const std::string good = wisdom_for(kTunedSpec);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const std::size_t p = s.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    return p == std::string::npos ? s : s.replace(p, from.size(), to);
  };
  struct Case {
    std::string wisdom, spec, args, message;
  };
  const std::string other_shapes = std::regex_replace(kTunedSpec, std::regex("\\[8, 768\\]"), "[9, 768]");
  const std::vector<Case> cases = {
      {"{\"format\": ", kTunedSpec, "",
       "w.json: not JSON (a wisdom file is what `bcastgen tune` writes): parse error at line 1, column 12"},
      {"[1, 2]", kTunedSpec, "", "w.json: not a JSON object"},
      {replaced("bcastgen wisdom 1", "bcastgen wisdom 9"), kTunedSpec, "",
       "w.json: format: \"bcastgen wisdom 9\" is not \"bcastgen wisdom 1\""},
      {replaced("\"zen4\"", "\"zen9\""), kTunedSpec, "", "w.json: cpu: unknown CPU kind 'zen9'"},
      {replaced("\"unroll\": 2", "\"unroll\": 3"), kTunedSpec, "", "w.json: kernels.row_add.unroll: 3 is not 1, 2 or 4"},
      {replaced("\"unroll\": 2", "\"unroll\": 2.5"), kTunedSpec, "",
       "w.json: kernels.row_add.unroll: 2.5 is not an integer"},
      {replaced("\"interleave\": false", "\"interleave\": 0"), kTunedSpec, "",
       "w.json: kernels.row_add.interleave: is number, not boolean"},
      {replaced("\"row_add\"", "\"row_sub\""), kTunedSpec, "",
       "w.json: kernels.row_sub: the spec has no such kernel (a wisdom file belongs to the spec it was tuned for)"},
      {good, other_shapes, "", "w.json: kernels.row_add: the kernel has changed since it was tuned"},
      {good, kTunedSpec, "generic", "w.json: cpu: tuned for CPU kind zen4, but the spec plans for generic: give --cpu zen4"},
      {replaced("\"interleave\"", "\"peel\": 1, \"interleave\""), kTunedSpec, "",
       "w.json: kernels.row_add.peel: is number, not boolean"},
      {replaced("\"interleave\"", "\"isa\": \"avx1024\", \"interleave\""), kTunedSpec, "",
       "w.json: kernels.row_add.isa: unknown ISA 'avx1024'"},
      {replaced("\"interleave\"", "\"isa\": \"avx2\", \"interleave\""), "isa: [avx512, scalar]\n" + std::string(kTunedSpec),
       "", "w.json: kernels.row_add.isa: avx2 is not one of the ISAs the spec generates (avx512, scalar)"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    spit(dir / "tuned.yaml", c.spec);
    spit(dir / "w.json", c.wisdom);
    const std::string out = dir / "out";
    fs::create_directories(out);
    spit(out + "/tuned.cpp", "// an older tuned.cpp\n");
    const auto before = snapshot(out);
    const CmdResult r = c.args.empty()
                            ? bcastgen({"generate", dir / "tuned.yaml", "-o", out, "--wisdom", dir / "w.json"})
                            : bcastgen({"generate", dir / "tuned.yaml", "-o", out, "--wisdom", dir / "w.json", "--cpu",
                                        c.args});
    EXPECT_EQ(r.code, 2) << c.message << "\n" << show(r);
    EXPECT_TRUE(contains(r.err, c.message)) << show(r);
    EXPECT_EQ(snapshot(out), before) << c.message;
  }
}

// tune times the candidates with the system compiler and writes a file that
// generate takes; a bad spec writes no file.
TEST(TuneCli, WritesWisdomThatGenerateReads) {
  TempDir dir;
  spit(dir / "tuned.yaml", kTunedSpec);
  const CmdResult r = bcastgen({"tune", dir / "tuned.yaml", "-o", dir / "w.json", "--cpu", "zen4"});
  ASSERT_EQ(r.code, 0) << show(r);
  namespace gen = bcastgen::gen;
  const gen::Wisdom w = gen::parse_wisdom(slurp(dir / "w.json"), "w.json");
  EXPECT_EQ(w.cpu, bcastgen::CpuKind::Zen4);
  EXPECT_EQ(w.spec, "tuned.yaml");
  const GeneratedFiles plain = gen::generate(gen::parse_spec(kTunedSpec, "tuned.yaml"), GenerateOptions{});
  ASSERT_EQ(w.kernels.size(), 2u);
  for (const auto& p : plain.plans) {
    ASSERT_TRUE(w.kernels.count(p.spec.name)) << p.spec.name;
    EXPECT_EQ(w.kernels.at(p.spec.name).fingerprint, gen::kernel_fingerprint(p));
    // Every candidate was timed: their four figures are in the entry, in
    // the dispatched variant and, on an AVX-512 CPU, in the avx2 one.
    const std::string& measured = w.kernels.at(p.spec.name).tuning.measured;
    EXPECT_TRUE(std::regex_search(measured, std::regex("grouped x4 [a-z0-9]+ [0-9]+ ns, interleaved x4 [a-z0-9]+ [0-9]+ "
                                                       "ns, grouped x2 [a-z0-9]+ [0-9]+ ns, interleaved x2 [a-z0-9]+ "
                                                       "[0-9]+ ns")))
        << measured;
    // ... and the kind's plan (grouped x4 on zen4) a second time, its A/A twin.
    EXPECT_TRUE(std::regex_search(measured, std::regex("; grouped x4 [a-z0-9]+ again \\(the kind's plan, timed "
                                                       "twice\\) [0-9]+ ns$")))
        << measured;
    if (bcastgen::cpu_supports(bcastgen::Isa::Avx512)) {
      EXPECT_TRUE(contains(measured, "interleaved x2 avx512 ")) << measured;
      EXPECT_TRUE(contains(measured, "interleaved x2 avx2 ")) << measured;
    }
    // A variant is named in the entry only when it won, and it is a narrower one than the dispatched.
    const auto& isa = w.kernels.at(p.spec.name).tuning.isa;
    if (isa) {
      EXPECT_TRUE(std::regex_search(measured, std::regex(std::string("^[a-z]+ x[124] ") + bcastgen::isa_name(*isa) +
                                                         " on ")))
          << measured;
      EXPECT_NE(*isa, bcastgen::active_isa());
    }
    EXPECT_TRUE(contains(r.out, p.spec.name)) << show(r);
    // Peeled candidates are timed where the plan peels: scale's rows start
    // off the lines, in the avx512 variant (the ISA with a run-time mask);
    // the entry then says which won. row_add's rows are on the lines.
    const bool peeled_timed = p.spec.name == "scale" && bcastgen::cpu_supports(bcastgen::Isa::Avx512);
    EXPECT_EQ(contains(measured, "peeled avx512 "), peeled_timed) << measured;
    EXPECT_FALSE(contains(measured, "peeled avx2 ")) << measured;
    EXPECT_EQ(w.kernels.at(p.spec.name).tuning.peel.has_value(), peeled_timed);
  }
  const CmdResult g = bcastgen({"generate", dir / "tuned.yaml", "-o", dir / "out", "--wisdom", dir / "w.json"});
  EXPECT_EQ(g.code, 0) << show(g);

  spit(dir / "bad.yaml", "kernels: [{name: k, inputs: {a: [2]}, expr: a +}]\n");
  const CmdResult b = bcastgen({"tune", dir / "bad.yaml", "-o", dir / "bad.json"});
  EXPECT_EQ(b.code, 2) << show(b);
  EXPECT_FALSE(fs::exists(dir / "bad.json"));
}

TEST(GenerateCli, BadInputExitsTwoAndWritesNothing) {
  expect_failure_leaves_output(
      "kernels:\n  - name: ok\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n"
      "  - name: k\n    op: plus\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n",
      2, "bad.yaml:9:9: kernel 'k': unknown op 'plus'");
  // A rule failure and a bad input together: bad input wins.
  expect_failure_leaves_output(
      "kernels:\n  - name: k\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [3]\n    b: [4]\n"
      "  - name: class\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n",
      2, "do not broadcast");
  expect_failure_leaves_output("kernels: [\n", 2, "malformed YAML");
  expect_failure_leaves_output("? [x]\n: 1\n", 2, "bad.yaml:1:3: a field name must be a string, got a list");
}

TEST(GenerateCli, UnreadableSpecExitsThree) {
  TempDir dir;
  const CmdResult r = bcastgen({"generate", dir / "missing.yaml", "-o", dir / "out"});
  EXPECT_EQ(r.code, 3) << show(r);
  EXPECT_TRUE(contains(r.err, "missing.yaml")) << show(r);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// (Was read as an empty file, "empty spec", exit 2, until 71d74be.)
TEST(GenerateCli, SpecThatIsADirectoryExitsThree) {
  TempDir dir;
  fs::create_directories(dir / "spec.yaml");
  const CmdResult r = bcastgen({"generate", dir / "spec.yaml", "-o", dir / "out"});
  EXPECT_EQ(r.code, 3) << show(r);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(GenerateCli, OutputPathThatIsAFileExitsThree) {
  TempDir dir;
  const std::string out = dir / "out";
  spit(out, "a regular file\n");
  const auto before = snapshot(dir.path());
  const CmdResult r = bcastgen({"generate", kDemo, "-o", out});
  EXPECT_EQ(r.code, 3) << show(r);
  EXPECT_TRUE(contains(r.err, "cannot create directory")) << show(r);
  EXPECT_EQ(snapshot(dir.path()), before);
  EXPECT_EQ(slurp(out), "a regular file\n");

  // A file in the way deeper down: the runtime headers' directory.
  const std::string out2 = dir / "out2";
  fs::create_directories(out2);
  spit(out2 + "/bcastgen", "in the way\n");
  const auto before2 = snapshot(out2);
  const CmdResult r2 = bcastgen({"generate", kDemo, "-o", out2, "--emit-runtime"});
  EXPECT_EQ(r2.code, 3) << show(r2);
  EXPECT_EQ(snapshot(out2), before2);  // demo.h and demo.cpp were not renamed into place either
}

// A target that cannot be replaced (demo.h is a non-empty directory): before
// 71d74be the files renamed ahead of it (bcastgen/*.h, demo.cpp) stayed written.
TEST(GenerateCli, TargetThatIsADirectoryLeavesOutputUnchanged) {
  TempDir dir;
  const std::string out = dir / "out";
  fs::create_directories(out + "/demo.h/keep");
  const auto before = snapshot(out);
  const CmdResult r = bcastgen({"generate", kDemo, "-o", out, "--emit-runtime"});
  EXPECT_EQ(r.code, 3) << show(r);
  EXPECT_EQ(snapshot(out), before);
}

// ---------------------------------------------------------------------------
// the output compiles warning-free

class GeneratedCodeCompiles : public ::testing::TestWithParam<std::string> {};

TEST_P(GeneratedCodeCompiles, WithoutWarnings) {
  const std::string compiler = GetParam();
  TempDir dir;
  const CmdResult which = run_command("command -v " + compiler, dir);
  if (which.code != 0) GTEST_SKIP() << compiler << " is not installed";
  const std::string out = dir / "gen";
  const CmdResult g = bcastgen({"generate", kDemo, "-o", out, "--emit-runtime"});
  ASSERT_EQ(g.code, 0) << show(g);
  ASSERT_TRUE(fs::exists(out + "/bcastgen/registry.h"));
  for (const char* opt : {"-O0", "-O2"}) {
    const std::string cmd = compiler + " -std=c++17 -Wall -Wextra -Werror " + opt + " -I " + quote(out) + " -c " +
                            quote(out + "/demo.cpp") + " -o " + quote(dir / "demo.o");
    const CmdResult c = run_command(cmd, dir);
    EXPECT_EQ(c.code, 0) << cmd << "\n" << show(c);
    EXPECT_EQ(c.err, "") << cmd;
    EXPECT_TRUE(fs::exists(dir / "demo.o"));
    fs::remove(dir / "demo.o");
  }
}

INSTANTIATE_TEST_SUITE_P(Compilers, GeneratedCodeCompiles, ::testing::Values("g++", "clang++-14"),
                         [](const auto& info) { return info.param == "g++" ? std::string("gcc") : std::string("clang14"); });

}  // namespace
