// Reading the model: protobuf, fixed input shapes, shape inference, constants.
#include "model.h"

#include <fmt/format.h>

#include <climits>
#include <cstring>
#include <exception>

#include <onnx/shape_inference/implementation.h>

#include "bcastgen/half.h"
#include "bcastgen/onnx/import.h"

namespace bcastgen::onnx_import {

namespace {

using onnx::TensorProto;

struct TypeRow {
  int onnx;
  const char* name;
  std::optional<DType> dtype;
};

constexpr TypeRow kTypes[] = {
    {TensorProto::FLOAT, "FLOAT", DType::F32},       {TensorProto::UINT8, "UINT8", DType::U8},
    {TensorProto::INT8, "INT8", DType::I8},          {TensorProto::UINT16, "UINT16", DType::U16},
    {TensorProto::INT16, "INT16", DType::I16},       {TensorProto::INT32, "INT32", DType::I32},
    {TensorProto::INT64, "INT64", DType::I64},       {TensorProto::STRING, "STRING", std::nullopt},
    {TensorProto::BOOL, "BOOL", DType::Bool},        {TensorProto::FLOAT16, "FLOAT16", DType::F16},
    {TensorProto::DOUBLE, "DOUBLE", DType::F64},     {TensorProto::UINT32, "UINT32", DType::U32},
    {TensorProto::UINT64, "UINT64", DType::U64},     {TensorProto::COMPLEX64, "COMPLEX64", std::nullopt},
    {TensorProto::COMPLEX128, "COMPLEX128", std::nullopt}, {TensorProto::BFLOAT16, "BFLOAT16", DType::Bf16},
};

// Appends `value` to `out` as `dtype`'s storage (little endian, as x86 and
// AArch64 are and as ONNX's raw_data is).
template <class T>
void append(std::vector<unsigned char>* out, T value) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  out->insert(out->end(), b, b + sizeof(T));
}

template <class T>
T load(const std::vector<unsigned char>& bytes, std::size_t k) {
  T v;
  std::memcpy(&v, bytes.data() + k * sizeof(T), sizeof(T));
  return v;
}

// The typed fields of a TensorProto: which one holds `dtype` and how each
// element is stored in it.
void append_typed(const TensorProto& t, DType dtype, std::vector<unsigned char>* out) {
  switch (dtype) {
    case DType::F32: for (float v : t.float_data()) append(out, v); break;
    case DType::F64: for (double v : t.double_data()) append(out, v); break;
    case DType::I64: for (std::int64_t v : t.int64_data()) append(out, v); break;
    case DType::U32: for (std::uint64_t v : t.uint64_data()) append(out, static_cast<std::uint32_t>(v)); break;
    case DType::U64: for (std::uint64_t v : t.uint64_data()) append(out, v); break;
    case DType::I32: for (std::int32_t v : t.int32_data()) append(out, v); break;
    // int32_data holds the narrower types' values, and the 16-bit floats' bits.
    case DType::I16: for (std::int32_t v : t.int32_data()) append(out, static_cast<std::int16_t>(v)); break;
    case DType::U16: case DType::F16: case DType::Bf16:
      for (std::int32_t v : t.int32_data()) append(out, static_cast<std::uint16_t>(v));
      break;
    case DType::I8: for (std::int32_t v : t.int32_data()) append(out, static_cast<std::int8_t>(v)); break;
    case DType::U8: for (std::int32_t v : t.int32_data()) append(out, static_cast<std::uint8_t>(v)); break;
    case DType::Bool: for (std::int32_t v : t.int32_data()) append(out, static_cast<std::uint8_t>(v != 0)); break;
  }
}

}  // namespace

std::optional<DType> dtype_of(int onnx_type) {
  for (const TypeRow& r : kTypes) {
    if (r.onnx == onnx_type) return r.dtype;
  }
  return std::nullopt;
}

std::string onnx_type_name(int onnx_type) {
  for (const TypeRow& r : kTypes) {
    if (r.onnx == onnx_type) return r.name;
  }
  return fmt::format("type {}", onnx_type);
}

std::size_t Constant::stored() const { return bytes.size() / static_cast<std::size_t>(dtype_info(dtype).size); }

double Constant::number(std::size_t k) const {
  switch (dtype) {
    case DType::F32: return load<float>(bytes, k);
    case DType::F64: return load<double>(bytes, k);
    case DType::F16: return to_float(f16{load<std::uint16_t>(bytes, k)});
    case DType::Bf16: return to_float(bf16{load<std::uint16_t>(bytes, k)});
    case DType::U64: return static_cast<double>(load<std::uint64_t>(bytes, k));
    default: return static_cast<double>(integer(k));
  }
}

std::int64_t Constant::integer(std::size_t k) const {
  switch (dtype) {
    case DType::I8: return load<std::int8_t>(bytes, k);
    case DType::U8: return load<std::uint8_t>(bytes, k);
    case DType::Bool: return load<std::uint8_t>(bytes, k) != 0;
    case DType::I16: return load<std::int16_t>(bytes, k);
    case DType::U16: return load<std::uint16_t>(bytes, k);
    case DType::I32: return load<std::int32_t>(bytes, k);
    case DType::U32: return load<std::uint32_t>(bytes, k);
    case DType::I64: return load<std::int64_t>(bytes, k);
    case DType::U64: return static_cast<std::int64_t>(load<std::uint64_t>(bytes, k));
    default: return static_cast<std::int64_t>(number(k));
  }
}

