// Building expression DAGs from code, and printing them back as text.
//
// ExprBuilder is the programmatic twin of parse_expr (expr.h): a frontend
// (an ONNX graph, an AOT compiler's IR) adds typed nodes one by one and gets
// the same DAG the parser would give for the same expression: equal nodes
// are shared, every node is checked by the runtime's type rules
// (check_expr_dag), and the limits are the parser's. Each node carries an
// origin, a free-form label ("Add_3", "layer1/bn") that errors name.
//
//   ExprBuilder b({{"x", DType::F32}, {"scale", DType::F32}, {"shift", DType::F32}});
//   auto y = b.binary(Op::Add, b.binary(Op::Multiply, b.input("x"), b.input("scale")), b.input("shift"), "bn");
//   ExprDag dag = b.finish(b.binary(Op::Maximum, y, b.literal(0.0, DType::F32), "relu"));
//
// print_expr writes a DAG as expression text that parse_expr reads back to
// the same DAG: every node as a call by its name, literals as
// cast(value, dtype) wherever their context would not type them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bcastgen/gen/expr.h"

namespace bcastgen::gen {

// A node the builder refuses: `origin` is the label given to the node (or
// to the operand) at fault, `message` what is wrong.
class ExprBuildError : public InvalidArgument {
 public:
  ExprBuildError(const std::string& origin, const std::string& message);
  const std::string& origin() const { return origin_; }
  const std::string& message() const { return message_; }

 private:
  std::string origin_, message_;
};

class ExprBuilder {
 public:
  using Value = std::size_t;  // a node of the DAG being built

  explicit ExprBuilder(std::vector<ExprInput> inputs);

  // Declares one more input, after those given to the constructor (a
  // frontend that finds its inputs while it builds); returns its index.
  std::size_t add_input(ExprInput in);

  Value input(const std::string& name, const std::string& origin = "");
  // Input `name` is read through `layout` (transpose, reshape, slice;
  // layout.h) wherever the DAG reads it; shapes are the caller's to check
  // (resolve_layout), as the plan does.
  void set_layout(const std::string& name, InputLayout layout);
  // A literal of a float or integer dtype (an integer must hold the value
  // exactly; a float literal must be finite and, for f32, in its range).
  Value literal(double value, DType dtype, const std::string& origin = "");
  Value literal_int(std::int64_t value, DType dtype, const std::string& origin = "");
  Value literal_bool(bool value, const std::string& origin = "");
  // Op::Broadcast is not an expression op.
  Value binary(Op op, Value a, Value b, const std::string& origin = "");
  Value unary(UnaryOp op, Value x, const std::string& origin = "");
  Value where(Value condition, Value x, Value y, const std::string& origin = "");
  // A cast to x's own dtype is x.
  Value cast(Value x, DType dtype, const std::string& origin = "");
  // x broadcast with `target` (ONNX's Expand): the target joins the output's
  // shape (rule numpy), and the node's value is x's. Dims must be >= 0.
  Value expand(Value x, const Shape& target, const std::string& origin = "");
  // A reduction of x over `axes` of x's shape (negative from the end):
  // sum, mean, max, min keep them as size-1 dims; softmax, log_softmax
  // keep x's shape. x must be a float.
  Value reduce(ReduceOp op, Value x, const std::vector<std::int64_t>& axes, const std::string& origin = "");

  DType dtype(Value v) const;
  // The node itself: its kind, operands, literal value (for a frontend that
  // folds literals or works out shapes).
  const ExprNode& node_at(Value v) const { return node(v, ""); }
  // The origin of the node's first builder call (a shared node keeps it).
  const std::string& origin(Value v) const;
  std::size_t size() const { return dag_.nodes.size(); }

  // The DAG with `root` as its result (nodes not reachable from it stay:
  // they are harmless, and the plan never reads them).
  ExprDag finish(Value root) const;

 private:
  Value add(ExprNode node, const std::string& origin);
  const ExprNode& node(Value v, const std::string& origin) const;

  // An ExprNode's identity for sharing (expr_detail::node_key, as the parser's).
  using Key = std::tuple<ExprKind, int, DType, std::vector<std::size_t>, std::uint64_t, Shape>;
  std::vector<ExprInput> inputs_;
  std::vector<DType> dtypes_;        // the inputs', for check_expr_node
  std::vector<std::string> names_;   // the inputs', for its messages
  ExprDag dag_;
  std::vector<std::string> origins_;
  std::map<Key, std::size_t> index_;
};

// The DAG as expression text that parse_expr(text, inputs) reads back to it.
// Throws InvalidArgument when the text (shared nodes are written out at each
// use) would exceed kMaxExprLength, or for a non-finite literal.
std::string print_expr(const ExprDag& dag, const std::vector<ExprInput>& inputs);

// Input `x` read through `layout`, as expression text:
// "slice(transpose(x, [0, 2, 1]), axis=-1, start=0, stop=32)".
std::string layout_text(const std::string& x, const InputLayout& layout);

}  // namespace bcastgen::gen
