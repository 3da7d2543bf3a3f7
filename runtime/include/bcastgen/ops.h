// bcastgen runtime: the scalar semantics of every elementwise op. This file
// is the single source of op semantics: the reference implementation, the
// generic fallback loop and the code generator's scalar tails all call these
// functions, and the generator's SIMD bodies must agree with them bit for
// bit (see the per-op notes).
//
// Element types: float, double, std::int8_t .. std::uint64_t, bool, and the
// 16-bit floats f16 and bf16 (half.h), which compute in f32 and round each
// result once (see "16-bit floats" below).
// Semantics follow NumPy (and OpenVINO where NumPy leaves a choice); nothing
// here has undefined behaviour or traps for any input:
//
//   add, subtract, multiply, squared_difference
//       integers wrap modulo 2^bits (computed in an unsigned type at least as
//       wide as unsigned int, so no signed overflow and no int promotion UB).
//       Floats: IEEE a+b, a-b, a*b, (a-b)*(a-b).
//   divide
//       floats: IEEE a / b. Signed integers: floor division (NumPy `//`,
//       OpenVINO Divide with pythondiv). Unsigned: plain division.
//       Integer x / 0 == 0. INT_MIN / -1 wraps to INT_MIN.
//   mod        sign of the dividend (C fmod, truncating %).
//   floor_mod  sign of the divisor (NumPy %, np.remainder).
//       Integer x mod 0 == 0, x mod -1 == 0. Float mod/floor_mod by zero
//       (and with an infinite dividend) is NaN, as in NumPy.
//   maximum, minimum
//       NaN propagates (either operand NaN -> NaN). When the operands compare
//       equal (+0 vs -0) the *second* operand is returned, exactly as NumPy
//       1.24 and x86 max/min instructions do:
//         maximum(a, b) = (a > b || isnan(a)) ? a : b
//         minimum(a, b) = (a < b || isnan(a)) ? a : b
//       (SIMD: blend(max_ps(a, b), a, isnan(a)).)
//   power
//       floats: std::pow, and 1 for a zero exponent whatever the base (a
//       signaling NaN too, as C99 Annex F and NumPy say). Integers with
//       exponent >= 0: repeated squaring with wrap-around (0^0 == 1).
//       Negative exponent (signed types; NumPy raises here, so this is our
//       documented choice): the result is the real value a^b truncated
//       toward zero, i.e. 1 for a == 1, -1 or 1 for a == -1
//       (-1 when b is odd), and 0 for every other a, including a == 0 (which
//       does not trap).
//   floor_divide
//       integers: as divide (floor division, x // 0 == 0). Floats: NumPy's
//       npy_floor_divide (the quotient paired with floor_mod, as Python's
//       //, so 1.0 // 0.1 == 9), except where the Array API standard lists
//       another result: an infinite dividend over a finite nonzero divisor
//       gives an infinity (NumPy: NaN), and a finite nonzero dividend over an
//       infinity of the other sign gives -0 (NumPy: -1).
//   copysign, nextafter, atan2, hypot
//       floats; std::copysign, std::nextafter, std::atan2, std::hypot.
//   logaddexp
//       floats; NumPy's npy_logaddexp: x == y gives x + ln 2, else
//       max + log1p(exp(-|x - y|)), NaN in, NaN out.
//   heaviside
//       floats; NumPy's: 0 for a < 0, b for a == 0 (either zero), 1 for a > 0,
//       NaN for a NaN a.
//   equal .. greater_equal   bool; IEEE comparisons (NaN != everything).
//   logical_and/or/xor       bool; any nonzero operand counts as true.
//   bitwise_and/or/xor       integers and bool.
//   bitwise_left_shift, bitwise_right_shift
//       integers. A count >= the bit width, or negative (the standard leaves
//       it undefined; NumPy treats it as a huge unsigned count), gives 0, or
//       for a right shift of a negative value -1. Left shifts wrap; right
//       shifts of signed values are arithmetic.
//
// Unary functions (the names of kUnaryInfo in expr.h), where and cast:
//
//   neg, abs, square
//       numbers. Integers wrap as NumPy's negative/absolute/square: neg(MIN)
//       == MIN, abs(MIN) == MIN, neg of an unsigned x is 2^bits - x, square
//       wraps modulo 2^bits. Floats: -x (flips the sign bit, -0 for +0),
//       fabs (clears it), x * x.
//   sqrt, reciprocal
//       floats: std::sqrt (correctly rounded; NaN below zero, sqrt(-0) ==
//       -0) and 1 / x in the type.
//   floor, ceil, trunc, round
//       floats: std::floor, std::ceil, std::trunc, and round to nearest even
//       (numpy.round; std::nearbyint in the default rounding mode); -0 and
//       NaN stay. Integers are already integral: x.
//   sign
//       floats: 1 for x > 0, -1 for x < 0, +0 for either zero, x for NaN
//       (NumPy). Integers: -1, 0 or 1.
//   the math and activation functions (the Vector and Libm rows of
//   unary_functions.h)
//       floats: math.h, with their algorithms (hardsigmoid's and
//       hardswish's definitions), bounds and special values.
//   isnan, isinf, isfinite, signbit
//       floats, bool results: std::isnan, ... (signbit reads the sign bit,
//       of -0 and of a NaN too, as NumPy).
//   logical_not     bool: !x.
//   bitwise_not     integers: ~x; bool: !x (NumPy's invert on bool).
//   where(c, x, y)  c ? x : y.
//   cast<To>(x)     NumPy's astype(To), with casting='unsafe':
//       to bool: x != 0 (NaN -> true). From bool: 0 or 1.
//       integer -> integer: modulo 2^bits (two's complement), as NumPy.
//       integer -> float, float -> float: rounded to nearest even (an
//       f64 beyond the f32 range gives an infinity, as IEEE says).
//       float -> integer: truncated toward zero when the truncated value
//       fits. Otherwise (NaN, +-inf, too large) C++ leaves it undefined,
//       and bcastgen defines it as NumPy 1.24's scalar loop does on x86-64,
//       which is x86's cvttss2si/cvttsd2si with its "integer indefinite"
//       result (the minimum signed value) for every input out of range:
//         i32: trunc if it fits in i32, else INT32_MIN;
//         i64: trunc if it fits in i64, else INT64_MIN;
//         i8, u8, i16, u16: the i32 rule, then wrapped to the type (so NaN,
//           inf and 3e9 give 0, 300 gives 44 in i8, -1.5 gives 255 in u8);
//         u32: the i64 rule, then wrapped (NaN, inf give 0, -3e9 gives
//           1294967296);
//         u64: x >= 2^63 ? (the i64 rule on x - 2^63) + 2^63 : the i64 rule
//           on x, modulo 2^64 (NaN, -inf and x < -2^63 give 2^63; +inf and
//           x >= 2^64 give 0; -1.5 gives 2^64 - 1).
//       f16, bf16: to them, the source value rounded once to nearest even
//         (half.h: an f64 or an i64 is not rounded through f32); from them,
//         the f32 value, then the rules above (f16 NaN -> i32 is INT32_MIN).
//       NumPy's contiguous SIMD loop for float -> u32 gives other results
//       for out-of-range inputs (2^31 for NaN); its other casts agree with
//       its scalar loop, which is what the rules above are.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <cstring>

