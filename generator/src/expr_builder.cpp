// ExprBuilder and print_expr (expr_builder.h).
#include "bcastgen/gen/expr_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cfloat>
#include <cmath>
#include <set>
#include <type_traits>

#include "bcastgen/reference.h"
#include "expr_ast.h"

namespace bcastgen::gen {
namespace {

std::string label(const std::string& origin) { return origin.empty() ? "(no origin)" : origin; }

}  // namespace

ExprBuildError::ExprBuildError(const std::string& origin, const std::string& message)
    : InvalidArgument(label(origin) + ": " + message), origin_(origin), message_(message) {}

ExprBuilder::ExprBuilder(std::vector<ExprInput> inputs) : inputs_(std::move(inputs)) {
  if (inputs_.size() > kMaxExprInputs) {
    throw ExprBuildError("", fmt::format("at most {} inputs, got {}", kMaxExprInputs, inputs_.size()));
  }
  std::set<std::string> seen;
  for (const ExprInput& in : inputs_) {
    if (!seen.insert(in.name).second) throw ExprBuildError("", "input '" + in.name + "' is declared twice");
    dtypes_.push_back(in.dtype);
    names_.push_back(in.name);
  }
  dag_.input_used.assign(inputs_.size(), false);
}

std::size_t ExprBuilder::add_input(ExprInput in) {
  if (inputs_.size() == kMaxExprInputs) {
    throw ExprBuildError("", fmt::format("at most {} inputs, got {}", kMaxExprInputs, inputs_.size() + 1));
  }
  for (const std::string& name : names_) {
    if (name == in.name) throw ExprBuildError("", "input '" + in.name + "' is declared twice");
  }
  dtypes_.push_back(in.dtype);
  names_.push_back(in.name);
  inputs_.push_back(std::move(in));
  dag_.input_used.push_back(false);
  return inputs_.size() - 1;
}

const ExprNode& ExprBuilder::node(Value v, const std::string& origin) const {
  if (v >= dag_.nodes.size()) throw ExprBuildError(origin, fmt::format("operand {} is not a node of this builder", v));
  return dag_.nodes[v];
}

DType ExprBuilder::dtype(Value v) const { return node(v, "").dtype; }
const std::string& ExprBuilder::origin(Value v) const {
  node(v, "");
  return origins_[v];
}

// An equal node already built is shared; a new one is checked by the
// runtime's type rules (check_expr_node) before it is kept.
ExprBuilder::Value ExprBuilder::add(ExprNode e, const std::string& origin) {
  static_assert(std::is_same_v<Key, expr_detail::NodeKey>, "ExprBuilder::Key is the parser's NodeKey");
  expr_detail::NodeKey key = expr_detail::node_key(e);
  if (const auto found = index_.find(key); found != index_.end()) return found->second;
  if (dag_.nodes.size() == kMaxExprNodes) {
    throw ExprBuildError(origin, fmt::format("the expression has more than {} nodes", kMaxExprNodes));
  }
  dag_.nodes.push_back(std::move(e));
  try {
    bcastgen::detail::check_expr_node(dag_, dag_.nodes.size() - 1, dtypes_, names_, "");
  } catch (const InvalidArgument& err) {
    dag_.nodes.pop_back();
    std::string message = err.what();
    // "node 3: the second operand is i32, expected f32" -> without the index, which the caller never saw.
    if (message.rfind("node ", 0) == 0 && message.find(": ") != std::string::npos) {
      message = message.substr(message.find(": ") + 2);
    }
    throw ExprBuildError(origin, message);
  }
  origins_.push_back(origin);
  index_.emplace(std::move(key), dag_.nodes.size() - 1);
  return dag_.nodes.size() - 1;
}

void ExprBuilder::set_layout(const std::string& name, InputLayout layout) {
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    if (inputs_[k].name != name) continue;
    if (dag_.layouts.size() <= k) dag_.layouts.resize(k + 1);
    dag_.layouts[k] = std::move(layout);
    return;
  }
  throw ExprBuildError("", "no input named '" + name + "'");
}

ExprBuilder::Value ExprBuilder::input(const std::string& name, const std::string& origin) {
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    if (inputs_[k].name != name) continue;
    ExprNode e;
    e.kind = ExprKind::Input;
    e.input = k;
    e.dtype = inputs_[k].dtype;
    const Value v = add(std::move(e), origin);
    dag_.input_used[k] = true;
    return v;
  }
  throw ExprBuildError(origin, "no input named '" + name + "'");
}

