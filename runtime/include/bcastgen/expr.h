// bcastgen runtime: the typed expression DAG of a kernel. A kernel is N
// named inputs, this DAG over them and one output (its root); a binary op
// is the DAG op(in0, in1) and the Broadcast op the DAG in0. An Expand node
// (ONNX's Expand, NumPy's broadcast_to under the numpy rule) is its operand
// broadcast with a target shape: the target joins the operands' shapes in
// the output's, and the node's value at every element is its operand's. The generator
// parses `expr:` text into it (gen/expr.h); the reference evaluates it per
// element (reference.h) and the planner and emitter compile it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/layout.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"
#include "bcastgen/unary_functions.h"

namespace bcastgen {

enum class ExprKind { Input, Literal, Binary, Unary, Where, Cast, Expand, Reduce };

// A reduction of its operand over some of its axes (ExprNode::axes). sum,
// mean, max and min keep the reduced axes as size-1 dims, so that the
// result broadcasts back over them (NumPy's keepdims=True); softmax and
// log_softmax normalize over the axes and keep the operand's shape. The
// reference computes each in double and rounds once; a kernel follows the
// fixed summation order of reduce.h.
enum class ReduceOp { Sum, Mean, Max, Min, Softmax, LogSoftmax };

struct ReduceInfo {
  ReduceOp op;
  const char* name;
  bool keeps_shape;  // softmax, log_softmax: the operand's shape (else size 1 on the axes)
};

// One row per ReduceOp, in enum order.
inline constexpr ReduceInfo kReduceInfo[] = {
    {ReduceOp::Sum, "sum", false},        {ReduceOp::Mean, "mean", false},
    {ReduceOp::Max, "max", false},        {ReduceOp::Min, "min", false},
    {ReduceOp::Softmax, "softmax", true}, {ReduceOp::LogSoftmax, "log_softmax", true},
};

inline constexpr const ReduceInfo& reduce_info(ReduceOp r) {
  const auto i = static_cast<std::size_t>(r);
  return kReduceInfo[i < std::size(kReduceInfo) ? i : 0];
}
inline constexpr const char* reduce_name(ReduceOp r) { return reduce_info(r).name; }

// The unary functions: their table is BCASTGEN_UNARY_FUNCTIONS
// (unary_functions.h), made into the enum and rows here.
#define BCASTGEN_UNARY_ENUMERATOR_(E, name, accepts, max_ulp, result, approximates, form, wide) E,
enum class UnaryOp { BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_UNARY_ENUMERATOR_) };
#undef BCASTGEN_UNARY_ENUMERATOR_

// Where a function is computed (unary_functions.h): written out per ISA,
// one shared f32 algorithm (simd/math_f32.inl), or the C library's wider
// function lane by lane.
enum class UnaryForm { Own, Vector, Libm };
inline constexpr const char* unary_form_name(UnaryForm f) {
  return f == UnaryForm::Own ? "own" : f == UnaryForm::Vector ? "vector" : "libm";
}

struct UnaryInfo {
  UnaryOp op;
  const char* name;  // also the scalar function's name in bcastgen::ops
  Accepts accepts;
  // The accuracy contract: 0 for an exact function (its result is the
  // correctly rounded one, the same as NumPy's; for hardsigmoid and
  // hardswish, that of each operation of their definitions, math.h), else
  // the most ulps (of f32 and of f64) its result may be from the exact value
  // (math.h).
  int max_ulp = 0;
  bool gives_bool = false;  // the result is bool (isnan, ...), not the operand's dtype
  // The fast tier (accuracy: fast): this row is a faster form of `approximates`
  // (the row's own op where it is not fast).
  bool fast = false;
  UnaryOp approximates = UnaryOp::Neg;
  UnaryForm form = UnaryForm::Own;
};

// One row per UnaryOp, in enum order.
#define BCASTGEN_UNARY_GIVES_BOOL_Same false
#define BCASTGEN_UNARY_GIVES_BOOL_Bool true
#define BCASTGEN_UNARY_ROW_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  {UnaryOp::E, #name, Accepts::accepts, max_ulp, BCASTGEN_UNARY_GIVES_BOOL_##result,  \
   UnaryOp::E != UnaryOp::approximates, UnaryOp::approximates, UnaryForm::form},
inline constexpr UnaryInfo kUnaryInfo[] = {BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_UNARY_ROW_)};
#undef BCASTGEN_UNARY_ROW_
#undef BCASTGEN_UNARY_GIVES_BOOL_Bool
#undef BCASTGEN_UNARY_GIVES_BOOL_Same

namespace detail {
inline constexpr bool unary_rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kUnaryInfo); ++i) {
    if (static_cast<std::size_t>(kUnaryInfo[i].op) != i) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::unary_rows_in_enum_order(), "kUnaryInfo must list the UnaryOps in enum order");