#include "bcastgen/errors.h"
#include "bcastgen/expr.h"
#include "bcastgen/half.h"
#include "bcastgen/math.h"
#include "bcastgen/no_contract.h"
#include "bcastgen/types.h"

BCASTGEN_NO_CONTRACT_BEGIN  // bcastgen/no_contract.h: each operation rounded on its own

namespace bcastgen {

// ---------------------------------------------------------------------------
// C++ type <-> DType
// ---------------------------------------------------------------------------

template <class T>
struct TypeTag {
  using type = T;
};

namespace detail {
template <class T>
struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::F32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::F64; };
template <> struct DTypeOf<std::int8_t> { static constexpr DType value = DType::I8; };
template <> struct DTypeOf<std::uint8_t> { static constexpr DType value = DType::U8; };
template <> struct DTypeOf<std::int16_t> { static constexpr DType value = DType::I16; };
template <> struct DTypeOf<std::uint16_t> { static constexpr DType value = DType::U16; };
template <> struct DTypeOf<std::int32_t> { static constexpr DType value = DType::I32; };
template <> struct DTypeOf<std::uint32_t> { static constexpr DType value = DType::U32; };
template <> struct DTypeOf<std::int64_t> { static constexpr DType value = DType::I64; };
template <> struct DTypeOf<std::uint64_t> { static constexpr DType value = DType::U64; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<f16> { static constexpr DType value = DType::F16; };
template <> struct DTypeOf<bf16> { static constexpr DType value = DType::Bf16; };
}  // namespace detail

// The DType of a C++ element type (compile error for other types).
template <class T>
inline constexpr DType dtype_of_v = detail::DTypeOf<T>::value;

// Calls f(TypeTag<T>{}) with the C++ element type of `t`; returns its result.
template <class F>
inline decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::F32: return std::forward<F>(f)(TypeTag<float>{});
    case DType::F64: return std::forward<F>(f)(TypeTag<double>{});
    case DType::I8: return std::forward<F>(f)(TypeTag<std::int8_t>{});
    case DType::U8: return std::forward<F>(f)(TypeTag<std::uint8_t>{});
    case DType::I16: return std::forward<F>(f)(TypeTag<std::int16_t>{});
    case DType::U16: return std::forward<F>(f)(TypeTag<std::uint16_t>{});
    case DType::I32: return std::forward<F>(f)(TypeTag<std::int32_t>{});
    case DType::U32: return std::forward<F>(f)(TypeTag<std::uint32_t>{});
    case DType::I64: return std::forward<F>(f)(TypeTag<std::int64_t>{});
    case DType::U64: return std::forward<F>(f)(TypeTag<std::uint64_t>{});
    case DType::Bool: return std::forward<F>(f)(TypeTag<bool>{});
    case DType::F16: return std::forward<F>(f)(TypeTag<f16>{});
    case DType::Bf16: return std::forward<F>(f)(TypeTag<bf16>{});
  }
  throw InvalidArgument("unknown dtype " + std::to_string(static_cast<int>(t)));
}