ExprBuilder::Value ExprBuilder::literal(double value, DType dtype, const std::string& origin) {
  const DTypeInfo& info = dtype_info(dtype);
  if (dtype == DType::Bool) throw ExprBuildError(origin, "a bool literal is true or false (literal_bool)");
  if (!info.is_float) {
    if (!(value >= -0x1p63 && value < 0x1p64) || value != std::trunc(value)) {
      throw ExprBuildError(origin, fmt::format("{} is not an integer literal of {}", value, info.name));
    }
    if (value < 0x1p63) return literal_int(static_cast<std::int64_t>(value), dtype, origin);
    // [2^63, 2^64): only u64 holds it.
    if (dtype != DType::U64) throw ExprBuildError(origin, fmt::format("{} is out of range for {}", value, info.name));
    ExprNode e;
    e.kind = ExprKind::Literal;
    e.dtype = dtype;
    e.literal.u = static_cast<std::uint64_t>(value);
    e.literal.text = fmt::format("{}", e.literal.u);
    return add(std::move(e), origin);
  }
  if (!std::isfinite(value)) {
    throw ExprBuildError(origin,
                         fmt::format("literal {} is not finite (expressions have no inf or nan literal)", value));
  }
  ExprNode e;
  e.kind = ExprKind::Literal;
  e.dtype = dtype;
  if (dtype != DType::F64) {  // held rounded to the dtype
    if (dtype == DType::F32 && std::fabs(value) > FLT_MAX) {
      throw ExprBuildError(origin, fmt::format("{} is out of range for f32", value));
    }
    const double rounded = expr_detail::round_to_float_dtype(value, dtype);
    if (!std::isfinite(rounded)) throw ExprBuildError(origin, fmt::format("{} is out of range for {}", value, info.name));
    if (rounded == 0 && value != 0) throw ExprBuildError(origin, fmt::format("{} rounds to 0 in {}", value, info.name));
    e.literal.f = rounded;
    e.literal.text = fmt::format("{}", e.literal.f);
  } else {
    e.literal.f = value;
    e.literal.text = fmt::format("{}", value);
  }
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::literal_int(std::int64_t value, DType dtype, const std::string& origin) {
  const DTypeInfo& info = dtype_info(dtype);
  if (dtype == DType::Bool || info.is_float) {
    throw ExprBuildError(origin, std::string("literal_int makes integer literals, not ") + info.name);
  }
  ExprNode e;
  e.kind = ExprKind::Literal;
  e.dtype = dtype;
  // The range the parser checks its literals against.
  const expr_detail::IntRange range = expr_detail::int_range(dtype);
  const std::uint64_t magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  if (magnitude > (value < 0 ? range.max_negative : range.max_positive)) {
    throw ExprBuildError(origin, fmt::format("{} is out of range for {} ({})", value, info.name, range.text));
  }
  if (info.is_signed) e.literal.i = value;
  else e.literal.u = static_cast<std::uint64_t>(value);
  e.literal.text = fmt::format("{}", value);
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::literal_bool(bool value, const std::string& origin) {
  ExprNode e;
  e.kind = ExprKind::Literal;
  e.dtype = DType::Bool;
  e.literal.b = value;
  e.literal.text = value ? "true" : "false";
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::binary(Op op, Value a, Value b, const std::string& origin) {
  if (op == Op::Broadcast) throw ExprBuildError(origin, "broadcast is not an expression op");
  ExprNode e;
  e.kind = ExprKind::Binary;
  e.op = op;
  e.args = {a, b};
  const DType t = node(a, origin).dtype;
  node(b, origin);
  if (!op_supports(op, t)) {
    throw ExprBuildError(origin, fmt::format("{} does not accept {} (accepts: {})", op_name(op), dtype_name(t),
                                             supported_dtypes_text(op)));
  }
  e.dtype = result_dtype(op, t);
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::unary(UnaryOp op, Value x, const std::string& origin) {
  ExprNode e;
  e.kind = ExprKind::Unary;
  e.unary = op;
  e.args = {x};
  // The runtime's typing rule (a test such as isnan gives bool); where it
  // refuses the operand, add() says why.
  const DType in = node(x, origin).dtype;
  const NodeTyping t = type_node(ExprKind::Unary, Op{}, op, in, {in});
  e.dtype = t.problem == NodeTyping::None ? t.dtype : in;
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::where(Value condition, Value x, Value y, const std::string& origin) {
  ExprNode e;
  e.kind = ExprKind::Where;
  e.args = {condition, x, y};
  node(condition, origin);
  e.dtype = node(x, origin).dtype;
  node(y, origin);
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::cast(Value x, DType dtype, const std::string& origin) {
  if (node(x, origin).dtype == dtype) return x;
  ExprNode e;
  e.kind = ExprKind::Cast;
  e.args = {x};
  e.dtype = dtype;
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::expand(Value x, const Shape& target, const std::string& origin) {
  ExprNode e;
  e.kind = ExprKind::Expand;
  e.args = {x};
  e.dtype = node(x, origin).dtype;
  e.target = target;
  return add(std::move(e), origin);
}

ExprBuilder::Value ExprBuilder::reduce(ReduceOp op, Value x, const std::vector<std::int64_t>& axes,
                                       const std::string& origin) {
  ExprNode e;
  e.kind = ExprKind::Reduce;
  e.reduce = op;
  e.args = {x};
  e.dtype = node(x, origin).dtype;
  e.axes = axes;
  return add(std::move(e), origin);
}

ExprDag ExprBuilder::finish(Value root) const {
  node(root, "");
  ExprDag d = dag_;
  d.root = root;
  return d;
}

// --- print_expr -----------------------------------------------------------

namespace {

class Printer {
 public:
  Printer(const ExprDag& dag, const std::vector<ExprInput>& inputs) : dag_(dag), inputs_(inputs) {}

  std::string print() {
    write(dag_.root, false);
    return std::move(out_);
  }

 private:
  // Node i; `typed_by_context` when the parser will give a bare number
  // this node's dtype from its parent (a sibling with a type of its own).
  void write(std::size_t i, bool typed_by_context) {
    if (out_.size() > kMaxExprLength) {
      throw InvalidArgument(fmt::format("print_expr: the text would exceed {} bytes", kMaxExprLength));
    }
    const ExprNode& n = dag_.nodes[i];
    switch (n.kind) {
      case ExprKind::Input: out_ += layout_text(inputs_.at(n.input).name, input_layout(dag_, n.input)); return;
      case ExprKind::Literal: literal(n, typed_by_context); return;
      case ExprKind::Binary: call(op_name(n.op), n.args); return;
      case ExprKind::Unary: call(unary_name(n.unary), n.args); return;
      case ExprKind::Where: call("where", n.args); return;
      case ExprKind::Cast:
        out_ += "cast(";
        write(n.args[0], false);
        out_ += std::string(", ") + dtype_name(n.dtype) + ")";
        return;
      case ExprKind::Expand:
        out_ += "expand(";
        write(n.args[0], false);
        out_ += fmt::format(", [{}])", fmt::join(n.target, ", "));
        return;
      case ExprKind::Reduce:
        out_ += std::string(reduce_name(n.reduce)) + "(";
        write(n.args[0], false);
        out_ += fmt::format(", [{}])", fmt::join(n.axes, ", "));
        return;
    }
  }

  // Whether a bare number at operand `a` of a call gets the right type: the
  // parser types it from a sibling that has a type of its own (a number
  // written as cast(...) or any non-literal).
  static bool has_own_type(const ExprNode& n) { return n.kind != ExprKind::Literal || n.dtype == DType::Bool; }

  void call(const char* name, const std::vector<std::size_t>& args) {
    out_ += name;
    out_ += "(";
    for (std::size_t a = 0; a < args.size(); ++a) {
      if (a) out_ += ", ";
      // The operands that share one type: both of a binary op, the branches of where.
      bool sibling_typed = false;
      for (std::size_t b = 0; b < args.size(); ++b) {
        const bool same_group = args.size() == 2 || (args.size() == 3 && a > 0 && b > 0);
        if (b != a && same_group && has_own_type(dag_.nodes[args[b]])) sibling_typed = true;
      }
      write(args[a], sibling_typed);
    }
    out_ += ")";
  }

  void literal(const ExprNode& n, bool typed_by_context) {
    if (n.dtype == DType::Bool) {
      out_ += n.literal.b ? "true" : "false";
      return;
    }
    std::string text;
    if (dtype_info(n.dtype).is_float) {
      if (!std::isfinite(n.literal.f)) throw InvalidArgument("print_expr: a literal is not finite");
      // The shortest text of the double (an f32 literal holds its float's
      // exact value): read back as a double, it is that value exactly.
      text = fmt::format("{}", n.literal.f);
    } else if (dtype_info(n.dtype).is_signed) {
      text = fmt::format("{}", n.literal.i);
    } else {
      text = fmt::format("{}", n.literal.u);
    }
    if (typed_by_context) out_ += text;
    else out_ += "cast(" + text + ", " + dtype_name(n.dtype) + ")";
  }

  const ExprDag& dag_;
  const std::vector<ExprInput>& inputs_;
  std::string out_;
};

}  // namespace

std::string layout_text(const std::string& x, const InputLayout& layout) {
  std::string s = x;
  for (const LayoutStep& step : layout) {
    const char* name = layout_info(step.kind).name;
    if (step.kind == LayoutKind::Slice) {
      s = fmt::format("{}({}, axis={}, start={}, stop={}", name, s, step.axis, step.start, step.stop);
      s += step.step == 1 ? ")" : fmt::format(", step={})", step.step);
    } else {
      s = fmt::format("{}({}, [{}])", name, s, fmt::join(step.dims, ", "));
    }
  }
  return s;
}

std::string print_expr(const ExprDag& dag, const std::vector<ExprInput>& inputs) {
  if (dag.root >= dag.nodes.size()) throw InvalidArgument("print_expr: the DAG has no root node");
  return Printer(dag, inputs).print();
}

}  // namespace bcastgen::gen
