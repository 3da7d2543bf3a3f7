// gen::parse_spec: a valid spec parses to the right fields; every kind of
// bad input is reported as a Diagnostic with file, line and column (from the
// YAML marks), the kernel's name and a message naming the valid choices; all
// the problems of a spec come back in one SpecError, sorted by line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bcastgen/gen/spec.h"

namespace {

using bcastgen::BroadcastMode;
using bcastgen::DType;
using bcastgen::Isa;
using bcastgen::Op;
using bcastgen::Rule;
using bcastgen::Shape;
using bcastgen::gen::Diagnostic;
using bcastgen::gen::parse_spec;
using bcastgen::gen::Spec;
using bcastgen::gen::SpecError;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// Parses text that must fail; returns the error's diagnostics.
std::vector<Diagnostic> errors_of(const std::string& text, const std::string& file = "model.yaml",
                                  bool* only_rule = nullptr) {
  try {
    parse_spec(text, file);
  } catch (const SpecError& e) {
    if (only_rule) *only_rule = e.only_rule_failures();
    return e.diagnostics();
  }
  ADD_FAILURE() << "parse_spec accepted:\n" << text;
  return {};
}

std::string all_text(const std::vector<Diagnostic>& diags) {
  std::string s;
  for (const auto& d : diags) s += d.text() + "\n";
  return s;
}

// A binary kernel with one field replaced (or added), for error cases.
// Line numbers: 1 "kernels:", 2 "- name", 3 op, 4 dtype, 5 rule, 6 a, 7 b, 8 extra.
std::string kernel(const std::string& op = "add", const std::string& dtype = "f32", const std::string& rule = "numpy",
                   const std::string& a = "[1, 64, 56, 56]", const std::string& b = "[1, 64, 1, 1]",
                   const std::string& extra = "") {
  return "kernels:\n"
         "  - name: bias_add\n"
         "    op: " + op + "\n"
         "    dtype: " + dtype + "\n"
         "    rule: " + rule + "\n"
         "    a: " + a + "\n"
         "    b: " + b + "\n" + extra;
}

const char* kValidSpec = R"(# The worked example.
namespace: demo::nn
isa: [scalar, avx512]
stream_threshold_bytes: 1048576
kernels:
  - name: bias_add            # ResNet NCHW bias add
    op: add
    dtype: f32
    rule: numpy
    a: [1, 64, 56, 56]
    b: [1, 64, 1, 1]
  - name: pdpd_add
    op: multiply
    dtype: i32
    rule: pdpd
    axis: 1
    a: [2, 3, 4, 5]
    b: [3, 1]
  - name: expand
    op: broadcast
    mode: bidirectional
    dtype: u8
    a: [3, 1]
    target: [2, 1, 6]
)";

// ---------------------------------------------------------------------------
// valid input