// Calls f(std::integral_constant<Op, op>{}) for a binary (non-Broadcast) op;
// throws InvalidArgument for Op::Broadcast, which has no scalar function.
template <class F>
inline decltype(auto) visit_binary_op(Op op, F&& f) {
#define BCASTGEN_VISIT_OP_(E, name, kind, accepts, half) \
  case Op::E: return std::forward<F>(f)(std::integral_constant<Op, Op::E>{});
  switch (op) {
    BCASTGEN_BINARY_OPS(BCASTGEN_VISIT_OP_)
    case Op::Broadcast:
      throw InvalidArgument("op 'broadcast' is not a binary elementwise op");
  }
#undef BCASTGEN_VISIT_OP_
  throw InvalidArgument("unknown op " + std::to_string(static_cast<int>(op)));
}

// Calls f(std::integral_constant<UnaryOp, u>{}) for a unary op.
template <class F>
inline decltype(auto) visit_unary_op(UnaryOp u, F&& f) {
#define BCASTGEN_VISIT_UNARY_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  case UnaryOp::E: return std::forward<F>(f)(std::integral_constant<UnaryOp, UnaryOp::E>{});
  switch (u) { BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_VISIT_UNARY_) }
#undef BCASTGEN_VISIT_UNARY_
  throw InvalidArgument("unknown unary op " + std::to_string(static_cast<int>(u)));
}

namespace ops {

namespace detail {

template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// False, but only once instantiated: the last branch of an exhaustive
// `if constexpr` chain, so that an op added without its branch fails to
// compile instead of falling into another op's.
template <Op>
inline constexpr bool always_false_op = false;
template <UnaryOp>
inline constexpr bool always_false_unary = false;

// Unsigned type used for wrapping arithmetic on T: T's unsigned twin, but at
// least unsigned int so that the operands are not promoted to (signed) int.
template <class T>
using wide_unsigned_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned int)), unsigned int, std::make_unsigned_t<T>>;

template <class T>
inline T wrap_add(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
inline T wrap_sub(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
inline T wrap_mul(T a, T b) {
  using U = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

template <class T>
inline constexpr void require_number() {
  static_assert(std::is_floating_point_v<T> || is_int_v<T>,
                "bcastgen::ops: arithmetic ops take float, double or an integer type (not bool)");
}
template <class T>
inline constexpr void require_bitwise() {
  static_assert(std::is_integral_v<T>, "bcastgen::ops: bitwise ops take integers or bool");
}
template <class T>
inline constexpr void require_float() {
  static_assert(std::is_floating_point_v<T>, "bcastgen::ops: this op takes float or double");
}
template <class T>
inline constexpr void require_int() {
  static_assert(is_int_v<T>, "bcastgen::ops: shifts take integer types (not bool)");
}

}  // namespace detail

// --- arithmetic ------------------------------------------------------------

template <class T>
inline T add(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return a + b;
  } else {
    return detail::wrap_add(a, b);
  }
}

template <class T>
inline T subtract(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return a - b;
  } else {
    return detail::wrap_sub(a, b);
  }
}

template <class T>
inline T multiply(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return a * b;
  } else {
    return detail::wrap_mul(a, b);
  }
}

// Floats: IEEE. Signed: floor division; x / 0 == 0; MIN / -1 == MIN.
// Unsigned: a / b, x / 0 == 0.
template <class T>
inline T divide(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return a / b;
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return detail::wrap_sub(T(0), a);  // -a, wrapping MIN to MIN
      T q = static_cast<T>(a / b);
      const T r = static_cast<T>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) q = static_cast<T>(q - 1);
      return q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}

