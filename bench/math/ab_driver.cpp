// A/B of two builds of the math bench's kernels in one process (ab.sh):
// namespace mkA is the base, mkB the new one. For each one-input kernel it
// alternates a block of calls of A with one of B, 41 rounds (alternate.h),
// and prints the medians of their times and of the ratios B/A (with the
// quartiles).
#include <cstdio>
#include <string>
#include <vector>

#include "alternate.h"
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

struct Case {
  const char* name;
  Kernel a, b;
  long elements;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string filter = argc > 1 ? argv[1] : "";
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
    const bench::Alternation r =
        bench::alternate([&] { c.a(in, out); }, [&] { c.b(in, out); }, c.elements);
    std::printf("%-24s %9.3f %9.3f  %.3f [%.3f %.3f]\n", c.name, r.a, r.b, r.ratio, r.ratio_q1, r.ratio_q3);
    std::fflush(stdout);
  }
}
