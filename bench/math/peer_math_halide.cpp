// Halide 14 (halide/math_generator.cpp): one ahead-of-time pipeline per
// (function, size) and per fused case, built by bench/math/CMakeLists.txt,
// which writes halide_math.h: their headers and the list HALIDE_MATH_FUNCTIONS(X).
#include <HalideBuffer.h>

#include <memory>

#include "halide_math.h"
#include "math_peers.h"

namespace {

using Pipeline = int (*)(halide_buffer_t*, halide_buffer_t*, halide_buffer_t*);
using HalideBuffer = Halide::Runtime::Buffer<float>;

// x and out as inner x outer floats, b as b_inner x b_outer.
PeerLoop call(Pipeline p, const float* x, const float* b, float* y, int inner, int outer, int b_inner,
              int b_outer) {
  auto bx = std::make_shared<HalideBuffer>(const_cast<float*>(x), inner, outer);
  auto bb = std::make_shared<HalideBuffer>(const_cast<float*>(b), b_inner, b_outer);
  auto by = std::make_shared<HalideBuffer>(y, inner, outer);
  return [=] { p(bx->raw_buffer(), bb->raw_buffer(), by->raw_buffer()); };
}

}  // namespace

PeerLoop halide_math(Fn f, const float* x, float* y, std::int64_t n) {
  static const float unused = 0.0f;
  Pipeline p = nullptr;
#define BENCH_HALIDE_PICK_(NAME) \
  if (f == Fn::NAME) p = n == 4096 ? &hl_##NAME##_small : &hl_##NAME##_large;
  HALIDE_MATH_FUNCTIONS(BENCH_HALIDE_PICK_)
#undef BENCH_HALIDE_PICK_
  if (p == nullptr) return bench::not_available("no pipeline (halide/math_generator.cpp has no such function)");
  const int inner = n == 4096 ? 4096 : 3072;
  return call(p, x, &unused, y, inner, static_cast<int>(n / inner), 1, 1);
}

PeerLoop halide_fused(Fused f, const float* x, const float* b, float* y) {
  switch (f) {
    case Fused::BiasGelu: return call(&hl_bias_gelu, x, b, y, 3072, 1024, 3072, 1);
    case Fused::BiasSilu: return call(&hl_bias_silu, x, b, y, 112 * 112, 64, 1, 64);
    case Fused::Gate: return call(&hl_gate, x, b, y, 3072, 1024, 3072, 1024);
  }
  return bench::not_available("no pipeline");
}
