// One mapping per ONNX op type. Each follows the operator's definition in
// ONNX's Operators.md (opsets 7 to 20) and says where bcastgen's op differs.
// Older opsets map too where a node has none of their old attributes (the
// binary ops' `broadcast`/`axis` of opsets 1-6 are refused as unknown
// attributes; their other forms are the same operations).
#include "node_map.h"

#include <fmt/format.h>

#include <cfloat>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>

#include "bcastgen/reference.h"

namespace bcastgen::onnx_import {

// --- FoldingBuilder ---------------------------------------------------------

Value FoldingBuilder::number(double value, DType dtype, const std::string& origin) {
  if (dtype == DType::Bool) return b_->literal_bool(value != 0, origin);
  if (!dtype_info(dtype).is_float && value >= -0x1p63 && value < 0x1p63 && value == static_cast<std::int64_t>(value)) {
    return b_->literal_int(static_cast<std::int64_t>(value), dtype, origin);
  }
  return b_->literal(value, dtype, origin);
}

std::optional<Value> FoldingBuilder::literal(const Constant& c, const std::string& origin) {
  try {
    if (dtype_info(c.dtype).is_float || c.dtype == DType::Bool) return number(c.number(), c.dtype, origin);
    return b_->literal_int(c.integer(), c.dtype, origin);
  } catch (const gen::ExprBuildError&) {
    return std::nullopt;
  }
}

Value FoldingBuilder::binary(Op op, Value a, Value b, const std::string& origin) {
  return fold(b_->binary(op, a, b, origin), origin);
}
Value FoldingBuilder::unary(UnaryOp op, Value x, const std::string& origin) {
  return fold(b_->unary(op, x, origin), origin);
}
Value FoldingBuilder::where(Value c, Value x, Value y, const std::string& origin) {
  return fold(b_->where(c, x, y, origin), origin);
}
Value FoldingBuilder::cast(Value x, DType dtype, const std::string& origin) {
  return fold(b_->cast(x, dtype, origin), origin);
}

// An operation whose operands are all literals is computed now, by the
// scalar reference (ops.h, as every kernel computes it), and becomes a
// literal; a result that is no literal (inf, NaN, a u64 above 2^63) stays
// an operation.
Value FoldingBuilder::fold(Value v, const std::string& origin) {
  const ExprNode& n = b_->node_at(v);
  if (n.kind == ExprKind::Literal || n.kind == ExprKind::Input || n.kind == ExprKind::Expand) return v;
  ExprDag dag;
  ExprNode op = n;
  op.args.clear();
  for (std::size_t a : n.args) {
    if (!is_literal(a)) return v;
    op.args.push_back(dag.nodes.size());
    dag.nodes.push_back(b_->node_at(a));
  }
  dag.nodes.push_back(op);
  dag.root = dag.nodes.size() - 1;
  alignas(8) unsigned char out[8] = {};
  reference::evaluate(dag, {}, Rule::Numpy, -1, out);
  Constant c;
  c.dtype = n.dtype;
  c.uniform = true;
  c.bytes.assign(out, out + dtype_info(n.dtype).size);
  return literal(c, origin).value_or(v);
}

namespace {

// The node being mapped and what a mapping needs to read it.
struct Mapping {
  const onnx::NodeProto& node;
  std::int64_t opset;
  NodeOperands& in;
  FoldingBuilder& b;
  std::string origin;

