// Times each kernel of s.yaml (streaming stores) against its twin in n.yaml
// (normal stores) on the same buffers: the median of 25 calls each, printed
// as a row per footprint. See run.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "n.h"
#include "s.h"
#include "sizes.h"

namespace {

template <class F>
double median_us(F f) {
  std::vector<double> t;
  for (int r = 0; r < 25; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// 2 MiB-aligned (huge-page friendly, and aligned for the streaming variant), touched once.
float* buffer(std::size_t bytes) {
  const std::size_t huge = 2 << 20;
  void* p = std::aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
  std::memset(p, 1, bytes);
  return static_cast<float*>(p);
}

void row(const char* what, int mib, double stream_us, double normal_us, double bytes) {
  std::printf("%-9s %3d MiB  stream %9.1f us %6.1f GB/s  normal %9.1f us %6.1f GB/s  streaming speedup %.2f\n", what,
              mib, stream_us, bytes / stream_us / 1e3, normal_us, bytes / normal_us / 1e3, normal_us / stream_us);
}

}  // namespace

int main() {
#define ADD(m)                                                                                     \
  {                                                                                                \
    const std::size_t n = std::size_t(m) * 1024 * 1024 / 12 / 1024 * 1024;                         \
    float *a = buffer(n * 4), *b = buffer(n * 4), *o = buffer(n * 4);                              \
    row("add", m, median_us([&] { s::add##m(a, b, o); }), median_us([&] { n::add##m(a, b, o); }), \
        3.0 * n * 4);                                                                              \
    std::free(a), std::free(b), std::free(o);                                                      \
  }
#define BC(m)                                                                                                    \
  {                                                                                                              \
    const std::size_t rows = std::size_t(m) * 1024 * 1024 / 4 / 1024;                                            \
    float *a = buffer(4096), *o = buffer(rows * 4096);                                                           \
    row("broadcast", m, median_us([&] { s::bc##m(a, o); }), median_us([&] { n::bc##m(a, o); }), rows * 4096.0); \
    std::free(a), std::free(o);                                                                                  \
  }
  STREAM_THRESHOLD_SIZES(ADD)
  STREAM_THRESHOLD_SIZES(BC)
}
