// ONNX elementwise operators as expression nodes: one mapping per op type
// (node_map.cpp), with ONNX's semantics at opsets 7 to 20.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <onnx/onnx_pb.h>

#include "bcastgen/gen/expr_builder.h"
#include "model.h"

namespace bcastgen::onnx_import {

using Value = gen::ExprBuilder::Value;

// Thrown by a mapping for a node the frontend leaves to the model's runtime:
// `reason` says why ("attribute fmod=0 on floats", "Dropout's mask is used").
struct NotCovered {
  std::string reason;
};

// An ExprBuilder that computes an operation over literals when it is built
// (with the scalar reference, so exactly as the kernel would): BatchNorm's
// sqrt(var + eps) over constants becomes one literal.
class FoldingBuilder {
 public:
  explicit FoldingBuilder(gen::ExprBuilder* b) : b_(b) {}
  gen::ExprBuilder& raw() { return *b_; }
  DType dtype(Value v) const { return b_->dtype(v); }
  bool is_literal(Value v) const { return b_->node_at(v).kind == ExprKind::Literal; }

  // A literal of `dtype` holding `value` (rounded to it, as a cast would).
  Value number(double value, DType dtype, const std::string& origin);
  // A uniform constant's value as a literal; nullopt where it is none (inf,
  // NaN, a u64 above 2^63).
  std::optional<Value> literal(const Constant& c, const std::string& origin);
  Value binary(Op op, Value a, Value b, const std::string& origin);
  Value unary(UnaryOp op, Value x, const std::string& origin);
  Value where(Value c, Value x, Value y, const std::string& origin);
  Value cast(Value x, DType dtype, const std::string& origin);

 private:
  Value fold(Value v, const std::string& origin);
  gen::ExprBuilder* b_;
};

// What a mapping asks of the group it is built into.
class NodeOperands {
 public:
  virtual ~NodeOperands() = default;
  // The value of the node's input k. `as`: read it with that shape, which
  // holds the same elements (BatchNormalization's [C] parameters as [C,1,1]).
  virtual Value value(int k, const std::optional<Shape>& as = std::nullopt) = 0;
  // The node's input k read in place through `layout` (a Transpose, a
  // Reshape, a Slice's steps): a kernel parameter with that layout.
  // NotCovered where the input is computed in the group (a layout of a
  // value is a copy).
  virtual Value read_through(int k, const InputLayout& layout) = 0;
  virtual const Constant* constant(int k) const = 0;
  virtual std::optional<TensorType> type(int k) const = 0;
  // The node's output as shape inference gave it.
  virtual std::optional<TensorType> output_type() const = 0;
};

// Whether the op type only re-indexes its input (Transpose, Reshape,
// Flatten, Squeeze, Unsqueeze, Slice): a group of these alone is a copy,
// left to the model's runtime.
bool is_layout_op(const std::string& op_type);

// True for the op types map_node knows (they may still refuse a node).
bool maps_op_type(const std::string& op_type);

// The node's (single) output as a value of `b`. Throws NotCovered.
Value map_node(const onnx::NodeProto& node, std::int64_t opset, NodeOperands& in, FoldingBuilder& b);

}  // namespace bcastgen::onnx_import
