// The AVX2 roof loops (compiled with -mavx2, see bench/CMakeLists.txt).
#include "roof_loops.h"

namespace bench {
namespace {

template <bool kStream>
struct Avx2 {
  static constexpr int kLanes = 8;
  static __m256 load(const float* p) { return _mm256_load_ps(p); }
  static __m256 add(__m256 x, __m256 y) { return _mm256_add_ps(x, y); }
  static __m256 broadcast(const float* p) { return _mm256_set1_ps(*p); }
  static void store(float* p, __m256 v) {
    if constexpr (kStream) _mm256_stream_ps(p, v);
    else _mm256_store_ps(p, v);
  }
  static void fence() {
    if constexpr (kStream) _mm_sfence();
  }
};

}  // namespace

RoofKernels avx2_roof_kernels() {
  return {"avx2", roof_add<Avx2<false>>, roof_copy<Avx2<false>>, roof_add<Avx2<true>>, roof_fill<Avx2<true>>};
}

}  // namespace bench
