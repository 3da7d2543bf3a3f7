// bcastgen runtime: the 16-bit floating storage types, f16 (IEEE binary16)
// and bf16 (bfloat16), with exact conversions. Plain C++17, no compiler
// extensions (no _Float16, no __bf16): each type is its 16 bits, so it has
// the size and alignment of std::uint16_t and maps to uint16_t in the C ABI.
//
// Conversions (the one implementation; the SIMD headers' vector forms give
// the same bits):
//   - to f32: exact (every f16 and bf16 value is a float). NaN keeps its sign
//     and payload; an f16 signaling NaN is quieted, as F16C's conversion does
//     (a bf16 keeps its bits: its vector load is a shift).
//   - from float, double and every integer type: the source value rounded
//     once to the 16-bit format, to nearest even. A double or a 64-bit
//     integer is rounded from its own value, not through float
//     (1 + 2^-11 + 2^-40 gives f16 0x3C01, where through float it would be
//     0x3C00). Overflow gives inf, subnormal results are kept (never
//     flushed), and subnormal inputs are not flushed either.
//   - NaN: the result is a quiet NaN with the source's sign and the top bits
//     of its payload (NumPy's float16 and ml_dtypes' bfloat16 do the same).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bcastgen {

struct f16 {
  std::uint16_t bits;
};

struct bf16 {
  std::uint16_t bits;
};

static_assert(sizeof(f16) == 2 && alignof(f16) == alignof(std::uint16_t));
static_assert(sizeof(bf16) == 2 && alignof(bf16) == alignof(std::uint16_t));

// Whether T is one of the two 16-bit float types.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;

namespace detail {

// The parameters of a 16-bit binary format.
struct HalfFormat {
  int mantissa_bits;  // stored fraction bits: 10 (f16), 7 (bf16)
  int max_exponent;   // largest unbiased exponent of a finite value: 15, 127
};

inline constexpr HalfFormat kF16Format{10, 15};
inline constexpr HalfFormat kBf16Format{7, 127};

inline std::uint16_t half_infinity(const HalfFormat& f, bool negative) {
  const auto sign = negative ? 0x8000u : 0u;
  return static_cast<std::uint16_t>(sign | static_cast<unsigned>((2 * f.max_exponent + 1) << f.mantissa_bits));
}

// The number of bits of m (0 for 0), by halving.
inline int bit_length(std::uint64_t m) {
  int n = 0;
  for (int step = 32; step > 0; step /= 2) {
    if ((m >> step) != 0) {
      m >>= step;
      n += step;
    }
  }
  return n + static_cast<int>(m);
}

// Rounds (-1)^negative * m * 2^e to the format, to nearest even, once.
inline std::uint16_t round_to_half(const HalfFormat& f, bool negative, std::uint64_t m, int e) {
  const int bias = f.max_exponent;
  const int precision = f.mantissa_bits + 1;
  const std::uint16_t sign = negative ? std::uint16_t{0x8000} : std::uint16_t{0};
  const std::uint16_t inf = half_infinity(f, negative);
  if (m == 0) return sign;
  const int exponent = e + bit_length(m) - 1;  // the value is in [2^exponent, 2^(exponent + 1))
  if (exponent > f.max_exponent) return inf;
  const int min_exponent = 1 - bias;  // of the normal numbers
  const int quantum = (exponent > min_exponent ? exponent : min_exponent) - (precision - 1);
  const int shift = quantum - e;  // bits of m below the quantum
  std::uint64_t r;
  if (shift <= 0) {
    r = m << -shift;  // exact: r < 2^precision
  } else if (shift > 64) {
    r = 0;  // below half the quantum
  } else {
    r = shift == 64 ? 0 : m >> shift;
    const std::uint64_t rest = shift == 64 ? m : m & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (r & 1) != 0)) ++r;
  }
  // r * 2^quantum, r <= 2^precision. Subnormal (and zero) when r is below
  // 2^(precision - 1): the exponent field is 0 and the fraction is r; a
  // carry into 2^(precision - 1) makes the smallest normal, as it should.
  const std::uint64_t hidden = std::uint64_t{1} << (precision - 1);
  if (r < hidden) return static_cast<std::uint16_t>(sign | r);
  int q = quantum;
  if (r == 2 * hidden) {
    r = hidden;
    ++q;
  }
  const int biased = q + precision - 1 + bias;
  if (biased > 2 * bias) return inf;
  return static_cast<std::uint16_t>(sign | (biased << f.mantissa_bits) | (r - hidden));
}

// A quiet NaN of the format with the sign and top payload bits of a float NaN.
inline std::uint16_t half_nan(const HalfFormat& f, std::uint32_t float_bits) {
  const auto sign = static_cast<std::uint16_t>((float_bits >> 16) & 0x8000);
  const int bias = f.max_exponent;
  const auto exponent = static_cast<std::uint16_t>((2 * bias + 1) << f.mantissa_bits);
  const auto payload = static_cast<std::uint16_t>((float_bits & 0x7fffff) >> (23 - f.mantissa_bits));
  const auto quiet = static_cast<std::uint16_t>(1u << (f.mantissa_bits - 1));
  return static_cast<std::uint16_t>(sign | exponent | payload | quiet);
}

