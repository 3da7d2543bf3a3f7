// Numbers typed by their context: the value in the dtype, or an error when
// the dtype cannot represent it.
#include <charconv>
#include <cmath>
#include <cfloat>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "bcastgen/ops.h"
#include "expr_ast.h"

namespace bcastgen::gen::expr_detail {

IntRange int_range(DType t) {
  return visit_dtype(t, [](auto tag) {
    using T = typename decltype(tag)::type;
    IntRange r;
    if constexpr (ops::detail::is_int_v<T>) {
      using L = std::numeric_limits<T>;
      r.max_positive = static_cast<std::uint64_t>(L::max());
      r.max_negative = std::is_signed_v<T> ? r.max_positive + 1 : 0;
      r.text = std::to_string(L::min()) + " to " + std::to_string(L::max());
    }
    return r;
  });
}

namespace {

// The largest finite value of a float dtype.
double float_max(DType t) {
  switch (t) {
    case DType::F32: return FLT_MAX;
    case DType::F16: return 65504.0;
    case DType::Bf16: return 0x1.fep127;
    default: return DBL_MAX;
  }
}

std::string float_range(DType t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, t == DType::F64 ? "%.17g" : "%.9g", float_max(t));
  return std::string("magnitudes up to ") + buf + ", and no nonzero value that rounds to 0";
}

}  // namespace

double round_to_float_dtype(double d, DType t) {
  switch (t) {
    case DType::F32: return static_cast<float>(d);
    case DType::F16: return to_float(half_from<f16>(d));
    case DType::Bf16: return to_float(half_from<bf16>(d));
    default: return d;
  }
}

ExprLiteral type_number(std::string_view text, const AstNode& number, DType t) {
  ExprLiteral lit;
  lit.text = number.text;
  const bool negative = number.text[0] == '-';
  const std::string_view digits = std::string_view(number.text).substr(negative ? 1 : 0);
  const std::string dtype = dtype_name(t);
  auto fail = [&](const std::string& message) { throw ExprError(text, number.column, message); };
  if (t == DType::Bool) fail("number " + lit.text + " where bool is expected (bool literals are true and false)");

  if (dtype_info(t).is_float) {
    double d = 0;
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), d);
    // Checked before the conversion to float, which is undefined out of range.
    bool in_range = r.ec == std::errc() && r.ptr == digits.data() + digits.size() && (t != DType::F32 || d <= FLT_MAX);
    if (in_range && t != DType::F64) {  // held rounded to the dtype (an f16 literal is an f16 value)
      const double rounded = round_to_float_dtype(d, t);
      in_range = std::isfinite(rounded) && (rounded != 0 || d == 0);
      d = rounded;
    }
    if (!in_range) fail("number " + lit.text + " is out of range for " + dtype + " (" + float_range(t) + ")");
    lit.f = negative ? -d : d;
    return lit;
  }

  if (digits.find_first_of(".eE") != std::string_view::npos) {
    fail("number " + lit.text + " is a float literal where " + dtype +
         " is expected (an integer has no '.' and no exponent)");
  }
  const IntRange range = int_range(t);
  std::uint64_t magnitude = 0;
  bool fits = true;
  for (char c : digits) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    fits = fits && magnitude <= (std::numeric_limits<std::uint64_t>::max() - digit) / 10;
    if (fits) magnitude = magnitude * 10 + digit;
  }
  if (!fits || magnitude > (negative ? range.max_negative : range.max_positive)) {
    fail("number " + lit.text + " is out of range for " + dtype + " (" + range.text + ")");
  }
  if (dtype_info(t).is_signed) {
    // -(magnitude - 1) - 1 reaches INT64_MIN without signed overflow.
    lit.i = negative && magnitude > 0 ? -static_cast<std::int64_t>(magnitude - 1) - 1
                                      : static_cast<std::int64_t>(magnitude);
  } else {
    lit.u = magnitude;
  }
  return lit;
}

}  // namespace bcastgen::gen::expr_detail