inline constexpr const UnaryInfo& unary_info(UnaryOp u) {
  const auto i = static_cast<std::size_t>(u);
  return kUnaryInfo[i < std::size(kUnaryInfo) ? i : 0];
}

// The function a fast-tier row approximates (u itself for any other row).
inline constexpr UnaryOp exact_function(UnaryOp u) { return unary_info(u).fast ? unary_info(u).approximates : u; }

// The fast-tier form of u (`accuracy: fast`), or u itself where it has none.
inline constexpr UnaryOp fast_function(UnaryOp u) {
  for (const UnaryInfo& info : kUnaryInfo) {
    if (info.fast && info.approximates == u) return info.op;
  }
  return u;
}

// The function name of a unary op: "neg", ..., "logical_not", "bitwise_not".
inline constexpr const char* unary_name(UnaryOp u) { return unary_info(u).name; }

// Whether a unary op accepts a dtype (its result has the same dtype, or is
// bool where the row says gives_bool).
inline constexpr bool unary_supports(UnaryOp u, DType t) {
  // What an Accepts class admits is defined once, by op_supports: ask it
  // about a binary op of the same class.
  for (const OpInfo& info : kOpInfo) {
    if (info.accepts == unary_info(u).accepts) return op_supports(info.op, t);
  }
  return false;
}

// A number or true/false, typed by its context. Only the member for the
// node's dtype is meaningful: f for f32/f64 (an f32 holds the value rounded
// to float), i for signed integers, u for unsigned, b for bool.
struct ExprLiteral {
  std::string text;  // as spelled, with a folded minus sign: "-10000.0"
  double f = 0;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  bool b = false;
};

struct ExprNode {
  ExprKind kind = ExprKind::Input;
  Op op = Op::Add;               // Binary (never Broadcast)
  UnaryOp unary = UnaryOp::Neg;  // Unary
  DType dtype = DType::F32;      // the node's result type (Cast: the target)
  // Operand nodes, all before this one: Binary (a, b), Unary (x), Where (cond, x, y), Cast (x), Expand (x),
  // Reduce (x).
  std::vector<std::size_t> args;
  std::size_t input = 0;  // Input: index into the kernel's inputs
  ExprLiteral literal;    // Literal
  Shape target;           // Expand: the shape its operand is broadcast with
  ReduceOp reduce = ReduceOp::Sum;  // Reduce
  // Reduce: the operand's axes it reduces, each in [-rank, rank) of the
  // operand's shape (negative from the end), distinct.
  std::vector<std::int64_t> axes;
  int column = 0;         // where the node is first written in the text (1-based byte offset; 0: built in memory)
};

struct ExprDag {
  std::vector<ExprNode> nodes;   // topological: operands precede their users
  std::size_t root = 0;          // the output
  std::vector<bool> input_used;  // one per declared input
  // Per input, the layout it is read through (layout.h): transpose,
  // reshape, slice. Missing or empty: read as declared. Every Input node of
  // an input reads it through the same layout.
  std::vector<InputLayout> layouts;
};

// Input k's layout in `dag` (empty when it has none).
inline const InputLayout& input_layout(const ExprDag& dag, std::size_t k) {
  static const InputLayout kNone;
  return k < dag.layouts.size() ? dag.layouts[k] : kNone;
}

// Whether any input of `dag` is read through a layout.
inline bool has_layouts(const ExprDag& dag) {
  for (const InputLayout& l : dag.layouts) {
    if (!l.empty()) return true;
  }
  return false;
}

// The typing rule of an operation node, in one place: the parser
// (gen/expr_dag.cpp), the DAG builder and the runtime's check_expr_node
// all ask it, and each words its own message from the answer.
struct NodeTyping {
  enum Problem {
    None,         // well typed: `dtype` is the result
    Unsupported,  // the op or function does not accept operand 0's dtype
    Mismatch,     // operand `operand` differs from the one it must equal
    NotBool,      // where's condition (operand 0) is not bool
  } problem = None;
  std::size_t operand = 0;
  DType dtype = DType::F32;
};