  bool present(int k) const { return k < node.input_size() && !node.input(k).empty(); }
  Value operand(int k) {
    if (!present(k)) throw NotCovered{fmt::format("input {} is missing", k)};
    return in.value(k);
  }
  const onnx::AttributeProto* attr(const char* name) const {
    for (const auto& a : node.attribute()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  double attr_f(const char* name, double fallback) const {
    const auto* a = attr(name);
    return a ? a->f() : fallback;
  }
  std::int64_t attr_i(const char* name, std::int64_t fallback) const {
    const auto* a = attr(name);
    return a ? a->i() : fallback;
  }
  std::string attr_s(const char* name, const std::string& fallback) const {
    const auto* a = attr(name);
    return a ? a->s() : fallback;
  }
  // Attributes other than `known` change the meaning in ways not mapped.
  void only_attributes(std::initializer_list<const char*> known) const {
    for (const auto& a : node.attribute()) {
      bool ok = false;
      for (const char* k : known) ok = ok || a.name() == k;
      if (!ok) throw NotCovered{"attribute '" + a.name() + "' is not supported"};
    }
  }
  Value lit(double v, Value like) { return b.number(v, b.dtype(like), origin); }
  Value bin(Op op, Value x, Value y) { return b.binary(op, x, y, origin); }
  Value un(UnaryOp op, Value x) { return b.unary(op, x, origin); }
  bool is_float(Value v) const { return dtype_info(b.dtype(v)).is_float; }
};

using MapFn = std::function<Value(Mapping&)>;

MapFn binary_op(Op op) {
  return [op](Mapping& m) {
    m.only_attributes({});
    const Value a = m.operand(0);  // in order: parameters are numbered as first read
    return m.bin(op, a, m.operand(1));
  };
}

MapFn unary_op(UnaryOp op) {
  return [op](Mapping& m) {
    m.only_attributes({});
    return m.un(op, m.operand(0));
  };
}

// Max, Min, Sum: a left fold over the operands, broadcasting as they go.
MapFn variadic(Op op) {
  return [op](Mapping& m) {
    m.only_attributes({});
    Value acc = m.operand(0);
    for (int k = 1; k < m.node.input_size(); ++k) acc = m.bin(op, acc, m.operand(k));
    return acc;
  };
}

// x < 0 ? negative : x, the shape of every "leaky" activation.
Value where_negative(Mapping& m, Value x, Value negative) {
  return m.b.where(m.bin(Op::Less, x, m.lit(0, x)), negative, x, m.origin);
}

// max(lo, min(hi, v)): HardSigmoid's clip to [0, 1]; NaN stays NaN.
Value clip01(Mapping& m, Value v) { return m.bin(Op::Maximum, m.bin(Op::Minimum, v, m.lit(1, v)), m.lit(0, v)); }

Value map_div(Mapping& m) {
  m.only_attributes({});
  const Value a = m.operand(0), b = m.operand(1);
  if (dtype_info(m.b.dtype(a)).is_signed && !m.is_float(a)) {
    throw NotCovered{"ONNX's signed integer Div truncates toward zero; bcastgen's divide floors"};
  }
  return m.bin(Op::Divide, a, b);
}

Value map_pow(Mapping& m) {
  m.only_attributes({});
  const Value x = m.operand(0);
  Value y = m.operand(1);
  if (m.b.dtype(y) != m.b.dtype(x)) y = m.b.cast(y, m.b.dtype(x), m.origin);  // ONNX: Y may have its own type
  // x^2 (the variance of an exported LayerNorm, RMSNorm's mean square) is
  // x * x: the exact square rounded once, the bits of a correctly rounded
  // pow, for one multiply where pow takes a log and an exp (0.35x ONNX
  // Runtime's Pow on those groups, which special-cases 2).
  if (m.is_float(x) && m.b.is_literal(y) && m.b.raw().node_at(y).literal.f == 2.0) return m.bin(Op::Multiply, x, x);
  return m.bin(Op::Power, x, y);
}

Value map_mod(Mapping& m) {
  m.only_attributes({"fmod"});
  const Value a = m.operand(0), b = m.operand(1);
  if (m.attr_i("fmod", 0) != 0) return m.bin(Op::Mod, a, b);  // C fmod: the dividend's sign
  if (m.is_float(a)) throw NotCovered{"Mod of floats needs fmod=1"};
  return m.bin(Op::FloorMod, a, b);  // the divisor's sign, as Python's %
}

Value map_mean(Mapping& m) {
  const Value sum = variadic(Op::Add)(m);
  return m.bin(Op::Divide, sum, m.lit(m.node.input_size(), sum));
}

Value map_clip(Mapping& m) {
  Value x = m.operand(0);
  if (m.opset < 11) {  // bounds are attributes, defaulting to float's range
    m.only_attributes({"min", "max"});
    x = m.bin(Op::Maximum, x, m.lit(m.attr_f("min", -FLT_MAX), x));
    return m.bin(Op::Minimum, x, m.lit(m.attr_f("max", FLT_MAX), x));
  }
  m.only_attributes({});
  if (m.present(1)) x = m.bin(Op::Maximum, x, m.operand(1));
  if (m.present(2)) x = m.bin(Op::Minimum, x, m.operand(2));
  return x;
}

Value map_bitshift(Mapping& m) {
  m.only_attributes({"direction"});
  const std::string direction = m.attr_s("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") throw NotCovered{"direction must be LEFT or RIGHT"};
  const Value x = m.operand(0);
  return m.bin(direction == "LEFT" ? Op::BitwiseLeftShift : Op::BitwiseRightShift, x, m.operand(1));
}

Value map_cast(Mapping& m) {
  m.only_attributes({"to", "saturate"});
  const std::optional<DType> to = dtype_of(static_cast<int>(m.attr_i("to", 0)));
  if (!to) throw NotCovered{"Cast to " + onnx_type_name(static_cast<int>(m.attr_i("to", 0))) + " is not supported"};
  return m.b.cast(m.operand(0), *to, m.origin);
}

Value map_cast_like(Mapping& m) {
  m.only_attributes({"saturate"});
  const std::optional<TensorType> like = m.in.type(1);
  if (!like) throw NotCovered{"the type of CastLike's second input is unknown"};
  return m.b.cast(m.operand(0), like->dtype, m.origin);
}

Value map_dropout(Mapping& m) {
  m.only_attributes({"ratio", "seed", "is_test"});
  if (m.present(2)) {  // training_mode (opset 12)
    const Constant* c = m.in.constant(2);
    if (c == nullptr || !c->uniform || c->integer() != 0) throw NotCovered{"Dropout in training mode"};
  }
  return m.operand(0);
}

Value map_expand(Mapping& m) {
  m.only_attributes({});
  const Constant* shape = m.in.constant(1);
  if (shape == nullptr || shape->dtype != DType::I64 || shape->shape.size() != 1) {
    throw NotCovered{"Expand's shape is not a constant 1-D int64 tensor"};
  }
  Shape target;
  for (std::int64_t k = 0; k < shape->shape[0]; ++k) {
    target.push_back(shape->integer(shape->uniform ? 0 : static_cast<std::size_t>(k)));
  }
  return m.b.raw().expand(m.operand(0), target, m.origin);
}

// --- Layout ops: read in place by the kernel ----------------------------

// The input's shape, known (layout ops are mapped only where it is).
Shape input_shape(Mapping& m, int k) {
  const std::optional<TensorType> t = m.in.type(k);
  if (!t || !t->shape) throw NotCovered{fmt::format("the shape of input {} is not known", k)};
  return *t->shape;
}

Value map_transpose(Mapping& m) {
  m.only_attributes({"perm"});
  const std::size_t rank = input_shape(m, 0).size();
  LayoutStep step;
  step.kind = LayoutKind::Transpose;
  if (const auto* perm = m.attr("perm")) {
    step.dims.assign(perm->ints().begin(), perm->ints().end());
  } else {
    for (std::size_t i = rank; i-- > 0;) step.dims.push_back(static_cast<std::int64_t>(i));  // reversed
  }
  return m.in.read_through(0, {step});
}

// Reshape, Flatten, Squeeze and Unsqueeze: the same elements in the shape
// that inference gave the output (the node's own attributes and shape
// input led it there; fold.cpp folded a computed shape).
Value map_reshape_like(Mapping& m) {
  m.only_attributes({"allowzero", "axis", "axes"});
  const std::optional<TensorType> out = m.in.output_type();
  if (!out || !out->shape) throw NotCovered{"the output's shape is not known"};
  LayoutStep step;
  step.kind = LayoutKind::Reshape;
  step.dims = *out->shape;
  return m.in.read_through(0, {step});
}

// The integers of a constant 1-D input (Slice's starts, ends, axes, steps).
std::vector<std::int64_t> constant_ints(Mapping& m, int k, const char* what) {
  const Constant* c = m.in.constant(k);
  if (c == nullptr || c->shape.size() != 1 || !(c->dtype == DType::I64 || c->dtype == DType::I32)) {
    throw NotCovered{fmt::format("Slice's {} are not a constant 1-D integer tensor", what)};
  }
  std::vector<std::int64_t> v;
  for (std::int64_t i = 0; i < c->shape[0]; ++i) v.push_back(c->integer(c->uniform ? 0 : static_cast<std::size_t>(i)));
  return v;
}

// Slice: one step per sliced axis; starts, ends (and axes, steps) are
// attributes before opset 10, constant inputs from it.
Value map_slice(Mapping& m) {
  std::vector<std::int64_t> starts, ends, axes, steps;
  if (m.opset < 10) {
    m.only_attributes({"starts", "ends", "axes"});
    auto ints = [&](const char* name) {
      const auto* a = m.attr(name);
      return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
    };
    starts = ints("starts");
    ends = ints("ends");
    axes = ints("axes");
  } else {
    m.only_attributes({});
    starts = constant_ints(m, 1, "starts");
    ends = constant_ints(m, 2, "ends");
    if (m.present(3)) axes = constant_ints(m, 3, "axes");
    if (m.present(4)) steps = constant_ints(m, 4, "steps");
  }
  if (axes.empty()) {
    for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<std::int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
    throw NotCovered{"Slice's starts, ends, axes and steps differ in length"};
  }
  if (starts.empty()) return m.operand(0);
  InputLayout layout;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    LayoutStep step;
    step.kind = LayoutKind::Slice;
    step.axis = axes[i];
    step.start = starts[i];
    step.stop = ends[i];
    step.step = steps[i];
    if (step.step == 0) throw NotCovered{"Slice with a step of 0"};
    layout.push_back(step);
  }
  return m.in.read_through(0, layout);
}

// Inference: (x - mean) * (scale / sqrt(var + eps)) + B per channel (axis 1).
// Constant parameters fold to one multiplier per channel (one literal when
// uniform), as ONNX Runtime precomputes them.
Value map_batchnorm(Mapping& m) {
  m.only_attributes({"epsilon", "momentum", "spatial", "is_test", "training_mode", "consumed_inputs"});
  if (m.attr_i("training_mode", 0) != 0) throw NotCovered{"BatchNormalization in training mode"};
  if (m.attr_i("spatial", 1) != 1) throw NotCovered{"BatchNormalization with spatial=0"};
  const std::optional<TensorType> x_type = m.in.type(0);
  if (!x_type || !x_type->shape || x_type->shape->size() < 2) throw NotCovered{"X needs a known rank of at least 2"};
  const Shape& xs = *x_type->shape;
  Shape param{xs[1]};
  param.resize(xs.size() - 1, 1);
  const Value x = m.operand(0);
  Value p[4];  // scale, B, mean, var
  for (int k = 0; k < 4; ++k) {
    if (!m.present(k + 1)) throw NotCovered{fmt::format("input {} is missing", k + 1)};
    p[k] = m.in.value(k + 1, param);
    if (m.b.dtype(p[k]) != m.b.dtype(x)) throw NotCovered{"parameters of another dtype than X"};
  }
  const Value eps = m.lit(m.attr_f("epsilon", 1e-5), x);
  const Value a = m.bin(Op::Divide, p[0], m.un(UnaryOp::Sqrt, m.bin(Op::Add, p[3], eps)));
  return m.bin(Op::Add, m.bin(Op::Multiply, m.bin(Op::Subtract, x, p[2]), a), p[1]);
}

Value map_gelu(Mapping& m) {
  m.only_attributes({"approximate"});
  const std::string approx = m.attr_s("approximate", "none");
  if (approx != "none" && approx != "tanh") throw NotCovered{"Gelu approximate='" + approx + "'"};
  return m.un(approx == "tanh" ? UnaryOp::GeluTanh : UnaryOp::Gelu, m.operand(0));
}

Value map_elu(Mapping& m) {  // x < 0 ? alpha * (e^x - 1) : x
  m.only_attributes({"alpha"});
  const Value x = m.operand(0);
  return where_negative(m, x, m.bin(Op::Multiply, m.un(UnaryOp::Expm1, x), m.lit(m.attr_f("alpha", 1.0), x)));
}

Value map_selu(Mapping& m) {  // x <= 0 ? gamma * alpha * (e^x - 1) : gamma * x
  m.only_attributes({"alpha", "gamma"});
  const Value x = m.operand(0);
  const double alpha = m.attr_f("alpha", 1.67326319217681884765625);
  const double gamma = m.attr_f("gamma", 1.05070102214813232421875);
  const Value negative = m.bin(Op::Multiply, m.un(UnaryOp::Expm1, x), m.lit(alpha * gamma, x));
  return m.b.where(m.bin(Op::LessEqual, x, m.lit(0, x)), negative, m.bin(Op::Multiply, x, m.lit(gamma, x)), m.origin);
}

Value map_celu(Mapping& m) {  // max(0, x) + min(0, alpha * (e^(x / alpha) - 1))
  m.only_attributes({"alpha"});
  const Value x = m.operand(0);
  const double alpha = m.attr_f("alpha", 1.0);
  const Value e = m.bin(Op::Multiply, m.un(UnaryOp::Expm1, m.bin(Op::Divide, x, m.lit(alpha, x))), m.lit(alpha, x));
  return m.bin(Op::Add, m.bin(Op::Maximum, x, m.lit(0, x)), m.bin(Op::Minimum, e, m.lit(0, x)));
}

Value map_hard_sigmoid(Mapping& m) {  // max(0, min(1, alpha * x + beta))
  m.only_attributes({"alpha", "beta"});
  const Value x = m.operand(0);
  // PyTorch's Hardsigmoid (alpha 1/6 as a float, beta 1/2) is the function,
  // with the same bits (docs/reference/functions.md); other alphas spelled out.
  if (m.is_float(x) && static_cast<float>(m.attr_f("alpha", 0.2)) == static_cast<float>(1.0 / 6.0) &&
      m.attr_f("beta", 0.5) == 0.5) {
    return m.un(UnaryOp::Hardsigmoid, x);
  }
  return clip01(m, m.bin(Op::Add, m.bin(Op::Multiply, x, m.lit(m.attr_f("alpha", 0.2), x)),
                         m.lit(m.attr_f("beta", 0.5), x)));
}

Value map_hard_swish(Mapping& m) {  // x * max(0, min(1, x / 6 + 1/2)), alpha = 1/6 as a float
  m.only_attributes({});
  return m.un(UnaryOp::Hardswish, m.operand(0));
}

Value map_is_inf(Mapping& m) {
  m.only_attributes({"detect_negative", "detect_positive"});
  const Value x = m.operand(0);
  const bool negative = m.attr_i("detect_negative", 1) != 0, positive = m.attr_i("detect_positive", 1) != 0;
  const Value inf = m.un(UnaryOp::Isinf, x);
  if (negative && positive) return inf;
  if (!negative && !positive) return m.bin(Op::LogicalAnd, inf, m.b.number(0, DType::Bool, m.origin));
  Value sign = m.un(UnaryOp::Signbit, x);
  if (positive) sign = m.un(UnaryOp::LogicalNot, sign);
  return m.bin(Op::LogicalAnd, inf, sign);
}

// --- reductions (row kernels: the reduced axes must be the innermost) ------

// The input's rank, from shape inference.
std::int64_t input_rank(Mapping& m, int k) {
  const std::optional<TensorType> t = m.in.type(k);
  if (!t || !t->shape) throw NotCovered{"the input's rank is not known"};
  return static_cast<std::int64_t>(t->shape->size());
}

// `axes` of a rank-`rank` tensor counted from the end (-1 the last), so that
// they hold for the value whatever leading 1s its shape has.
std::vector<std::int64_t> from_end(std::vector<std::int64_t> axes, std::int64_t rank) {
  for (std::int64_t& a : axes) {
    if (a < -rank || a >= rank) throw NotCovered{fmt::format("axis {} is outside rank {}", a, rank)};
    if (a >= 0) a -= rank;
  }
  return axes;
}

// The axes of a Reduce* node: the attribute, or from opset 18 (ReduceSum:
// 13) a constant input; none means all of them, unless noop_with_empty_axes.
// Empty when the node is the identity.
std::vector<std::int64_t> reduce_axes_of(Mapping& m, bool axes_input) {
  std::vector<std::int64_t> axes;
  if (axes_input) {
    m.only_attributes({"keepdims", "noop_with_empty_axes"});
    if (m.present(1)) {
      const Constant* c = m.in.constant(1);
      if (c == nullptr || c->shape.size() != 1 || !(c->dtype == DType::I64 || c->dtype == DType::I32)) {
        throw NotCovered{"the axes are not a constant 1-D integer tensor"};
      }
      for (std::int64_t i = 0; i < c->shape[0]; ++i) {
        axes.push_back(c->integer(c->uniform ? 0 : static_cast<std::size_t>(i)));
      }
    }
  } else {
    m.only_attributes({"keepdims", "axes"});
    if (const auto* a = m.attr("axes")) axes.assign(a->ints().begin(), a->ints().end());
  }
  const std::int64_t rank = input_rank(m, 0);
  if (axes.empty()) {
    if (axes_input && m.attr_i("noop_with_empty_axes", 0) != 0) return {};
    for (std::int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  // keepdims=0: the reduction still keeps them (size 1), and the group
  // takes the value as its output only (Group::add_node).
  return from_end(axes, rank);
}

Value reduce(Mapping& m, ReduceOp op, Value x, const std::vector<std::int64_t>& axes) {
  if (m.b.is_literal(x)) throw NotCovered{"reduces a constant"};
  return m.b.raw().reduce(op, x, axes, m.origin);
}

// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceSumSquare (sum of
// x * x), ReduceL1 (sum of |x|), ReduceL2 (the square root of the sum of
// squares); `axes_from` the opset whose axes are an input.
MapFn reduce_op(ReduceOp op, std::int64_t axes_from, UnaryOp before = UnaryOp::Neg, bool square = false,
                bool root = false) {
  return [=](Mapping& m) {
    const std::vector<std::int64_t> axes = reduce_axes_of(m, m.opset >= axes_from);
    Value x = m.operand(0);
    if (square) x = m.bin(Op::Multiply, x, x);
    if (before == UnaryOp::Abs) x = m.un(UnaryOp::Abs, x);
    if (axes.empty()) return x;
    const Value r = reduce(m, op, x, axes);
    return root ? m.un(UnaryOp::Sqrt, r) : r;
  };
}

// Softmax and LogSoftmax: before opset 13 over the axes from `axis`
// (default 1) to the last (the input flattened to 2-D there), from 13 over
// the one axis `axis` (default -1).
MapFn softmax_op(ReduceOp op) {
  return [op](Mapping& m) {
    m.only_attributes({"axis"});
    const std::int64_t rank = input_rank(m, 0);
    std::int64_t axis = m.attr_i("axis", m.opset < 13 ? 1 : -1);
    if (axis < -rank || axis >= rank) throw NotCovered{fmt::format("axis {} is outside rank {}", axis, rank)};
    if (axis < 0) axis += rank;
    std::vector<std::int64_t> axes = {axis};
    if (m.opset < 13) {
      axes.clear();
      for (std::int64_t a = axis; a < rank; ++a) axes.push_back(a);
    }
    return reduce(m, op, m.operand(0), from_end(axes, rank));
  };
}

// LayerNormalization (opset 17), as its function body: D = X - mean(X),
// Y = D * (1 / sqrt(mean(D * D) + epsilon)) * Scale + B over the axes from
// `axis`; with stash_type 1 (f32) a 16-bit X is normalized in f32 and the
// result cast back before the scale.
Value map_layer_norm(Mapping& m) {
  m.only_attributes({"axis", "epsilon", "stash_type"});
  const std::int64_t rank = input_rank(m, 0);
  std::int64_t axis = m.attr_i("axis", -1);
  if (axis < -rank || axis >= rank) throw NotCovered{fmt::format("axis {} is outside rank {}", axis, rank)};
  if (axis < 0) axis += rank;
  std::vector<std::int64_t> axes;
  for (std::int64_t a = axis; a < rank; ++a) axes.push_back(a);
  axes = from_end(axes, rank);
  const Value x = m.operand(0);
  const DType t = m.b.dtype(x);
  const std::int64_t stash = m.attr_i("stash_type", 1);
  if (stash != 1 && stash != static_cast<std::int64_t>(onnx::TensorProto::DOUBLE)) {
    throw NotCovered{fmt::format("stash_type {}", stash)};
  }
  const bool widen = is_half(t) && stash == 1;
  const Value xs = widen ? m.b.cast(x, DType::F32, m.origin) : x;
  const Value d = m.bin(Op::Subtract, xs, reduce(m, ReduceOp::Mean, xs, axes));
  const Value var = reduce(m, ReduceOp::Mean, m.bin(Op::Multiply, d, d), axes);
  const Value inv = m.un(UnaryOp::Reciprocal, m.un(UnaryOp::Sqrt, m.bin(Op::Add, var, m.lit(m.attr_f("epsilon", 1e-5), var))));
  Value y = m.bin(Op::Multiply, d, inv);
  if (widen) y = m.b.cast(y, t, m.origin);
  y = m.bin(Op::Multiply, y, m.operand(1));
  if (m.present(2)) y = m.bin(Op::Add, y, m.operand(2));
  return y;
}

const std::map<std::string, MapFn>& table() {
  static const std::map<std::string, MapFn> t = {
      {"Add", binary_op(Op::Add)}, {"Sub", binary_op(Op::Subtract)}, {"Mul", binary_op(Op::Multiply)},
      {"Div", map_div}, {"Pow", map_pow}, {"Mod", map_mod},
      {"Max", variadic(Op::Maximum)}, {"Min", variadic(Op::Minimum)}, {"Sum", variadic(Op::Add)}, {"Mean", map_mean},
      {"Equal", binary_op(Op::Equal)}, {"Less", binary_op(Op::Less)}, {"LessOrEqual", binary_op(Op::LessEqual)},
      {"Greater", binary_op(Op::Greater)}, {"GreaterOrEqual", binary_op(Op::GreaterEqual)},
      {"And", binary_op(Op::LogicalAnd)}, {"Or", binary_op(Op::LogicalOr)}, {"Xor", binary_op(Op::LogicalXor)},
      {"Not", unary_op(UnaryOp::LogicalNot)}, {"BitShift", map_bitshift},
      {"Where", [](Mapping& m) {
         m.only_attributes({});
         const Value c = m.operand(0);
         const Value x = m.operand(1);
         return m.b.where(c, x, m.operand(2), m.origin);
       }},
      {"Relu", [](Mapping& m) {
         m.only_attributes({});
         const Value x = m.operand(0);
         return m.bin(Op::Maximum, x, m.lit(0, x));
       }},
      {"LeakyRelu", [](Mapping& m) {
         m.only_attributes({"alpha"});
         const Value x = m.operand(0);
         return where_negative(m, x, m.bin(Op::Multiply, x, m.lit(m.attr_f("alpha", 0.01), x)));
       }},
      {"PRelu", [](Mapping& m) {
         m.only_attributes({});
         const Value x = m.operand(0);
         return where_negative(m, x, m.bin(Op::Multiply, x, m.operand(1)));
       }},
      {"Clip", map_clip}, {"Cast", map_cast}, {"CastLike", map_cast_like},
      {"Identity", [](Mapping& m) {
         m.only_attributes({});
         return m.operand(0);
       }},
      {"Dropout", map_dropout}, {"Expand", map_expand}, {"BatchNormalization", map_batchnorm},
      {"Abs", unary_op(UnaryOp::Abs)}, {"Neg", unary_op(UnaryOp::Neg)}, {"Sqrt", unary_op(UnaryOp::Sqrt)},
      {"Reciprocal", unary_op(UnaryOp::Reciprocal)}, {"Floor", unary_op(UnaryOp::Floor)},
      {"Ceil", unary_op(UnaryOp::Ceil)}, {"Round", unary_op(UnaryOp::Round)}, {"Sign", unary_op(UnaryOp::Sign)},
      {"Exp", unary_op(UnaryOp::Exp)}, {"Log", unary_op(UnaryOp::Log)}, {"Tanh", unary_op(UnaryOp::Tanh)},
      {"Sigmoid", unary_op(UnaryOp::Sigmoid)}, {"Erf", unary_op(UnaryOp::Erf)},
      {"Softplus", unary_op(UnaryOp::Softplus)}, {"Gelu", map_gelu}, {"Elu", map_elu}, {"Selu", map_selu},
      {"Celu", map_celu}, {"HardSigmoid", map_hard_sigmoid}, {"HardSwish", map_hard_swish},
      {"Sin", unary_op(UnaryOp::Sin)}, {"Cos", unary_op(UnaryOp::Cos)}, {"Tan", unary_op(UnaryOp::Tan)},
      {"Asin", unary_op(UnaryOp::Asin)}, {"Acos", unary_op(UnaryOp::Acos)}, {"Atan", unary_op(UnaryOp::Atan)},
      {"Sinh", unary_op(UnaryOp::Sinh)}, {"Cosh", unary_op(UnaryOp::Cosh)}, {"Asinh", unary_op(UnaryOp::Asinh)},
      {"Acosh", unary_op(UnaryOp::Acosh)}, {"Atanh", unary_op(UnaryOp::Atanh)},
      {"IsNaN", unary_op(UnaryOp::Isnan)}, {"IsInf", map_is_inf},
      {"Transpose", map_transpose}, {"Reshape", map_reshape_like}, {"Flatten", map_reshape_like},
      {"Squeeze", map_reshape_like}, {"Unsqueeze", map_reshape_like}, {"Slice", map_slice},
      {"ReduceSum", reduce_op(ReduceOp::Sum, 13)}, {"ReduceMean", reduce_op(ReduceOp::Mean, 18)},
      {"ReduceMax", reduce_op(ReduceOp::Max, 18)}, {"ReduceMin", reduce_op(ReduceOp::Min, 18)},
      {"ReduceSumSquare", reduce_op(ReduceOp::Sum, 18, UnaryOp::Neg, true)},
      {"ReduceL1", reduce_op(ReduceOp::Sum, 18, UnaryOp::Abs)},
      {"ReduceL2", reduce_op(ReduceOp::Sum, 18, UnaryOp::Neg, true, true)},
      {"Softmax", softmax_op(ReduceOp::Softmax)}, {"LogSoftmax", softmax_op(ReduceOp::LogSoftmax)},
      {"LayerNormalization", map_layer_norm},
  };
  return t;
}

}  // namespace

bool maps_op_type(const std::string& op_type) { return table().count(op_type) != 0; }

bool is_layout_op(const std::string& op_type) {
  static const std::set<std::string> kLayoutOps = {"Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Slice"};
  return kLayoutOps.count(op_type) != 0;
}

Value map_node(const onnx::NodeProto& node, std::int64_t opset, NodeOperands& in, FoldingBuilder& b) {
  const auto it = table().find(node.op_type());
  if (it == table().end() || !(node.domain().empty() || node.domain() == "ai.onnx")) {
    throw NotCovered{"not an elementwise operator bcastgen maps"};
  }
  Mapping m{node, opset, in, b, node.name().empty() ? node.op_type() : node.name()};
  try {
    return it->second(m);
  } catch (const gen::ExprBuildError& e) {
    throw NotCovered{e.message()};
  }
}

}  // namespace bcastgen::onnx_import
