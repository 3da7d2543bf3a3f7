// The unary functions and cast of bcastgen::ops against an independent
// oracle: NumPy. Every unary op x every dtype it supports, and cast for
// every (from, to) pair of the eleven dtypes, on special values (+-0,
// +-inf, NaN, extremes, subnormals, values at and just outside every
// integer range, halfway cases of rounding) and deterministic random ones,
// go to one python3 process; ours must equal NumPy's result bit for bit
// (sqrt and reciprocal are correctly rounded, so there is no tolerance). The
// math functions (max_ulp > 0) are held to their ulp bounds against MPFR in
// math_accuracy_test.cpp instead: NumPy's own are up to 3 ulps off.
// hardsigmoid and hardswish are exact to their definitions, which the
// script spells in NumPy's operations.
//
// The one place where NumPy disagrees with itself is float -> u32 for NaN
// and out-of-range values: its contiguous SIMD loop gives other answers
// than its scalar loop (ops.h, the cast notes). bcastgen follows the scalar
// loop, and the script runs that one by casting a strided view.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/ops.h"
#include "numpy_oracle.h"

namespace bg = bcastgen;
using bg::DType;
using bg::UnaryOp;
using bg::test::Rng;

namespace {

constexpr std::size_t kRandomValues = 64;  // per case, after the special values

const char* kScript = R"PY(
import sys
import numpy as np

man, data, outp = sys.argv[1:4]
raw = open(data, 'rb').read()

def integral(f):  # NumPy 1.24 has no integer loops for these; the Array API returns x
    return lambda a: a if a.dtype.kind in 'iu' else f(a)

U = {'neg': np.negative, 'abs': np.absolute, 'sqrt': np.sqrt, 'square': np.square,
     'reciprocal': np.reciprocal, 'logical_not': np.logical_not, 'bitwise_not': np.invert,
     'floor': integral(np.floor), 'ceil': integral(np.ceil), 'trunc': integral(np.trunc),
     'round': integral(np.round), 'sign': np.sign, 'isnan': np.isnan, 'isinf': np.isinf,
     'isfinite': np.isfinite, 'signbit': np.signbit}

# hardsigmoid and hardswish by their definitions (math.h): alpha is 1/6 rounded
# to float in every type, x * alpha and + 1/2 each rounded in the type, then
# the clamp (np.maximum and np.minimum keep a NaN); f16 computes in f32 and
# rounds once; hardswish(-inf) is -0, the limit.
ALPHA = np.float32(1.0 / 6.0)

def hardsigmoid(a):
    if a.dtype == np.float16:
        return hardsigmoid(a.astype(np.float32)).astype(np.float16)
    t = a.dtype.type
    return np.minimum(np.maximum(a * t(ALPHA) + t(0.5), t(0)), t(1))

def hardswish(a):
    if a.dtype == np.float16:
        return hardswish(a.astype(np.float32)).astype(np.float16)
    return np.where(a == -np.inf, a.dtype.type(-0.0), a * hardsigmoid(a))

U['hardsigmoid'] = hardsigmoid
U['hardswish'] = hardswish

chunks = []
with np.errstate(all='ignore'):
    for line in open(man):
        name, descr, n, off, rdescr = line.split()
        dt, rt = np.dtype(descr), np.dtype(rdescr)
        a = np.frombuffer(raw, dtype=dt, count=int(n), offset=int(off))
        if name == 'cast':
            if dt.kind == 'f' and rt == np.dtype('<u4'):
                a = np.repeat(a, 2)[::2]  # a strided view: NumPy's scalar loop (see the file comment)
            r = a.astype(rt)
        else:
            r = np.asarray(U[name](a))
        if r.dtype != rt or r.shape != (int(n),):
            sys.exit('%s %s: numpy gave %s %s, expected %s (%s,)' % (name, descr, r.dtype, r.shape, rdescr, n))
        chunks.append(np.ascontiguousarray(r).tobytes())
open(outp, 'wb').write(b''.join(chunks))
)PY";

