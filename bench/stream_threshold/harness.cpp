// Times each kernel of s.yaml (streaming stores) against its twin in n.yaml
// (normal stores) on the same buffers, in alternating calls (this VM's DRAM
// bandwidth drifts by tens of percent within minutes, so the two forms must
// be timed side by side): the median of 31 calls each, printed as a row per
// kernel and footprint. See run.sh and make_specs.py.
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
double call_us(F f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// One warm-up call each (page faults), then 31 rounds that alternate which goes first.
template <class S, class N>
void row(const char* what, int mib, double bytes, S streaming, N normal) {
  streaming();
  normal();
  std::vector<double> ts, tn;
  for (int r = 0; r < 31; ++r) {
    if (r % 2) ts.push_back(call_us(streaming));
    tn.push_back(call_us(normal));
    if (r % 2 == 0) ts.push_back(call_us(streaming));
  }
  const double s = median(ts), n = median(tn);
  std::printf("%-4s %3d MiB  stream %8.1f us %5.1f GB/s  normal %8.1f us %5.1f GB/s  streaming speedup %.2f\n", what,
              mib, s, bytes / s / 1e3, n, bytes / n / 1e3, n / s);
  std::fflush(stdout);
}

// 2 MiB-aligned (huge-page friendly, and aligned for the streaming variant), touched once.
template <class T>
T* buffer(std::size_t bytes) {
  const std::size_t huge = 2 << 20;
  void* p = std::aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
  std::memset(p, 0x3F, bytes);  // every f32 0.747, every bf16 0.746: no subnormal anywhere in exp
  return static_cast<T*>(p);
}

}  // namespace

int main() {
  using bcastgen::bf16;
  constexpr std::size_t kMiB = 1024 * 1024;
#define ADD(m)                                                                                       \
  {                                                                                                  \
    const std::size_t n = m * kMiB / 12 / 1024 * 1024;                                               \
    float *a = buffer<float>(n * 4), *b = buffer<float>(n * 4), *o = buffer<float>(n * 4);           \
    row("add", m, 12.0 * n, [&] { s::add##m(a, b, o); }, [&] { n::add##m(a, b, o); });               \
    std::free(a), std::free(b), std::free(o);                                                        \
  }
#define ROW(m, T, name, size)                                                                        \
  {                                                                                                  \
    const std::size_t rows = m * kMiB / (2 * size) / 1024;                                           \
    T *x = buffer<T>(rows * 1024 * size), *b = buffer<T>(1024 * size), *o = buffer<T>(rows * 1024 * size); \
    row(#name, m, 2.0 * rows * 1024 * size, [&] { s::name##m(x, b, o); }, [&] { n::name##m(x, b, o); }); \
    std::free(x), std::free(b), std::free(o);                                                        \
  }
#define ROW_F32(m) ROW(m, float, row, 4)
#define ROW_BF16(m) ROW(m, bf16, rowh, 2)
#define BC(m)                                                                                        \
  {                                                                                                  \
    const std::size_t rows = m * kMiB / 4 / 1024;                                                    \
    float *a = buffer<float>(4096), *o = buffer<float>(rows * 4096);                                 \
    row("bc", m, rows * 4096.0, [&] { s::bc##m(a, o); }, [&] { n::bc##m(a, o); });                   \
    std::free(a), std::free(o);                                                                      \
  }
#define EXP(m)                                                                                       \
  {                                                                                                  \
    const std::size_t rows = m * kMiB / 8 / 1024;                                                    \
    float *x = buffer<float>(rows * 4096), *o = buffer<float>(rows * 4096);                          \
    row("exp", m, rows * 8192.0, [&] { s::exp##m(x, o); }, [&] { n::exp##m(x, o); });                \
    std::free(x), std::free(o);                                                                      \
  }
  STREAM_THRESHOLD_SIZES(ADD)
  STREAM_THRESHOLD_SIZES(ROW_F32)
  STREAM_THRESHOLD_SIZES(ROW_BF16)
  STREAM_THRESHOLD_SIZES(BC)
  STREAM_THRESHOLD_SIZES(EXP)
}
