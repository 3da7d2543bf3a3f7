// An ONNX model as the frontend reads it: parsed, its input shapes fixed,
// shapes inferred, and the values known when it is read (constants).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/onnx_pb.h>

#include "bcastgen/shape.h"
#include "bcastgen/types.h"

namespace bcastgen::onnx_import {

// ONNX's TensorProto.DataType -> bcastgen's dtype; nullopt for the types
// bcastgen has no kernel for (string, complex, 8-bit floats).
std::optional<DType> dtype_of(int onnx_type);
// "FLOAT", "STRING", ... for messages.
std::string onnx_type_name(int onnx_type);

struct TensorType {
  DType dtype = DType::F32;
  std::optional<Shape> shape;  // absent: unknown after shape inference, or not static
};

// A value known when the model is read: an initializer, a Constant node, a
// ConstantOfShape, or an elementwise node over uniform constants. A uniform
// constant (every element equal) keeps one element however large its shape.
struct Constant {
  DType dtype = DType::F32;
  Shape shape;
  bool uniform = false;
  std::vector<unsigned char> bytes;  // bcastgen's storage of numel elements (1 if uniform)

  // Element k as a double (floats exactly; integers exactly up to 2^53; bool 0/1).
  double number(std::size_t k = 0) const;
  // Element k of an integer or bool constant.
  std::int64_t integer(std::size_t k = 0) const;
  std::size_t stored() const;  // elements held in `bytes`
};

// Reads a TensorProto (raw_data or the typed fields) as a constant; `what`
// names it in errors. nullopt for data kept outside the model (external
// data) or a dtype bcastgen lacks. Throws ImportError for sizes that do not
// match the dims.
std::optional<Constant> read_tensor(const onnx::TensorProto& t, const std::string& what);

class Model {
 public:
  // Parses `bytes`, fixes the graph inputs' shapes from `input_shapes`, runs
  // ONNX shape inference and reads the initializers. Throws ImportError.
  Model(std::string_view bytes, const std::map<std::string, Shape>& input_shapes);

  // Runs ONNX shape inference again on a copy
  // of the model in which each of `folded`'s nodes (by index) is a Constant
  // node holding its value, so that the shape inputs computed in the graph
  // are known to it; the graph itself stays as read.
  void infer(const std::map<int, Constant>& folded);
  // The node that computes `tensor`, or nullptr (an input, an initializer).
  const onnx::NodeProto* producer(const std::string& tensor) const;

  const onnx::GraphProto& graph() const { return model_.graph(); }
  std::int64_t opset() const { return opset_; }  // of the default domain
  std::optional<TensorType> type(const std::string& tensor) const;
  const Constant* constant(const std::string& tensor) const;
  void set_constant(const std::string& tensor, Constant c) { constants_[tensor] = std::move(c); }
  bool is_graph_output(const std::string& tensor) const { return outputs_.count(tensor) != 0; }
  bool is_initializer(const std::string& tensor) const { return initializers_.count(tensor) != 0; }

 private:
  void fix_input_shapes(const std::map<std::string, Shape>& input_shapes);
  void check_inputs_static() const;
  void record_type(const onnx::ValueInfoProto& v);

  onnx::ModelProto model_;
  std::int64_t opset_ = 0;
  std::map<std::string, TensorType> types_;
  std::map<std::string, Constant> constants_;
  std::set<std::string> outputs_, initializers_;
  std::map<std::string, int> producers_;
};

// The element count of a shape, saturated at INT64_MAX (0 for a negative dim).
std::int64_t numel_of(const Shape& s);
// The ONNX type of a dtype (FLOAT for f32, ...).
int onnx_type_of(DType dtype);
// A constant as a TensorProto (raw data, every element).
onnx::TensorProto tensor_proto(const Constant& c, const std::string& name);

}  // namespace bcastgen::onnx_import
