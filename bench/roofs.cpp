// Roofs, measured in the same run as the cases: hand-written AVX2 loops of
// c[i] = a[i] + b[i] (f32, 64-byte aligned, 4 vectors per iteration) at
// sizes that live in each level of the memory hierarchy, with normal and with
// streaming stores. Compiled with -march=x86-64-v3 (bench/CMakeLists.txt).
#include <immintrin.h>

#include <cstring>

#include "bench.h"

namespace bench {
namespace {

__attribute__((noinline)) void add_store(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += 32) {
    const __m256 r0 = _mm256_add_ps(_mm256_load_ps(a + i), _mm256_load_ps(b + i));
    const __m256 r1 = _mm256_add_ps(_mm256_load_ps(a + i + 8), _mm256_load_ps(b + i + 8));
    const __m256 r2 = _mm256_add_ps(_mm256_load_ps(a + i + 16), _mm256_load_ps(b + i + 16));
    const __m256 r3 = _mm256_add_ps(_mm256_load_ps(a + i + 24), _mm256_load_ps(b + i + 24));
    _mm256_store_ps(c + i, r0);
    _mm256_store_ps(c + i + 8, r1);
    _mm256_store_ps(c + i + 16, r2);
    _mm256_store_ps(c + i + 24, r3);
  }
}

__attribute__((noinline)) void add_stream(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += 32) {
    const __m256 r0 = _mm256_add_ps(_mm256_load_ps(a + i), _mm256_load_ps(b + i));
    const __m256 r1 = _mm256_add_ps(_mm256_load_ps(a + i + 8), _mm256_load_ps(b + i + 8));
    const __m256 r2 = _mm256_add_ps(_mm256_load_ps(a + i + 16), _mm256_load_ps(b + i + 16));
    const __m256 r3 = _mm256_add_ps(_mm256_load_ps(a + i + 24), _mm256_load_ps(b + i + 24));
    _mm256_stream_ps(c + i, r0);
    _mm256_stream_ps(c + i + 8, r1);
    _mm256_stream_ps(c + i + 16, r2);
    _mm256_stream_ps(c + i + 24, r3);
  }
  _mm_sfence();
}

__attribute__((noinline)) void fill_stream(const float* a, float* c, std::int64_t n) {
  const __m256 v0 = _mm256_load_ps(a), v1 = _mm256_load_ps(a + 8), v2 = _mm256_load_ps(a + 16),
               v3 = _mm256_load_ps(a + 24);
  for (std::int64_t i = 0; i < n; i += 32) {
    _mm256_stream_ps(c + i, v0);
    _mm256_stream_ps(c + i + 8, v1);
    _mm256_stream_ps(c + i + 16, v2);
    _mm256_stream_ps(c + i + 24, v3);
  }
  _mm_sfence();
}

struct Arrays {
  Buffer a, b, c;
  std::int64_t n;
  explicit Arrays(std::int64_t n_) : n(n_) {
    const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
    a = aligned_buffer(bytes);
    b = aligned_buffer(bytes);
    c = aligned_buffer(bytes);
    auto* pa = reinterpret_cast<float*>(a.get());
    auto* pb = reinterpret_cast<float*>(b.get());
    for (std::int64_t i = 0; i < n; ++i) {
      pa[i] = static_cast<float>(i % 509) * 0.25f;
      pb[i] = static_cast<float>(i % 311) * 0.5f;
    }
    std::memset(c.get(), 0, bytes);
  }
  const float* fa() const { return reinterpret_cast<const float*>(a.get()); }
  const float* fb() const { return reinterpret_cast<const float*>(b.get()); }
  float* fc() const { return reinterpret_cast<float*>(c.get()); }
};

Roof add_roof(const std::string& name, std::int64_t n, bool stream) {
  auto arr = std::make_shared<Arrays>(n);
  Roof r;
  r.name = name;
  r.elements = n;
  r.bytes = static_cast<std::size_t>(n) * 12;
  if (stream) {
    r.run = [arr] { add_stream(arr->fa(), arr->fb(), arr->fc(), arr->n); };
  } else {
    r.run = [arr] { add_store(arr->fa(), arr->fb(), arr->fc(), arr->n); };
  }
  return r;
}

}  // namespace

std::vector<Roof> make_roofs() {
  std::vector<Roof> roofs;
  // The brief's three roofs. DRAM: case 1's size (3 x 16 MiB, beyond the L3).
  roofs.push_back(add_roof("dram_add_store", 4194304, false));
  roofs.push_back(add_roof("dram_add_stream", 4194304, true));
  // L1: 3 x 8 KiB, well inside the 32 KiB L1d.
  roofs.push_back(add_roof("l1_add", 2048, false));
  // For the diagnosis only: L2 (3 x 64 KiB in 512 KiB), L3 (3 x 2 MiB in 32 MiB),
  // and write-only streaming (case 13's 32 MiB output).
  roofs.push_back(add_roof("l2_add", 16384, false));
  roofs.push_back(add_roof("l3_add", 524288, false));
  {
    auto arr = std::make_shared<Arrays>(8388608);
    Roof r;
    r.name = "dram_fill_stream";
    r.elements = arr->n;
    r.bytes = static_cast<std::size_t>(arr->n) * 4;
    r.run = [arr] { fill_stream(arr->fa(), arr->fc(), arr->n); };
    roofs.push_back(r);
  }
  return roofs;
}

}  // namespace bench
