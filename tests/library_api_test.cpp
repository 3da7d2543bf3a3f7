// The README's library example: an AOT compiler builds a spec in memory and
// gets every file as a string, with a manifest that describes the kernels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bcastgen/gen/emit.h"

namespace {

bcastgen::gen::Spec bias_spec() {
  bcastgen::gen::Spec spec;
  spec.ns = "model";
  spec.isas = bcastgen::gen::default_isas();
  spec.kernels.push_back(bcastgen::gen::binary_kernel("bias_add", bcastgen::Op::Add, bcastgen::DType::F32,
                                                      bcastgen::Rule::Numpy, {1, 64, 56, 56}, {1, 64, 1, 1}));
  return spec;
}

TEST(LibraryApi, GeneratesAllFilesInMemory) {
  bcastgen::gen::GenerateOptions options;
  options.stem = "model";
  const auto out = bcastgen::gen::generate(bias_spec(), options);
  std::vector<std::string> names;
  for (const auto& [name, content] : out.files) {
    names.push_back(name);
    EXPECT_FALSE(content.empty()) << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"model.cpp", "model.h", "model.manifest.json", "model_c.h"}));
  ASSERT_EQ(out.plans.size(), 1u);
  EXPECT_EQ(out.plans[0].outer_extent, 64);
}

TEST(LibraryApi, ManifestDescribesTheLoopNest) {
  bcastgen::gen::GenerateOptions options;
  options.stem = "model";
  options.source_name = "model.yaml";
  const auto out = bcastgen::gen::generate(bias_spec(), options);
  const auto m = nlohmann::json::parse(out.files.at("model.manifest.json"));
  EXPECT_EQ(m["format"], "bcastgen.manifest/2");
  EXPECT_EQ(m["source"], "model.yaml");
  ASSERT_EQ(m["kernels"].size(), 1u);
  const auto& k = m["kernels"][0];
  EXPECT_EQ(k["name"], "bias_add");
  EXPECT_EQ(k["rule"], "numpy");
  EXPECT_EQ(k["out"], (std::vector<std::int64_t>{1, 64, 56, 56}));
  ASSERT_EQ(k["loops"].size(), 2u);
  EXPECT_EQ(k["loops"][0]["extent"], 64);
  EXPECT_EQ(k["loops"][0]["strides"]["a"], 3136);
  EXPECT_EQ(k["loops"][0]["strides"]["b"], 1);
  EXPECT_EQ(k["loops"][1]["extent"], 3136);
  EXPECT_EQ(k["loops"][1]["strides"]["b"], 0);
  EXPECT_EQ(k["classes"]["a"], "contiguous");
  EXPECT_EQ(k["classes"]["b"], "scalar");
  EXPECT_EQ(k["expr"], "add(a, b)");
  EXPECT_EQ(k["input_order"], (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(k["dag"]["nodes"][2]["op"], "add");
  EXPECT_EQ(k["outer_extent"], 64);
  EXPECT_EQ(k["entries"]["c_checked"], "model_bias_add_checked");
  EXPECT_EQ(k["isas"][0]["isa"], "avx512");
  EXPECT_EQ(k["isas"][0]["lanes"], 16);
}

TEST(LibraryApi, InvalidSpecThrowsWithEveryProblem) {
  auto spec = bias_spec();
  spec.kernels.push_back(spec.kernels[0]);  // a duplicate name
  spec.kernels[1].inputs[1].shape = {1, 63, 1, 1};         // and shapes that do not broadcast
  try {
    bcastgen::gen::generate(spec, {});
    FAIL() << "expected SpecError";
  } catch (const bcastgen::gen::SpecError& e) {
    ASSERT_EQ(e.diagnostics().size(), 2u);
    EXPECT_NE(std::string(e.what()).find("duplicate kernel name 'bias_add'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("axis 1 has 64 vs 63"), std::string::npos);
  }
}

}  // namespace
