// AVX2's two store forms that replace several instructions by others:
// store_first (a partial vector by plain 16-, 8- and 4-byte stores instead
// of vmaskmov) must write lanes 0..N-1 of the register and no byte after
// them, for every N and lane width; store_bool4 (four compare results
// packed into 32 bools) must write lane l of vector k as byte 8k + l, 1
// where the lane is all ones. The oracle is the register's own lanes.
// Kernels reach only some N (generated_kernels_test runs those); this runs
// all. Skipped, with a message, on a CPU without AVX2.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "bcastgen/cpu.h"

#if defined(__x86_64__)
#include "bcastgen/simd/avx2.h"

namespace {

namespace avx2 = bcastgen::simd::avx2;
constexpr unsigned char kSentinel = 0xA5;

#define BCASTGEN_TEST_AVX2 __attribute__((target(BCASTGEN_TARGET_AVX2)))

// Stores the first N lanes of `bytes` (a register) through the wrapper of
// T into `out` (lanes of T, sentinel-filled past them).
template <typename T, int N>
BCASTGEN_TEST_AVX2 void store_first(const unsigned char* bytes, T* out) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
  if constexpr (std::is_same_v<T, float>) avx2::store_first_f32<N>(out, _mm256_castsi256_ps(v));
  if constexpr (std::is_same_v<T, double>) avx2::store_first_f64<N>(out, _mm256_castsi256_pd(v));
  if constexpr (std::is_same_v<T, std::int32_t>) avx2::store_first_i32<N>(out, v);
  if constexpr (std::is_same_v<T, std::uint32_t>) avx2::store_first_u32<N>(out, v);
  if constexpr (std::is_same_v<T, std::int64_t>) avx2::store_first_i64<N>(out, v);
  if constexpr (std::is_same_v<T, std::uint64_t>) avx2::store_first_u64<N>(out, v);
}

// Every N from 1 to lanes - 1: the first N lanes' bytes are the register's,
// the rest of a 64-byte buffer keeps its sentinel.
template <typename T, int... N>
void check_every_length(std::integer_sequence<int, N...>) {
  std::mt19937 rng(7);
  unsigned char bytes[32];
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng());
  auto check = [&](int n, auto store) {
    unsigned char out[64];
    std::memset(out, kSentinel, sizeof out);
    store(reinterpret_cast<T*>(out));
    const int written = n * static_cast<int>(sizeof(T));
    EXPECT_EQ(std::memcmp(out, bytes, written), 0) << sizeof(T) << "-byte lanes, N = " << n;
    for (int i = written; i < 64; ++i) {
      ASSERT_EQ(out[i], kSentinel) << sizeof(T) << "-byte lanes, N = " << n << ": byte " << i << " written";
    }
  };
  (check(N + 1, [&](T* out) { store_first<T, N + 1>(bytes, out); }), ...);
}

template <typename T>
void check_every_length() {
  check_every_length<T>(std::make_integer_sequence<int, 32 / sizeof(T) - 1>{});
}

bool has_avx2() { return bcastgen::cpu_supports(bcastgen::Isa::Avx2); }

TEST(Avx2Store, FirstLanesAreWrittenAndNothingAfterThem) {
  if (!has_avx2()) GTEST_SKIP() << "this CPU has no AVX2: the avx2 stores are not run";
  check_every_length<float>();
  check_every_length<double>();
  check_every_length<std::int32_t>();
  check_every_length<std::uint32_t>();
  check_every_length<std::int64_t>();
  check_every_length<std::uint64_t>();
}

// Four compare results from random lane masks, stored through each dtype's
// store_bool4 (f16 and bf16 compare in f32 lanes).
BCASTGEN_TEST_AVX2 void store_bool4_all(const std::int32_t* masks, bool (*out)[32]) {
  __m256i m[4];
  __m256 f[4];
  for (int k = 0; k < 4; ++k) {
    m[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(masks + 8 * k));
    f[k] = _mm256_castsi256_ps(m[k]);
  }
  avx2::store_bool4_f32(out[0], f[0], f[1], f[2], f[3]);
  avx2::store_bool4_i32(out[1], m[0], m[1], m[2], m[3]);
  avx2::store_bool4_u32(out[2], m[0], m[1], m[2], m[3]);
  avx2::store_bool4_f16(out[3], f[0], f[1], f[2], f[3]);
  avx2::store_bool4_bf16(out[4], f[0], f[1], f[2], f[3]);
}

TEST(Avx2Store, FourCompareResultsAreStoredInLaneOrder) {
  if (!has_avx2()) GTEST_SKIP() << "this CPU has no AVX2: the avx2 stores are not run";
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::int32_t masks[32];
    for (std::int32_t& m : masks) m = (rng() & 1) ? -1 : 0;
    if (trial == 0) std::memset(masks, 0xFF, sizeof masks);  // all true
    if (trial == 1) std::memset(masks, 0, sizeof masks);     // all false
    bool out[5][32];
    std::memset(out, kSentinel, sizeof out);
    store_bool4_all(masks, out);
    for (int d = 0; d < 5; ++d) {
      for (int e = 0; e < 32; ++e) {
        unsigned char byte;
        std::memcpy(&byte, &out[d][e], 1);
        ASSERT_EQ(byte, masks[e] ? 1 : 0) << "trial " << trial << ", form " << d << ", element " << e;
      }
    }
  }
}

}  // namespace

#else
TEST(Avx2Store, NotX86) { GTEST_SKIP() << "x86-64 only"; }
#endif
