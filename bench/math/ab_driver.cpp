// A/B of two builds of the math bench's kernels in one process (ab.sh):
// namespace mkA is the base, mkB the new one. For each one-input kernel it
// alternates a block of calls of A with one of B, 41 rounds, and prints the
// medians of their times and of the ratios B/A (with the quartiles): the
// host's drift, which moves whole runs by 10% to 30% here, hits both sides
// of a round alike.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.h"
#include "math_inputs.h"

// ab_kernels.inc: X(NAME, ELEMENTS) for each one-input kernel (ab.sh), each
// `void NAME(const float* x, float* out)` in both namespaces. (Declared
// here: the two generated headers are the same file to GCC's #pragma once.)
#define X(NAME, ELEMENTS)                  \
  namespace mkA {                          \
  void NAME(const float* x, float* out);   \
  }                                        \
  namespace mkB {                          \
  void NAME(const float* x, float* out);   \
  }
#include "ab_kernels.inc"
#undef X

namespace {

using Kernel = void (*)(const float*, float*);

double nanoseconds_per_call(Kernel k, const float* in, float* out, int calls) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) k(in, out);
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / calls;
}

struct Case {
  const char* name;
  Kernel a, b;
  long elements;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string filter = argc > 1 ? argv[1] : "";
  constexpr long kLarge = 8L * 128 * 3072;
#define X(NAME, ELEMENTS) {#NAME, mkA::NAME, mkB::NAME, ELEMENTS},
  const std::vector<Case> cases = {
#include "ab_kernels.inc"
  };
#undef X
  std::printf("%-24s %9s %9s  %s\n", "kernel", "A ns/el", "B ns/el", "B/A median [quartiles]");
  for (const Case& c : cases) {
    Fn f;
    if (std::string(c.name).find(filter) == std::string::npos || !bench::kernel_function(c.name, &f)) continue;
    // math_bench.cpp's input for the function, and an output, as it allocates them.
    bench::AlignedArray<float> x(static_cast<std::size_t>(c.elements)), y(static_cast<std::size_t>(c.elements));
    bench::fill_math_input(f, x.data(), x.size());
    const float* in = x.data();
    float* out = y.data();
    const int calls = c.elements >= kLarge ? 2 : 300;
    nanoseconds_per_call(c.a, in, out, calls);  // warm-up
    nanoseconds_per_call(c.b, in, out, calls);
    std::vector<double> ta, tb, ratio;
    for (int round = 0; round < 41; ++round) {
      const double a = nanoseconds_per_call(c.a, in, out, calls);
      const double b = nanoseconds_per_call(c.b, in, out, calls);
      ta.push_back(a / c.elements);
      tb.push_back(b / c.elements);
      ratio.push_back(b / a);
    }
    std::sort(ta.begin(), ta.end());
    std::sort(tb.begin(), tb.end());
    std::sort(ratio.begin(), ratio.end());
    std::printf("%-24s %9.3f %9.3f  %.3f [%.3f %.3f]\n", c.name, ta[20], tb[20], ratio[20], ratio[10], ratio[30]);
    std::fflush(stdout);
  }
}
