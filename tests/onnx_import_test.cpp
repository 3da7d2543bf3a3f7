// The ONNX frontend (generator/onnx/): the partition of the shared real
// models checked against their graphs, what the partition does with
// values read twice, identical groups, constants and exported GELU (on
// models built here), the errors, and `bcastgen onnx` on the command line.
// tests/onnx/check_kernels.py runs the generated kernels themselves.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include "bcastgen/gen/expr_builder.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/onnx/import.h"
#include "numpy_oracle.h"  // read_file_bytes

extern "C" int fuzz_onnx(const std::uint8_t* data, std::size_t size);  // fuzz/onnx_fuzzer.cpp

namespace {

namespace fs = std::filesystem;
using bcastgen::onnx_import::ImportedModel;
using bcastgen::onnx_import::ImportError;
using bcastgen::onnx_import::import_model;
using bcastgen::onnx_import::ImportOptions;
using nlohmann::json;

const std::string kModels = std::string(BCASTGEN_SOURCE_DIR) + "/../shared/onnx-models/";

// A model built in the test: inputs, nodes, initializers, outputs.
struct ModelBuilder {
  onnx::ModelProto m;
  explicit ModelBuilder(int opset = 13) {
    m.set_ir_version(8);
    auto* o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }
  onnx::GraphProto* g() { return m.mutable_graph(); }
  // dims: -1 is a dynamic dimension named "N".
  void input(const std::string& name, std::vector<std::int64_t> dims, int type = onnx::TensorProto::FLOAT) {
    auto* v = g()->add_input();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    auto* s = t->mutable_shape();
    for (std::int64_t d : dims) {
      if (d < 0) s->add_dim()->set_dim_param("N");
      else s->add_dim()->set_dim_value(d);
    }
  }
  void output(const std::string& name) { g()->add_output()->set_name(name); }
  onnx::NodeProto* node(const std::string& op, std::vector<std::string> in, const std::string& out) {
    auto* n = g()->add_node();
    n->set_op_type(op);
    n->set_name(op + "_" + out);
    for (const auto& i : in) n->add_input(i);
    n->add_output(out);
    return n;
  }
  void scalar(const std::string& name, float v) { init(name, {}, {v}); }
  void init(const std::string& name, std::vector<std::int64_t> dims, std::vector<float> values) {
    auto* t = g()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (std::int64_t d : dims) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
  }
  void init_i64(const std::string& name, std::vector<std::int64_t> dims, std::vector<std::int64_t> values) {
    auto* t = g()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (std::int64_t d : dims) t->add_dims(d);
    for (std::int64_t v : values) t->add_int64_data(v);
  }
  std::string bytes() const { return m.SerializeAsString(); }
};

json map_of(const ImportedModel& m) { return json::parse(m.map_json); }

// --- the shared models ------------------------------------------------------

// A real model, the static shape of its input, and its elementwise nodes
// (as its README counts them): each is fused or, where it computes a shape
// or a constant, folded.
struct RealModel {
  std::string file;
  std::string input_shape;  // "" or NAME=d0,d1,...
  std::size_t elementwise;
};

const std::string kExports = std::string(BCASTGEN_SOURCE_DIR) + "/tests/onnx/models/";

std::vector<RealModel> real_models() {
  return {
      // ../shared/onnx-models/README.md: BatchNormalization, Relu, Sum, Mul, Add, Dropout nodes.
      {kModels + "light_resnet50.onnx", "", 118},
      {kModels + "light_squeezenet.onnx", "", 27},
      {kModels + "light_shufflenet.onnx", "", 95},
      {kModels + "light_densenet121.onnx", "", 484},
      // tests/onnx/models/README.md: PyTorch exports and paddle2onnx-style graphs.
      {kExports + "bert_layer_opset13.onnx", "x=2,16,64", 35},
      {kExports + "bert_layer_opset17.onnx", "x=2,16,64", 21},
      {kExports + "gpt2_block_opset13.onnx", "x=2,16,64", 35},
      {kExports + "gpt2_block_opset17.onnx", "x=2,16,64", 21},
      {kExports + "llama_block_opset13.onnx", "x=2,16,64", 32},
      {kExports + "llama_block_opset17.onnx", "x=2,16,64", 32},
      {kExports + "small_cnn_opset13.onnx", "x=2,3,32,32", 15},
      {kExports + "small_cnn_opset17.onnx", "x=2,3,32,32", 14},
      {kExports + "paddle_neck.onnx", "x=2,64,1,40", 24},
      {kExports + "paddle_hardswish.onnx", "x=2,3,16,16", 9},
  };
}

// The op types the READMEs count as elementwise.
const std::set<std::string> kElementwise = {
    "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Equal", "Less", "LessOrEqual",
    "Greater", "GreaterOrEqual", "And", "Or", "Xor", "Not", "Where", "Relu", "LeakyRelu", "PRelu", "Clip", "Cast",
    "CastLike", "Identity", "Dropout", "Expand", "BatchNormalization", "Abs", "Neg", "Sqrt", "Reciprocal", "Floor",
    "Ceil", "Round", "Sign", "Exp", "Log", "Tanh", "Sigmoid", "Erf", "Softplus", "Gelu", "Elu", "Selu", "Celu",
    "HardSigmoid", "HardSwish", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh",
    "Atanh", "IsNaN", "IsInf"};

// The reductions (row kernels, issue 75): fused where they run over the
// innermost axes, counted apart from the READMEs' elementwise nodes.
const std::set<std::string> kReductions = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceSumSquare",
                                           "ReduceL1", "ReduceL2", "Softmax", "LogSoftmax", "LayerNormalization"};

// The layout ops a kernel reads its inputs through.
const std::set<std::string> kLayout = {"Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Slice"};

ImportOptions shaped(const std::string& input_shape) {
  ImportOptions o;
  if (input_shape.empty()) return o;
  const std::size_t eq = input_shape.find('=');
  std::vector<std::int64_t> dims;
  std::stringstream ss(input_shape.substr(eq + 1));
  for (std::string d; std::getline(ss, d, ',');) dims.push_back(std::stoll(d));
  o.input_shapes[input_shape.substr(0, eq)] = dims;
  return o;
}