// Values every float case sees (rounded to f32 for f32): around the ranges
// of every integer type, rounding ties of int -> f32 and f64 -> f32, the
// f32 overflow and underflow thresholds.
const double kFloatSpecials[] = {
    0.0, -0.0, 1, -1, 0.5, -0.5, 0.9999, -0.9999, 1.5, -1.5, 2.5, -2.5, 2, 4, 0.1, 1.0 / 3, 100.7, -100.7,
    127, 127.5, 128, -128, -128.5, -129, 255, 255.5, 256, -1e-3, 300, -300, 32767, 32767.5, 32768, -32768,
    -32769, 65535, 65536, 70000, -40000, 16777217, 2147483647, 2147483647.5, 2147483648, -2147483648,
    -2147483648.5, -2147483649, 3e9, -3e9, 4294967295, 4294967296, 9007199254740993.0,
    9223372036854774784.0,   // the largest double below 2^63
    9223372036854775808.0,   // 2^63
    -9223372036854775808.0,  // -2^63
    -9223372036854777856.0,  // the next double below -2^63
    18446744073709549568.0,  // the largest double below 2^64
    18446744073709551616.0,  // 2^64
    1e20, -1e20, 1e30, -1e30,
    3.4028234663852886e38,   // FLT_MAX
    3.4028235677973362e38,   // just below halfway from FLT_MAX to 2^128: rounds to FLT_MAX
    3.4028235677973366e38,   // halfway: rounds to inf
    1e39, -1e39,
    1.1754943508222875e-38,  // FLT_MIN
    1e-40,                   // an f32 subnormal
    1.401298464324817e-45,   // the smallest f32 subnormal
    7.006492321624085e-46,   // half of it: a tie, rounds to 0
    7.1e-46,                 // just above half: rounds to it
    1e-300, 1e300};

const std::int64_t kIntSpecials[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 127, 128, -128, -129, 255, 256, 32767, 32768,
                                     -32768, -32769, 65535, 65536, 16777217, 16777219, 2147483647, 2147483648,
                                     -2147483648, -2147483649, 4294967295, 4294967296, 9007199254740993,
                                     -9007199254740993};
const std::uint64_t kU64Specials[] = {9223372036854775807u, 9223372036854775808u, 18446744073709551615u,
                                      18446744073709550591u,  // 2^64 - 1025: int -> f64 rounding
                                      18446744073709550592u, 9223372036854775809u, 4611686018427387905u};

using bg::is_half_v;

template <class T>
std::vector<T> specials() {
  std::vector<T> v;
  if constexpr (std::is_same_v<T, bool>) {
    v = {false, true};
  } else if constexpr (is_half_v<T>) {
    // By bits: +-inf, NaNs (a signaling one too), the largest finite, the
    // smallest normal, the largest and smallest subnormals; then every
    // float and integer special, rounded once.
    for (std::uint16_t bits : {0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x7bff, 0xfbff, 0x0400, 0x03ff, 0x0001, 0x8001}) {
      v.push_back(T{bits});
    }
    for (double d : kFloatSpecials) v.push_back(bg::ops::cast<T>(d));
    for (std::int64_t i : kIntSpecials) v.push_back(bg::ops::cast<T>(i));
    for (std::uint64_t u : kU64Specials) v.push_back(bg::ops::cast<T>(u));
  } else {
    using L = std::numeric_limits<T>;
    v = {L::min(), L::max(), L::lowest(), static_cast<T>(L::lowest() + 1), static_cast<T>(L::max() - 1)};
    if constexpr (std::is_floating_point_v<T>) {
      v.insert(v.end(), {L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(),
                         -L::denorm_min(), static_cast<T>(3 * L::denorm_min()), -L::min(),
                         std::nextafter(L::min(), T(0))});
      for (double d : kFloatSpecials) v.push_back(bg::ops::cast<T>(d));
    }
    for (std::int64_t i : kIntSpecials) v.push_back(bg::ops::cast<T>(i));
    for (std::uint64_t u : kU64Specials) v.push_back(bg::ops::cast<T>(u));
  }
  return v;
}

template <class T>
T random_value(Rng& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return rng.below(2) != 0;
  } else if constexpr (is_half_v<T>) {
    if (rng.below(2)) return T{static_cast<std::uint16_t>(rng.next())};  // any bit pattern
    return bg::ops::cast<T>(random_value<float>(rng));
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (rng.below(4)) {
      case 0: {  // any bit pattern: every exponent, NaN payloads
        T x;
        const std::uint64_t bits = rng.next();
        std::memcpy(&x, &bits, sizeof x);
        return x;
      }
      case 1: return static_cast<T>(rng.unit() * 2000.0 - 1000.0);
      case 2: return static_cast<T>(static_cast<double>(rng.below(81)) - 40.0);
      default:  // magnitudes up to 2^70, around every integer range
        return static_cast<T>((rng.unit() * 2.0 - 1.0) * std::ldexp(1.0, static_cast<int>(rng.below(71))));
    }
  } else {
    if (rng.below(2)) return static_cast<T>(static_cast<std::int64_t>(rng.below(81)) - 40);
    return bg::ops::cast<T>(rng.next());
  }
}