TEST(SpecParse, ValidSpecFields) {
  const Spec s = parse_spec(kValidSpec, "model.yaml");
  EXPECT_EQ(s.ns, "demo::nn");
  // Sorted best first whatever the order written.
  EXPECT_EQ(s.isas, (std::vector<Isa>{Isa::Avx512, Isa::Scalar}));
  EXPECT_EQ(s.stream_threshold_bytes, 1048576);
  EXPECT_EQ(s.max_elements, std::int64_t{1} << 40);
  ASSERT_EQ(s.kernels.size(), 3u);

  const auto& k0 = s.kernels[0];
  EXPECT_EQ(k0.name, "bias_add");
  EXPECT_EQ(bcastgen::gen::single_op(k0), Op::Add);
  EXPECT_EQ(k0.inputs[0].dtype, DType::F32);
  EXPECT_EQ(k0.rule, Rule::Numpy);
  EXPECT_EQ(k0.inputs[0].shape, (Shape{1, 64, 56, 56}));
  EXPECT_EQ(k0.inputs[1].shape, (Shape{1, 64, 1, 1}));
  EXPECT_EQ(k0.axis, -1);
  EXPECT_EQ(k0.pos.line, 6);
  EXPECT_EQ(k0.pos.column, 5);

  const auto& k1 = s.kernels[1];
  EXPECT_EQ(k1.name, "pdpd_add");
  EXPECT_EQ(bcastgen::gen::single_op(k1), Op::Multiply);
  EXPECT_EQ(k1.inputs[0].dtype, DType::I32);
  EXPECT_EQ(k1.rule, Rule::Pdpd);
  EXPECT_EQ(k1.axis, 1);
  EXPECT_EQ(k1.inputs[0].shape, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(k1.inputs[1].shape, (Shape{3, 1}));
  EXPECT_EQ(k1.pos.line, 12);

  const auto& k2 = s.kernels[2];
  EXPECT_EQ(k2.name, "expand");
  EXPECT_EQ(bcastgen::gen::single_op(k2), Op::Broadcast);
  EXPECT_EQ(k2.mode, BroadcastMode::Bidirectional);
  EXPECT_EQ(k2.inputs[0].dtype, DType::U8);
  EXPECT_EQ(k2.inputs[0].shape, (Shape{3, 1}));
  EXPECT_EQ(k2.target, (Shape{2, 1, 6}));
  EXPECT_TRUE(k2.axes_mapping.empty());
  EXPECT_EQ(k2.pos.line, 19);
}

TEST(SpecParse, DefaultsWhenAbsent) {
  const Spec s = parse_spec(kernel(), "model.yaml");
  EXPECT_EQ(s.isas, bcastgen::gen::default_isas());
#if defined(__x86_64__)
  EXPECT_EQ(s.isas, (std::vector<Isa>{Isa::Avx512Fp16, Isa::Avx512Bf16, Isa::Avx512, Isa::NeonFp16, Isa::Avx2, Isa::Neon,
                                      Isa::Scalar}));
#endif
  EXPECT_EQ(s.ns, "bcastgen_kernels");
  EXPECT_FALSE(s.stream_threshold_bytes.has_value()) << "absent: the CPU kind's thresholds";
}

TEST(SpecParse, JsonIsYaml) {
  const char* json = R"({"namespace": "j", "isa": ["avx2"], "kernels": [
    {"name": "k", "op": "greater", "dtype": "i16", "rule": "numpy", "a": [8, 1, 6, 1], "b": [7, 1, 5]},
    {"name": "e", "op": "broadcast", "mode": "explicit", "dtype": "f64", "a": [16], "target": [1, 16, 50, 50],
     "axes_mapping": [1]}]})";
  const Spec s = parse_spec(json, "spec.json");
  EXPECT_EQ(s.ns, "j");
  EXPECT_EQ(s.isas, (std::vector<Isa>{Isa::Avx2}));
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(bcastgen::gen::single_op(s.kernels[0]), Op::Greater);
  EXPECT_EQ(s.kernels[0].inputs[0].dtype, DType::I16);
  EXPECT_EQ(s.kernels[0].inputs[0].shape, (Shape{8, 1, 6, 1}));
  EXPECT_EQ(s.kernels[0].inputs[1].shape, (Shape{7, 1, 5}));
  EXPECT_EQ(s.kernels[1].mode, BroadcastMode::Explicit);
  EXPECT_EQ(s.kernels[1].axes_mapping, (Shape{1}));
  EXPECT_EQ(s.kernels[1].target, (Shape{1, 16, 50, 50}));

  // And a JSON error has JSON's line and column.
  const auto d = errors_of("{\"kernels\": [\n  {\"name\": \"k\", \"op\": \"plus\", \"dtype\": \"f32\", \"rule\": "
                           "\"numpy\", \"a\": [2], \"b\": [2]}]}",
                           "spec.json");
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].pos.line, 2);
  EXPECT_EQ(d[0].pos.column, 23);
  EXPECT_EQ(d[0].kernel, "k");
  EXPECT_TRUE(contains(d[0].message, "unknown op 'plus'")) << d[0].text();
}

// ---------------------------------------------------------------------------
// one error each

TEST(SpecErrors, MalformedYamlHasLineAndColumn) {
  const auto d = errors_of("kernels:\n  - name: k\n    a: [1, 2\n    b: [3]\n");
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].file, "model.yaml");
  EXPECT_TRUE(contains(d[0].message, "malformed YAML")) << d[0].text();
  // The unclosed list of line 3 is found unclosed at `b:`'s colon on line 4.
  EXPECT_EQ(d[0].pos.line, 4) << d[0].text();
  EXPECT_EQ(d[0].pos.column, 6) << d[0].text();
  EXPECT_EQ(d[0].text().rfind("model.yaml:4:6: malformed YAML: ", 0), 0u) << d[0].text();
  EXPECT_FALSE(d[0].rule_failure);

  const auto indent = errors_of("kernels:\n  - name: k\n     op: [add\n");
  ASSERT_EQ(indent.size(), 1u) << all_text(indent);
  EXPECT_TRUE(contains(indent[0].message, "malformed YAML")) << indent[0].text();
  EXPECT_EQ(indent[0].text().rfind("model.yaml:3:8: malformed YAML: ", 0), 0u) << indent[0].text();
}

TEST(SpecErrors, MissingField) {
  const auto d = errors_of("kernels:\n  - name: k\n    op: add\n    rule: numpy\n    a: [2]\n    b: [2]\n");
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(), "model.yaml:2:5: kernel 'k': missing field 'dtype'");

  const auto nob = errors_of("kernels:\n  - name: k\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n");
  ASSERT_EQ(nob.size(), 1u) << all_text(nob);
  EXPECT_EQ(nob[0].text(), "model.yaml:2:5: kernel 'k': missing field 'b'");

  const auto nokernels = errors_of("namespace: x\n");
  ASSERT_EQ(nokernels.size(), 1u) << all_text(nokernels);
  EXPECT_TRUE(contains(nokernels[0].message, "missing field 'kernels'")) << nokernels[0].text();
}

