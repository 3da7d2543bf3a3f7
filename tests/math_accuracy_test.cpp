// The math functions of bcastgen::ops (math.h) against an independent,
// correctly rounded oracle: MPFR at 256 bits. Every function with an ulp
// bound (kUnaryInfo's max_ulp) is held to it in f32 and f64 on a sample:
// the special values, every binade of both signs, random bit patterns and
// the function's tails. The exhaustive f32 check is bench/ulp/ (a script);
// this is its sampled version. The vector forms give the scalar bits
// (simd_math_test.cpp), so holding ops holds every ISA.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bcastgen/ops.h"
#include "mpfr_oracle.h"
#include "numpy_oracle.h"  // Rng

namespace bg = bcastgen;
using bg::UnaryOp;
using bg::test::Big;
using bg::test::exact;
using bg::test::Rng;
using bg::test::ulp_error;

namespace {

template <class T>
T from_bits(std::uint64_t bits) {
  T x;
  if constexpr (sizeof(T) == 4) {
    const auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&x, &b, 4);
  } else {
    std::memcpy(&x, &bits, 8);
  }
  return x;
}

// Specials, both signs of every binade (three mantissas each), random bit
// patterns and uniform values over [-120, 120], where the functions'
// thresholds and tails are (exp's overflow at 88.7, gelu's underflow
// around -14, softplus's and sigmoid's saturation).
template <class T>
std::vector<T> sample_inputs(Rng& rng) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),         T(-0.0),     T(1),         T(-1),        T(0.5),        T(-0.5),
                      L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),
                      -L::min(),    L::max(),     L::lowest(),  T(88.72283), T(88.72284), T(-103.97),
                      T(-87.33655), T(1e-8),      T(-1e-8),     T(0.99999),  T(-0.99999),  T(709.78),
                      T(-745.13)};
  const int bits = sizeof(T) * 8;
  const int exponent_bits = sizeof(T) == 4 ? 8 : 11, mantissa_bits = bits - 1 - exponent_bits;
  for (std::uint64_t e = 0; e < (1u << exponent_bits) - 1; ++e) {
    for (std::uint64_t m : {std::uint64_t{0}, (std::uint64_t{1} << mantissa_bits) - 1, rng.next()}) {
      m &= (std::uint64_t{1} << mantissa_bits) - 1;
      for (std::uint64_t sign : {std::uint64_t{0}, std::uint64_t{1}}) {
        v.push_back(from_bits<T>(sign << (bits - 1) | e << mantissa_bits | m));
      }
    }
  }
  for (int i = 0; i < 2000; ++i) v.push_back(from_bits<T>(rng.next()));
  for (int i = 0; i < 2000; ++i) v.push_back(static_cast<T>(rng.unit() * 240.0 - 120.0));
  return v;
}

struct Worst {
  double ulp = 0;
  double at = 0;
  double got = 0;
};

template <class T>
Worst worst_error(UnaryOp u, const std::vector<T>& inputs) {
  Worst w;
  Big x, y;
  for (T v : inputs) {
    mpfr_set_ld(x.v, static_cast<long double>(v), MPFR_RNDN);
    exact(u, y.v, x.v);
    const T ours = bg::ops::apply_unary<T>(u, v);
    const double e = ulp_error<T>(ours, y.v);
    if (!(e <= w.ulp)) w = Worst{e, static_cast<double>(v), static_cast<double>(ours)};
  }
  return w;
}

class MathAccuracy : public ::testing::TestWithParam<UnaryOp> {};

TEST_P(MathAccuracy, WithinItsUlpBoundInF32AndF64) {
  const bg::UnaryInfo& info = bg::unary_info(GetParam());
  Rng rng{0x6d617468 + static_cast<std::uint64_t>(info.op)};
  const Worst f = worst_error<float>(info.op, sample_inputs<float>(rng));
  EXPECT_LE(f.ulp, info.max_ulp) << info.name << "<f32>(" << f.at << ") = " << f.got;
  const Worst d = worst_error<double>(info.op, sample_inputs<double>(rng));
  EXPECT_LE(d.ulp, info.max_ulp) << info.name << "<f64>(" << d.at << ") = " << d.got;
  RecordProperty("max_ulp_f32", std::to_string(f.ulp));
  RecordProperty("max_ulp_f64", std::to_string(d.ulp));
}