// NaN-propagating; returns b when a == b (so maximum(-0.0, +0.0) == +0.0).
template <class T>
inline T maximum(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return (a > b || std::isnan(a)) ? a : b;
  } else {
    return a > b ? a : b;
  }
}

// NaN-propagating; returns b when a == b (so minimum(+0.0, -0.0) == -0.0).
template <class T>
inline T minimum(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return (a < b || std::isnan(a)) ? a : b;
  } else {
    return a < b ? a : b;
  }
}

// Floats: std::pow. Integers, b >= 0: repeated squaring with wrap-around,
// 0^0 == 1. Integers, b < 0 (our choice; NumPy raises): the real value a^b
// truncated toward zero: 1 if a == 1; 1 or -1 if a == -1 (-1 iff b is odd);
// 0 for every other a, including 0 (no division by zero, no trap).
template <class T>
inline T power(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    // x^0 is 1 for every x, a signaling NaN too (C99 F.10.4.4, NumPy), where
    // glibc's pow gives NaN: the result must not depend on whether a NaN was
    // quieted on its way (a 16-bit lane stored to run lane by lane is).
    if (b == T(0)) return T(1);
    return std::pow(a, b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) {
        if (a == 1) return T(1);
        if (a == T(-1)) return (b % 2 != 0) ? T(-1) : T(1);
        return T(0);
      }
    }
    using U = detail::wide_unsigned_t<T>;
    U base = static_cast<U>(a), result = 1;
    auto e = static_cast<std::make_unsigned_t<T>>(b);
    while (e != 0) {
      if (e & 1u) result = static_cast<U>(result * base);
      base = static_cast<U>(base * base);
      e = static_cast<std::make_unsigned_t<T>>(e >> 1);
    }
    return static_cast<T>(result);
  }
}

// (a - b)^2; integers wrap (the difference wraps first, as NumPy's (a-b)**2).
template <class T>
inline T squared_difference(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    const T d = a - b;
    return d * d;
  } else {
    const T d = detail::wrap_sub(a, b);
    return detail::wrap_mul(d, d);
  }
}

// Remainder with the sign of the dividend: std::fmod for floats (NaN for a
// zero divisor), truncating % for integers (0 for a zero or -1 divisor).
template <class T>
inline T mod(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
    }
    return static_cast<T>(a % b);
  }
}

// Remainder with the sign of the divisor (NumPy %, np.remainder). Floats use
// NumPy's npy_remainder: r = fmod(a, b); if r != 0 and its sign differs from
// b's, r += b; if r == 0, r = copysign(0, b). A zero divisor gives NaN.
// Integers: 0 for a zero or -1 divisor.
template <class T>
inline T floor_mod(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    T r = std::fmod(a, b);
    if (b == T(0)) return r;  // NaN
    if (r != T(0)) {          // true for NaN as well, as in NumPy
      if ((b < T(0)) != (r < T(0))) r += b;
    } else {
      r = std::copysign(T(0), b);
    }
    return r;
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      T r = static_cast<T>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      return r;
    } else {
      return static_cast<T>(a % b);
    }
  }
}

// Floor division. Integers: divide's. Floats: NumPy's npy_floor_divide (the
// quotient that floor_mod's remainder completes), with the Array API
// standard's results where NumPy differs (see the header comment).
template <class T>
inline T floor_divide(T a, T b) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    if (b == T(0) || std::isnan(a) || std::isnan(b)) return a / b;
    if (std::isinf(a)) return std::isinf(b) ? std::numeric_limits<T>::quiet_NaN() : a / b;  // +-inf
    if (std::isinf(b)) {
      // a finite: +0 or -0 by the signs (the standard; NumPy gives -1 for opposite signs)
      return (std::signbit(a) != std::signbit(b)) ? T(-0.0) : T(0);
    }
    const T m = std::fmod(a, b);
    T div = (a - m) / b;  // very nearly an integer
    if (m != T(0) && ((b < T(0)) != (m < T(0)))) div -= T(1);
    if (div == T(0)) return std::copysign(T(0), a / b);
    T floor_div = std::floor(div);
    if (div - floor_div > T(0.5)) floor_div += T(1);  // snap to the nearest integer
    return floor_div;
  } else {
    return divide(a, b);
  }
}

template <class T>
inline T copysign(T a, T b) {
  detail::require_float<T>();
  return std::copysign(a, b);
}

template <class T>
inline T nextafter(T a, T b) {
  detail::require_float<T>();
  return std::nextafter(a, b);
}

template <class T>
inline T atan2(T a, T b) {
  detail::require_float<T>();
  return std::atan2(a, b);
}

template <class T>
inline T hypot(T a, T b) {
  detail::require_float<T>();
  return std::hypot(a, b);
}