struct Case {
  std::string name;  // a unary name, or "cast"
  DType from, to;
  std::size_t n;
  std::string in, ours;  // raw bytes
};

template <class T>
std::vector<T> inputs(Rng& rng) {
  std::vector<T> v = specials<T>();
  for (std::size_t i = 0; i < kRandomValues; ++i) v.push_back(random_value<T>(rng));
  return v;
}

template <class T>
std::string bytes_of(const std::vector<T>& v) {
  std::string s(v.size() * sizeof(T), '\0');
  for (std::size_t i = 0; i < v.size(); ++i) {
    const T x = v[i];  // (std::vector<bool> has no addressable elements)
    std::memcpy(&s[i * sizeof(T)], &x, sizeof(T));
  }
  return s;
}

template <class T, class R = T>
Case unary_case(UnaryOp u, Rng& rng) {
  const std::vector<T> x = inputs<T>(rng);
  std::vector<R> ours;
  for (T v : x) ours.push_back(bg::ops::apply_unary<T, R>(u, v));
  return Case{bg::unary_name(u), bg::dtype_of_v<T>, bg::dtype_of_v<R>, x.size(), bytes_of(x), bytes_of(ours)};
}

// Through the type-erased cast_value, which calls cast<To, From>.
template <class From>
Case cast_case(DType to, Rng& rng) {
  const std::vector<From> x = inputs<From>(rng);
  const std::size_t size = static_cast<std::size_t>(bg::dtype_size(to));
  Case c{"cast", bg::dtype_of_v<From>, to, x.size(), bytes_of(x), std::string(x.size() * size, '\0')};
  for (std::size_t i = 0; i < x.size(); ++i) bg::ops::cast_value(c.from, to, &c.in[i * sizeof(From)], &c.ours[i * size]);
  return c;
}

std::string value_text(DType t, const char* p) {
  std::ostringstream os;
  bg::visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (is_half_v<T>) {
      os.precision(std::numeric_limits<float>::max_digits10);
      os << bg::to_float(v) << " (0x" << std::hex << v.bits << ")";
    } else if constexpr (std::is_floating_point_v<T>) {
      os.precision(std::numeric_limits<T>::max_digits10);
      os << v;
    } else if constexpr (std::is_same_v<T, bool>) {
      os << (v ? "true" : "false");
    } else {
      os << +v;
    }
  });
  return os.str();
}

// Whether both elements, of dtype t, are NaNs. Where a 16-bit float is the
// source or the result, any NaN will do (README, "16-bit floats": bcastgen
// quiets a signaling NaN, NumPy's bit conversions keep it).
bool both_nans(DType t, const char* a, const char* b) {
  bool r = false;
  bg::visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_half_v<T> || std::is_floating_point_v<T>) {
      T x, y;
      std::memcpy(&x, a, sizeof x);
      std::memcpy(&y, b, sizeof y);
      r = std::isnan(bg::ops::cast<double>(x)) && std::isnan(bg::ops::cast<double>(y));
    }
  });
  return r;
}

// Bit-exact comparison (but any NaN for any NaN where a 16-bit float is
// involved); returns the number of mismatches, the first few described in
// *report.
std::size_t compare_case(const Case& c, const char* theirs, std::string* report) {
  const std::size_t in_size = static_cast<std::size_t>(bg::dtype_size(c.from));
  const std::size_t out_size = static_cast<std::size_t>(bg::dtype_size(c.to));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < c.n; ++i) {
    const char* o = c.ours.data() + i * out_size;
    const char* t = theirs + i * out_size;
    const bool half = bg::is_half(c.from) || bg::is_half(c.to);
    if (std::memcmp(o, t, out_size) == 0 || (half && both_nans(c.to, o, t))) continue;
    if (++bad <= 5) {
      *report += c.name + "<" + bg::dtype_name(c.from) + " -> " + bg::dtype_name(c.to) + ">(" +
                 value_text(c.from, c.in.data() + i * in_size) + "): ours " + value_text(c.to, o) + ", numpy " +
                 value_text(c.to, t) + "\n";
    }
  }
  return bad;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  Rng rng{20261124};
  // NumPy has no bfloat16 (half_test has its table of roundings).
  for (DType t : bg::kAllDTypes) {
    if (t == DType::Bf16) continue;
    bg::visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (const bg::UnaryInfo& info : bg::kUnaryInfo) {
        if (info.max_ulp != 0 || !bg::unary_supports(info.op, t)) continue;
        cases.push_back(info.gives_bool ? unary_case<T, bool>(info.op, rng) : unary_case<T>(info.op, rng));
      }
      for (DType to : bg::kAllDTypes) {
        if (to != DType::Bf16) cases.push_back(cast_case<T>(to, rng));
      }
    });
  }
  return cases;
}

