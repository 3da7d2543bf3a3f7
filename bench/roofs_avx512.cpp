// The AVX-512 roof loops (compiled with -mavx512f, see bench/CMakeLists.txt;
// called only where the CPU has AVX-512F).
#include "roof_loops.h"

namespace bench {
namespace {

template <bool kStream>
struct Avx512 {
  static constexpr int kLanes = 16;
  static __m512 load(const float* p) { return _mm512_load_ps(p); }
  static __m512 add(__m512 x, __m512 y) { return _mm512_add_ps(x, y); }
  static __m512 broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static void store(float* p, __m512 v) {
    if constexpr (kStream) _mm512_stream_ps(p, v);
    else _mm512_store_ps(p, v);
  }
  static void fence() {
    if constexpr (kStream) _mm_sfence();
  }
};

}  // namespace

RoofKernels avx512_roof_kernels() {
  return {"avx512", roof_add<Avx512<false>>, roof_copy<Avx512<false>>, roof_add<Avx512<true>>, roof_fill<Avx512<true>>};
}

}  // namespace bench