// log(exp(a) + exp(b)) without overflow, as NumPy's npy_logaddexp.
template <class T>
inline T logaddexp(T a, T b) {
  detail::require_float<T>();
  if (a == b) return a + T(0.693147180559945309417232121458176568L);  // equal infinities too: no inf - inf
  const T d = a - b;
  if (d > T(0)) return a + std::log1p(std::exp(-d));
  if (d <= T(0)) return b + std::log1p(std::exp(d));
  return d;  // NaN
}

// The step function of a, with value b at zero (numpy.heaviside).
template <class T>
inline T heaviside(T a, T b) {
  detail::require_float<T>();
  if (a < T(0)) return T(0);
  if (a > T(0)) return T(1);
  return a == T(0) ? b : a;  // a NaN stays
}

// --- comparison (bool result; IEEE: every comparison with NaN is false
// except not_equal) ----------------------------------------------------------

template <class T> inline bool equal(T a, T b) { return a == b; }
template <class T> inline bool not_equal(T a, T b) { return a != b; }
template <class T> inline bool less(T a, T b) { return a < b; }
template <class T> inline bool less_equal(T a, T b) { return a <= b; }
template <class T> inline bool greater(T a, T b) { return a > b; }
template <class T> inline bool greater_equal(T a, T b) { return a >= b; }

// --- logical (bool; nonzero is true) -----------------------------------------

template <class T> inline bool logical_and(T a, T b) { return static_cast<bool>(a) && static_cast<bool>(b); }
template <class T> inline bool logical_or(T a, T b) { return static_cast<bool>(a) || static_cast<bool>(b); }
template <class T> inline bool logical_xor(T a, T b) { return static_cast<bool>(a) != static_cast<bool>(b); }

// --- bitwise (integers and bool) ---------------------------------------------

template <class T>
inline T bitwise_and(T a, T b) {
  detail::require_bitwise<T>();
  return static_cast<T>(a & b);
}
template <class T>
inline T bitwise_or(T a, T b) {
  detail::require_bitwise<T>();
  return static_cast<T>(a | b);
}
template <class T>
inline T bitwise_xor(T a, T b) {
  detail::require_bitwise<T>();
  return static_cast<T>(a ^ b);
}

// Shifts: counts outside [0, bits) give 0 (or -1 for a negative value
// shifted right), so nothing is undefined; left shifts wrap.
template <class T>
inline T bitwise_left_shift(T a, T b) {
  detail::require_int<T>();
  constexpr int kBits = static_cast<int>(sizeof(T)) * 8;
  if (b < T(0) || static_cast<std::uint64_t>(b) >= kBits) return T(0);
  using U = detail::wide_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<int>(b)));
}

template <class T>
inline T bitwise_right_shift(T a, T b) {
  detail::require_int<T>();
  constexpr int kBits = static_cast<int>(sizeof(T)) * 8;
  const bool negative = std::is_signed_v<T> && a < T(0);
  if (b < T(0) || static_cast<std::uint64_t>(b) >= kBits) return negative ? static_cast<T>(-1) : T(0);
  const int n = static_cast<int>(b);
  // ~(~a >> n) is an arithmetic shift with no implementation-defined step
  return negative ? static_cast<T>(~(static_cast<T>(~a) >> n)) : static_cast<T>(a >> n);
}

// --- 16-bit floats: binary ops ------------------------------------------------

// f16 and bf16 compute in f32: each op takes its operands' (exact) f32
// values, runs the f32 function above and rounds the result once to the
// 16-bit type, to nearest even. This is NumPy's float16 loops and PyTorch's
// CPU kernels; for + - * / (and sqrt) it is also the correctly rounded
// result, as f32 has more than 2 * 11 + 2 bits. maximum, minimum and power
// follow bcastgen's f32 rules (NumPy's float16 loops differ on the sign of
// a zero from max/min). Comparisons compare the f32 values. nextafter steps
// in the 16-bit type.
// One overload pair per op of BCASTGEN_BINARY_OPS (types.h) by its `half`
// column: F32 computes in f32 and rounds once, CMP compares the f32 values;
// OWN ops have overloads of their own (below), NONE ops take no floats.
#define BCASTGEN_HALF_F32_(NAME)                                                             \
  inline f16 NAME(f16 a, f16 b) { return half_from<f16>(NAME(to_float(a), to_float(b))); }    \
  inline bf16 NAME(bf16 a, bf16 b) { return half_from<bf16>(NAME(to_float(a), to_float(b))); }
#define BCASTGEN_HALF_CMP_(NAME)                                              \
  inline bool NAME(f16 a, f16 b) { return NAME(to_float(a), to_float(b)); } \
  inline bool NAME(bf16 a, bf16 b) { return NAME(to_float(a), to_float(b)); }