std::vector<UnaryOp> bounded_functions() {
  std::vector<UnaryOp> v;
  for (const bg::UnaryInfo& info : bg::kUnaryInfo) {
    if (info.max_ulp > 0) v.push_back(info.op);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Functions, MathAccuracy, ::testing::ValuesIn(bounded_functions()),
                         [](const auto& p) { return std::string(bg::unary_name(p.param)); });

// hardsigmoid and hardswish are exact to their definitions (math.h): MPFR
// evaluates each operation exactly and rounds where the definition does;
// ours must give those bits (a NaN for a NaN), in f32 and f64, on the same
// sample. bench/ulp/run.sh checks every f32 input.
template <class T>
std::size_t differences_from_definition(UnaryOp u, const std::vector<T>& inputs, std::string* first) {
  std::size_t differ = 0;
  for (T v : inputs) {
    const T ours = bg::ops::apply_unary<T>(u, v), want = bg::test::defined<T>(u, v);
    if (std::memcmp(&ours, &want, sizeof ours) == 0 || (std::isnan(ours) && std::isnan(want))) continue;
    if (differ++ == 0) {
      *first = std::string(bg::unary_name(u)) + "(" + std::to_string(v) + "): ours " + std::to_string(ours) +
               ", the definition's " + std::to_string(want);
    }
  }
  return differ;
}

TEST(MathDefinitions, HardsigmoidAndHardswishAreTheirDefinitionsInF32AndF64) {
  for (UnaryOp u : {UnaryOp::Hardsigmoid, UnaryOp::Hardswish}) {
    Rng rng{0x6861726400 + static_cast<std::uint64_t>(u)};
    std::vector<float> f = sample_inputs<float>(rng);
    std::vector<double> d = sample_inputs<double>(rng);
    // Around the clamps (-3 and 3), in every float step there, and their f64 neighbours.
    for (float x = -3.0001f; x < -2.9999f; x = std::nextafter(x, 0.0f)) f.push_back(x);
    for (float x = 2.9999f; x < 3.0001f; x = std::nextafter(x, 4.0f)) f.push_back(x);
    for (double x : {-3.0, 3.0, -2.9999999105930328, -2.99999991059303, 2.9999998211860657}) {
      d.insert(d.end(), {x, std::nextafter(x, 0.0), std::nextafter(x, 4.0), std::nextafter(x, -4.0)});
    }
    std::string first;
    EXPECT_EQ(differences_from_definition<float>(u, f, &first), 0u) << first;
    EXPECT_EQ(differences_from_definition<double>(u, d, &first), 0u) << first;
  }
}

// The oracle itself: a result one ulp off must measure as one ulp.
TEST(MathAccuracyOracle, MeasuresAnUlp) {
  Big x, y;
  mpfr_set_d(x.v, 1.0, MPFR_RNDN);
  exact(UnaryOp::Exp, y.v, x.v);
  const float e = 2.71828182845904523536f;
  EXPECT_LT(ulp_error<float>(e, y.v), 0.5);
  const double off = ulp_error<float>(std::nextafter(e, 3.0f), y.v);
  EXPECT_GT(off, 0.5);
  EXPECT_LT(off, 1.5);
}

// The special values the README promises (C99 Annex F, the Array API).
TEST(MathSpecialValues, AsDocumented) {
  namespace ops = bg::ops;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const bg::UnaryInfo& info : bg::kUnaryInfo) {
    if (info.max_ulp == 0) continue;
    EXPECT_TRUE(std::isnan(ops::apply_unary<float>(info.op, nan))) << info.name;
    EXPECT_TRUE(std::isnan(ops::apply_unary<double>(info.op, double(nan)))) << info.name;
  }
  EXPECT_EQ(ops::exp(-inf), 0.0f);
  EXPECT_FALSE(std::signbit(ops::exp(-inf)));
  EXPECT_EQ(ops::exp(inf), inf);
  EXPECT_EQ(ops::log(0.0f), -inf);
  EXPECT_EQ(ops::log(-0.0f), -inf);
  EXPECT_TRUE(std::isnan(ops::log(-1.0f)));
  EXPECT_EQ(ops::expm1(-0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(ops::expm1(-0.0f)));
  EXPECT_EQ(ops::expm1(-inf), -1.0f);
  EXPECT_EQ(ops::expm1(inf), inf);
  EXPECT_EQ(ops::log1p(-1.0f), -inf);
  EXPECT_TRUE(std::isnan(ops::log1p(-2.0f)));
  EXPECT_TRUE(std::signbit(ops::log1p(-0.0f)));
  EXPECT_EQ(ops::log1p(inf), inf);
  EXPECT_EQ(ops::log(inf), inf);
  EXPECT_EQ(ops::log2(0x1p-149f), -149.0f);  // exact at powers of two, subnormals too
  EXPECT_EQ(ops::log2(0x1p+127f), 127.0f);
  EXPECT_EQ(ops::log10(1000.0f), 3.0f);
  EXPECT_EQ(ops::exp2(-149.0f), 0x1p-149f);
  EXPECT_EQ(ops::exp2(-150.0f), 0.0f);
  EXPECT_EQ(ops::exp2(128.0f), inf);
  EXPECT_EQ(ops::erf(inf), 1.0f);
  EXPECT_TRUE(std::signbit(ops::erf(-0.0f)));
  EXPECT_EQ(ops::tanh(inf), 1.0f);
  EXPECT_EQ(ops::tanh(-inf), -1.0f);
  EXPECT_EQ(ops::erf(-inf), -1.0f);
  EXPECT_EQ(ops::sigmoid(-inf), 0.0f);
  EXPECT_EQ(ops::sigmoid(inf), 1.0f);
  EXPECT_EQ(ops::softplus(-inf), 0.0f);
  EXPECT_EQ(ops::softplus(inf), inf);
  for (float (*f)(float) : {&ops::silu<float>, &ops::gelu<float>, &ops::gelu_tanh<float>}) {
    EXPECT_EQ(f(-inf), 0.0f);
    EXPECT_EQ(f(inf), inf);
  }
  EXPECT_EQ(ops::gelu(-double(inf)), 0.0);
  // mish: -0 for -inf and below -108.7 (x e^x under 2^-150), x's sign on zeros, x from 8.706489 on, and
  // subnormal results kept; its f64 form the same.
  EXPECT_EQ(ops::mish(-inf), 0.0f);
  EXPECT_TRUE(std::signbit(ops::mish(-inf)));
  EXPECT_EQ(ops::mish(inf), inf);
  EXPECT_TRUE(std::signbit(ops::mish(-0.0f)));
  EXPECT_FALSE(std::signbit(ops::mish(0.0f)));
  EXPECT_EQ(ops::mish(-110.0f), 0.0f);
  EXPECT_TRUE(std::signbit(ops::mish(-110.0f)));
  EXPECT_LT(ops::mish(-100.0f), 0.0f);  // -3.7e-42: subnormal, kept
  EXPECT_GT(ops::mish(-100.0f), -std::numeric_limits<float>::min());
  EXPECT_LT(ops::mish(-90.0f), -std::numeric_limits<float>::min());  // normal, where e^-90 is not
  EXPECT_EQ(ops::mish(20.0f), 20.0f);
  EXPECT_EQ(ops::mish(8.706489f), 8.706489f);
  EXPECT_LT(ops::mish(8.706488f), 8.706488f);
  EXPECT_EQ(ops::mish(1e30f), 1e30f);
  EXPECT_EQ(ops::mish(std::numeric_limits<float>::max()), std::numeric_limits<float>::max());
  EXPECT_TRUE(std::signbit(ops::mish(-double(inf))));
  EXPECT_EQ(ops::mish(double(inf)), double(inf));
  // hardsigmoid and hardswish: the clamps, their exact points, and the limits.
  for (double (*hs)(double) : {&ops::hardsigmoid<double>, &ops::hardswish<double>}) {
    EXPECT_TRUE(std::isnan(hs(double(nan))));
  }
  EXPECT_TRUE(std::isnan(ops::hardsigmoid(nan)));
  EXPECT_TRUE(std::isnan(ops::hardswish(nan)));
  EXPECT_EQ(ops::hardsigmoid(-inf), 0.0f);
  EXPECT_FALSE(std::signbit(ops::hardsigmoid(-inf)));
  EXPECT_EQ(ops::hardsigmoid(inf), 1.0f);
  EXPECT_EQ(ops::hardsigmoid(0.0f), 0.5f);
  EXPECT_EQ(ops::hardsigmoid(-3.0f), 0.0f);  // -3 alpha rounds to -1/2
  EXPECT_FALSE(std::signbit(ops::hardsigmoid(-3.0f)));
  EXPECT_EQ(ops::hardsigmoid(3.0f), 1.0f);
  EXPECT_GT(ops::hardsigmoid(std::nextafter(-3.0f, 0.0f)), 0.0f);
  EXPECT_EQ(ops::hardsigmoid(std::nextafter(3.0f, 0.0f)), 1.0f);  // its sum rounds up to 1
  EXPECT_EQ(ops::hardsigmoid(std::nextafter(std::nextafter(3.0f, 0.0f), 0.0f)), 1.0f - 0x1p-24f);
  EXPECT_EQ(ops::hardsigmoid(1.0f), 0x1.555556p-3f + 0.5f);
  EXPECT_EQ(ops::hardswish(-inf), 0.0f);
  EXPECT_TRUE(std::signbit(ops::hardswish(-inf)));
  EXPECT_TRUE(std::signbit(ops::hardswish(-3.0f)));
  EXPECT_TRUE(std::signbit(ops::hardswish(-1e30f)));
  EXPECT_EQ(ops::hardswish(inf), inf);
  EXPECT_EQ(ops::hardswish(3.0f), 3.0f);
  EXPECT_EQ(ops::hardswish(1e30f), 1e30f);
  EXPECT_TRUE(std::signbit(ops::hardswish(-0.0f)));
  EXPECT_TRUE(std::signbit(ops::hardswish(-double(inf))));
  EXPECT_EQ(ops::hardsigmoid(1.0), double(0x1.555556p-3f) + 0.5);  // f64: the same float alpha
  // cbrt: odd, exact on cubes of every binade's reach (the subnormal 2^-147 too), and +-inf, +-0 kept.
  EXPECT_EQ(ops::cbrt(-8.0f), -2.0f);
  EXPECT_EQ(ops::cbrt(27.0f), 3.0f);
  EXPECT_EQ(ops::cbrt(0x1p-147f), 0x1p-49f);
  EXPECT_EQ(ops::cbrt(0x1p+126f), 0x1p+42f);
  EXPECT_EQ(ops::cbrt(0x1.8p-126f * 0x1.8p+0f * 0x1.8p+0f), 0x1.8p-42f);
  EXPECT_EQ(ops::cbrt(-inf), -inf);
  EXPECT_EQ(ops::cbrt(inf), inf);
  EXPECT_TRUE(std::signbit(ops::cbrt(-0.0f)));
  EXPECT_FALSE(std::signbit(ops::cbrt(0.0f)));
  EXPECT_EQ(ops::cbrt(-1000.0), -10.0);
  // Overflow and underflow at the thresholds, subnormal results kept.
  EXPECT_EQ(ops::exp(88.72283f), 0x1.ffff08p+127f);  // finite, correctly rounded
  EXPECT_EQ(ops::exp(88.7228394f), inf);
  EXPECT_EQ(ops::exp(-103.98f), 0.0f);
  EXPECT_GT(ops::exp(-103.9f), 0.0f);
  EXPECT_LT(ops::exp(-90.0f), std::numeric_limits<float>::min());
  EXPECT_GT(ops::exp(-90.0f), 0.0f);
}

// The fast tier keeps the special values of the functions it approximates,
// and their subnormal results.
TEST(MathSpecialValues, FastTierAsDocumented) {
  namespace ops = bg::ops;
  const float inf = std::numeric_limits<float>::infinity(), fmin = std::numeric_limits<float>::min();
  EXPECT_EQ(ops::fast_sigmoid(-inf), 0.0f);
  EXPECT_EQ(ops::fast_sigmoid(inf), 1.0f);
  EXPECT_EQ(ops::fast_sigmoid(-0.0f), 0.5f);
  EXPECT_EQ(ops::fast_sigmoid(-104.0f), 0.0f);  // e^-104 < 2^-150
  EXPECT_GT(ops::fast_sigmoid(-100.0f), 0.0f);  // subnormal, kept
  EXPECT_LT(ops::fast_sigmoid(-100.0f), fmin);
  EXPECT_EQ(ops::fast_silu(-inf), 0.0f);
  EXPECT_TRUE(std::signbit(ops::fast_silu(-inf)));
  EXPECT_EQ(ops::fast_silu(inf), inf);
  EXPECT_TRUE(std::signbit(ops::fast_silu(-0.0f)));
  EXPECT_LT(ops::fast_silu(-95.0f), 0.0f);  // subnormal, kept
  EXPECT_GT(ops::fast_silu(-95.0f), -fmin);
  EXPECT_EQ(ops::fast_tanh(inf), 1.0f);
  EXPECT_EQ(ops::fast_tanh(-inf), -1.0f);
  EXPECT_TRUE(std::signbit(ops::fast_tanh(-0.0f)));
  EXPECT_EQ(ops::fast_tanh(0x1p-149f), 0x1p-149f);
  EXPECT_EQ(ops::fast_tanh(-10.0f), -1.0f);
  EXPECT_EQ(ops::fast_gelu(-inf), 0.0f);
  EXPECT_TRUE(std::signbit(ops::fast_gelu(-inf)));
  EXPECT_EQ(ops::fast_gelu(inf), inf);
  EXPECT_TRUE(std::isnan(ops::fast_gelu(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::signbit(ops::fast_gelu(-0.0f)));
  EXPECT_FALSE(std::signbit(ops::fast_gelu(0.0f)));
  EXPECT_EQ(ops::fast_gelu(10.0f), 10.0f);
  EXPECT_TRUE(std::signbit(ops::fast_gelu(-14.4f)));  // below 2^-151: rounds to -0
  EXPECT_EQ(ops::fast_gelu(-14.4f), 0.0f);
  EXPECT_LT(ops::fast_gelu(-14.0f), 0.0f);  // subnormal, kept
  EXPECT_GT(ops::fast_gelu(-14.0f), -fmin);
  EXPECT_EQ(ops::fast_gelu_tanh(-inf), 0.0f);
  EXPECT_TRUE(std::signbit(ops::fast_gelu_tanh(-inf)));
  EXPECT_EQ(ops::fast_gelu_tanh(inf), inf);
  EXPECT_TRUE(std::isnan(ops::fast_gelu_tanh(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::signbit(ops::fast_gelu_tanh(-0.0f)));
  EXPECT_FALSE(std::signbit(ops::fast_gelu_tanh(0.0f)));
  EXPECT_EQ(ops::fast_gelu_tanh(20.0f), 20.0f);
  EXPECT_EQ(ops::fast_gelu_tanh(-10.8f), 0.0f);  // -3.2e-46, below 2^-150: rounds to -0
  EXPECT_TRUE(std::signbit(ops::fast_gelu_tanh(-10.8f)));
  EXPECT_LT(ops::fast_gelu_tanh(-10.4f), 0.0f);  // -8.9e-42: subnormal, kept
  EXPECT_GT(ops::fast_gelu_tanh(-10.4f), -fmin);
  for (float (*f)(float) : {&ops::fast_log<float>, &ops::fast_log2<float>, &ops::fast_log10<float>}) {
    EXPECT_EQ(f(0.0f), -inf);
    EXPECT_EQ(f(-0.0f), -inf);
    EXPECT_EQ(f(inf), inf);
    EXPECT_EQ(f(1.0f), 0.0f);
    EXPECT_FALSE(std::signbit(f(1.0f)));
    EXPECT_TRUE(std::isnan(f(-1.0f)));
    EXPECT_TRUE(std::isnan(f(-inf)));
    EXPECT_LT(f(0x1p-149f), -44.0f);  // subnormal inputs: log10(2^-149) = -44.85
  }
  EXPECT_EQ(ops::fast_expm1(-inf), -1.0f);
  EXPECT_EQ(ops::fast_expm1(-17.4f), -1.0f);  // e^-17.4 is below half an ulp of 1
  EXPECT_GT(ops::fast_expm1(-16.0f), -1.0f);
  EXPECT_EQ(ops::fast_expm1(inf), inf);
  EXPECT_EQ(ops::fast_expm1(88.8f), inf);
  EXPECT_LT(ops::fast_expm1(88.7f), inf);  // 2^128 - 1 does not overflow on the way
  EXPECT_TRUE(std::signbit(ops::fast_expm1(-0.0f)));
  EXPECT_EQ(ops::fast_expm1(0x1p-149f), 0x1p-149f);
  EXPECT_EQ(ops::fast_log1p(-1.0f), -inf);
  EXPECT_TRUE(std::isnan(ops::fast_log1p(-2.0f)));
  EXPECT_TRUE(std::signbit(ops::fast_log1p(-0.0f)));
  EXPECT_EQ(ops::fast_log1p(-0x1p-149f), -0x1p-149f);
  EXPECT_EQ(ops::fast_log1p(1e-30f), 1e-30f);
  EXPECT_EQ(ops::fast_log1p(inf), inf);
  EXPECT_EQ(ops::fast_softplus(-inf), 0.0f);
  EXPECT_EQ(ops::fast_softplus(inf), inf);
  EXPECT_EQ(ops::fast_softplus(100.0f), 100.0f);
  EXPECT_GT(ops::fast_softplus(-100.0f), 0.0f);  // subnormal, kept
  EXPECT_LT(ops::fast_softplus(-100.0f), fmin);
  EXPECT_EQ(ops::fast_erf(inf), 1.0f);
  EXPECT_EQ(ops::fast_erf(-inf), -1.0f);
  // erfc(x) < 2^-25 from 3.92 on: erf rounds to 1 there. The form does from 3.939 on, and is at
  // most 1 ulp below it before (README, fast_erf).
  EXPECT_EQ(ops::fast_erf(3.94f), 1.0f);
  EXPECT_EQ(ops::fast_erf(0x1.f81246p+1f), 1.0f);  // the float after 3.938057, the last below 1
  EXPECT_GE(ops::fast_erf(3.93f), 1.0f - 0x1p-24f);
  EXPECT_LT(ops::fast_erf(3.9f), 1.0f);
  EXPECT_TRUE(std::signbit(ops::fast_erf(-0.0f)));
  EXPECT_FALSE(std::signbit(ops::fast_erf(0.0f)));
  EXPECT_TRUE(std::isnan(ops::fast_erf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(ops::fast_erf(-0x1p-149f), -0x1p-149f);  // 2/sqrt(pi) 2^-149 rounds to 2^-149
  EXPECT_GT(ops::fast_erf(fmin), fmin);  // tiny x keeps its relative accuracy
}

}  // namespace
