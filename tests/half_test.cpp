// The 16-bit storage types (runtime/include/bcastgen/half.h) against
// independent oracles: the CPU's F16C conversion (vcvtps2ph, round to nearest
// even) for every sampled float -> f16, NumPy's float64 -> float16 (its own
// single rounding) near every tie, the usual integer rounding trick for float
// -> bf16, and hand-checked tables for the corners (ties up and down, the
// largest finite value, overflow, subnormals, NaN payloads, 64-bit
// integers). CI samples every 127th float; BCASTGEN_HALF_ALL=1 runs all 2^32.
#include <gtest/gtest.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/half.h"
#include "numpy_oracle.h"  // run_numpy_script

namespace {

using bcastgen::bf16;
using bcastgen::f16;
using bcastgen::half_from;

float from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

std::uint32_t stride() {
  const char* all = std::getenv("BCASTGEN_HALF_ALL");
  return all != nullptr && std::string(all) == "1" ? 1 : 127;
}

#if defined(__x86_64__)
__attribute__((target("f16c"))) std::uint16_t f16c_round(float x) {
  return static_cast<std::uint16_t>(_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

#endif

TEST(Half, F16RoundTripsThroughFloat) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const f16 x{static_cast<std::uint16_t>(h)};
    const float v = bcastgen::to_float(x);
    const std::uint16_t back = half_from<f16>(v).bits;
    if (std::isnan(v)) {
      // A NaN comes back quiet, with its sign and payload.
      ASSERT_EQ(back, h | 0x200) << std::hex << h;
    } else {
      ASSERT_EQ(back, h) << std::hex << h;
    }
  }
}

TEST(Half, F16ToFloatIsExact) {
  EXPECT_EQ(bcastgen::to_float(f16{0x3c00}), 1.0f);
  EXPECT_EQ(bcastgen::to_float(f16{0x7bff}), 65504.0f);
  EXPECT_EQ(bcastgen::to_float(f16{0x0001}), std::ldexp(1.0f, -24));
  EXPECT_EQ(bcastgen::to_float(f16{0x03ff}), std::ldexp(1023.0f, -24));
  EXPECT_EQ(bcastgen::to_float(f16{0x0400}), std::ldexp(1.0f, -14));
  EXPECT_EQ(bits_of(bcastgen::to_float(f16{0x8000})), 0x80000000u);
  EXPECT_EQ(bcastgen::to_float(f16{0xfc00}), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(bits_of(bcastgen::to_float(f16{0x7e01})), 0x7fc02000u);  // payload kept
}

#if defined(__x86_64__)
// The runtime's CPU detection (clang's __builtin_cpu_supports knows no "f16c").
bool cpu_has_f16c() {
  return (bcastgen::detail::host_features() & bcastgen::feature_bit(bcastgen::CpuFeature::F16c)) != 0;
}

__attribute__((target("f16c"))) std::uint32_t f16c_widen(std::uint16_t h) { return bits_of(_cvtsh_ss(h)); }

// Every f16, NaNs too: F16C quiets a signaling NaN, and so does to_float.
TEST(Half, F16ToFloatMatchesF16cOnEveryValue) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C";
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    ASSERT_EQ(bits_of(bcastgen::to_float(f16{static_cast<std::uint16_t>(h)})), f16c_widen(static_cast<std::uint16_t>(h)))
        << std::hex << h;
  }
}

TEST(Half, FloatToF16MatchesF16c) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C";
  const std::uint32_t s = stride();
  std::uint64_t checked = 0;
  for (std::uint64_t b = 0; b <= 0xffffffffu; b += s) {
    const float x = from_bits(static_cast<std::uint32_t>(b));
    const std::uint16_t ours = half_from<f16>(x).bits, theirs = f16c_round(x);
    ASSERT_EQ(ours, theirs) << std::hex << "float bits " << b;
    ++checked;
  }
  EXPECT_GT(checked, 0xffffffffu / s);
}
#endif

// Round to nearest even by comparing the distances to the two neighbours
// exactly (in double), for the finite floats: an oracle independent of the
// bit trick half.h uses (add 0x7fff plus the lowest kept bit, truncate).
std::uint16_t bf16_nearest(std::uint32_t b) {
  const auto below = static_cast<std::uint16_t>(b >> 16), above = static_cast<std::uint16_t>(below + 1);
  const double x = from_bits(b), lo = bcastgen::to_float(bf16{below});
  // Past the largest finite, the next step is 2^128 (which rounds to inf).
  const double hi = (above & 0x7fff) == 0x7f80 ? std::copysign(std::ldexp(1.0, 128), x)
                                                 : static_cast<double>(bcastgen::to_float(bf16{above}));
  const double to_lo = std::fabs(x - lo), to_hi = std::fabs(hi - x);
  if (to_lo != to_hi) return to_lo < to_hi ? below : above;
  return (below & 1) ? above : below;
}

TEST(Half, FloatToBf16IsTheNearestTiesToEven) {
  const std::uint32_t s = stride();
  for (std::uint64_t b = 0; b <= 0xffffffffu; b += s) {
    const auto bits = static_cast<std::uint32_t>(b);
    const float x = from_bits(bits);
    if (!std::isfinite(x)) continue;  // (the corner table has them)
    ASSERT_EQ(half_from<bf16>(x).bits, bf16_nearest(bits)) << std::hex << "float bits " << b;
  }
}