#define BCASTGEN_HALF_OWN_(NAME)
#define BCASTGEN_HALF_NONE_(NAME)
#define BCASTGEN_HALF_OP_(E, name, kind, accepts, half) BCASTGEN_HALF_##half##_(name)
BCASTGEN_BINARY_OPS(BCASTGEN_HALF_OP_)
#undef BCASTGEN_HALF_OP_
#undef BCASTGEN_HALF_NONE_
#undef BCASTGEN_HALF_OWN_
#undef BCASTGEN_HALF_CMP_
#undef BCASTGEN_HALF_F32_

namespace detail {
// The next 16-bit value after a toward b (std::nextafter's rules): the
// bits are sign and magnitude, so a step away from zero is bits + 1.
template <class H>
inline H half_nextafter(H a, H b) {
  const float x = to_float(a), y = to_float(b);
  if (x != x || y != y) return half_from<H>(x + y);  // a NaN
  if (x == y) return b;
  if (x == 0) return H{static_cast<std::uint16_t>((b.bits & 0x8000u) | 1u)};
  const bool away_from_zero = (x < y) == (x > 0);
  return H{static_cast<std::uint16_t>(away_from_zero ? a.bits + 1u : a.bits - 1u)};
}
}  // namespace detail

inline f16 nextafter(f16 a, f16 b) { return detail::half_nextafter(a, b); }
inline bf16 nextafter(bf16 a, bf16 b) { return detail::half_nextafter(a, b); }

// --- compile-time and run-time dispatch ---------------------------------------

// Whether the spec accepts `op` on element type T: op_supports(op,
// dtype_of_v<T>) of types.h. Broadcast has no scalar function here, so it
// gives false.
template <class T>
constexpr bool op_defined_for(Op op) {
  return op != Op::Broadcast && op_supports(op, dtype_of_v<T>);
}

// Whether `op` produces bool whatever its input type (comparison, logical).
constexpr bool op_returns_bool(Op op) {
  return op_kind(op) == OpKind::Comparison || op_kind(op) == OpKind::Logical;
}

// The C++ result type of op kOp on T: bool for comparisons and logical ops,
// else T. Matches result_dtype() for every supported (op, dtype).
template <Op kOp, class T>
using result_t = std::conditional_t<op_returns_bool(kOp), bool, T>;

// Calls the scalar function of kOp; the pair must be op_defined_for.
template <Op kOp, class T>
inline result_t<kOp, T> call(T a, T b) {
  static_assert(op_defined_for<T>(kOp), "bcastgen::ops::call: op not defined for this element type");
#define BCASTGEN_CALL_OP_(E, name, kind, accepts, half) if constexpr (kOp == Op::E) return name(a, b); else
  BCASTGEN_BINARY_OPS(BCASTGEN_CALL_OP_)
#undef BCASTGEN_CALL_OP_
  static_assert(detail::always_false_op<kOp>, "bcastgen::ops::call: an op without a scalar function here");
}

// Run-time dispatch: computes op(a, b) and writes the result to `out`, which
// must point to one element of result_dtype(op, dtype_of_v<T>) (a T, or a
// bool for comparisons). Throws InvalidArgument when !op_defined_for<T>(op)
// (this includes Op::Broadcast). Meant for tests and the reference; hot loops
// dispatch once with visit_binary_op and call<kOp, T>.
template <class T>
inline void apply_binary(Op op, T a, T b, void* out) {
  visit_binary_op(op, [&](auto op_c) {
    constexpr Op kOp = decltype(op_c)::value;
    if constexpr (op_defined_for<T>(kOp)) {
      *static_cast<result_t<kOp, T>*>(out) = call<kOp, T>(a, b);
    } else {
      throw InvalidArgument(std::string("op '") + op_name(kOp) + "' does not support dtype " +
                            dtype_name(dtype_of_v<T>) + " (supported: " + supported_dtypes_text(kOp) + ")");
    }
  });
}

// --- unary functions ----------------------------------------------------------

template <class T>
inline T neg(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return -x;
  } else {
    return detail::wrap_sub(T(0), x);
  }
}

template <class T>
inline T abs(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(x);
  } else if constexpr (std::is_signed_v<T>) {
    return x < 0 ? detail::wrap_sub(T(0), x) : x;  // abs(MIN) wraps to MIN
  } else {
    return x;
  }
}

template <class T>
inline T sqrt(T x) {
  detail::require_float<T>();
  return std::sqrt(x);
}

// x * x, as multiply (integers wrap).
template <class T>
inline T square(T x) {
  return multiply(x, x);
}

template <class T>
inline T reciprocal(T x) {
  detail::require_float<T>();
  return T(1) / x;
}

template <class T>
inline T floor(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) return std::floor(x);
  else return x;
}