// The type of a Binary, Unary, Where, Cast or Expand node over operands of
// these dtypes (as many as the kind takes); `cast_to` is a Cast's target.
inline NodeTyping type_node(ExprKind kind, Op op, UnaryOp unary, DType cast_to, const std::vector<DType>& operands) {
  NodeTyping t;
  auto fail = [&](NodeTyping::Problem p, std::size_t operand) {
    t.problem = p;
    t.operand = operand;
    return t;
  };
  switch (kind) {
    case ExprKind::Binary:
      if (operands[1] != operands[0]) return fail(NodeTyping::Mismatch, 1);
      if (!op_supports(op, operands[0])) return fail(NodeTyping::Unsupported, 0);
      t.dtype = result_dtype(op, operands[0]);
      return t;
    case ExprKind::Unary:
      if (!unary_supports(unary, operands[0])) return fail(NodeTyping::Unsupported, 0);
      t.dtype = unary_info(unary).gives_bool ? DType::Bool : operands[0];
      return t;
    case ExprKind::Where:
      if (operands[0] != DType::Bool) return fail(NodeTyping::NotBool, 0);
      if (operands[2] != operands[1]) return fail(NodeTyping::Mismatch, 2);
      t.dtype = operands[1];
      return t;
    case ExprKind::Cast:
      t.dtype = cast_to;  // any dtype to any
      return t;
    case ExprKind::Expand:
      t.dtype = operands[0];
      return t;
    case ExprKind::Reduce:
      if (!dtype_info(operands[0]).is_float) return fail(NodeTyping::Unsupported, 0);
      t.dtype = operands[0];
      return t;
    case ExprKind::Input:
    case ExprKind::Literal: break;
  }
  t.dtype = cast_to;
  return t;
}

// The kind's name: "input", "literal", "binary", "unary", "where", "cast",
// "expand" (the manifest's, and the generated kernel tables' enumerators).
inline constexpr const char* expr_kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Input: return "input";
    case ExprKind::Literal: return "literal";
    case ExprKind::Binary: return "binary";
    case ExprKind::Unary: return "unary";
    case ExprKind::Where: return "where";
    case ExprKind::Cast: return "cast";
    case ExprKind::Expand: return "expand";
    case ExprKind::Reduce: return "reduce";
  }
  return "?";
}

// The node whose value node i is: an Expand node has its operand's value
// (its target shapes the output, not the value), so Expands are skipped.
inline std::size_t expand_operand(const ExprDag& dag, std::size_t i) {
  while (dag.nodes[i].kind == ExprKind::Expand) i = dag.nodes[i].args[0];
  return i;
}

// The targets of the DAG's Expand nodes, which join the inputs' shapes in
// the output's (broadcast_inputs under the numpy rule).
inline std::vector<Shape> expand_targets(const ExprDag& dag) {
  std::vector<Shape> targets;
  for (const ExprNode& n : dag.nodes) {
    if (n.kind == ExprKind::Expand) targets.push_back(n.target);
  }
  return targets;
}

// The inputs of `dag` broadcast under `rule` (with its expand targets), each
// read through its layout: `declared` are the tensors' shapes, what
// broadcasts is each layout's shape, and each input's strides on the
// output's axes are its layout's; `offsets` (when not null) gets each
// input's first element. Throws as resolve_layout (naming the input) and
// broadcast_inputs.
inline BroadcastInputs broadcast_expr_inputs(const ExprDag& dag, Rule rule, const std::vector<Shape>& declared,
                                             std::int64_t axis, const std::vector<std::string>& names = {},
                                             std::vector<std::int64_t>* offsets = nullptr) {
  std::vector<StridedLayout> layouts;
  std::vector<Shape> shapes;
  for (std::size_t k = 0; k < declared.size(); ++k) {
    const std::string who = k < names.size() ? "input '" + names[k] + "'" : "input " + std::to_string(k);
    layouts.push_back(resolve_layout(declared[k], input_layout(dag, k), who));
    shapes.push_back(layouts.back().shape);
  }
  BroadcastInputs b = broadcast_inputs(rule, shapes, expand_targets(dag), axis, names);
  if (offsets) offsets->assign(declared.size(), 0);
  for (std::size_t k = 0; k < declared.size(); ++k) {
    if (input_layout(dag, k).empty()) continue;
    b.strides[k] = aligned_layout_strides(b.aligned[k], layouts[k]);
    if (offsets) (*offsets)[k] = layouts[k].offset;
  }
  return b;
}

// Whether `dag` has a Reduce node (a row kernel: its nodes have shapes of
// their own, node_shapes).
inline bool has_reductions(const ExprDag& dag) {
  for (const ExprNode& n : dag.nodes) {
    if (n.kind == ExprKind::Reduce) return true;
  }
  return false;
}

// A Reduce node's axes on an operand of rank `rank`: non-negative, sorted.
// Throws InvalidArgument for an axis out of range, one given twice, or none.
inline std::vector<std::int64_t> reduce_axes(const ExprNode& n, std::size_t rank, const std::string& who) {
  const auto r = static_cast<std::int64_t>(rank);
  std::vector<std::int64_t> axes;
  if (n.axes.empty()) throw InvalidArgument(who + reduce_name(n.reduce) + " has no axes");
  for (std::int64_t a : n.axes) {
    if (a < -r || a >= r) {
      throw InvalidArgument(who + reduce_name(n.reduce) + "'s axis " + std::to_string(a) +
                            " is outside its operand of rank " + std::to_string(rank));
    }
    axes.push_back(a < 0 ? a + r : a);
  }
  std::vector<std::int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw InvalidArgument(who + reduce_name(n.reduce) + " names an axis twice");
  }
  return sorted;
}

