// `bcastgen generate --isa ... --namespace ...`: the overrides of the spec's
// `isa:` and `namespace:` that bcastgen_generate(ISA/NAMESPACE) passes on.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct GenRun {
  int code = -1;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

class GenerateOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "bcastgen_generate_options_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    std::ofstream(dir_ / "k.yaml") << "namespace: from_spec\n"
                                      "isa: [avx512, avx2, scalar]\n"
                                      "kernels:\n"
                                      "  - {name: bias, op: add, dtype: f32, rule: numpy, a: [4, 8], b: [8]}\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `bcastgen generate k.yaml -o out <args>`.
  GenRun generate(const std::vector<std::string>& args) {
    std::string cmd = quote(BCASTGEN_EXE) + " generate " + quote((dir_ / "k.yaml").string()) + " -o " +
                      quote((dir_ / "out").string());
    for (const auto& a : args) cmd += " " + quote(a);
    cmd += " 2>" + quote((dir_ / "err").string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    GenRun r;
    r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    r.err = slurp(dir_ / "err");
    return r;
  }
  std::string header() { return slurp(dir_ / "out" / "k.h"); }
  std::string source() { return slurp(dir_ / "out" / "k.cpp"); }

  fs::path dir_;
};

TEST_F(GenerateOptions, WithoutOverridesTheSpecDecides) {
  const GenRun r = generate({});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(header(), "namespace from_spec {"));
  EXPECT_TRUE(contains(source(), "void avx512("));
  EXPECT_TRUE(contains(source(), "void avx2("));
  EXPECT_TRUE(contains(source(), "void scalar("));
}

TEST_F(GenerateOptions, IsaReplacesTheSpecList) {
  const GenRun r = generate({"--isa", "scalar"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string src = source();
  EXPECT_TRUE(contains(src, "void scalar(")) << src;
  EXPECT_FALSE(contains(src, "void avx2(")) << src;
  EXPECT_FALSE(contains(src, "void avx512(")) << src;
}

TEST_F(GenerateOptions, IsaListIsDispatchedBestFirstWhateverTheOrder) {
  const GenRun r = generate({"--isa", "scalar,avx2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string src = source();
  EXPECT_FALSE(contains(src, "void avx512(")) << src;
  const auto avx2 = src.find("return avx2;"), scalar = src.find("return scalar;");
  ASSERT_NE(avx2, std::string::npos) << src;
  ASSERT_NE(scalar, std::string::npos) << src;
  EXPECT_LT(avx2, scalar) << "the dispatcher must try avx2 before scalar";
}

TEST_F(GenerateOptions, UnknownOrRepeatedIsaExitsTwo) {
  for (const char* bad : {"avx3", "avx2,avx2", "avx2,", ",scalar", "AVX2"}) {
    const GenRun r = generate({"--isa", bad});
    EXPECT_EQ(r.code, 2) << "--isa " << bad << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--isa")) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out" / "k.h")) << "--isa " << bad << " wrote output";
  }
  EXPECT_TRUE(contains(generate({"--isa", "avx3"}).err, "unknown isa 'avx3' (valid: avx512fp16, avx512bf16, avx512, neonfp16, avx2, neon, scalar)"));
}

TEST_F(GenerateOptions, NamespaceReplacesTheSpecNamespace) {
  const GenRun r = generate({"--namespace", "app::kernels"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(header(), "namespace app::kernels {")) << header();
  EXPECT_FALSE(contains(header(), "from_spec")) << header();
  EXPECT_TRUE(contains(source(), "namespace app::kernels {"));
}

TEST_F(GenerateOptions, InvalidNamespaceExitsTwo) {
  for (const char* bad : {"1abc", "a::", "::a", "a:::b", "class", "a-b", "a::__x"}) {
    const GenRun r = generate({"--namespace", bad});
    EXPECT_EQ(r.code, 2) << "--namespace " << bad << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "--namespace")) << r.err;
  }
}

TEST_F(GenerateOptions, HelpListsTheOverrides) {
  const std::string cmd = quote(BCASTGEN_EXE) + " generate --help >" + quote((dir_ / "help").string());
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string help = slurp(dir_ / "help");
  EXPECT_TRUE(contains(help, "--isa")) << help;
  EXPECT_TRUE(contains(help, "--namespace")) << help;
}

}  // namespace