template <class T>
inline T ceil(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) return std::ceil(x);
  else return x;
}

template <class T>
inline T trunc(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) return std::trunc(x);
  else return x;
}

// To nearest, ties to even: vroundps' and numpy.round's rule.
template <class T>
inline T round(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) return std::nearbyint(x);
  else return x;
}

template <class T>
inline T sign(T x) {
  detail::require_number<T>();
  if constexpr (std::is_floating_point_v<T>) {
    return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
  } else {
    return static_cast<T>((x > 0) - (x < 0));
  }
}

// Classification, bool results (NumPy's and the Array API's).
template <class T>
inline bool isnan(T x) {
  detail::require_float<T>();
  return std::isnan(x);
}

template <class T>
inline bool isinf(T x) {
  detail::require_float<T>();
  return std::isinf(x);
}

template <class T>
inline bool isfinite(T x) {
  detail::require_float<T>();
  return std::isfinite(x);
}

// The sign bit, NaN's too: signbit(-0.0) and signbit(-NaN) are true.
template <class T>
inline bool signbit(T x) {
  detail::require_float<T>();
  return std::signbit(x);
}

template <class T>
inline T logical_not(T x) {
  static_assert(std::is_same_v<T, bool>, "bcastgen::ops::logical_not takes bool");
  return !x;
}

template <class T>
inline T bitwise_not(T x) {
  detail::require_bitwise<T>();
  if constexpr (std::is_same_v<T, bool>) {
    return !x;
  } else {
    return static_cast<T>(~x);
  }
}

template <class T>
inline T where(bool c, T x, T y) {
  return c ? x : y;
}

// --- 16-bit floats: unary functions --------------------------------------------

// As the binary ops: the f32 function, its result rounded once (exact for
// neg, abs, the rounding functions and sign, whose results are values of
// the type already).
#define BCASTGEN_HALF_UNARY_(NAME)                                              \
  inline f16 NAME(f16 x) { return half_from<f16>(NAME(to_float(x))); }       \
  inline bf16 NAME(bf16 x) { return half_from<bf16>(NAME(to_float(x))); }
#define BCASTGEN_HALF_PREDICATE_(NAME)                       \
  inline bool NAME(f16 x) { return NAME(to_float(x)); }    \
  inline bool NAME(bf16 x) { return NAME(to_float(x)); }
// One pair per row of BCASTGEN_UNARY_FUNCTIONS (expr.h) that takes floats,
// by the dtypes it accepts and its result.
#define BCASTGEN_HALF_OF_Numbers_Same_(NAME) BCASTGEN_HALF_UNARY_(NAME)
#define BCASTGEN_HALF_OF_Floats_Same_(NAME) BCASTGEN_HALF_UNARY_(NAME)
#define BCASTGEN_HALF_OF_Floats_Bool_(NAME) BCASTGEN_HALF_PREDICATE_(NAME)
#define BCASTGEN_HALF_OF_Bool_Same_(NAME)
#define BCASTGEN_HALF_OF_IntegersAndBool_Same_(NAME)
#define BCASTGEN_HALF_OF_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  BCASTGEN_HALF_OF_##accepts##_##result##_(name)
BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_HALF_OF_)
#undef BCASTGEN_HALF_OF_
#undef BCASTGEN_HALF_OF_IntegersAndBool_Same_
#undef BCASTGEN_HALF_OF_Bool_Same_
#undef BCASTGEN_HALF_OF_Floats_Bool_
#undef BCASTGEN_HALF_OF_Floats_Same_
#undef BCASTGEN_HALF_OF_Numbers_Same_
#undef BCASTGEN_HALF_PREDICATE_
#undef BCASTGEN_HALF_UNARY_

// --- cast ---------------------------------------------------------------------

namespace detail {

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "bcastgen::ops::cast assumes IEEE 754 float and double");

// An integer value modulo 2^bits of To, for any integer From: the unsigned
// conversion is defined modulo 2^bits, and the fixed-width signed types are
// two's complement, so copying the bits gives the wrapped value (a
// static_cast to a narrower signed type is implementation-defined in C++17).
template <class To, class From>
inline To wrap_int(From x) {
  const auto u = static_cast<std::make_unsigned_t<To>>(x);
  To r;
  std::memcpy(&r, &u, sizeof r);
  return r;
}

// x86's cvttsd2si to 32 and 64 bits: truncation toward zero, and the
// minimum value ("integer indefinite") for NaN and out-of-range values.
inline std::int32_t cvtt32(double d) {
  if (d > -2147483649.0 && d < 2147483648.0) return static_cast<std::int32_t>(d);
  return std::numeric_limits<std::int32_t>::min();
}
inline std::int64_t cvtt64(double d) {
  // -2^63 and 2^63 are doubles; no double lies strictly between -2^63 - 1 and -2^63.
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) return static_cast<std::int64_t>(d);
  return std::numeric_limits<std::int64_t>::min();
}

