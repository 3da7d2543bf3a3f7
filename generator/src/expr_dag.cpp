// Typing and sharing: the syntax tree to the typed DAG. Three loops over the
// tree, never a recursion (children precede parents in ast.nodes):
//   1. forward: each node's own type, from its operands (none when it is
//      made of numbers only);
//   2. backward: every node gets a type, numbers from their context;
//   3. forward: check the type rules and build the nodes, one per distinct
//      (kind, op, operands, dtype, value).
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

#include "expr_ast.h"

namespace bcastgen::gen {

namespace expr_detail {
namespace {

using Types = std::vector<std::optional<DType>>;

std::string unary_types_text(UnaryOp u) {
  std::string s;
  for (DType t : kAllDTypes) {
    if (unary_supports(u, t)) s += (s.empty() ? "" : ", ") + std::string(dtype_name(t));
  }
  return s;
}

class DagBuilder {
 public:
  DagBuilder(std::string_view text, const Ast& ast, const std::vector<ExprInput>& inputs)
      : text_(text), ast_(ast), inputs_(inputs), own_(ast.nodes.size()), type_(ast.nodes.size()) {}

  ExprDag build() {
    for (std::size_t i = 0; i < ast_.nodes.size(); ++i) own_[i] = own_type(ast_.nodes[i]);
    type_[ast_.root] = own_[ast_.root];
    if (!type_[ast_.root]) {
      fail(ast_.nodes[ast_.root],
           "cannot infer the result type: the result comes from numbers only (give one a type: cast(1, f32))");
    }
    for (std::size_t i = ast_.nodes.size(); i-- > 0;) give_operand_types(ast_.nodes[i], *type_[i]);
    dag_.input_used.assign(inputs_.size(), false);
    std::vector<std::size_t> id(ast_.nodes.size());
    for (std::size_t i = 0; i < ast_.nodes.size(); ++i) id[i] = build_node(ast_.nodes[i], *type_[i], id);
    dag_.root = id[ast_.root];
    while (!dag_.layouts.empty() && dag_.layouts.back().empty()) dag_.layouts.pop_back();
    return std::move(dag_);
  }

 private:
  [[noreturn]] void fail(const AstNode& at, const std::string& message) const {
    throw ExprError(text_, at.column, message);
  }

  // The type a node has from its operands alone.
  std::optional<DType> own_type(const AstNode& n) const {
    const auto& a = n.args;
    switch (n.kind) {
      case AstKind::Input: return inputs_[n.input].dtype;
      case AstKind::Number: return std::nullopt;
      case AstKind::Bool: return DType::Bool;
      case AstKind::Binary:
        if (op_kind(n.op) == OpKind::Comparison || op_kind(n.op) == OpKind::Logical) return DType::Bool;
        return own_[a[0]] ? own_[a[0]] : own_[a[1]];
      case AstKind::Unary:
        if (n.unary == UnaryOp::LogicalNot || unary_info(n.unary).gives_bool) return DType::Bool;
        return own_[a[0]];
      case AstKind::Where: return own_[a[1]] ? own_[a[1]] : own_[a[2]];
      case AstKind::Cast: return n.dtype;
      case AstKind::Expand:
      case AstKind::Reduce: return own_[a[0]];
    }
    return std::nullopt;
  }

  // Passes a context type down to the operands that have none of their own.
  void give_operand_types(const AstNode& n, DType t) {
    auto give = [&](std::size_t arg, DType context) { type_[arg] = own_[arg] ? own_[arg] : context; };
    auto either = [&](std::size_t x, std::size_t y) { return own_[x] ? own_[x] : own_[y]; };
    const auto& a = n.args;
    switch (n.kind) {
      case AstKind::Input:
      case AstKind::Number:
      case AstKind::Bool: return;
      case AstKind::Binary: {
        std::optional<DType> operands = either(a[0], a[1]);
        if (op_kind(n.op) == OpKind::Logical) operands = DType::Bool;
        if (op_kind(n.op) != OpKind::Comparison && !operands) operands = t;
        if (!operands) {
          fail(n, "cannot infer the operand type of " + what(n) +
                      ": both sides are numbers only (give one a type: cast(1, f32))");
        }
        give(a[0], *operands);
        give(a[1], *operands);
        return;
      }
      case AstKind::Unary:
        if (unary_info(n.unary).gives_bool && !own_[a[0]]) {
          fail(n, "cannot infer the operand type of " + what(n) + ": it is a number only (give it a type: cast(1, f32))");
        }
        give(a[0], n.unary == UnaryOp::LogicalNot ? DType::Bool : t);
        return;
      case AstKind::Where:
        give(a[0], DType::Bool);
        give(a[1], t);
        give(a[2], t);
        return;
      case AstKind::Cast: give(a[0], n.dtype); return;
      case AstKind::Expand:
      case AstKind::Reduce: give(a[0], t); return;
    }
  }

  // "'+' (add)", "max (maximum)", "sqrt": how a message names a node.
  static std::string what(const AstNode& n) {
    const std::string name = n.kind == AstKind::Binary ? op_name(n.op)
                             : n.kind == AstKind::Unary ? unary_name(n.unary)
                                                        : n.name;
    const bool symbol = !n.name.empty() && !std::isalpha(static_cast<unsigned char>(n.name[0]));
    std::string s = symbol ? "'" + n.name + "'" : n.name;
    return n.name == name ? s : s + " (" + name + ")";
  }