std::optional<Constant> read_tensor(const TensorProto& t, const std::string& what) {
  const std::optional<DType> dtype = dtype_of(t.data_type());
  if (!dtype || t.data_location() == TensorProto::EXTERNAL) return std::nullopt;
  Constant c;
  c.dtype = *dtype;
  std::int64_t numel = 1;
  for (std::int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && numel > (std::int64_t{1} << 40) / d)) {
      throw ImportError(
          fmt::format("{}: dims {} are negative or too large", what, format_shape({t.dims().begin(), t.dims().end()})));
    }
    c.shape.push_back(d);
    numel *= d;
  }
  const auto size = static_cast<std::size_t>(dtype_info(c.dtype).size);
  if (t.has_raw_data()) {
    c.bytes.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    append_typed(t, c.dtype, &c.bytes);
  }
  if (c.bytes.size() != static_cast<std::size_t>(numel) * size) {
    throw ImportError(fmt::format("{}: {} {} holds {} bytes of data, its dims {} need {}", what,
                                  onnx_type_name(t.data_type()), "tensor", c.bytes.size(), format_shape(c.shape),
                                  static_cast<std::size_t>(numel) * size));
  }
  if (c.dtype == DType::Bool) {
    for (unsigned char& b : c.bytes) b = b != 0;
  }
  // Uniform: keep one element (a scalar, or every element the same bits).
  bool uniform = numel >= 1;
  for (std::size_t k = 1; uniform && k < static_cast<std::size_t>(numel); ++k) {
    uniform = std::memcmp(c.bytes.data(), c.bytes.data() + k * size, size) == 0;
  }
  if (uniform) {
    c.uniform = true;
    c.bytes.resize(size);
  }
  return c;
}

Model::Model(std::string_view bytes, const std::map<std::string, Shape>& input_shapes) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX) ||
      !model_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw ImportError("not an ONNX model: the bytes do not parse as an ONNX ModelProto (truncated or another format)");
  }
  if (!model_.has_graph() || model_.ir_version() <= 0) {
    throw ImportError("not an ONNX model: it has no graph or no IR version");
  }
  for (const auto& op : model_.opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") opset_ = op.version();
  }
  if (opset_ == 0) throw ImportError("the model imports no opset of the default ONNX domain");
  for (const auto& init : graph().initializer()) initializers_.insert(init.name());
  fix_input_shapes(input_shapes);
  check_inputs_static();
  for (int i = 0; i < graph().node_size(); ++i) {
    for (const auto& t : graph().node(i).output()) producers_[t] = i;
  }
  infer({});
  for (const auto& v : graph().output()) outputs_.insert(v.name());
  for (const auto& init : graph().initializer()) {
    if (std::optional<Constant> c = read_tensor(init, "initializer '" + init.name() + "'")) {
      constants_[init.name()] = std::move(*c);
    }
  }
}

void Model::infer(const std::map<int, Constant>& folded) {
  onnx::ModelProto copy = model_;
  copy.mutable_graph()->clear_value_info();
  for (const auto& [index, value] : folded) {
    onnx::NodeProto* node = copy.mutable_graph()->mutable_node(index);
    // Large uniform values (ConstantOfShape) stay as they are: their shape
    // inputs are folded, which is all inference needs.
    if (node->op_type() == "Constant" || numel_of(value.shape) > 4096) continue;
    const std::string out = node->output(0), name = node->name();
    node->Clear();
    node->set_op_type("Constant");
    node->set_name(name);
    node->add_output(out);
    auto* a = node->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = tensor_proto(value, out);
  }
  // Without ONNX's data propagation: fold.cpp computes those values itself,
  // and ONNX 1.12's runs out of memory on a Slice with a step near 2^62
  // (fuzz/regressions/onnx/slice_huge_step.onnx).
  try {
    onnx::ShapeInferenceOptions options{/*check_type=*/false, /*error_mode=*/0, /*enable_data_propagation=*/false};
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    throw ImportError(std::string("ONNX shape inference failed: ") + e.what());
  }
  types_.clear();
  for (const auto& v : copy.graph().input()) record_type(v);
  for (const auto& v : copy.graph().value_info()) record_type(v);
  for (const auto& v : copy.graph().output()) record_type(v);
  for (const auto& init : copy.graph().initializer()) {
    TensorType t;
    if (const std::optional<DType> d = dtype_of(init.data_type())) {
      t.dtype = *d;
      t.shape = Shape(init.dims().begin(), init.dims().end());
      types_[init.name()] = t;
    }
  }
}

const onnx::NodeProto* Model::producer(const std::string& tensor) const {
  const auto it = producers_.find(tensor);
  return it == producers_.end() ? nullptr : &graph().node(it->second);
}

