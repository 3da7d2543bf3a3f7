// The measurement behind the generated code's `#pragma GCC unroll 1` on a
// row's main loop (docs/design/planner.md, "Plans per CPU kind"): case 13's copy of one
// 4 KiB row into a 32 MiB output, as a loop of 4-vector steps and as the row
// unrolled whole (what g++ and clang++ -O3 made of the loop without the
// pragma), each placed at several offsets from a 4 KiB page of code, timed
// in turn. run.sh prints where each loop lies.
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

constexpr std::int64_t kRows = 8192, kRow = 1024;  // case 13: [64,128,1024] from [1,1,1024]

#if defined(__AVX512F__)
using Vec = __m512;
constexpr int kLanes = 16;
inline Vec load(const float* p) { return _mm512_loadu_ps(p); }
inline void store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
#else
using Vec = __m256;
constexpr int kLanes = 8;
inline Vec load(const float* p) { return _mm256_loadu_ps(p); }
inline void store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
#endif
constexpr int kStep = 4 * kLanes;

// One step: four loads, then four stores, as bcastgen's grouped plans.
__attribute__((always_inline)) inline void step(const float* in, float* o, std::int64_t j) {
  const Vec a = load(in + j), b = load(in + j + kLanes), c = load(in + j + 2 * kLanes), d = load(in + j + 3 * kLanes);
  store(o + j, a);
  store(o + j + kLanes, b);
  store(o + j + 2 * kLanes, c);
  store(o + j + 3 * kLanes, d);
}

// Each function starts a 4 KiB page of code and runs PAD one-byte nops before
// its loop, so that the loop starts PAD bytes (plus alignment) into the page.
#define COPY_FUNCTIONS(PAD)                                                           \
  __attribute__((noinline, aligned(4096))) void loop_##PAD(const float* in, float* out) { \
    asm volatile(".fill " #PAD ",1,0x90");                                            \
    for (std::int64_t i = 0; i < kRows; ++i) {                                        \
      float* o = out + i * kRow;                                                      \
      _Pragma("GCC unroll 1") for (std::int64_t j = 0; j < kRow; j += kStep) step(in, o, j); \
    }                                                                                 \
  }                                                                                   \
  __attribute__((noinline, aligned(4096))) void whole_##PAD(const float* in, float* out) { \
    asm volatile(".fill " #PAD ",1,0x90");                                            \
    for (std::int64_t i = 0; i < kRows; ++i) {                                        \
      float* o = out + i * kRow;                                                      \
      _Pragma("GCC unroll 64") for (std::int64_t j = 0; j < kRow; j += kStep) step(in, o, j); \
    }                                                                                 \
  }
// The offsets, one list for the functions and the table of forms.
#define PADS(X) X(0) X(2048) X(3200) X(3584) X(4032)
PADS(COPY_FUNCTIONS)

struct Form {
  const char* name;
  void (*run)(const float*, float*);
};
#define FORMS(PAD) {"loop_" #PAD, loop_##PAD}, {"whole_" #PAD, whole_##PAD},
const Form kForms[] = {PADS(FORMS)};

}  // namespace

int main() {
  // The output on huge pages from a 2 MiB boundary plus 320 bytes (the
  // benchmark's placement of case 13), the row 64-byte aligned.
  const std::size_t huge = std::size_t{2} << 20, out_bytes = kRows * kRow * sizeof(float);
  auto* out_mem = static_cast<unsigned char*>(std::aligned_alloc(huge, out_bytes + huge));
  auto* in = static_cast<float*>(std::aligned_alloc(64, kRow * sizeof(float)));
  if (out_mem == nullptr || in == nullptr) return 1;
  madvise(out_mem, out_bytes + huge, MADV_HUGEPAGE);
  float* out = reinterpret_cast<float*>(out_mem + 320);
  for (int j = 0; j < kRow; ++j) in[j] = static_cast<float>(j);
  std::memset(out, 0, out_bytes);

  // 21 rounds; in each, every form once untimed, then three calls timed.
  std::vector<std::vector<double>> us(std::size(kForms));
  for (int round = 0; round < 21; ++round) {
    for (std::size_t f = 0; f < std::size(kForms); ++f) {
      kForms[f].run(in, out);
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < 3; ++k) kForms[f].run(in, out);
      us[f].push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 3);
    }
  }
  for (std::size_t f = 0; f < std::size(kForms); ++f) {
    std::sort(us[f].begin(), us[f].end());
    std::printf("%-11s %8.0f us (median of 21)\n", kForms[f].name, us[f][10]);
  }
  for (std::int64_t e = 0; e < kRows * kRow; e += 4099) {
    if (out[e] != in[e % kRow]) return std::printf("wrong copy at element %lld\n", static_cast<long long>(e)), 1;
  }
  return 0;
}