std::string manifest_line(const Case& c, std::size_t offset) {
  return c.name + " " + bg::dtype_info(c.from).npy_descr + " " + std::to_string(c.n) + " " + std::to_string(offset) +
         " " + bg::dtype_info(c.to).npy_descr + "\n";
}

}  // namespace

// One python process: every unary op x dtype, every cast pair.
TEST(OpsUnaryNumpy, EveryUnaryOpAndCastMatchesNumpy) {
  std::vector<Case> cases = all_cases();
  // neg, abs, square, floor, ceil, trunc, round, sign x 11 numeric dtypes
  // (f16 too) + sqrt, reciprocal, isnan, isinf, isfinite, signbit,
  // hardsigmoid, hardswish x 3 floats + logical_not x bool + bitwise_not x
  // 9, then 12 x 12 casts.
  ASSERT_EQ(cases.size(), 88u + 24u + 1u + 9u + 144u);

  // A canary the comparison must reject: neg<i32>(5) claimed to be 4.
  Rng canary_rng{1};
  Case canary = unary_case<std::int32_t>(UnaryOp::Neg, canary_rng);
  const std::int32_t five = 5, four = 4;
  std::memcpy(&canary.in[0], &five, 4);
  std::memcpy(&canary.ours[0], &four, 4);
  cases.push_back(canary);

  std::string manifest, data;
  std::size_t total = 0;
  for (const Case& c : cases) {
    manifest += manifest_line(c, data.size());
    data += c.in;
    total += c.ours.size();
  }
  const std::string theirs = bg::test::run_numpy_script("ops_unary_numpy", kScript, manifest, data);
  ASSERT_EQ(theirs.size(), total) << "NumPy returned a result of the wrong size";

  std::size_t off = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    std::string report;
    const std::size_t bad = compare_case(c, theirs.data() + off, &report);
    if (k + 1 == cases.size()) {
      EXPECT_EQ(bad, 1u) << "the canary mismatch was not detected";
      EXPECT_NE(report.find("neg<i32 -> i32>(5): ours 4, numpy -5"), std::string::npos) << report;
    } else {
      EXPECT_EQ(bad, 0u) << c.name << " " << bg::dtype_name(c.from) << " -> " << bg::dtype_name(c.to)
                         << " differs from NumPy in " << bad << " of " << c.n << " elements:\n"
                         << report;
    }
    off += c.ours.size();
  }
}

