// The f16 ops that the avx512fp16 variant computes natively (vaddph, vsubph,
// vmulph, vdivph, vsqrtph: IEEE binary16, correctly rounded) must give the
// bits of bcastgen's rule, the f32 result rounded once to f16
// (bcastgen::ops). The argument: f32's 24 bits are at least 2 x 11 + 2, so
// rounding the f32 result again is innocuous. This checks it against an
// independent oracle, MPFR at binary16's 11 bits and exponent range with
// subnormals: every f16 for sqrt, and in CI every 4099th pair (a, b) of the
// 2^32 for + - * /; BCASTGEN_HALF_ALL=1 runs every pair (23 minutes on 2
// cores). Zeros compare by sign, NaN results by NaN-ness.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bcastgen/half.h"
#include "bcastgen/ops.h"

namespace {

using bcastgen::f16;

std::uint64_t pair_stride() {
  const char* all = std::getenv("BCASTGEN_HALF_ALL");
  return all != nullptr && std::string(all) == "1" ? 1 : 4099;
}

// MPFR as binary16: 11 bits, exponents of 0.5 x 2^e from 2^-24 (e = -23,
// the smallest subnormal) to 65504 (e = 16). Restores MPFR's range after.
class Binary16 {
 public:
  Binary16() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(-23);
    mpfr_set_emax(16);
    mpfr_inits2(11, a_, b_, r_, static_cast<mpfr_ptr>(nullptr));
  }
  ~Binary16() {
    mpfr_clears(a_, b_, r_, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  Binary16(const Binary16&) = delete;
  Binary16& operator=(const Binary16&) = delete;

  // The correctly rounded f16 of op(a, b) (sqrt: of a).
  template <typename Op>
  std::uint16_t rounded(Op op, f16 a, f16 b) {
    mpfr_set_flt(a_, bcastgen::to_float(a), MPFR_RNDN);  // exact: 11 bits in range
    mpfr_set_flt(b_, bcastgen::to_float(b), MPFR_RNDN);
    int t = op(r_, a_, b_, MPFR_RNDN);
    t = mpfr_check_range(r_, t, MPFR_RNDN);
    mpfr_subnormalize(r_, t, MPFR_RNDN);
    // Exact: the result is an f16 value (or inf, zero, NaN); half_from only packs it.
    return bcastgen::half_from<f16>(mpfr_get_d(r_, MPFR_RNDN)).bits;
  }

 private:
  mpfr_exp_t emin_, emax_;
  mpfr_t a_, b_, r_;
};

bool same(std::uint16_t ours, std::uint16_t oracle) {
  const bool nan_ours = (ours & 0x7C00) == 0x7C00 && (ours & 0x3FF) != 0;
  const bool nan_oracle = (oracle & 0x7C00) == 0x7C00 && (oracle & 0x3FF) != 0;
  return nan_ours || nan_oracle ? nan_ours == nan_oracle : ours == oracle;
}

// Every stride-th pair, split across the cores (MPFR's range is per thread).
template <typename Ours, typename Oracle>
void check_pairs(const char* name, Ours ours, Oracle oracle) {
  const std::uint64_t stride = pair_stride();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::atomic<std::uint64_t> checked{0}, wrong{0}, first_wrong{~0ull};
  auto run = [&](unsigned t) {
    Binary16 m;
    std::uint64_t n = 0, bad = 0;
    for (std::uint64_t i = t * stride; i < (1ull << 32); i += threads * stride) {
      const f16 a{static_cast<std::uint16_t>(i >> 16)}, b{static_cast<std::uint16_t>(i)};
      ++n;
      if (!same(ours(a, b).bits, m.rounded(oracle, a, b)) && bad++ == 0) {
        std::uint64_t seen = first_wrong.load();
        while (i < seen && !first_wrong.compare_exchange_weak(seen, i)) {
        }
      }
    }
    checked += n;
    wrong += bad;
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(run, t);
  for (std::thread& th : pool) th.join();
  if (wrong != 0) {
    const f16 a{static_cast<std::uint16_t>(first_wrong >> 16)}, b{static_cast<std::uint16_t>(first_wrong)};
    Binary16 m;
    ADD_FAILURE() << name << "(0x" << std::hex << a.bits << ", 0x" << b.bits << "): f32 then rounded 0x"
                  << ours(a, b).bits << ", correctly rounded 0x" << m.rounded(oracle, a, b);
  }
  EXPECT_EQ(wrong, 0u) << name << ": " << wrong << " of " << checked << " pairs differ";
  EXPECT_GT(checked, 1000000u);
}

TEST(HalfNativeOps, F32ThenRoundIsCorrectlyRoundedForAddSubtractMultiplyDivide) {
  check_pairs("add", [](f16 a, f16 b) { return bcastgen::ops::add(a, b); }, mpfr_add);
  check_pairs("subtract", [](f16 a, f16 b) { return bcastgen::ops::subtract(a, b); }, mpfr_sub);
  check_pairs("multiply", [](f16 a, f16 b) { return bcastgen::ops::multiply(a, b); }, mpfr_mul);
  check_pairs("divide", [](f16 a, f16 b) { return bcastgen::ops::divide(a, b); }, mpfr_div);
}

TEST(HalfNativeOps, F32ThenRoundIsCorrectlyRoundedForSqrtOfEveryF16) {
  Binary16 m;
  auto sqrt_of_a = [](mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr, mpfr_rnd_t rnd) { return mpfr_sqrt(r, a, rnd); };
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const f16 x{static_cast<std::uint16_t>(h)};
    const std::uint16_t got = bcastgen::ops::sqrt(x).bits, want = m.rounded(sqrt_of_a, x, x);
    EXPECT_TRUE(same(got, want)) << "sqrt(0x" << std::hex << h << "): 0x" << got << ", correctly rounded 0x" << want;
  }
}

}  // namespace