TEST(Half, Bf16Corners) {
  struct Case {
    std::uint32_t float_bits;
    std::uint16_t bf16_bits;
    const char* what;
  };
  const Case cases[] = {
      {0x3f800000, 0x3f80, "1"},
      {0x3f808000, 0x3f80, "tie, down to even"},
      {0x3f818000, 0x3f82, "tie, up to even"},
      {0x3f808001, 0x3f81, "above the tie"},
      {0x3f807fff, 0x3f80, "below the tie"},
      {0x7f7f7fff, 0x7f7f, "the largest finite, from below its tie"},
      {0x7f7f8000, 0x7f80, "the tie above the largest finite overflows"},
      {0x7f7fffff, 0x7f80, "FLT_MAX overflows"},
      {0xff7fffff, 0xff80, "-FLT_MAX overflows"},
      {0x00000001, 0x0000, "the smallest float subnormal rounds to +0"},
      {0x00008000, 0x0000, "subnormal tie, down to even"},
      {0x00018000, 0x0002, "subnormal tie, up to even"},
      {0x00010000, 0x0001, "the smallest bf16 subnormal, kept"},
      {0x007fffff, 0x0080, "the largest float subnormal rounds to the smallest normal"},
      {0x80000000, 0x8000, "-0"},
      {0x7f800000, 0x7f80, "inf"},
      {0x7fc00000, 0x7fc0, "the quiet NaN"},
      {0x7fc00001, 0x7fc0, "a payload below bf16's bits"},
      {0x7fa00000, 0x7fe0, "a signalling NaN comes back quiet with its payload"},
      {0xff800001, 0xffc0, "a negative signalling NaN keeps its sign"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(half_from<bf16>(from_bits(c.float_bits)).bits, c.bf16_bits) << c.what;
  }
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float v = bcastgen::to_float(bf16{static_cast<std::uint16_t>(h)});
    ASSERT_EQ(bits_of(v), h << 16);
  }
}

TEST(Half, DoublesAndIntegersRoundOnce) {
  // Through float, 1 + 2^-11 + 2^-40 would first round to the tie 1 + 2^-11
  // and then down to even (0x3C00).
  EXPECT_EQ(half_from<f16>(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits, 0x3c01);
  EXPECT_EQ(half_from<f16>(1.0 + std::ldexp(1.0, -11)).bits, 0x3c00);
  EXPECT_EQ(half_from<bf16>(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)).bits, 0x3f81);
  EXPECT_EQ(half_from<f16>(65519.0).bits, 0x7bff);
  EXPECT_EQ(half_from<f16>(65520.0).bits, 0x7c00);  // the tie above 65504 overflows
  EXPECT_EQ(half_from<f16>(std::ldexp(1.0, -25)).bits, 0x0000);             // tie, to even (0)
  EXPECT_EQ(half_from<f16>(std::ldexp(1.0, -25) * (1 + 1e-9)).bits, 0x0001);  // just above
  EXPECT_EQ(half_from<f16>(std::ldexp(3.0, -25)).bits, 0x0002);             // tie, to even (2)
  EXPECT_EQ(half_from<f16>(4.9e-324).bits, 0x0000);                        // double subnormal
  EXPECT_EQ(half_from<f16>(-1e300).bits, 0xfc00);
  EXPECT_EQ(half_from<f16>(std::int32_t{2049}).bits, half_from<f16>(2048.0).bits);  // tie, to even
  EXPECT_EQ(half_from<f16>(std::int32_t{2051}).bits, half_from<f16>(2052.0).bits);
  EXPECT_EQ(half_from<f16>(std::int32_t{65519}).bits, 0x7bff);
  EXPECT_EQ(half_from<f16>(std::int32_t{65520}).bits, 0x7c00);
  EXPECT_EQ(half_from<f16>(std::int8_t{-128}).bits, 0xd800);
  EXPECT_EQ(half_from<f16>(true).bits, 0x3c00);
  EXPECT_EQ(half_from<bf16>(std::numeric_limits<std::int64_t>::min()).bits, 0xdf00);  // -2^63
  // 2^63 + 2^55 + 1 is above the bf16 tie between 2^63 and 2^63 + 2^56: as a
  // double it is exactly the tie (2^63 + 2^55) and would round to even, down.
  EXPECT_EQ(half_from<bf16>((std::uint64_t{1} << 63) + (std::uint64_t{1} << 55) + 1).bits, 0x5f01);
  EXPECT_EQ(half_from<bf16>(std::numeric_limits<std::uint64_t>::max()).bits, 0x5f80);  // 2^64
  EXPECT_EQ(half_from<f16>(std::numeric_limits<std::uint64_t>::max()).bits, 0x7c00);
}

// NumPy's float64 -> float16 rounds once too (npy_double_to_half): doubles at
// every f16 tie of every binade, nudged by a few double ulps either way, and
// random doubles over the f16 range. The script writes the doubles, then
// NumPy's float16 bits.
TEST(Half, DoublesMatchNumpy) {
  const std::string out = bcastgen::test::run_numpy_script("half", R"PY(
import sys
import numpy as np
ties = np.arange(0, 0x7c00, dtype=np.uint16).view(np.float16).astype(np.float64)
mid = (ties[:-1] + ties[1:]) / 2
near = np.concatenate([mid, np.nextafter(mid, 0), np.nextafter(mid, np.inf), ties])
rng = np.random.default_rng(5)
x = np.concatenate([near, -near, rng.uniform(-70000, 70000, 100000), rng.standard_normal(100000) * 1e-5])
with np.errstate(over='ignore'):
    open(sys.argv[3], 'wb').write(x.astype('<f8').tobytes() + x.astype(np.float16).view('<u2').tobytes())
)PY",
                                                            "", "");
  const std::size_t n = out.size() / 10;
  ASSERT_GT(n, 100000u);
  std::vector<double> in(n);
  std::vector<std::uint16_t> want(n);
  std::memcpy(in.data(), out.data(), n * 8);
  std::memcpy(want.data(), out.data() + n * 8, n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(half_from<f16>(in[i]).bits, want[i]) << std::hexfloat << in[i];
  }
}

}  // namespace
