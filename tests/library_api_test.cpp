// The README's library example: an AOT compiler builds a spec in memory and
// gets every file as a string, with a manifest that describes the kernels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bcastgen/gen/emit.h"
#include "bcastgen/rules.h"

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

// A checked spec carries the shapes of its one run of the rules; generating
// from it gives the files generating from the plain spec gives.
TEST(LibraryApi, CheckedSpecGeneratesTheSameFiles) {
  bcastgen::gen::GenerateOptions options;
  options.stem = "model";
  bcastgen::gen::CheckedSpec checked = bcastgen::gen::check_spec(bias_spec());
  ASSERT_EQ(checked.shapes().size(), 1u);
  const bcastgen::BroadcastInputs expected = bcastgen::broadcast_inputs(
      bcastgen::Rule::Numpy, {bcastgen::Shape{1, 64, 56, 56}, bcastgen::Shape{1, 64, 1, 1}});
  EXPECT_EQ(checked.shapes()[0].out, expected.out);
  EXPECT_EQ(checked.shapes()[0].strides, expected.strides);
  EXPECT_EQ(bcastgen::gen::generate(checked, options).files, bcastgen::gen::generate(bias_spec(), options).files);

  // The settings that leave the shapes alone may change, checked as the spec's.
  checked.set_namespace("app::kernels");
  checked.set_isas({bcastgen::Isa::Scalar});
  checked.set_stream_threshold_bytes(0);
  auto changed = bias_spec();
  changed.ns = "app::kernels";
  changed.isas = {bcastgen::Isa::Scalar};
  changed.stream_threshold_bytes = 0;
  EXPECT_EQ(bcastgen::gen::generate(checked, options).files, bcastgen::gen::generate(changed, options).files);
  EXPECT_THROW(checked.set_namespace("app::2x"), bcastgen::InvalidArgument);
  EXPECT_THROW(checked.set_stream_threshold_bytes(-1), bcastgen::InvalidArgument);
  EXPECT_EQ(checked.spec().ns, "app::kernels");

  // The text path: parse_checked_spec keeps the parser's shapes.
  const bcastgen::gen::CheckedSpec parsed = bcastgen::gen::parse_checked_spec(
      "namespace: model\nkernels:\n"
      "  - {name: bias_add, op: add, dtype: f32, rule: numpy, a: [1, 64, 56, 56], b: [1, 64, 1, 1]}\n",
      "m.yaml");
  ASSERT_EQ(parsed.shapes().size(), 1u);
  EXPECT_EQ(parsed.shapes()[0].out, expected.out);
  EXPECT_EQ(parsed.shapes()[0].strides, expected.strides);
}

// An in-memory spec's namespace is checked as a parsed one's.
TEST(LibraryApi, InMemoryNamespaceIsChecked) {
  auto spec = bias_spec();
  spec.ns = "model::";
  try {
    bcastgen::gen::generate(spec, {});
    FAIL() << "expected SpecError";
  } catch (const bcastgen::gen::SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("namespace 'model::' is not a valid C++ namespace ('')"), std::string::npos)
        << e.what();
  }
}

}  // namespace