inline std::uint16_t half_from_double(const HalfFormat& f, double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  const bool negative = (b >> 63) != 0;
  const int field = static_cast<int>((b >> 52) & 0x7ff);
  const std::uint64_t fraction = b & ((std::uint64_t{1} << 52) - 1);
  if (field == 0x7ff) {
    if (fraction == 0) return half_infinity(f, negative);
    float n = static_cast<float>(x);  // keeps the sign and top payload bits
    std::uint32_t nb;
    std::memcpy(&nb, &n, 4);
    return half_nan(f, nb);
  }
  if (field == 0) return round_to_half(f, negative, fraction, -1074);
  return round_to_half(f, negative, fraction | (std::uint64_t{1} << 52), field - 1075);
}

// float -> f16 on the bits (the common case, without round_to_half's
// search for the leading bit); tests/half_test.cpp checks it against F16C.
inline std::uint16_t f16_from_float_bits(std::uint32_t b) {
  const auto sign = static_cast<std::uint16_t>((b >> 16) & 0x8000);
  const std::uint32_t a = b & 0x7fffffff;
  if (a > 0x7f800000) return half_nan(kF16Format, b);
  if (a >= 0x477ff000) return static_cast<std::uint16_t>(sign | 0x7c00);  // from 65520 (a tie) up: inf
  if (a >= 0x38800000) {  // a normal f16: rebias the exponent (127 -> 15), round off 13 bits
    const std::uint32_t r = a - (112u << 23);
    return static_cast<std::uint16_t>(sign | ((r + 0x0fff + ((r >> 13) & 1)) >> 13));
  }
  if (a <= 0x33000000) return sign;  // at most 2^-25, half the smallest subnormal: 0 (a tie goes to even)
  // A subnormal f16: the significand in units of 2^-24, rounded to nearest
  // even (a carry into 2^10 makes the smallest normal, as it should).
  const int shift = 126 - static_cast<int>(a >> 23);  // 14 .. 24
  const std::uint32_t m = (a & 0x7fffff) | 0x800000;
  std::uint32_t r = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (r & 1) != 0)) ++r;
  return static_cast<std::uint16_t>(sign | r);
}

// float -> bf16: the high half, rounded to nearest even by adding 0x7FFF
// and the lowest kept bit (a carry reaches the next binade or inf).
inline std::uint16_t bf16_from_float_bits(std::uint32_t b) {
  if ((b & 0x7fffffff) > 0x7f800000) return half_nan(kBf16Format, b);
  return static_cast<std::uint16_t>((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

template <class T>
std::uint16_t half_from_integer(const HalfFormat& f, T v) {
  static_assert(std::is_integral_v<T>);
  if constexpr (std::is_same_v<T, bool>) {
    return round_to_half(f, false, v ? 1 : 0, 0);
  } else if constexpr (std::is_signed_v<T>) {
    const bool negative = v < 0;
    // |v| without overflow for the most negative value.
    const std::uint64_t m = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    return round_to_half(f, negative, m, 0);
  } else {
    return round_to_half(f, false, static_cast<std::uint64_t>(v), 0);
  }
}

inline float f16_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const std::uint32_t field = (h >> 10) & 0x1f;
  std::uint32_t fraction = h & 0x3ff;
  std::uint32_t bits;
  if (field == 0x1f) {
    // inf, or NaN with its payload, quieted as F16C's vcvtph2ps does (so that
    // pow(NaN, 0) is 1 in every variant: IEEE's pow of a signaling NaN is NaN)
    bits = sign | 0x7f800000 | (fraction << 13) | (fraction != 0 ? 0x00400000u : 0u);
  } else if (field != 0) {
    bits = sign | ((field + 112) << 23) | (fraction << 13);
  } else if (fraction == 0) {
    bits = sign;
  } else {
    // Subnormal: fraction * 2^-24, normalized.
    int exponent = -14;
    while ((fraction & 0x400) == 0) {
      fraction <<= 1;
      --exponent;
    }
    bits = sign | (static_cast<std::uint32_t>(exponent + 127) << 23) | ((fraction & 0x3ff) << 13);
  }
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

}  // namespace detail

inline float to_float(f16 h) { return detail::f16_bits_to_float(h.bits); }

inline float to_float(bf16 h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h.bits) << 16;
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

// T from a float, a double or an integer, rounded once (see the top).
template <class T, class From>
T half_from(From x) {
  static_assert(is_half_v<T>);
  constexpr const detail::HalfFormat& f = std::is_same_v<T, f16> ? detail::kF16Format : detail::kBf16Format;
  if constexpr (std::is_same_v<From, float> || is_half_v<From>) {
    float v;
    if constexpr (std::is_same_v<From, float>) {
      v = x;
    } else {
      v = to_float(x);
    }
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    return T{std::is_same_v<T, f16> ? detail::f16_from_float_bits(b) : detail::bf16_from_float_bits(b)};
  } else if constexpr (std::is_same_v<From, double>) {
    return T{detail::half_from_double(f, x)};
  } else {
    return T{detail::half_from_integer(f, x)};
  }
}

}  // namespace bcastgen