// The rules of ops.h's header comment, by example (NumPy agrees with each,
// above; these pin the documented choice itself).
TEST(OpsUnary, DocumentedRules) {
  namespace ops = bg::ops;
  constexpr std::int32_t kMin32 = std::numeric_limits<std::int32_t>::min();
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ops::neg(kMin32), kMin32);
  EXPECT_EQ(ops::abs(kMin32), kMin32);
  EXPECT_EQ(ops::neg(std::uint8_t{1}), 255);
  EXPECT_EQ(ops::square(std::int8_t{16}), 0);
  EXPECT_EQ(ops::square(std::int16_t{-200}), -25536);
  EXPECT_TRUE(std::signbit(ops::sqrt(-0.0)));
  EXPECT_TRUE(std::isnan(ops::sqrt(-1.0f)));
  EXPECT_EQ(ops::reciprocal(-0.0f), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(ops::bitwise_not(true), false);
  EXPECT_EQ(ops::bitwise_not(std::uint16_t{0}), 65535);
  EXPECT_EQ(ops::where(false, 1.0f, 2.0f), 2.0f);

  EXPECT_TRUE(ops::cast<bool>(nan));
  EXPECT_FALSE(ops::cast<bool>(-0.0f));
  EXPECT_EQ(ops::cast<std::int8_t>(300.0), 44);
  EXPECT_EQ(ops::cast<std::uint8_t>(-1.5f), 255);
  EXPECT_EQ(ops::cast<std::int16_t>(70000.0), 4464);
  for (double x : {nan, inf, -inf, 3e9, 1e20}) {
    EXPECT_EQ(ops::cast<std::int8_t>(x), 0) << x;
    EXPECT_EQ(ops::cast<std::uint16_t>(x), 0) << x;
    EXPECT_EQ(ops::cast<std::int32_t>(x), kMin32) << x;
  }
  EXPECT_EQ(ops::cast<std::int32_t>(-2147483648.9), kMin32);  // truncates into range
  EXPECT_EQ(ops::cast<std::int32_t>(2147483647.9), 2147483647);
  EXPECT_EQ(ops::cast<std::uint32_t>(nan), 0u);
  EXPECT_EQ(ops::cast<std::uint32_t>(-3e9), 1294967296u);
  EXPECT_EQ(ops::cast<std::uint32_t>(4294967296.0), 0u);
  EXPECT_EQ(ops::cast<std::int64_t>(nan), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(ops::cast<std::int64_t>(9223372036854775808.0), std::numeric_limits<std::int64_t>::min());
  constexpr std::uint64_t k2p63 = std::uint64_t{1} << 63;
  EXPECT_EQ(ops::cast<std::uint64_t>(nan), k2p63);
  EXPECT_EQ(ops::cast<std::uint64_t>(-inf), k2p63);
  EXPECT_EQ(ops::cast<std::uint64_t>(-1e20), k2p63);
  EXPECT_EQ(ops::cast<std::uint64_t>(inf), 0u);
  EXPECT_EQ(ops::cast<std::uint64_t>(18446744073709551616.0), 0u);
  EXPECT_EQ(ops::cast<std::uint64_t>(18446744073709549568.0), 18446744073709549568u);
  EXPECT_EQ(ops::cast<std::uint64_t>(-1.5), ~std::uint64_t{0});
  EXPECT_EQ(ops::cast<std::int8_t>(std::int32_t{-129}), 127);
  EXPECT_EQ(ops::cast<std::uint32_t>(std::int64_t{-1}), 4294967295u);
  EXPECT_EQ(ops::cast<float>(std::int32_t{16777217}), 16777216.0f);  // tie to even
  EXPECT_EQ(ops::cast<float>(3.4028235677973366e38), std::numeric_limits<float>::infinity());
  EXPECT_EQ(ops::cast<std::int32_t>(true), 1);
}

TEST(OpsUnary, ApplyUnaryDispatchesAndRejectsUnsupportedDtypes) {
  namespace ops = bg::ops;
  EXPECT_EQ(ops::apply_unary<double>(UnaryOp::Neg, 2.0), -2.0);
  EXPECT_EQ(ops::apply_unary<double>(UnaryOp::Abs, -2.0), 2.0);
  EXPECT_EQ(ops::apply_unary<double>(UnaryOp::Sqrt, 2.25), 1.5);
  EXPECT_EQ(ops::apply_unary<double>(UnaryOp::Square, -3.0), 9.0);
  EXPECT_EQ(ops::apply_unary<double>(UnaryOp::Reciprocal, 4.0), 0.25);
  EXPECT_EQ(ops::apply_unary<bool>(UnaryOp::LogicalNot, false), true);
  EXPECT_EQ(ops::apply_unary<std::int8_t>(UnaryOp::BitwiseNot, 0), -1);
  EXPECT_EQ((ops::call_unary<UnaryOp::Neg, std::uint8_t>(2)), 254);
  EXPECT_THROW(ops::apply_unary<float>(static_cast<UnaryOp>(99), 1.0f), bg::InvalidArgument);
  for (DType t : bg::kAllDTypes) {
    bg::visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T one = bg::ops::cast<T>(1);
      for (const bg::UnaryInfo& info : bg::kUnaryInfo) {
        if (bg::unary_supports(info.op, t) && info.gives_bool) {
          EXPECT_NO_THROW((ops::apply_unary<T, bool>(info.op, one))) << info.name << " " << bg::dtype_name(t);
          EXPECT_THROW(ops::apply_unary<T>(info.op, one), bg::InvalidArgument) << info.name << ": gives bool";
        } else if (bg::unary_supports(info.op, t)) {
          EXPECT_NO_THROW(ops::apply_unary<T>(info.op, one)) << info.name << " " << bg::dtype_name(t);
        } else {
          try {
            ops::apply_unary<T>(info.op, one);
            ADD_FAILURE() << info.name << " accepted " << bg::dtype_name(t);
          } catch (const bg::InvalidArgument& e) {
            EXPECT_EQ(std::string(e.what()),
                      std::string("unary '") + info.name + "' does not support dtype " + bg::dtype_name(t));
          }
        }
      }
    });
  }
}