  // Input n.input's layout, the same at every use: one Input node per
  // input, so a kernel reads each tensor one way.
  void set_layout(const AstNode& n) {
    if (n.layout.size() > kMaxLayoutSteps) {
      fail(n, "input '" + inputs_[n.input].name + "' is read through more than " + std::to_string(kMaxLayoutSteps) +
                  " layout steps");
    }
    if (dag_.layouts.size() <= n.input) dag_.layouts.resize(n.input + 1);
    InputLayout& have = dag_.layouts[n.input];
    if (!dag_.input_used[n.input]) {
      have = n.layout;
    } else if (have != n.layout) {
      fail(n, "input '" + inputs_[n.input].name + "' is read through two different layouts (transpose, reshape, " +
                  "slice); a kernel reads each input one way: declare the tensor as two inputs");
    }
  }

  std::size_t build_node(const AstNode& n, DType t, const std::vector<std::size_t>& id) {
    ExprNode e;
    e.column = n.column;
    e.dtype = t;
    for (std::size_t arg : n.args) e.args.push_back(id[arg]);
    auto arg_type = [&](std::size_t k) { return dag_.nodes[e.args[k]].dtype; };
    switch (n.kind) {
      case AstKind::Input:
        e.kind = ExprKind::Input;
        e.input = n.input;
        set_layout(n);
        dag_.input_used[n.input] = true;
        return intern(std::move(e), n);
      case AstKind::Number:
        e.kind = ExprKind::Literal;
        e.literal = type_number(text_, n, t);
        return intern(std::move(e), n);
      case AstKind::Bool:
        e.kind = ExprKind::Literal;
        e.literal.text = n.name;
        e.literal.b = n.value;
        return intern(std::move(e), n);
      case AstKind::Binary: e.kind = ExprKind::Binary; e.op = n.op; break;
      case AstKind::Unary: e.kind = ExprKind::Unary; e.unary = n.unary; break;
      case AstKind::Where: e.kind = ExprKind::Where; break;
      case AstKind::Cast:
        if (arg_type(0) == n.dtype) return e.args[0];  // a cast to x's own type is x
        e.kind = ExprKind::Cast;
        break;
      case AstKind::Expand:
        e.kind = ExprKind::Expand;
        e.target = n.target;
        break;
      case AstKind::Reduce:
        e.kind = ExprKind::Reduce;
        e.reduce = n.reduce;
        e.axes = n.axes;
        break;
    }
    // The runtime's typing rule (type_node, expr.h), in the parser's words.
    std::vector<DType> operands;
    for (std::size_t k = 0; k < e.args.size(); ++k) operands.push_back(arg_type(k));
    const NodeTyping typed = type_node(e.kind, e.op, e.unary, n.dtype, operands);
    const DType bad = operands[typed.operand];
    switch (typed.problem) {
      case NodeTyping::None: break;
      case NodeTyping::Unsupported:
        fail(n, what(n) + " does not accept " + dtype_name(bad) + " (accepts: " +
                    (e.kind == ExprKind::Binary   ? supported_dtypes_text(e.op)
                     : e.kind == ExprKind::Reduce ? std::string("f32, f64, f16, bf16")
                                                  : unary_types_text(e.unary)) +
                    ")");
      case NodeTyping::Mismatch:
        fail(n, (e.kind == ExprKind::Binary ? "the operands of " + what(n) : std::string("where's branches")) +
                    " have different types: " + dtype_name(operands[typed.operand - 1]) + " and " + dtype_name(bad) +
                    " (convert one with cast(x, dtype))");
      case NodeTyping::NotBool: fail(n, std::string("where's condition must be bool, not ") + dtype_name(bad));
    }
    e.dtype = typed.dtype;
    return intern(std::move(e), n);
  }

  // The node's index: an existing equal node, or a new one.
  std::size_t intern(ExprNode e, const AstNode& n) {
    NodeKey key = node_key(e);
    const auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    if (dag_.nodes.size() == kMaxExprNodes) {
      fail(n, "the expression has more than " + std::to_string(kMaxExprNodes) +
                  " nodes (after sharing common subexpressions)");
    }
    dag_.nodes.push_back(std::move(e));
    index_.emplace(std::move(key), dag_.nodes.size() - 1);
    return dag_.nodes.size() - 1;
  }

  std::string_view text_;
  const Ast& ast_;
  const std::vector<ExprInput>& inputs_;
  Types own_, type_;
  ExprDag dag_;
  std::map<NodeKey, std::size_t> index_;
};

}  // namespace

NodeKey node_key(const ExprNode& e) {
  std::uint64_t value = 0;
  if (e.kind == ExprKind::Input) {
    value = e.input;
  } else if (e.kind == ExprKind::Literal) {
    const ExprLiteral& lit = e.literal;
    if (dtype_info(e.dtype).is_float) std::memcpy(&value, &lit.f, sizeof value);
    else if (e.dtype == DType::Bool) value = lit.b;
    else if (dtype_info(e.dtype).is_signed) value = static_cast<std::uint64_t>(lit.i);
    else value = lit.u;
  }
  const int code = e.kind == ExprKind::Binary   ? static_cast<int>(e.op)
                   : e.kind == ExprKind::Unary  ? static_cast<int>(e.unary)
                   : e.kind == ExprKind::Reduce ? static_cast<int>(e.reduce)
                                                : 0;
  const Shape shape = e.kind == ExprKind::Expand ? e.target : e.kind == ExprKind::Reduce ? e.axes : Shape{};
  return {e.kind, code, e.dtype, e.args, value, shape};
}

ExprDag build_dag(std::string_view text, const Ast& ast, const std::vector<ExprInput>& inputs) {
  return DagBuilder(text, ast, inputs).build();
}

}  // namespace expr_detail
}  // namespace bcastgen::gen
