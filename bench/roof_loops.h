// The roof loops, written once over an ISA policy I (roofs_avx2.cpp,
// roofs_avx512.cpp instantiate them with their own flags): c[i] = a[i] + b[i]
// on f32, 64-byte aligned, four vectors per iteration, with normal or
// streaming stores; c[i] = a[i] + b[0] with normal stores; a streaming fill.
// n is a multiple of 4 * I::kLanes.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "bench.h"

namespace bench {

template <class I>
__attribute__((noinline)) void roof_add(const float* a, const float* b, float* c, std::int64_t n) {
  constexpr int W = I::kLanes;
  for (std::int64_t i = 0; i < n; i += 4 * W) {
    const auto r0 = I::add(I::load(a + i), I::load(b + i));
    const auto r1 = I::add(I::load(a + i + W), I::load(b + i + W));
    const auto r2 = I::add(I::load(a + i + 2 * W), I::load(b + i + 2 * W));
    const auto r3 = I::add(I::load(a + i + 3 * W), I::load(b + i + 3 * W));
    I::store(c + i, r0);
    I::store(c + i + W, r1);
    I::store(c + i + 2 * W, r2);
    I::store(c + i + 3 * W, r3);
  }
  I::fence();
}

// c[i] = a[i] + b[0]: one stream read, one written, as a bias add whose
// second operand stays in a register (most broadcast cases' traffic).
template <class I>
__attribute__((noinline)) void roof_copy(const float* a, const float* b, float* c, std::int64_t n) {
  constexpr int W = I::kLanes;
  const auto v = I::broadcast(b);
  for (std::int64_t i = 0; i < n; i += 4 * W) {
    const auto r0 = I::add(I::load(a + i), v);
    const auto r1 = I::add(I::load(a + i + W), v);
    const auto r2 = I::add(I::load(a + i + 2 * W), v);
    const auto r3 = I::add(I::load(a + i + 3 * W), v);
    I::store(c + i, r0);
    I::store(c + i + W, r1);
    I::store(c + i + 2 * W, r2);
    I::store(c + i + 3 * W, r3);
  }
  I::fence();
}

template <class I>
__attribute__((noinline)) void roof_fill(const float* a, float* c, std::int64_t n) {
  constexpr int W = I::kLanes;
  const auto v0 = I::load(a), v1 = I::load(a + W), v2 = I::load(a + 2 * W), v3 = I::load(a + 3 * W);
  for (std::int64_t i = 0; i < n; i += 4 * W) {
    I::store(c + i, v0);
    I::store(c + i + W, v1);
    I::store(c + i + 2 * W, v2);
    I::store(c + i + 3 * W, v3);
  }
  I::fence();
}

// The roofs' buffers: a and b filled, c zeroed.
struct RoofArrays {
  Buffer a, b, c;
  std::int64_t n;
  explicit RoofArrays(std::int64_t n_);
  const float* fa() const { return reinterpret_cast<const float*>(a.get()); }
  const float* fb() const { return reinterpret_cast<const float*>(b.get()); }
  float* fc() const { return reinterpret_cast<float*>(c.get()); }
};

// The roof kernels of one ISA: add and copy with normal stores, add and fill
// with streaming stores.
struct RoofKernels {
  const char* isa;
  void (*add_store)(const float*, const float*, float*, std::int64_t);
  void (*copy_store)(const float*, const float*, float*, std::int64_t);
  void (*add_stream)(const float*, const float*, float*, std::int64_t);
  void (*fill_stream)(const float*, float*, std::int64_t);
};
RoofKernels avx2_roof_kernels();
RoofKernels avx512_roof_kernels();  // call only where the CPU has AVX-512F

}  // namespace bench