TEST(OnnxImport, RealModelsPartitionCoversEveryNodeOnceInConvexSingleOutputGroups) {
  for (const RealModel& rm : real_models()) {
    SCOPED_TRACE(rm.file);
    const std::string bytes = bcastgen::test::read_file_bytes(rm.file);
    onnx::ModelProto proto;
    ASSERT_TRUE(proto.ParseFromString(bytes));
    const onnx::GraphProto& graph = proto.graph();
    const ImportedModel m = import_model(bytes, fs::path(rm.file).filename().string(), shaped(rm.input_shape));
    const json map = map_of(m);

    // Every node in exactly one kernel's nodes or in not_covered.
    std::map<int, int> seen;
    std::size_t fused = 0, folded_elementwise = 0, fused_reductions = 0;
    for (const json& k : map["kernels"]) {
      for (const json& n : k["nodes"]) {
        ++seen[n["index"].get<int>()];
        // Layout ops (Transpose, Reshape, ...) inside a kernel are read in
        // place; only the elementwise nodes count for the coverage.
        if (kElementwise.count(n["op_type"].get<std::string>())) {
          ++fused;
        } else if (kReductions.count(n["op_type"].get<std::string>())) {
          ++fused_reductions;
        } else {
          EXPECT_TRUE(kLayout.count(n["op_type"].get<std::string>())) << n["op_type"];
        }
        EXPECT_EQ(n["op_type"], graph.node(n["index"].get<int>()).op_type());
      }
    }
    for (const json& n : map["not_covered"]) {
      ++seen[n["index"].get<int>()];
      const std::string op = n["op_type"];
      if (n["reason"] == "folded" && kElementwise.count(op)) ++folded_elementwise;  // arithmetic on shapes
    }
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(graph.node_size()));
    for (const auto& [index, count] : seen) EXPECT_EQ(count, 1) << "node " << index;
    // Every elementwise node of the model is fused or folded, and every
    // reduction (all of these models' reduce over the innermost axes) fused.
    EXPECT_EQ(fused + folded_elementwise, rm.elementwise) << m.report;
    std::size_t reductions = 0;
    for (const auto& node : graph.node()) reductions += kReductions.count(node.op_type());
    EXPECT_EQ(fused_reductions, reductions) << m.report;

    // Who reads each tensor; graph outputs.
    std::map<std::string, std::vector<int>> readers;
    std::map<std::string, int> producer;
    for (int i = 0; i < graph.node_size(); ++i) {
      for (const auto& t : graph.node(i).input()) readers[t].push_back(i);
      for (const auto& t : graph.node(i).output()) producer[t] = i;
    }
    std::set<std::string> outputs;
    for (const auto& o : graph.output()) outputs.insert(o.name());

    std::map<std::string, json> kernel_by_name;
    for (const json& k : map["kernels"]) {
      std::set<int> members;
      for (const json& n : k["nodes"]) members.insert(n["index"].get<int>());
      const std::string root_out = k["output"]["onnx"];
      ASSERT_TRUE(members.count(producer.at(root_out)));
      // One output: every other member's value is read only inside the group.
      for (int i : members) {
        for (const auto& t : graph.node(i).output()) {
          if (t == root_out || t.empty()) continue;
          EXPECT_FALSE(outputs.count(t)) << t;
          for (int r : readers[t]) EXPECT_TRUE(members.count(r)) << t << " read by node " << r << " outside";
        }
      }
      // Convex: nothing reachable from the group's output leads back into it.
      std::set<int> reach;
      std::function<void(const std::string&)> walk = [&](const std::string& t) {
        for (int r : readers[t]) {
          if (reach.insert(r).second) {
            for (const auto& o : graph.node(r).output()) walk(o);
          }
        }
      };
      walk(root_out);
      for (int i : members) EXPECT_FALSE(reach.count(i)) << "node " << i << " is downstream of its group's output";
      // Inputs are in parameter order; a shared kernel is the same kernel.
      for (std::size_t p = 0; p < k["inputs"].size(); ++p) EXPECT_EQ(k["inputs"][p]["param"], "x" + std::to_string(p));
      const auto [it, fresh] = kernel_by_name.emplace(k["name"].get<std::string>(), k);
      if (!fresh) {
        EXPECT_EQ(it->second["expr"], k["expr"]);
        EXPECT_EQ(it->second["output"]["shape"], k["output"]["shape"]);
        for (std::size_t p = 0; p < k["inputs"].size(); ++p) {
          EXPECT_EQ(it->second["inputs"][p]["shape"], k["inputs"][p]["shape"]);
        }
      }
    }
    EXPECT_EQ(kernel_by_name.size(), m.spec.kernels.size());

    // The YAML is the spec: it parses back to the same kernels.
    const bcastgen::gen::CheckedSpec parsed = bcastgen::gen::parse_checked_spec(m.spec_yaml, "model.yaml");
    ASSERT_EQ(parsed.spec().kernels.size(), m.spec.kernels.size());
    for (std::size_t k = 0; k < m.spec.kernels.size(); ++k) {
      const auto& a = parsed.spec().kernels[k];
      const auto& b = m.spec.kernels[k];
      EXPECT_EQ(a.name, b.name);
      ASSERT_EQ(a.inputs.size(), b.inputs.size());
      std::vector<bcastgen::gen::ExprInput> ins;
      for (std::size_t i = 0; i < a.inputs.size(); ++i) {
        EXPECT_EQ(a.inputs[i].shape, b.inputs[i].shape);
        EXPECT_EQ(a.inputs[i].dtype, b.inputs[i].dtype);
        ins.push_back({a.inputs[i].name, a.inputs[i].dtype});
      }
      EXPECT_EQ(bcastgen::gen::print_expr(a.expr, ins), bcastgen::gen::print_expr(b.expr, ins));
      EXPECT_EQ(a.out_dtype(), b.out_dtype());
    }
  }
}

TEST(OnnxImport, ReportCountsFusedAndUncoveredNodesPerOpType) {
  const ImportedModel m = import_model(bcastgen::test::read_file_bytes(kModels + "light_squeezenet.onnx"),
                                       "light_squeezenet.onnx", {});
  // 26 Relu and one Dropout fused; 39 ConstantOfShape folded; 26 Conv left as what they are.
  EXPECT_NE(m.report.find("105 nodes: 28 fused into 28 kernels (12 distinct), 39 folded, 38 not covered"),
            std::string::npos)
      << m.report;
  EXPECT_NE(m.report.find("Conv x26: not an elementwise operator bcastgen maps"), std::string::npos) << m.report;
}

// --- partition choices on small graphs --------------------------------------