std::int64_t numel_of(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) {
    if (d < 0) return 0;
    if (d > 0 && n > INT64_MAX / d) return INT64_MAX;
    n *= d;
  }
  return n;
}

int onnx_type_of(DType dtype) {
  for (const TypeRow& r : kTypes) {
    if (r.dtype == dtype) return r.onnx;
  }
  return TensorProto::UNDEFINED;
}

onnx::TensorProto tensor_proto(const Constant& c, const std::string& name) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx_type_of(c.dtype));
  for (std::int64_t d : c.shape) t.add_dims(d);
  std::string raw;
  const std::size_t size = static_cast<std::size_t>(dtype_info(c.dtype).size);
  const std::size_t n = static_cast<std::size_t>(numel_of(c.shape));
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t at = c.uniform ? 0 : k;
    raw.append(reinterpret_cast<const char*>(c.bytes.data() + at * size), size);
  }
  t.set_raw_data(raw);
  return t;
}

void Model::fix_input_shapes(const std::map<std::string, Shape>& input_shapes) {
  for (const auto& [name, shape] : input_shapes) {
    onnx::ValueInfoProto* found = nullptr;
    for (auto& v : *model_.mutable_graph()->mutable_input()) {
      if (v.name() == name) found = &v;
    }
    if (found == nullptr || initializers_.count(name)) {
      throw ImportError(fmt::format("--input-shape {}: the graph has no input named '{}'", name, name));
    }
    auto* tensor = found->mutable_type()->mutable_tensor_type();
    if (tensor->has_shape() && tensor->shape().dim_size() != static_cast<int>(shape.size())) {
      throw ImportError(fmt::format("--input-shape {}: the input has rank {}, the shape {} has rank {}", name,
                                    tensor->shape().dim_size(), format_shape(shape), shape.size()));
    }
    auto* dims = tensor->mutable_shape();
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (k < static_cast<std::size_t>(dims->dim_size()) && dims->dim(static_cast<int>(k)).has_dim_value() &&
          dims->dim(static_cast<int>(k)).dim_value() != shape[k]) {
        throw ImportError(fmt::format("--input-shape {}: dimension {} is fixed at {} in the model, not {}", name, k,
                                      dims->dim(static_cast<int>(k)).dim_value(), shape[k]));
      }
    }
    dims->clear_dim();
    for (std::int64_t d : shape) dims->add_dim()->set_dim_value(d);
  }
}

void Model::check_inputs_static() const {
  for (const auto& v : graph().input()) {
    if (initializers_.count(v.name())) continue;  // IR < 4 lists initializers as inputs too
    if (!v.type().has_tensor_type()) {
      throw ImportError(fmt::format("input '{}' is not a tensor (sequences and maps are not supported)", v.name()));
    }
    const auto& t = v.type().tensor_type();
    if (!dtype_of(t.elem_type())) {
      throw ImportError(fmt::format("input '{}' has dtype {}, which bcastgen does not support", v.name(),
                                    onnx_type_name(t.elem_type())));
    }
    if (!t.has_shape()) {
      throw ImportError(fmt::format("input '{}' has no shape: give it with --input-shape {}=d0,d1,...", v.name(),
                                    v.name()));
    }
    for (int k = 0; k < t.shape().dim_size(); ++k) {
      const auto& d = t.shape().dim(k);
      if (!d.has_dim_value() || d.dim_value() < 0) {
        const std::string label = d.has_dim_param() ? " ('" + d.dim_param() + "')" : "";
        throw ImportError(fmt::format("input '{}': dimension {}{} is dynamic: fix it with --input-shape {}=d0,d1,...",
                                      v.name(), k, label, v.name()));
      }
    }
  }
  for (const auto& v : graph().output()) {
    if (v.type().has_tensor_type() && v.type().tensor_type().elem_type() != 0 &&
        !dtype_of(v.type().tensor_type().elem_type())) {
      throw ImportError(fmt::format("output '{}' has dtype {}, which bcastgen does not support", v.name(),
                                    onnx_type_name(v.type().tensor_type().elem_type())));
    }
  }
}

void Model::record_type(const onnx::ValueInfoProto& v) {
  if (!v.type().has_tensor_type()) return;
  const auto& t = v.type().tensor_type();
  const std::optional<DType> dtype = dtype_of(t.elem_type());
  if (!dtype) return;
  TensorType type{*dtype, std::nullopt};
  if (t.has_shape()) {
    Shape s;
    bool fixed = true;
    for (const auto& d : t.shape().dim()) {
      fixed = fixed && d.has_dim_value() && d.dim_value() >= 0;
      s.push_back(d.dim_value());
    }
    if (fixed) type.shape = s;
  }
  types_[v.name()] = type;
}

std::optional<TensorType> Model::type(const std::string& tensor) const {
  if (const auto it = types_.find(tensor); it != types_.end()) return it->second;
  if (const Constant* c = constant(tensor)) return TensorType{c->dtype, c->shape};
  return std::nullopt;
}

const Constant* Model::constant(const std::string& tensor) const {
  const auto it = constants_.find(tensor);
  return it == constants_.end() ? nullptr : &it->second;
}

}  // namespace bcastgen::onnx_import