// The shape of every node of a DAG with reductions, broadcasting as NumPy:
// an input's is its layout's (`shapes`, one per input), a literal's [], an
// operation's the broadcast of its operands', an Expand's its operand's
// broadcast with the target, and a Reduce's its operand's with 1 on the
// axes (softmax and log_softmax: the operand's). Throws InvalidArgument or
// BroadcastError naming the node.
inline std::vector<Shape> node_shapes(const ExprDag& dag, const std::vector<Shape>& shapes,
                                      const std::string& who = "") {
  std::vector<Shape> out(dag.nodes.size());
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    const ExprNode& n = dag.nodes[i];
    const std::string at = who + "node " + std::to_string(i) + ": ";
    if (n.kind == ExprKind::Input) {
      if (n.input >= shapes.size()) throw InvalidArgument(at + "reads an input with no shape");
      out[i] = shapes[n.input];
      continue;
    }
    if (n.kind == ExprKind::Literal) continue;
    if (n.kind == ExprKind::Reduce) {
      out[i] = out[n.args[0]];
      if (reduce_info(n.reduce).keeps_shape) {
        reduce_axes(n, out[i].size(), at);  // checked only
        continue;
      }
      for (std::int64_t a : reduce_axes(n, out[i].size(), at)) out[i][static_cast<std::size_t>(a)] = 1;
      continue;
    }
    std::vector<Shape> operands;
    for (std::size_t a : n.args) operands.push_back(out[a]);
    if (n.kind == ExprKind::Expand) operands.push_back(n.target);
    out[i] = operands.size() == 1 ? operands[0] : broadcast_inputs(Rule::Numpy, operands, -1).out;
  }
  return out;
}

// Each input's shape as the DAG reads it: its layout's (resolve_layout).
inline std::vector<Shape> layout_shapes(const ExprDag& dag, const std::vector<Shape>& declared,
                                        const std::vector<std::string>& names = {}) {
  std::vector<Shape> shapes;
  for (std::size_t k = 0; k < declared.size(); ++k) {
    const std::string who = k < names.size() ? "input '" + names[k] + "'" : "input " + std::to_string(k);
    shapes.push_back(resolve_layout(declared[k], input_layout(dag, k), who).shape);
  }
  return shapes;
}

// node_shapes of a DAG with reductions over inputs of `declared` shapes
// (through their layouts); InvalidArgument under a rule other than numpy.
inline std::vector<Shape> reduction_node_shapes(const ExprDag& dag, Rule rule, const std::vector<Shape>& declared,
                                                const std::vector<std::string>& names = {}) {
  if (rule != Rule::Numpy) {
    throw InvalidArgument(std::string("reductions broadcast back under rule numpy; this kernel's rule is ") +
                          rule_name(rule));
  }
  return node_shapes(dag, layout_shapes(dag, declared, names));
}

// The output shape of `dag` over inputs of `declared` shapes: the inputs'
// broadcast, or with reductions the root's shape (node_shapes), which takes
// rule numpy. Throws as broadcast_expr_inputs and node_shapes, and
// InvalidArgument for reductions under another rule.
inline Shape expr_out_shape(const ExprDag& dag, Rule rule, const std::vector<Shape>& declared, std::int64_t axis,
                            const std::vector<std::string>& names = {}) {
  const BroadcastInputs b = broadcast_expr_inputs(dag, rule, declared, axis, names);
  if (!has_reductions(dag)) return b.out;
  return reduction_node_shapes(dag, rule, declared, names)[dag.root];
}

// The DAG of one binary op over inputs 0 and 1 (a kernel spec's `op:`).
inline ExprDag binary_dag(Op op, DType dtype) {
  ExprDag d;
  ExprNode a, b, r;
  a.dtype = b.dtype = dtype;
  a.input = 0;
  b.input = 1;
  r.kind = ExprKind::Binary;
  r.op = op;
  r.dtype = result_dtype(op, dtype);
  r.args = {0, 1};
  d.nodes = {a, b, r};
  d.root = 2;
  d.input_used = {true, true};
  return d;
}

// The DAG of the Broadcast op: input 0 itself.
inline ExprDag copy_dag(DType dtype) {
  ExprDag d;
  ExprNode a;
  a.dtype = dtype;
  d.nodes = {a};
  d.root = 0;
  d.input_used = {true};
  return d;
}

}  // namespace bcastgen
