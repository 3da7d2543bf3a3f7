// bcastgen runtime: shapes, element counts and contiguous strides.
// Header-only C++17. Every count and stride is computed with overflow checks,
// because fixed model shapes are user input and must never wrap silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bcastgen/errors.h"

namespace bcastgen {

// A shape is a list of non-negative dims; rank 0 (empty) is a scalar.
using Shape = std::vector<std::int64_t>;

// "[2,3,4]", or "[]" for a scalar.
inline std::string format_shape(const Shape& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

// a * b for non-negative values, throwing OverflowError instead of wrapping.
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) {
    throw OverflowError(std::string(what) + " overflows a 64-bit element count");
  }
  return r;
}

// Number of elements, 1 for a scalar.
inline std::int64_t checked_numel(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) throw InvalidArgument("negative dim " + std::to_string(d) + " in shape " + format_shape(shape));
    n = checked_mul(n, d, ("element count of " + format_shape(shape)).c_str());
  }
  return n;
}

// Row-major element strides of a dense array of this shape.
inline Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size(), 0);
  std::int64_t s = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s = checked_mul(s, shape[i], ("strides of " + format_shape(shape)).c_str());
  }
  return strides;
}

}  // namespace bcastgen