// A float to an integer type (see the header comment for the rules).
template <class To>
inline To float_to_int(double d) {
  if constexpr (std::is_same_v<To, std::int64_t>) {
    return cvtt64(d);
  } else if constexpr (std::is_same_v<To, std::uint64_t>) {
    constexpr double k2p63 = 9223372036854775808.0;
    if (d >= k2p63) {  // d - 2^63 is exact here
      return static_cast<std::uint64_t>(static_cast<std::uint64_t>(cvtt64(d - k2p63)) + (std::uint64_t{1} << 63));
    }
    return static_cast<std::uint64_t>(cvtt64(d));
  } else if constexpr (std::is_same_v<To, std::uint32_t>) {
    return wrap_int<To>(cvtt64(d));
  } else {  // i8, u8, i16, u16, i32
    return wrap_int<To>(cvtt32(d));
  }
}

}  // namespace detail

// NumPy's x.astype(To) (casting='unsafe'); defined for every input, see the
// header comment. To and From are any of the eleven element types.
template <class To, class From>
inline To cast(From x) {
  if constexpr (is_half_v<To>) {
    return half_from<To>(x);  // rounded once from x's own value (a double or an i64 not through float)
  } else if constexpr (is_half_v<From>) {
    return cast<To>(to_float(x));  // exact: every 16-bit value is a float
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);  // NaN != 0: true
  } else if constexpr (std::is_same_v<From, bool>) {
    return x ? To(1) : To(0);
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);  // nearest, IEEE (ints and floats alike)
  } else if constexpr (std::is_floating_point_v<From>) {
    return detail::float_to_int<To>(static_cast<double>(x));  // float -> double is exact
  } else {
    return detail::wrap_int<To>(x);
  }
}

// Type-erased cast: reads one `from` element at `in`, writes one `to`
// element at `out` (they may overlap). A bool element is read as nonzero.
inline void cast_value(DType from, DType to, const void* in, void* out) {
  visit_dtype(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    From x;
    if constexpr (std::is_same_v<From, bool>) {
      unsigned char byte;
      std::memcpy(&byte, in, 1);
      x = byte != 0;
    } else {
      std::memcpy(&x, in, sizeof x);
    }
    visit_dtype(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      const To r = cast<To>(x);
      std::memcpy(out, &r, sizeof r);
    });
  });
}

// --- unary dispatch -------------------------------------------------------------

// Whether unary op u is defined on element type T: unary_supports of expr.h.
template <class T>
constexpr bool unary_defined_for(UnaryOp u) {
  return unary_supports(u, dtype_of_v<T>);
}

// Calls the unary function kU; the pair must be unary_defined_for. The
// result is T, or bool where the row says gives_bool.
template <UnaryOp kU, class T>
inline auto call_unary(T x) {
  static_assert(unary_defined_for<T>(kU), "bcastgen::ops::call_unary: op not defined for this element type");
#define BCASTGEN_CALL_UNARY_(E, name, accepts, max_ulp, result, approximates, form, wide) \
  if constexpr (kU == UnaryOp::E) return name(x); else
  BCASTGEN_UNARY_FUNCTIONS(BCASTGEN_CALL_UNARY_)
#undef BCASTGEN_CALL_UNARY_
  static_assert(detail::always_false_unary<kU>, "bcastgen::ops::call_unary: a function without a scalar body here");
}

// Run-time dispatch: the unary function `u` on x. Throws InvalidArgument
// when !unary_defined_for<T>(u). Meant for tests and the reference; hot
// loops dispatch once with visit_unary_op and call_unary<kU, T>.
// R is the result type: T, or bool for the gives_bool functions (a function
// of the other kind throws too).
template <class T, class R = T>
inline R apply_unary(UnaryOp u, T x) {
  return visit_unary_op(u, [&](auto u_c) -> R {
    constexpr UnaryOp kU = decltype(u_c)::value;
    if constexpr (unary_defined_for<T>(kU) &&
                  (unary_info(kU).gives_bool ? std::is_same_v<R, bool> : std::is_same_v<R, T>)) {
      return call_unary<kU, T>(x);
    } else {
      throw InvalidArgument(std::string("unary '") + unary_name(kU) + "' does not support dtype " +
                            dtype_name(dtype_of_v<T>) + (unary_defined_for<T>(kU) ? " with this result type" : ""));
    }
  });
}

}  // namespace ops
}  // namespace bcastgen

BCASTGEN_NO_CONTRACT_END