TEST(OnnxImport, AValueAlsoReadOutsideItsGroupEndsAKernel) {
  // y = relu(x + b) feeds both z = y * 2 and w = y - 1 (two graph outputs):
  // y is stored once by its own kernel, each reader is a kernel of its own.
  ModelBuilder mb;
  mb.input("x", {4, 8});
  mb.input("b", {8});
  mb.node("Add", {"x", "b"}, "s");
  mb.node("Relu", {"s"}, "y");
  mb.scalar("two", 2.0f);
  mb.scalar("one", 1.0f);
  mb.node("Mul", {"y", "two"}, "z");
  mb.node("Sub", {"y", "one"}, "w");
  mb.output("z");
  mb.output("w");
  const json map = map_of(import_model(mb.bytes(), "shared.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 3u);
  EXPECT_EQ(map["kernels"][0]["expr"], "maximum(add(x0, x1), 0)");
  EXPECT_EQ(map["kernels"][0]["output"]["onnx"], "y");
  EXPECT_EQ(map["kernels"][1]["expr"], "multiply(x0, 2)");
  EXPECT_EQ(map["kernels"][2]["expr"], "subtract(x0, 1)");
  EXPECT_EQ(map["kernels"][1]["inputs"][0]["onnx"], "y");
  EXPECT_EQ(map["not_covered"].size(), 0u);
}

TEST(OnnxImport, IdenticalGroupsShareOneKernelAndTheMapNamesItForEach) {
  ModelBuilder mb;
  mb.input("a", {2, 16});
  mb.input("b", {2, 16});
  mb.input("c", {3, 16});
  for (const char* t : {"a", "b", "c"}) {
    mb.node("Relu", {t}, std::string("r") + t);
    mb.output(std::string("r") + t);
  }
  const ImportedModel m = import_model(mb.bytes(), "dedupe.onnx", {});
  const json map = map_of(m);
  ASSERT_EQ(map["kernels"].size(), 3u);
  ASSERT_EQ(m.spec.kernels.size(), 2u);  // maximum(x0, 0) on [2,16] twice, on [3,16] once
  EXPECT_EQ(map["kernels"][0]["name"], "k0");
  EXPECT_EQ(map["kernels"][1]["name"], "k0");
  EXPECT_EQ(map["kernels"][2]["name"], "k1");
  EXPECT_EQ(map["kernels"][1]["inputs"][0]["onnx"], "b");
}

TEST(OnnxImport, UniformConstantsFoldIntoLiteralsAndBatchNormParametersReadPerChannel) {
  // BatchNormalization with uniform constant parameters is x * a + c with
  // two literals; with tensor parameters, they are read as [C,1,1].
  ModelBuilder mb;
  mb.input("x", {1, 3, 4, 4});
  mb.init("s", {3}, {2, 2, 2});
  mb.init("bias", {3}, {0.5f, 0.5f, 0.5f});
  mb.init("mean", {3}, {1, 1, 1});
  mb.init("var", {3}, {4, 4, 4});
  mb.init("s2", {3}, {1, 2, 3});
  auto* bn = mb.node("BatchNormalization", {"x", "s", "bias", "mean", "var"}, "y");
  auto* eps = bn->add_attribute();
  eps->set_name("epsilon");
  eps->set_type(onnx::AttributeProto::FLOAT);
  eps->set_f(0.0f);
  mb.node("BatchNormalization", {"y", "s2", "bias", "mean", "var"}, "z");
  mb.output("z");
  const json map = map_of(import_model(mb.bytes(), "bn.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 1u);
  const json& k = map["kernels"][0];
  // (x - 1) * (2 / sqrt(4 + 0)) + 0.5, then (y - 1) * (s2 / sqrt(4 + 1e-5)) +
  // 0.5: what is constant is computed here (in f32, by the reference).
  EXPECT_EQ(k["expr"], "add(multiply(subtract(add(multiply(subtract(x0, 1), 1), 0.5), 1), divide(x1, "
                       "2.000002384185791)), 0.5)")
      << k["expr"];
  EXPECT_EQ(static_cast<double>(std::sqrt(4.0f + 1e-5f)), 2.000002384185791);
  ASSERT_EQ(k["inputs"].size(), 2u);
  EXPECT_EQ(k["inputs"][1]["onnx"], "s2");
  EXPECT_EQ(k["inputs"][1]["shape"], json::array({3, 1, 1}));
  EXPECT_EQ(k["inputs"][1]["onnx_shape"], json::array({3}));
  EXPECT_EQ(k["inputs"][1]["initializer"], true);
}

TEST(OnnxImport, ExportedErfGeluIsOneGeluCall) {
  // PyTorch's export of GELU before opset 20, both groupings of the product.
  for (bool half_last : {true, false}) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.scalar("sqrt2", 1.4142135f);
    mb.scalar("one", 1.0f);
    mb.scalar("half", 0.5f);
    mb.node("Div", {"x", "sqrt2"}, "d");
    mb.node("Erf", {"d"}, "e");
    mb.node("Add", {"e", "one"}, "p");
    if (half_last) {
      mb.node("Mul", {"x", "p"}, "xp");
      mb.node("Mul", {"xp", "half"}, "y");
    } else {
      mb.node("Mul", {"x", "half"}, "xh");
      mb.node("Mul", {"xh", "p"}, "y");
    }
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "gelu.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    EXPECT_EQ(map["kernels"][0]["expr"], "gelu(x0)");
    EXPECT_EQ(map["kernels"][0]["nodes"].size(), 5u);
  }
}

TEST(OnnxImport, ExportedSiluIsOneSiluCall) {
  // PyTorch exports SiLU (and swish) as Sigmoid and Mul, in either order.
  for (bool sigmoid_first : {true, false}) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.node("Sigmoid", {"x"}, "s");
    mb.node("Mul", sigmoid_first ? std::vector<std::string>{"s", "x"} : std::vector<std::string>{"x", "s"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "silu.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    EXPECT_EQ(map["kernels"][0]["expr"], "silu(x0)");
    EXPECT_EQ(map["kernels"][0]["nodes"].size(), 2u);
  }
  // A sigmoid of another value stays a product.
  ModelBuilder other;
  other.input("x", {2, 64});
  other.input("z", {2, 64});
  other.node("Sigmoid", {"z"}, "s");
  other.node("Mul", {"x", "s"}, "y");
  other.output("y");
  EXPECT_EQ(map_of(import_model(other.bytes(), "gate.onnx", {}))["kernels"][0]["expr"], "multiply(x1, sigmoid(x0))");
}

TEST(OnnxImport, ExportedHardSwishAndMishAreOneCallEach) {
  // paddle2onnx's HardSwish, x * Clip(x + 3, 0, 6) / 6: the product first,
  // or the clip scaled first; and 1/6 as a multiply.
  for (int form = 0; form < 3; ++form) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.scalar("three", 3.0f);
    mb.scalar("zero", 0.0f);
    mb.scalar("six", 6.0f);
    mb.scalar("sixth", static_cast<float>(1.0 / 6.0));
    mb.node("Add", {"x", "three"}, "a");
    mb.node("Clip", {"a", "zero", "six"}, "c");
    if (form == 0) {
      mb.node("Mul", {"x", "c"}, "m");
      mb.node("Div", {"m", "six"}, "y");
    } else if (form == 1) {
      mb.node("Div", {"c", "six"}, "d");
      mb.node("Mul", {"d", "x"}, "y");
    } else {
      mb.node("Mul", {"c", "x"}, "m");
      mb.node("Mul", {"m", "sixth"}, "y");
    }
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "hardswish.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u) << form;
    EXPECT_EQ(map["kernels"][0]["expr"], "hardswish(x0)") << form;
    EXPECT_EQ(map["kernels"][0]["nodes"].size(), 4u) << form;
  }
  // A clip to other bounds stays the chain.
  {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.scalar("three", 3.0f);
    mb.scalar("zero", 0.0f);
    mb.scalar("five", 5.0f);
    mb.scalar("six", 6.0f);
    mb.node("Add", {"x", "three"}, "a");
    mb.node("Clip", {"a", "zero", "five"}, "c");
    mb.node("Mul", {"x", "c"}, "m");
    mb.node("Div", {"m", "six"}, "y");
    mb.output("y");
    const std::string expr = map_of(import_model(mb.bytes(), "clip5.onnx", {}))["kernels"][0]["expr"];
    EXPECT_EQ(expr.find("hardswish"), std::string::npos) << expr;
  }
  // Mish before opset 18: x * Tanh(Softplus(x)), either order.
  for (bool tanh_first : {true, false}) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.node("Softplus", {"x"}, "sp");
    mb.node("Tanh", {"sp"}, "t");
    mb.node("Mul", tanh_first ? std::vector<std::string>{"t", "x"} : std::vector<std::string>{"x", "t"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "mish.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    EXPECT_EQ(map["kernels"][0]["expr"], "mish(x0)");
    EXPECT_EQ(map["kernels"][0]["nodes"].size(), 3u);
  }
  // The ONNX ops: HardSwish is the function; HardSigmoid at PyTorch's alpha
  // (1/6 as a float) too, at ONNX's default alpha (0.2) the chain.
  for (const char* alpha : {"sixth", "default"}) {
    ModelBuilder mb(14);  // HardSwish is from opset 14
    mb.input("x", {2, 64});
    onnx::NodeProto* n = mb.node("HardSigmoid", {"x"}, "h");
    if (std::string(alpha) == "sixth") {
      onnx::AttributeProto* a = n->add_attribute();
      a->set_name("alpha");
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(static_cast<float>(1.0 / 6.0));
    }
    mb.node("HardSwish", {"h"}, "y");
    mb.output("y");
    const std::string expr = map_of(import_model(mb.bytes(), "hard.onnx", {}))["kernels"][0]["expr"];
    if (std::string(alpha) == "sixth") {
      EXPECT_EQ(expr, "hardswish(hardsigmoid(x0))");
    } else {
      EXPECT_EQ(expr.rfind("hardswish(maximum(minimum(add(multiply(x0, 0.2", 0), 0u) << expr;
    }
  }
}

// A Transpose node with `perm`.
onnx::NodeProto* transpose_node(ModelBuilder& mb, const std::string& in, const std::string& out,
                                std::vector<std::int64_t> perm) {
  onnx::NodeProto* n = mb.node("Transpose", {in}, out);
  auto* a = n->add_attribute();
  a->set_name("perm");
  a->set_type(onnx::AttributeProto::INTS);
  for (std::int64_t p : perm) a->add_ints(p);
  return n;
}

TEST(OnnxImport, ChainsOfLayoutOpsComposeIntoOneRead) {
  // Splitting heads: Reshape then Transpose, read in place as one layout.
  {
    ModelBuilder mb;
    mb.input("x", {2, 16, 64});
    mb.input("b", {16, 1});
    mb.init_i64("heads", {4}, {2, 16, 4, 16});
    mb.node("Reshape", {"x", "heads"}, "r");
    transpose_node(mb, "r", "t", {0, 2, 1, 3});
    mb.node("Add", {"t", "b"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "heads.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    const json& k = map["kernels"][0];
    EXPECT_EQ(k["expr"], "add(transpose(reshape(x0, [2, 16, 4, 16]), [0, 2, 1, 3]), x1)");
    EXPECT_EQ(k["nodes"].size(), 3u);
    EXPECT_EQ(k["inputs"][0]["shape"], json({2, 16, 64}));  // the tensor's own shape
    EXPECT_TRUE(map["not_covered"].empty()) << map["not_covered"];  // every node in the kernel
  }
  // Merging heads: Transpose then a Reshape that joins axes the transpose
  // left apart: no one stride reads them, so the Transpose stays a copy and
  // the Reshape is read in place from its output.
  {
    ModelBuilder mb;
    mb.input("x", {2, 4, 16, 16});
    mb.input("b", {64});
    mb.init_i64("merged", {3}, {2, 16, 64});
    transpose_node(mb, "x", "t", {0, 2, 1, 3});
    mb.node("Reshape", {"t", "merged"}, "r");
    mb.node("Add", {"r", "b"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "merge.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    EXPECT_EQ(map["kernels"][0]["expr"], "add(reshape(x0, [2, 16, 64]), x1)");
    EXPECT_EQ(map["kernels"][0]["nodes"].size(), 2u);
    bool copy = false;
    for (const json& n : map["not_covered"]) {
      copy = copy || (n["op_type"] == "Transpose" &&
                      n["reason"] == "a layout op whose reader's layout it does not compose with: a copy");
    }
    EXPECT_TRUE(copy) << map["not_covered"];
  }
}

TEST(OnnxImport, PowOfTwoIsAProduct) {
  // x^2, as exports write a variance, is x * x (the same bits, one multiply);
  // other exponents stay pow.
  for (float e : {2.0f, 3.0f}) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.scalar("e", e);
    mb.node("Pow", {"x", "e"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "pow.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u);
    EXPECT_EQ(map["kernels"][0]["expr"], e == 2.0f ? "multiply(x0, x0)" : "power(x0, 3)");
  }
}

TEST(OnnxImport, ExportedTanhGeluIsOneGeluTanhCall) {
  // PyTorch's export of GELU(approximate='tanh') before opset 20; x^3 as Pow
  // or as two multiplies. A wrong constant keeps the chain.
  for (int form = 0; form < 3; ++form) {
    ModelBuilder mb;
    mb.input("x", {2, 64});
    mb.scalar("three", 3.0f);
    mb.scalar("k", form == 2 ? 0.045f : 0.044715f);
    mb.scalar("c", 0.7978845608f);
    mb.scalar("one", 1.0f);
    mb.scalar("half", 0.5f);
    if (form == 1) {
      mb.node("Mul", {"x", "x"}, "x2");
      mb.node("Mul", {"x2", "x"}, "x3");
    } else {
      mb.node("Pow", {"x", "three"}, "x3");
    }
    mb.node("Mul", {"x3", "k"}, "kx3");
    mb.node("Add", {"x", "kx3"}, "inner");
    mb.node("Mul", {"c", "inner"}, "arg");
    mb.node("Tanh", {"arg"}, "t");
    mb.node("Add", {"one", "t"}, "p");
    mb.node("Mul", {"half", "x"}, "hx");
    mb.node("Mul", {"hx", "p"}, "y");
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "gelu_tanh.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u) << form;
    if (form == 2) {
      EXPECT_NE(map["kernels"][0]["expr"].get<std::string>().find("tanh("), std::string::npos);
    } else {
      EXPECT_EQ(map["kernels"][0]["expr"], "gelu_tanh(x0)") << form;
    }
  }
}

// --accuracy fast: each function with a fast form takes it, and the spec
// the import writes says `accuracy: fast`, so that it reads back the same.
TEST(OnnxImport, AccuracyFastTakesTheFastFormsAndWritesThemIntoTheSpec) {
  ModelBuilder mb;
  mb.input("x", {2, 64});
  mb.node("Sigmoid", {"x"}, "s");
  mb.node("Mul", {"x", "s"}, "m");
  mb.node("Tanh", {"x"}, "t");
  mb.node("Exp", {"x"}, "e");
  mb.node("Add", {"m", "t"}, "mt");
  mb.node("Add", {"mt", "e"}, "y");
  mb.output("y");
  bcastgen::onnx_import::ImportOptions fast;
  fast.fast = true;
  const auto exact_model = import_model(mb.bytes(), "act.onnx", {});
  const auto fast_model = import_model(mb.bytes(), "act.onnx", fast);
  ASSERT_EQ(exact_model.spec.kernels.size(), 1u);
  ASSERT_EQ(fast_model.spec.kernels.size(), 1u);
  auto functions = [](const bcastgen::gen::KernelSpec& k) {
    std::vector<std::string> names;
    for (const auto& node : k.expr.nodes) {
      if (node.kind == bcastgen::ExprKind::Unary) names.push_back(bcastgen::unary_name(node.unary));
    }
    return names;
  };
  const std::vector<std::string> exact_names = functions(exact_model.spec.kernels[0]);
  const std::vector<std::string> fast_names = functions(fast_model.spec.kernels[0]);
  ASSERT_EQ(exact_names.size(), fast_names.size());
  for (std::size_t i = 0; i < exact_names.size(); ++i) {
    EXPECT_EQ(fast_names[i], exact_names[i] == "exp" ? "exp" : "fast_" + exact_names[i]) << exact_names[i];
  }
  EXPECT_EQ(exact_model.spec_yaml.find("accuracy:"), std::string::npos);
  EXPECT_NE(fast_model.spec_yaml.find("\naccuracy: fast\n"), std::string::npos);
  const bcastgen::gen::CheckedSpec parsed = bcastgen::gen::parse_checked_spec(fast_model.spec_yaml, "act.yaml");
  EXPECT_EQ(functions(parsed.spec().kernels[0]), fast_names);
}

TEST(OnnxImport, NodesItCannotMapSayWhy) {
  ModelBuilder mb;
  mb.input("a", {4}, onnx::TensorProto::INT32);
  mb.input("b", {4}, onnx::TensorProto::INT32);
  mb.node("Div", {"a", "b"}, "q");  // ONNX truncates, bcastgen floors
  mb.node("MatMul", {"a", "b"}, "mm");
  mb.output("q");
  mb.output("mm");
  const json map = map_of(import_model(mb.bytes(), "why.onnx", {}));
  ASSERT_EQ(map["not_covered"].size(), 2u);
  EXPECT_NE(map["not_covered"][0]["reason"].get<std::string>().find("truncates"), std::string::npos);
  EXPECT_EQ(map["not_covered"][1]["reason"], "not an elementwise operator bcastgen maps");
}

std::string import_error(const std::string& bytes, const ImportOptions& options = {}) {
  try {
    import_model(bytes, "bad.onnx", options);
  } catch (const ImportError& e) {
    return e.what();
  }
  return "(no error)";
}

// --- shapes computed in the graph ---------------------------------------------

// paddle2onnx's chain: Shape -> Cast -> Slice -> Concat -> Reshape, then
// elementwise work on the reshaped tensor; and PyTorch's Shape -> Gather ->
// Unsqueeze -> Concat of the reshaped tensor's shape, with integer Div.
ModelBuilder shape_chain_model() {
  ModelBuilder mb;
  mb.input("x", {-1, 4, 6});
  mb.init_i64("zero", {1}, {0});
  mb.init_i64("one", {1}, {1});
  mb.init_i64("minus1", {1}, {-1});
  mb.init_i64("idx2", {}, {2});
  mb.init_i64("two", {}, {2});
  mb.init_i64("ax0", {1}, {0});
  mb.init("b", {24}, std::vector<float>(24, 0.5f));
  mb.g()->mutable_initializer(mb.g()->initializer_size() - 1)->set_float_data(3, 2.0f);  // not uniform
  mb.node("Shape", {"x"}, "s");
  mb.node("Cast", {"s"}, "s32")->add_attribute()->set_name("to");
  mb.g()->mutable_node(1)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  mb.g()->mutable_node(1)->mutable_attribute(0)->set_i(onnx::TensorProto::INT32);
  auto* back = mb.node("Cast", {"s32"}, "s64");
  auto* to = back->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::INT64);
  mb.node("Slice", {"s64", "zero", "one"}, "batch");
  mb.node("Concat", {"batch", "minus1"}, "target")->add_attribute()->set_name("axis");
  mb.g()->mutable_node(4)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  mb.node("Reshape", {"x", "target"}, "flat");  // [N, 24]
  mb.node("Add", {"flat", "b"}, "biased");
  mb.node("Relu", {"biased"}, "act");
  mb.node("Shape", {"act"}, "s2");
  mb.node("Gather", {"s2", "idx2"}, "last");  // index 2 of a rank-2 shape: out of range
  return mb;
}

TEST(OnnxImport, ShapesComputedInTheGraphFoldAndTheirNodesSayFoldedWithTheirValue) {
  ModelBuilder mb = shape_chain_model();
  mb.g()->mutable_node(mb.g()->node_size() - 1)->set_input(1, "one");  // the 24
  mb.node("Div", {"last", "two"}, "half");  // ONNX's integer Div: 12
  mb.node("Concat", {"batch", "half", "minus1"}, "t3")->add_attribute()->set_name("axis");
  mb.g()->mutable_node(mb.g()->node_size() - 1)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  mb.node("Reshape", {"act", "t3"}, "split");  // [N, 12, 2]
  mb.node("Sigmoid", {"split"}, "sg");
  mb.node("Mul", {"split", "sg"}, "y");
  mb.output("y");
  ImportOptions o;
  o.input_shapes["x"] = {3, 4, 6};
  const ImportedModel m = import_model(mb.bytes(), "chain.onnx", o);
  const json map = map_of(m);
  std::map<std::string, json> by_output;
  for (const json& n : map["not_covered"]) by_output[mb.g()->node(n["index"].get<int>()).output(0)] = n;
  EXPECT_EQ(by_output["s"]["reason"], "folded");
  EXPECT_EQ(by_output["s"]["value"], json({{"dtype", "i64"}, {"shape", {3}}, {"values", {3, 4, 6}}}));
  EXPECT_EQ(by_output["s32"]["value"]["dtype"], "i32");
  EXPECT_EQ(by_output["target"]["value"]["values"], json({3, -1}));
  EXPECT_EQ(by_output["last"]["value"], json({{"dtype", "i64"}, {"shape", {1}}, {"uniform", 24}}));
  EXPECT_EQ(by_output["half"]["value"]["uniform"], 12);
  EXPECT_EQ(by_output["t3"]["value"]["values"], json({3, 12, -1}));
  // Both Reshapes are read in place: each kernel's input keeps the shape of
  // the tensor it reads, and says how the expression reshapes it.
  EXPECT_EQ(by_output.count("flat"), 0u);
  EXPECT_EQ(by_output.count("split"), 0u);
  // Both kernels have static shapes: Reshape + Add + Relu on [3, 24] and
  // Reshape + the Sigmoid-gated Mul on [3, 12, 2].
  ASSERT_EQ(map["kernels"].size(), 2u) << m.report;
  EXPECT_EQ(map["kernels"][0]["output"]["shape"], json({3, 24}));
  EXPECT_EQ(map["kernels"][0]["nodes"][0]["op_type"], "Reshape");
  EXPECT_EQ(map["kernels"][0]["inputs"][0]["shape"], json({3, 4, 6}));
  EXPECT_EQ(map["kernels"][0]["inputs"][0]["read_as"], "reshape(x0, [3, 24])");
  EXPECT_EQ(map["kernels"][1]["output"]["shape"], json({3, 12, 2}));
  EXPECT_EQ(map["kernels"][1]["inputs"][0]["shape"], json({3, 24}));
  EXPECT_EQ(map["kernels"][1]["inputs"][0]["read_as"], "reshape(x0, [3, 12, 2])");
}

TEST(OnnxImport, ShapesThatDependOnDataOrAreInvalidAreRefusedNamingTheTensor) {
  // A Reshape whose shape input is computed from tensor data: the node
  // after it is left out, naming the tensor its shape depends on.
  ModelBuilder data;
  data.input("x", {2, 6});
  data.input("n", {2}, onnx::TensorProto::INT64);
  data.node("Reshape", {"x", "n"}, "r");
  data.node("Relu", {"r"}, "y");
  data.node("Relu", {"x"}, "z");
  data.output("y");
  data.output("z");
  const json map = map_of(import_model(data.bytes(), "data.onnx", {}));
  std::string reason;
  for (const json& n : map["not_covered"]) {
    if (n["op_type"] == "Relu") reason = n["reason"];
  }
  EXPECT_EQ(reason, "the shape of 'y' is not known: it depends on the data of 'n' (input 1 of Reshape 'Reshape_r')");

  // A shape chain that gives a negative dimension.
  ModelBuilder negative;
  negative.input("x", {2, 6});
  negative.init_i64("k", {2}, {-3, -4});
  negative.node("Shape", {"x"}, "s");
  negative.node("Sub", {"s", "k"}, "d");  // [5, 10]
  negative.node("Sub", {"k", "d"}, "neg");  // [-8, -14]
  negative.node("ConstantOfShape", {"neg"}, "c");
  negative.node("Add", {"x", "c"}, "y");
  negative.output("y");
  EXPECT_EQ(import_error(negative.bytes()),
            "ConstantOfShape 'ConstantOfShape_c': shape [-8, -14] (input 'neg') has the negative dimension -8");

  ModelBuilder reshape;
  reshape.input("x", {2, 6});
  reshape.init_i64("t", {2}, {-2, 6});
  reshape.node("Reshape", {"x", "t"}, "r");
  reshape.node("Relu", {"r"}, "y");
  reshape.output("y");
  EXPECT_EQ(import_error(reshape.bytes()), "Reshape 'Reshape_r': shape [-2, 6] (input 't') has the negative dimension -2");

  // A Transpose whose perm is no permutation of its input's axes.
  ModelBuilder perm;
  perm.input("x", {2, 3, 4});
  auto* a = perm.node("Transpose", {"x"}, "t")->add_attribute();
  a->set_name("perm");
  a->set_type(onnx::AttributeProto::INTS);
  for (int p : {0, 2, 2}) a->add_ints(p);
  perm.node("Relu", {"t"}, "y");
  perm.output("y");
  EXPECT_EQ(import_error(perm.bytes()),
            "Transpose 'Transpose_t': perm [0, 2, 2] is not a permutation of the 3 axes of 'x' [2, 3, 4]");

  // An index out of range in the shape arithmetic.
  ModelBuilder gather = shape_chain_model();
  gather.output("last");
  ImportOptions o;
  o.input_shapes["x"] = {3, 4, 6};
  EXPECT_EQ(import_error(gather.bytes(), o), "Gather 'Gather_last': index 2 is out of range for dimension 2");

  // Squeeze and Unsqueeze of a computed value: a repeated axis (-1 and 2 of
  // a rank-3 output; the fuzzer's find, which read past the shape) and a
  // squeezed axis that is not 1.
  const auto axes_model = [](const char* op, std::vector<std::int64_t> axes) {
    ModelBuilder mb;
    mb.input("x", {3, 1, 1});
    mb.init_i64("shape", {1}, {3});
    mb.init_i64("axes", {static_cast<std::int64_t>(axes.size())}, axes);
    mb.node("ConstantOfShape", {"shape"}, "c");
    mb.node(op, {"c", "axes"}, "w");
    mb.node("Mul", {"x", "w"}, "y");
    mb.output("y");
    return mb.bytes();
  };
  EXPECT_EQ(import_error(axes_model("Unsqueeze", {-1, 2})), "Unsqueeze 'Unsqueeze_w': axis 2 is listed twice");
  EXPECT_EQ(import_error(axes_model("Squeeze", {0})), "Squeeze 'Squeeze_w': axis 0 has extent 3, not 1");
}

// --- errors -----------------------------------------------------------------

TEST(OnnxImport, BadModelsGiveClearErrors) {
  EXPECT_NE(import_error("this is not a protobuf at all").find("not an ONNX model"), std::string::npos);
  EXPECT_NE(import_error("").find("not an ONNX model"), std::string::npos);
  const std::string real = bcastgen::test::read_file_bytes(kModels + "light_squeezenet.onnx");
  EXPECT_NE(import_error(real.substr(0, real.size() / 2)).find("not an ONNX model"), std::string::npos);

  ModelBuilder dynamic;
  dynamic.input("x", {-1, 8});
  dynamic.node("Relu", {"x"}, "y");
  dynamic.output("y");
  EXPECT_EQ(import_error(dynamic.bytes()),
            "input 'x': dimension 0 ('N') is dynamic: fix it with --input-shape x=d0,d1,...");
  ImportOptions fixed;
  fixed.input_shapes["x"] = {3, 8};
  EXPECT_EQ(map_of(import_model(dynamic.bytes(), "d.onnx", fixed))["kernels"][0]["output"]["shape"],
            json::array({3, 8}));
  ImportOptions wrong_name;
  wrong_name.input_shapes["nope"] = {3, 8};
  EXPECT_EQ(import_error(dynamic.bytes(), wrong_name), "--input-shape nope: the graph has no input named 'nope'");
  ImportOptions wrong_dim;
  wrong_dim.input_shapes["x"] = {3, 9};
  EXPECT_EQ(import_error(dynamic.bytes(), wrong_dim),
            "--input-shape x: dimension 1 is fixed at 8 in the model, not 9");

  ModelBuilder strings;
  strings.input("s", {2}, onnx::TensorProto::STRING);
  strings.output("s");
  EXPECT_EQ(import_error(strings.bytes()), "input 's' has dtype STRING, which bcastgen does not support");

  ModelBuilder short_data;
  short_data.input("x", {3});
  short_data.init("w", {3}, {1, 2});  // two values for three elements
  short_data.node("Add", {"x", "w"}, "y");
  short_data.output("y");
  EXPECT_NE(import_error(short_data.bytes()).find("initializer 'w'"), std::string::npos);
}

TEST(OnnxImport, FuzzSeedsAndRegressionsKeepTheReadersInvariants) {
  // fuzz/onnx_fuzzer.cpp on its checked-in seeds (scripts/fuzz.sh mutates
  // them) and on what it once found (fuzz/regressions/onnx/).
  int n = 0;
  for (const char* kind : {"corpus", "regressions"}) {
    for (const auto& e : fs::directory_iterator(fs::path(BCASTGEN_SOURCE_DIR) / "fuzz" / kind / "onnx")) {
      const std::string bytes = bcastgen::test::read_file_bytes(e.path());
      const pid_t pid = fork();
      if (pid == 0) _exit(fuzz_onnx(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
      int status = 0;
      waitpid(pid, &status, 0);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << e.path();
      ++n;
    }
  }
  EXPECT_GE(n, 9);
}

// --- the command ------------------------------------------------------------

int run_tool(const std::string& args, std::string* out = nullptr) {
  const std::string log = (fs::temp_directory_path() / ("bcastgen_onnx_cli_" + std::to_string(getpid()))).string();
  const int status = std::system((std::string(BCASTGEN_EXE) + " " + args + " >" + log + " 2>&1").c_str());
  if (out) *out = bcastgen::test::read_file_bytes(log);
  fs::remove(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(OnnxCli, WritesSpecSourcesAndMapOrNothingWithADistinctExitCode) {
  const fs::path dir = fs::temp_directory_path() / ("bcastgen_onnx_cli_out_" + std::to_string(getpid()));
  fs::remove_all(dir);
  std::string out;
  ASSERT_EQ(run_tool("onnx " + kModels + "light_squeezenet.onnx -o " + dir.string() + " --report", &out), 0) << out;
  for (const char* f : {"light_squeezenet.yaml", "light_squeezenet.h", "light_squeezenet.cpp",
                        "light_squeezenet.onnx-map.json", "light_squeezenet_c.h"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  }
  EXPECT_NE(out.find("Relu"), std::string::npos) << out;
  EXPECT_NE(bcastgen::test::read_file_bytes((dir / "light_squeezenet.h").string()).find("namespace light_squeezenet"),
            std::string::npos);
  fs::remove_all(dir);

  const fs::path bad = fs::temp_directory_path() / ("bcastgen_onnx_cli_bad_" + std::to_string(getpid()) + ".onnx");
  std::ofstream(bad) << "not a model";
  EXPECT_EQ(run_tool("onnx " + bad.string() + " -o " + dir.string(), &out), 2);
  EXPECT_NE(out.find("not an ONNX model"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir));
  fs::remove(bad);
  EXPECT_EQ(run_tool("onnx /nonexistent/model.onnx -o " + dir.string(), &out), 3) << out;
  EXPECT_EQ(run_tool("onnx " + kModels + "light_squeezenet.onnx -o " + dir.string() + " --input-shape bogus", &out), 2);
  EXPECT_NE(out.find("expected NAME=d0,d1"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace

// --- normalizations: row reductions (issue 75) ------------------------------

void ints_attr(onnx::NodeProto* n, const char* name, std::vector<std::int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (std::int64_t x : v) a->add_ints(x);
}

void int_attr(onnx::NodeProto* n, const char* name, std::int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

bool has_not_covered(const json& map, const std::string& op, const std::string& reason_part) {
  for (const json& n : map["not_covered"]) {
    if (n["op_type"] == op && n["reason"].get<std::string>().find(reason_part) != std::string::npos) return true;
  }
  return false;
}

TEST(OnnxImport, DecomposedLayerNormIsOneKernel) {
  // PyTorch's decomposed LayerNorm (opset 13): ReduceMean, Sub, Pow, ReduceMean,
  // Add, Sqrt, Div, Mul, Add: one row kernel, the reductions among its nodes.
  ModelBuilder mb;
  mb.input("x", {4, 32});
  mb.init("g", {32}, std::vector<float>(32, 1.5f));
  mb.init("b", {32}, std::vector<float>(32, 0.25f));
  mb.scalar("two", 2.0f);
  mb.scalar("eps", 1e-5f);
  ints_attr(mb.node("ReduceMean", {"x"}, "m"), "axes", {-1});
  mb.node("Sub", {"x", "m"}, "d");
  mb.node("Pow", {"d", "two"}, "dd");
  ints_attr(mb.node("ReduceMean", {"dd"}, "v"), "axes", {-1});
  mb.node("Add", {"v", "eps"}, "ve");
  mb.node("Sqrt", {"ve"}, "s");
  mb.node("Div", {"d", "s"}, "n");
  mb.node("Mul", {"n", "g"}, "ng");
  mb.node("Add", {"ng", "b"}, "y");
  mb.output("y");
  const json map = map_of(import_model(mb.bytes(), "ln.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 1u) << map.dump(1);
  const json& k = map["kernels"][0];
  EXPECT_EQ(k["nodes"].size(), 9u);
  EXPECT_EQ(k["expr"],
            "add(multiply(divide(subtract(x0, mean(x0, [-1])), sqrt(add(mean(multiply(subtract(x0, mean(x0, [-1])), "
            "subtract(x0, mean(x0, [-1]))), [-1]), 9.999999747378752e-06))), 1.5), 0.25)")
      << k["expr"];
  int reductions = 0;
  for (const json& n : k["nodes"]) reductions += n["op_type"] == "ReduceMean";
  EXPECT_EQ(reductions, 2);
  EXPECT_TRUE(map["not_covered"].empty()) << map["not_covered"];
}

TEST(OnnxImport, SoftmaxAxesFollowTheOpset) {
  for (const int opset : {11, 13}) {
    ModelBuilder mb(opset);
    mb.input("x", {2, 3, 8});
    mb.node("Softmax", {"x"}, "y");  // axis: 1 before opset 13 (the axes from it), -1 from it
    mb.output("y");
    const json map = map_of(import_model(mb.bytes(), "softmax.onnx", {}));
    ASSERT_EQ(map["kernels"].size(), 1u) << opset << map.dump(1);
    EXPECT_EQ(map["kernels"][0]["expr"], opset < 13 ? "softmax(x0, [-2, -1])" : "softmax(x0, [-1])");
  }
  // LogSoftmax over an outer axis: not a row kernel, not covered.
  ModelBuilder mb;
  mb.input("x", {2, 3, 8});
  int_attr(mb.node("LogSoftmax", {"x"}, "y"), "axis", 1);
  mb.output("y");
  const json map = map_of(import_model(mb.bytes(), "logsoftmax.onnx", {}));
  EXPECT_TRUE(map["kernels"].empty());
  EXPECT_TRUE(has_not_covered(map, "LogSoftmax", "outer axes")) << map["not_covered"];
}

TEST(OnnxImport, ReduceOpsKeepTheirAxes) {
  ModelBuilder mb;
  mb.input("x", {2, 3, 8});
  ints_attr(mb.node("ReduceSumSquare", {"x"}, "a"), "axes", {2});
  mb.node("Sub", {"x", "a"}, "y");
  mb.output("y");
  ints_attr(mb.node("ReduceMax", {"x"}, "c"), "axes", {1});  // channels: an outer axis
  mb.output("c");
  auto* dropped = mb.node("ReduceMin", {"x"}, "e");
  ints_attr(dropped, "axes", {-1});
  int_attr(dropped, "keepdims", 0);
  mb.output("e");
  const json map = map_of(import_model(mb.bytes(), "reduce.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 2u) << map.dump(1);
  EXPECT_EQ(map["kernels"][0]["expr"], "subtract(x0, sum(multiply(x0, x0), [-1]))");
  EXPECT_TRUE(has_not_covered(map, "ReduceMax", "outer axes")) << map["not_covered"];
  // keepdims=0: the kernel's output keeps the axis (size 1), ONNX's drops it.
  EXPECT_EQ(map["kernels"][1]["expr"], "min(x0, [-1])");
  EXPECT_EQ(map["kernels"][1]["output"]["shape"], json::array({2, 3, 1}));
  EXPECT_EQ(map["kernels"][1]["output"]["onnx_shape"], json::array({2, 3}));
}

// A global average pooling as PyTorch exports x.mean((2, 3)): ReduceMean with
// keepdims=0. Its reader in the same group would see the dropped shape, so
// the group ends at the reduction and the reader is a kernel of its own.
TEST(OnnxImport, KeepdimsZeroEndsTheGroup) {
  ModelBuilder mb;
  mb.input("x", {2, 8, 4, 4});
  mb.input("b", {8});
  auto* mean = mb.node("ReduceMean", {"x"}, "m");
  ints_attr(mean, "axes", {2, 3});
  int_attr(mean, "keepdims", 0);
  mb.node("Add", {"m", "b"}, "y");
  mb.output("y");
  const json map = map_of(import_model(mb.bytes(), "pool.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 2u) << map.dump(1);
  EXPECT_EQ(map["kernels"][0]["expr"], "mean(x0, [-2, -1])");
  EXPECT_EQ(map["kernels"][0]["output"]["onnx_shape"], json::array({2, 8}));
  EXPECT_EQ(map["kernels"][1]["expr"], "add(x0, x1)");
  EXPECT_EQ(map["kernels"][1]["inputs"][0]["shape"], json::array({2, 8}));
}

TEST(OnnxImport, LayerNormalizationIsItsFunctionBody) {
  ModelBuilder mb(17);
  mb.input("x", {4, 16});
  mb.input("g", {16});
  mb.input("b", {16});
  mb.node("LayerNormalization", {"x", "g", "b"}, "y");
  mb.output("y");
  const json map = map_of(import_model(mb.bytes(), "layernorm.onnx", {}));
  ASSERT_EQ(map["kernels"].size(), 1u) << map.dump(1);
  EXPECT_EQ(map["kernels"][0]["expr"],
            "add(multiply(multiply(subtract(x0, mean(x0, [-1])), reciprocal(sqrt(add(mean(multiply(subtract(x0, "
            "mean(x0, [-1])), subtract(x0, mean(x0, [-1]))), [-1]), 9.999999747378752e-06)))), x1), x2)")
      << map["kernels"][0]["expr"];
}