TEST(SpecErrors, UnknownField) {
  const auto d = errors_of(kernel("add", "f32", "numpy", "[2]", "[2]", "    shape: [2]\n"));
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].pos.line, 8);
  EXPECT_EQ(d[0].pos.column, 5);
  EXPECT_EQ(d[0].kernel, "bias_add");
  EXPECT_EQ(d[0].message, "unknown field 'shape' for a binary kernel (valid: a, axis, b, compute, dtype, name, op, rule)");

  const auto top = errors_of("namspace: x\n" + kernel("add", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(top.size(), 1u) << all_text(top);
  EXPECT_EQ(top[0].text(),
            "model.yaml:1:1: unknown field 'namspace' (valid: namespace, isa, cpu, kernels, stream_threshold_bytes, "
            "max_elements, accuracy)");
}

// `accuracy: fast` maps sigmoid, silu, tanh and gelu to their fast forms, for
// every kernel from the spec's top level or for one kernel; `exact` keeps a
// kernel exact under a fast spec. Other functions have no fast form.
TEST(SpecParse, AccuracyPicksTheFastTier) {
  auto unary_ops = [](const bcastgen::gen::KernelSpec& k) {
    std::vector<bcastgen::UnaryOp> ops;
    for (const auto& node : k.expr.nodes) {
      if (node.kind == bcastgen::ExprKind::Unary) ops.push_back(node.unary);
    }
    return ops;
  };
  using U = bcastgen::UnaryOp;
  const std::string kernels =
      "kernels:\n"
      "  - {name: a, inputs: {x: [4]}, expr: 'sigmoid(x) + silu(x) * tanh(x) + exp(x) + gelu(x) + gelu_tanh(x) + log(x) + softplus(x) + erf(x)'}\n"
      "  - {name: b, inputs: {x: [4]}, expr: 'sigmoid(x)', accuracy: exact}\n"
      "  - {name: c, inputs: {x: [4]}, expr: 'tanh(x)', accuracy: fast}\n";
  const Spec exact = parse_spec(kernels, "s.yaml");
  EXPECT_EQ(unary_ops(exact.kernels[0]), (std::vector<U>{U::Sigmoid, U::Silu, U::Tanh, U::Exp, U::Gelu, U::GeluTanh, U::Log, U::Softplus, U::Erf}));
  EXPECT_EQ(unary_ops(exact.kernels[1]), (std::vector<U>{U::Sigmoid}));
  EXPECT_EQ(unary_ops(exact.kernels[2]), (std::vector<U>{U::FastTanh}));
  const Spec fast = parse_spec("accuracy: fast\n" + kernels, "s.yaml");
  EXPECT_EQ(unary_ops(fast.kernels[0]), (std::vector<U>{U::FastSigmoid, U::FastSilu, U::FastTanh, U::Exp, U::FastGelu,
                                                        U::FastGeluTanh, U::FastLog, U::FastSoftplus, U::FastErf}));
  EXPECT_EQ(unary_ops(fast.kernels[1]), (std::vector<U>{U::Sigmoid}));
  EXPECT_EQ(unary_ops(fast.kernels[2]), (std::vector<U>{U::FastTanh}));

  const auto top = errors_of("accuracy: quick\n" + kernels);
  ASSERT_EQ(top.size(), 1u) << all_text(top);
  EXPECT_EQ(top[0].text(), "model.yaml:1:11: unknown accuracy 'quick' (valid: exact, fast)");
  const auto one = errors_of("kernels:\n  - {name: k, inputs: {x: [4]}, expr: 'tanh(x)', accuracy: 1ulp}\n");
  ASSERT_EQ(one.size(), 1u) << all_text(one);
  EXPECT_EQ(one[0].text(), "model.yaml:2:60: kernel 'k': unknown accuracy '1ulp' (valid: exact, fast)");
  // An op kernel has no functions to pick a tier for.
  const auto op = errors_of(kernel("add", "f32", "numpy", "[2]", "[2]", "    accuracy: fast\n"));
  ASSERT_EQ(op.size(), 1u) << all_text(op);
  EXPECT_TRUE(contains(op[0].message, "unknown field 'accuracy' for a binary kernel")) << op[0].text();
}

TEST(SpecErrors, FieldNamesAreStringsGivenOnce) {
  // A list as a key used to escape parse_spec as a YAML::TypedBadConversion.
  const auto top = errors_of("? [x]\n: 1\n" + kernel("add", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(top.size(), 1u) << all_text(top);
  EXPECT_EQ(top[0].text(), "model.yaml:1:3: a field name must be a string, got a list");

  const auto in_kernel = errors_of(kernel("add", "f32", "numpy", "[2]", "[2]", "    ? {x: 1}\n    : 2\n"));
  ASSERT_EQ(in_kernel.size(), 1u) << all_text(in_kernel);
  EXPECT_EQ(in_kernel[0].text(), "model.yaml:8:7: kernel 'bias_add': a field name must be a string, got a map");

  // A repeated key used to be accepted silently, the first value winning.
  const auto twice = errors_of(kernel("add", "f32", "numpy", "[2]", "[2]", "    b: [3]\n"));
  ASSERT_EQ(twice.size(), 1u) << all_text(twice);
  EXPECT_EQ(twice[0].text(), "model.yaml:8:5: kernel 'bias_add': field 'b' is given twice");
  const auto top_twice = errors_of("namespace: x\nnamespace: y\n" + kernel("add", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(top_twice.size(), 1u) << all_text(top_twice);
  EXPECT_EQ(top_twice[0].text(), "model.yaml:2:1: field 'namespace' is given twice");
}

TEST(SpecErrors, UnknownNamesListTheValidOnes) {
  const auto op = errors_of(kernel("plus", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(op.size(), 1u) << all_text(op);
  EXPECT_EQ(op[0].pos.line, 3);
  EXPECT_EQ(op[0].pos.column, 9);
  // Every op of the table, in its order.
  std::string valid_ops;
  for (const bcastgen::OpInfo& o : bcastgen::kOpInfo) valid_ops += (valid_ops.empty() ? "" : ", ") + std::string(o.name);
  EXPECT_EQ(op[0].text(), "model.yaml:3:9: kernel 'bias_add': unknown op 'plus' (valid: " + valid_ops + ")");
  EXPECT_EQ(valid_ops.rfind("add, subtract, multiply, divide, ", 0), 0u) << valid_ops;
  EXPECT_NE(valid_ops.find(", bitwise_right_shift, broadcast"), std::string::npos) << valid_ops;

  const auto dt = errors_of(kernel("add", "float32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(dt.size(), 1u) << all_text(dt);
  EXPECT_EQ(dt[0].text(),
            "model.yaml:4:12: kernel 'bias_add': unknown dtype 'float32' (valid: f32, f64, i8, u8, i16, u16, i32, "
            "u32, i64, u64, bool, f16, bf16)");

  const auto rule = errors_of(kernel("add", "f32", "numpi", "[2]", "[2]"));
  ASSERT_EQ(rule.size(), 1u) << all_text(rule);
  EXPECT_EQ(rule[0].text(), "model.yaml:5:11: kernel 'bias_add': unknown rule 'numpi' (valid: none, numpy, pdpd, paddle)");

  const auto mode = errors_of("kernels:\n  - name: e\n    op: broadcast\n    mode: both\n    dtype: f32\n"
                              "    a: [3]\n    target: [2, 3]\n");
  ASSERT_EQ(mode.size(), 1u) << all_text(mode);
  EXPECT_EQ(mode[0].text(),
            "model.yaml:4:11: kernel 'e': unknown mode 'both' (valid: numpy, explicit, bidirectional, pdpd)");

  const auto isa = errors_of("isa: [avx512, sse2]\n" + kernel("add", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(isa.size(), 1u) << all_text(isa);
  EXPECT_EQ(isa[0].text(), "model.yaml:1:15: unknown isa 'sse2' (valid: avx512fp16, avx512bf16, avx512, neonfp16, avx2, neon, scalar)");
}

TEST(SpecErrors, WrongType) {
  const auto quoted = errors_of(kernel("add", "f32", "numpy", "\"12\"", "[2]"));
  ASSERT_EQ(quoted.size(), 1u) << all_text(quoted);
  EXPECT_EQ(quoted[0].pos.line, 6);
  EXPECT_EQ(quoted[0].pos.column, 8);
  EXPECT_EQ(quoted[0].message, "'a' must be a list of dims like [1, 64, 56, 56], got the string \"12\"");

  const auto dim = errors_of(kernel("add", "f32", "numpy", "[2, \"12\"]", "[2]"));
  ASSERT_EQ(dim.size(), 1u) << all_text(dim);
  EXPECT_EQ(dim[0].text(), "model.yaml:6:12: kernel 'bias_add': 'a[1]' must be an integer, got the string \"12\"");

  const auto fl = errors_of(kernel("add", "f32", "numpy", "[2.5]", "[2]"));
  ASSERT_EQ(fl.size(), 1u) << all_text(fl);
  EXPECT_EQ(fl[0].message, "'a[0]' must be an integer, got '2.5'");

  const auto axis = errors_of(kernel("add", "f32", "pdpd", "[2]", "[2]", "    axis: one\n"));
  ASSERT_EQ(axis.size(), 1u) << all_text(axis);
  EXPECT_EQ(axis[0].text(), "model.yaml:8:11: kernel 'bias_add': 'axis' must be an integer, got 'one'");
}

TEST(SpecErrors, NegativeDim) {
  const auto d = errors_of(kernel("add", "f32", "numpy", "[2, -3, 4]", "[4]"));
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(), "model.yaml:6:12: kernel 'bias_add': 'a' has negative dim -3 at position 1");
  EXPECT_FALSE(d[0].rule_failure);
}

TEST(SpecErrors, ShapesThatDoNotBroadcast) {
  bool only_rule = false;
  const auto d = errors_of(kernel("add", "f32", "numpy", "[1, 64, 56, 56]", "[1, 63, 1, 1]"), "model.yaml",
                           &only_rule);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  // Reported at the value of `b:` (line 7, column 8).
  EXPECT_EQ(d[0].text(),
            "model.yaml:7:8: kernel 'bias_add': numpy: a [1,64,56,56] and b [1,63,1,1] do not broadcast: axis 1 "
            "has 64 vs 63");
  EXPECT_EQ(d[0].file, "model.yaml");
  EXPECT_EQ(d[0].kernel, "bias_add");
  EXPECT_TRUE(d[0].rule_failure);
  EXPECT_TRUE(only_rule);

  // A broadcast kernel reports at its target.
  const auto t = errors_of("kernels:\n  - name: e\n    op: broadcast\n    mode: numpy\n    dtype: f32\n"
                           "    a: [4, 3]\n    target:   [2, 3]\n");
  ASSERT_EQ(t.size(), 1u) << all_text(t);
  EXPECT_EQ(t[0].pos.line, 7);
  EXPECT_EQ(t[0].pos.column, 15);
  EXPECT_TRUE(t[0].rule_failure);
}

// expand()'s targets join the output's shape under the numpy rule: another
// rule is an error, and a target that does not broadcast is named.
TEST(SpecErrors, ExpandTargets) {
  const auto r =
      errors_of("kernels:\n  - name: e\n    rule: none\n    inputs: {x: [3]}\n    expr: expand(x, [2, 3])\n");
  ASSERT_EQ(r.size(), 1u) << all_text(r);
  EXPECT_NE(r[0].text().find("kernel 'e': expand() broadcasts under rule numpy; this kernel's rule is none"),
            std::string::npos)
      << r[0].text();
  const auto b = errors_of("kernels:\n  - name: e\n    inputs: {x: [3]}\n    expr: expand(x, [2, 4])\n");
  ASSERT_EQ(b.size(), 1u) << all_text(b);
  EXPECT_NE(b[0].text().find("x [3] and expand target [2,4] do not broadcast"), std::string::npos) << b[0].text();
}

TEST(SpecErrors, PdpdAxisBelowMinusOne) {
  bool only_rule = true;
  const auto d =
      errors_of(kernel("add", "f32", "pdpd", "[2, 3, 4, 5]", "[3, 1]", "    axis: -2\n"), "model.yaml", &only_rule);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].pos.line, 8);
  EXPECT_EQ(d[0].pos.column, 11);
  EXPECT_TRUE(contains(d[0].message, "axis -2 is invalid")) << d[0].text();
  EXPECT_FALSE(d[0].rule_failure);  // malformed input, not a rule failure
  EXPECT_FALSE(only_rule);

  // An axis that parses but does not fit is a rule failure.
  const auto fit =
      errors_of(kernel("add", "f32", "pdpd", "[2, 3, 4, 5]", "[4, 5]", "    axis: 3\n"), "model.yaml", &only_rule);
  ASSERT_EQ(fit.size(), 1u) << all_text(fit);
  EXPECT_TRUE(fit[0].rule_failure);
  EXPECT_TRUE(only_rule);

  // axis on a numpy kernel is rejected.
  const auto stray = errors_of(kernel("add", "f32", "numpy", "[2]", "[2]", "    axis: 0\n"));
  ASSERT_EQ(stray.size(), 1u) << all_text(stray);
  EXPECT_EQ(stray[0].message, "'axis' applies only to rules pdpd and paddle, and mode pdpd");

  // paddle takes an axis; outside [0, rank difference] it is malformed, not a rule failure.
  const Spec paddle = parse_spec(kernel("add", "f32", "paddle", "[2, 1, 4]", "[3, 1]", "    axis: 1\n"), "model.yaml");
  ASSERT_EQ(paddle.kernels.size(), 1u);
  EXPECT_EQ(paddle.kernels[0].rule, bcastgen::Rule::Paddle);
  EXPECT_EQ(paddle.kernels[0].axis, 1);
  const auto paddle_range =
      errors_of(kernel("add", "f32", "paddle", "[2, 3, 4, 5]", "[4, 5]", "    axis: 3\n"), "model.yaml", &only_rule);
  ASSERT_EQ(paddle_range.size(), 1u) << all_text(paddle_range);
  EXPECT_FALSE(paddle_range[0].rule_failure);
  EXPECT_NE(paddle_range[0].message.find("axis 3 is invalid"), std::string::npos) << paddle_range[0].message;
}

TEST(SpecErrors, ExplicitWithoutAxesMapping) {
  const auto d = errors_of("kernels:\n  - name: e\n    op: broadcast\n    mode: explicit\n    dtype: f32\n"
                           "    a: [16]\n    target: [1, 16, 50, 50]\n");
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(), "model.yaml:2:5: kernel 'e': mode explicit needs 'axes_mapping'");
  EXPECT_FALSE(d[0].rule_failure);
}

TEST(SpecErrors, DtypeNotSupportedByOp) {
  const auto d = errors_of(kernel("logical_and", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(), "model.yaml:4:12: kernel 'bias_add': op 'logical_and' does not support dtype 'f32' (valid: bool)");

  const auto bits = errors_of(kernel("bitwise_xor", "f64", "numpy", "[2]", "[2]"));
  ASSERT_EQ(bits.size(), 1u) << all_text(bits);
  EXPECT_EQ(bits[0].message,
            "op 'bitwise_xor' does not support dtype 'f64' (valid: i8, u8, i16, u16, i32, u32, i64, u64, bool)");
}

TEST(SpecErrors, DuplicateKernelNames) {
  const std::string one = "  - name: k\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n";
  const auto d = errors_of("kernels:\n" + one + one);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(), "model.yaml:8:5: kernel 'k': duplicate kernel name 'k'");
}

// A kernel named like a SIMD wrapper, or like what generated code declares
// inside a kernel's namespace, is fine: the wrappers are called through a
// block-scope alias (v::add_f32) and the checked entry calls its kernel
// qualified (tests/names/ compiles them all).
TEST(SpecErrors, NamesOfTheWrappersAreAccepted) {
  std::string text = "kernels:\n";
  for (const char* name : {"add_f32", "load_f32", "add_i32", "v", "x4", "select", "avx512", "Fn", "bcastgen"}) {
    text += std::string("  - name: ") + name + "\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n";
  }
  EXPECT_NO_THROW(bcastgen::gen::parse_spec(text, "model.yaml"));
}

// What generated code emits beside a kernel, and the global names it spells
// unqualified, are refused with the kernel, the clash and a remedy.
TEST(SpecErrors, NamesThatClashWithGeneratedCode) {
  auto one = [](const std::string& name) {
    return "  - name: " + name + "\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n";
  };
  const std::vector<std::pair<std::string, std::string>> derived = {
      {"k_checked", "checked entry point"},      {"k_range", "range entry point"},
      {"k_isa", "entry point for a chosen ISA"}, {"k_outer_extent", "C accessor of the split loop's extent"},
      {"k_impl", "namespace of the ISA variants"}, {"k_shape", "namespace of the shapes"},
      {"k_erased", "type-erased table entry"},   {"k_range_erased", "type-erased range entry"},
      {"k_inputs", "table of input rows"},       {"k_nodes", "table of expression nodes"}};
  for (const auto& [name, role] : derived) {
    const auto d = errors_of("namespace: m\nkernels:\n" + one("k") + one(name));
    ASSERT_EQ(d.size(), 1u) << name << "\n" << all_text(d);
    EXPECT_EQ(d[0].text(), "model.yaml:9:5: kernel '" + name + "': kernel name '" + name + "' is the " + role +
                               " that bcastgen emits for kernel 'k': rename one of them");
  }
  auto message = [&](const std::string& name) {
    const auto d = errors_of("namespace: my::model\nkernels:\n" + one(name));
    return d.size() == 1 ? d[0].message : all_text(d);
  };
  EXPECT_EQ(message("last_error"),
            "kernel name 'last_error' would make its C entry point my_model_last_error, the generated file's "
            "last-error function: rename the kernel");
  EXPECT_EQ(message("BCASTGEN_KERNEL"),
            "kernel name 'BCASTGEN_KERNEL' starts with BCASTGEN_, the prefix of bcastgen's macros: rename the kernel");
  for (const std::string global : {"float32x4_t", "uint8x16_t", "_mm_sfence", "_mm512_setr_epi32", "_bzhi_u64"}) {
    EXPECT_EQ(message(global), "kernel name '" + global +
                                   "' is a name of the ISA headers that the generated code uses (a vector type or an "
                                   "intrinsic, templates/vocabulary.yaml); the kernel's entry point would hide it: "
                                   "rename the kernel");
  }
  // Alone, a name that is only some other kernel's symbol is fine.
  EXPECT_NO_THROW(bcastgen::gen::parse_spec("kernels:\n" + one("k_range"), "model.yaml"));
}

TEST(SpecErrors, NamesMustBeIdentifiers) {
  for (const std::string bad : {"2fast", "bias-add", "has space", "a__b", "_Upper"}) {
    const auto d = errors_of("kernels:\n  - name: \"" + bad +
                             "\"\n    op: add\n    dtype: f32\n    rule: numpy\n    a: [2]\n    b: [2]\n");
    ASSERT_EQ(d.size(), 1u) << bad << "\n" << all_text(d);
    EXPECT_EQ(d[0].text(), "model.yaml:2:11: kernel name '" + bad + "' is not a valid C++ identifier") << bad;
  }
  const auto kw = errors_of("kernels:\n  - name: class\n    op: add\n    dtype: f32\n    rule: numpy\n"
                            "    a: [2]\n    b: [2]\n");
  ASSERT_EQ(kw.size(), 1u) << all_text(kw);
  EXPECT_EQ(kw[0].text(), "model.yaml:2:11: kernel name 'class' is not a valid C++ identifier (it is a keyword)");

  const auto ns = errors_of("namespace: a::int\n" + kernel("add", "f32", "numpy", "[2]", "[2]"));
  ASSERT_EQ(ns.size(), 1u) << all_text(ns);
  EXPECT_EQ(ns[0].message, "namespace 'a::int' is not a valid C++ namespace ('int')");

  EXPECT_TRUE(bcastgen::gen::is_cpp_identifier("bias_add2"));
  EXPECT_TRUE(bcastgen::gen::is_cpp_identifier("_x"));
  EXPECT_FALSE(bcastgen::gen::is_cpp_identifier("while"));
  EXPECT_FALSE(bcastgen::gen::is_cpp_identifier(""));
}

TEST(SpecErrors, EmptySpec) {
  const auto list = errors_of("namespace: x\nkernels: []\n");
  ASSERT_EQ(list.size(), 1u) << all_text(list);
  EXPECT_EQ(list[0].text(), "model.yaml:2:10: empty spec: 'kernels' lists no kernel");

  const auto file = errors_of("");
  ASSERT_EQ(file.size(), 1u) << all_text(file);
  EXPECT_EQ(file[0].text(), "model.yaml: empty spec: expected a map with 'kernels'");
  EXPECT_EQ(file[0].kernel, "");

  const auto comment = errors_of("# nothing yet\n");
  ASSERT_EQ(comment.size(), 1u) << all_text(comment);
  EXPECT_TRUE(contains(comment[0].message, "empty spec")) << comment[0].text();
}

TEST(SpecErrors, ElementCountAboveMaxElements) {
  const auto d = errors_of("max_elements: 100000\n" + kernel());
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].text(),
            "model.yaml:3:5: kernel 'bias_add': shape [1,64,56,56] has 200704 elements, more than max_elements "
            "100000");
  EXPECT_FALSE(d[0].rule_failure);
  // At the limit is fine.
  EXPECT_NO_THROW(parse_spec("max_elements: 200704\n" + kernel(), "model.yaml"));
}

// ---------------------------------------------------------------------------
// many errors at once

TEST(SpecErrors, AllErrorsInOneSpecErrorSortedByLine) {
  const char* text = R"(namespace: demo
kernels:
  - name: good
    op: add
    dtype: f32
    rule: numpy
    a: [2, 3]
    b: [3]
  - name: mismatch
    op: add
    dtype: f32
    rule: numpy
    a: [1, 64, 56, 56]
    b: [1, 63, 1, 1]
  - name: bad_op
    op: plus
    dtype: f32
    rule: numpy
    a: [2]
    b: [2]
  - name: neg
    op: add
    dtype: f32
    rule: numpy
    a: [2, -1]
    b: [2]
  - name: good
    op: add
    dtype: f32
    rule: numpy
    a: [2]
    b: [2]
  - name: logic
    op: logical_or
    dtype: i32
    rule: numpy
    a: [2]
    b: [2]
bogus: 1
)";
  bool only_rule = true;
  const auto d = errors_of(text, "multi.yaml", &only_rule);
  ASSERT_EQ(d.size(), 6u) << all_text(d);
  EXPECT_FALSE(only_rule);
  for (std::size_t i = 1; i < d.size(); ++i) {
    EXPECT_LE(d[i - 1].pos.line, d[i].pos.line) << all_text(d);
  }
  for (const auto& x : d) EXPECT_EQ(x.file, "multi.yaml");
  EXPECT_EQ(d[0].pos.line, 14);
  EXPECT_EQ(d[0].kernel, "mismatch");
  EXPECT_TRUE(d[0].rule_failure);
  EXPECT_EQ(d[1].pos.line, 16);
  EXPECT_EQ(d[1].kernel, "bad_op");
  EXPECT_EQ(d[2].pos.line, 25);
  EXPECT_EQ(d[2].kernel, "neg");
  EXPECT_EQ(d[3].pos.line, 27);
  EXPECT_EQ(d[3].message, "duplicate kernel name 'good'");
  EXPECT_EQ(d[4].pos.line, 35);
  EXPECT_EQ(d[4].kernel, "logic");
  EXPECT_EQ(d[5].pos.line, 39);
  EXPECT_TRUE(contains(d[5].message, "unknown field 'bogus'")) << d[5].text();

  // The exception's what() lists them all, one per line.
  try {
    parse_spec(text, "multi.yaml");
  } catch (const SpecError& e) {
    const std::string what = e.what();
    EXPECT_EQ(static_cast<int>(std::count(what.begin(), what.end(), '\n')), 5) << what;
    EXPECT_EQ(what.rfind("multi.yaml:14:", 0), 0u) << what;
  }
}

TEST(SpecErrors, OnlyRuleFailures) {
  const std::string two_mismatches = R"(kernels:
  - name: a1
    op: add
    dtype: f32
    rule: numpy
    a: [3, 1, 5]
    b: [4, 4, 5]
  - name: a2
    op: subtract
    dtype: f32
    rule: none
    a: [2, 3]
    b: [3]
)";
  bool only_rule = false;
  const auto d = errors_of(two_mismatches, "r.yaml", &only_rule);
  ASSERT_EQ(d.size(), 2u) << all_text(d);
  EXPECT_TRUE(only_rule);
  EXPECT_TRUE(d[0].rule_failure && d[1].rule_failure);

  // One bad-input diagnostic among rule failures makes it bad input.
  const auto mixed = errors_of(two_mismatches + "  - name: a3\n    op: add\n    dtype: f8\n    rule: numpy\n"
                                                "    a: [2]\n    b: [2]\n",
                               "r.yaml", &only_rule);
  ASSERT_EQ(mixed.size(), 3u) << all_text(mixed);
  EXPECT_FALSE(only_rule);

  // SpecError built directly.
  Diagnostic rule;
  rule.rule_failure = true;
  Diagnostic bad;
  EXPECT_TRUE(SpecError({rule, rule}).only_rule_failures());
  EXPECT_FALSE(SpecError({rule, bad}).only_rule_failures());
  EXPECT_FALSE(SpecError({bad}).only_rule_failures());
}

TEST(SpecErrors, DiagnosticText) {
  Diagnostic d;
  d.file = "f.yaml";
  d.message = "m";
  EXPECT_EQ(d.text(), "f.yaml: m");
  d.pos = {3, 7};
  d.kernel = "k";
  EXPECT_EQ(d.text(), "f.yaml:3:7: kernel 'k': m");
}

TEST(SpecValidate, InMemorySpecIsCheckedToo) {
  Spec s;
  s.kernels.push_back(bcastgen::gen::binary_kernel("k", Op::Add, DType::F32, Rule::Numpy, {3, 1, 5}, {4, 4, 5}));
  try {
    bcastgen::gen::validate_spec(s, "mem");
    ADD_FAILURE() << "validate_spec accepted a mismatch";
  } catch (const SpecError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics()[0].text(),
              "mem: kernel 'k': numpy: a [3,1,5] and b [4,4,5] do not broadcast: axis 0 has 3 vs 4");
    EXPECT_TRUE(e.only_rule_failures());
  }
  s.kernels[0].inputs[1].shape = {1, 5};
  EXPECT_NO_THROW(bcastgen::gen::validate_spec(s, "mem"));
}

}  // namespace

namespace {

// An in-memory expression kernel is checked with the reference evaluator's
// DAG check: a mistyped node and an unused input are reported.
TEST(SpecValidate, InMemoryExpressionDagIsChecked) {
  Spec s;
  s.kernels.push_back(bcastgen::gen::binary_kernel("k", Op::Add, DType::F32, Rule::Numpy, {4}, {4}));
  EXPECT_NO_THROW(bcastgen::gen::validate_spec(s, "mem"));
  s.kernels[0].expr.nodes[2].dtype = DType::I32;  // add of f32 typed as i32
  try {
    bcastgen::gen::validate_spec(s, "mem");
    ADD_FAILURE() << "validate_spec accepted a mistyped node";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("expression: node 2: the result is i32, expected f32"), std::string::npos)
        << e.what();
  }
  s.kernels[0].expr.nodes[2].dtype = DType::F32;
  s.kernels[0].expr.nodes[1].input = 0;  // b is no longer read
  s.kernels[0].expr.nodes[1].dtype = DType::F32;
  try {
    bcastgen::gen::validate_spec(s, "mem");
    ADD_FAILURE() << "validate_spec accepted an unused input";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("input 'b' is declared but the expression does not use it"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
