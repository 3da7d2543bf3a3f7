#include "emit_signature.h"

#include <fmt/format.h>

namespace bcastgen::gen {
namespace {

// The C spelling of an element type ("std::int8_t" -> "int8_t"); the
// 16-bit floats are their bits, uint16_t.
std::string c_type(DType t) {
  if (is_half(t)) return "uint16_t";
  std::string s = dtype_info(t).cpp_type;
  return s.rfind("std::", 0) == 0 ? s.substr(5) : s;
}

// A C pointer argument `name` passed on to the C++ function: a 16-bit
// float's uint16_t pointer becomes a pointer to the storage type (the
// struct of those 16 bits).
std::string c_to_cpp(DType t, const std::string& name, bool is_const) {
  if (!is_half(t)) return name;
  return fmt::format("reinterpret_cast<{}{}*>({})", is_const ? "const " : "", dtype_info(t).cpp_type, name);
}

}  // namespace

Signature signature_of(const KernelPlan& p) {
  const std::string r = dtype_info(p.out_dtype).cpp_type;
  Signature s;
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    const InputSpec& in = p.spec.inputs[k];
    const std::string t = dtype_info(in.dtype).cpp_type, n = in.name, pos = fmt::format("in{}", k);
    s.c_params += fmt::format("const {}* {}, ", c_type(in.dtype), n);
    s.c_args += c_to_cpp(in.dtype, n, true) + ", ";
    s.c_checked_params += fmt::format("const {0}* {1}, const int64_t* {1}_dims, size_t {1}_rank, ", c_type(in.dtype), n);
    s.c_checked_args += fmt::format("{{{}, bcastgen::ShapeRef({}_dims, {}_rank)}}, ", c_to_cpp(in.dtype, n, true), n, n);
    s.params += fmt::format("const {}* {}, ", t, n);
    s.internal_params += fmt::format("const {}* {}, ", t, pos);
    s.types += fmt::format("const {}*, ", t);
    s.args += n + ", ";
    s.internal_args += pos + ", ";
    s.view_params += fmt::format("bcastgen::TensorView<const {}> {}, ", t, n);
    s.view_args += n + ".data, ";
    s.casts += fmt::format("static_cast<const {}*>(in[{}]), ", t, k);
  }
  s.params += fmt::format("{}* out", r);
  s.internal_params += fmt::format("{}* out", r);
  s.types += fmt::format("{}*", r);
  s.args += "out";
  s.internal_args += "out";
  s.view_params += fmt::format("bcastgen::TensorView<{}> out", r);
  s.view_args += "out.data";
  s.casts += fmt::format("static_cast<{}*>(out)", r);
  s.c_params += fmt::format("{}* out", c_type(p.out_dtype));
  s.c_args += c_to_cpp(p.out_dtype, "out", false);
  s.c_checked_params += fmt::format("{}* out, const int64_t* out_dims, size_t out_rank", c_type(p.out_dtype));
  s.c_checked_args += fmt::format("{{{}, bcastgen::ShapeRef(out_dims, out_rank)}}", c_to_cpp(p.out_dtype, "out", false));
  return s;
}

}  // namespace bcastgen::gen
