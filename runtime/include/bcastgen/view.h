// bcastgen runtime: tensor views and the validation used by the checked
// entry points of generated kernels. Every check throws a KernelError
// subclass (errors.h) naming the kernel and the operand.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "bcastgen/errors.h"
#include "bcastgen/shape.h"

namespace bcastgen {

// A non-owning view of a shape: `rank` dims at `dims` (may be null when
// rank == 0). It does not extend the lifetime of what it points to, so do not
// build one from a temporary Shape that dies before the view is used.
struct ShapeRef {
  const std::int64_t* dims = nullptr;
  std::size_t rank = 0;

  constexpr ShapeRef() = default;
  constexpr ShapeRef(const std::int64_t* d, std::size_t r) : dims(d), rank(r) {}
  ShapeRef(const Shape& s) : dims(s.data()), rank(s.size()) {}  // NOLINT: implicit on purpose
  template <std::size_t N>
  constexpr ShapeRef(const std::array<std::int64_t, N>& a) : dims(a.data()), rank(N) {}  // NOLINT

  constexpr std::int64_t operator[](std::size_t i) const { return dims[i]; }
  Shape to_shape() const { return rank == 0 ? Shape{} : Shape(dims, dims + rank); }
};

inline bool operator==(ShapeRef x, ShapeRef y) {
  if (x.rank != y.rank) return false;
  for (std::size_t i = 0; i < x.rank; ++i) {
    if (x.dims[i] != y.dims[i]) return false;
  }
  return true;
}
inline bool operator!=(ShapeRef x, ShapeRef y) { return !(x == y); }

// Element count (1 for rank 0), unchecked: the shapes of generated kernels
// were validated by the generator.
inline std::int64_t numel(ShapeRef s) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < s.rank; ++i) n *= s.dims[i];
  return n;
}

// A typed tensor: dense row-major data of `shape`.
template <class T>
struct TensorView {
  T* data;
  ShapeRef shape;
};

// "[2,3,4]", "[]" for a scalar: the same format as format_shape().
inline std::string shape_text(ShapeRef s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.rank; ++i) {
    if (i) t += ',';
    t += std::to_string(s.dims[i]);
  }
  t += ']';
  return t;
}

// The throwing halves of the checks that every kernel's entry points call
// are out of line and cold (BCASTGEN_COLD_PATH), so that each entry inlines
// only its comparisons: inlined whole, their messages were 8% of the code of
// 112 kernels that share one implementation (bench/scale).
namespace detail {
inline std::string kernel_prefix(const char* kernel, const char* operand) {
  return std::string("kernel '") + kernel + "': operand " + operand;
}

[[noreturn]] BCASTGEN_COLD_PATH inline void throw_shape_mismatch(const char* kernel, const char* operand,
                                                                  ShapeRef expected, ShapeRef actual) {
  throw ShapeMismatchError(kernel_prefix(kernel, operand) + " has shape " + shape_text(actual) + ", expected " +
                               shape_text(expected),
                           kernel, operand);
}

[[noreturn]] BCASTGEN_COLD_PATH inline void throw_null_pointer(const char* kernel, const char* operand) {
  throw NullPointerError(kernel_prefix(kernel, operand) + " is a null pointer", kernel, operand);
}

[[noreturn]] BCASTGEN_COLD_PATH inline void throw_alias(const char* kernel, const char* operand, bool same_start,
                                                         std::size_t out_bytes, std::size_t in_bytes,
                                                         bool in_has_out_shape) {
  std::string reason;
  if (!in_has_out_shape) {
    reason = "overlaps the output but its shape differs from the output's, or the kernel reads it through a "
             "layout; only an input of the output's shape, read as it is, may alias the output (in place)";
  } else if (!same_start) {
    reason = "partially overlaps the output; an input may alias the output only exactly (same address)";
  } else {
    reason = "aliases the output with a different byte size (" + std::to_string(in_bytes) + " vs " +
             std::to_string(out_bytes) + " bytes); in-place needs the same element type";
  }
  throw AliasError(kernel_prefix(kernel, operand) + " " + reason, kernel, operand);
}
}  // namespace detail

// Throws ShapeMismatchError
//   "kernel 'bias_add': operand b has shape [1,63,1,1], expected [1,64,1,1]"
// unless `actual` equals `expected` (same rank, same dims).
inline void check_shape(const char* kernel, const char* operand, ShapeRef expected, ShapeRef actual) {
  if (!(expected == actual)) detail::throw_shape_mismatch(kernel, operand, expected, actual);
}

// Throws NullPointerError "kernel 'bias_add': operand a is a null pointer"
// when p is null and the operand has elements (numel > 0); a null pointer for
// an empty operand is fine.
inline void check_not_null(const char* kernel, const char* operand, const void* p, std::int64_t numel) {
  if (p == nullptr && numel > 0) detail::throw_null_pointer(kernel, operand);
}

// The Array API in-place rule: the output may share memory with an input
// only if that input has the output's shape and occupies exactly the same
// bytes (in == out, in_bytes == out_bytes). Otherwise the byte ranges
// [out, out + out_bytes) and [in, in + in_bytes) must be disjoint (empty
// ranges never overlap). Throws AliasError naming the kernel, the operand
// and the reason.
inline void check_alias(const char* kernel, const char* operand, const void* out, std::size_t out_bytes,
                        const void* in, std::size_t in_bytes, bool in_has_out_shape) {
  if (out_bytes == 0 || in_bytes == 0) return;
  const auto o = reinterpret_cast<std::uintptr_t>(out);
  const auto i = reinterpret_cast<std::uintptr_t>(in);
  if (o + out_bytes <= i || i + in_bytes <= o) return;  // disjoint
  if (in_has_out_shape && o == i && in_bytes == out_bytes) return;  // exact in-place
  detail::throw_alias(kernel, operand, o == i, out_bytes, in_bytes, in_has_out_shape);
}

// The same check from shapes and element sizes, with both shapes in the
// message. The input "has the output's shape" when the shapes are equal.
inline void check_alias(const char* kernel, const char* operand, const void* out, ShapeRef out_shape,
                        std::size_t out_elem_size, const void* in, ShapeRef in_shape, std::size_t in_elem_size) {
  try {
    check_alias(kernel, operand, out, static_cast<std::size_t>(numel(out_shape)) * out_elem_size, in,
                static_cast<std::size_t>(numel(in_shape)) * in_elem_size, out_shape == in_shape);
  } catch (const AliasError& e) {
    throw AliasError(std::string(e.what()) + " (operand " + operand + " " + shape_text(in_shape) + ", output " +
                         shape_text(out_shape) + ")",
                     kernel, operand);
  }
}

}  // namespace bcastgen
