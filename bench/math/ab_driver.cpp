// A/B of two builds of the math bench's kernels in one process (ab.sh):
// namespace mkA is the base, mkB the new one. For each one-input kernel it
// alternates a block of calls of A with one of B, 41 rounds, and prints the
// medians of their times and of the ratios B/A (with the quartiles): the
// host's drift, which moves whole runs by 10% to 30% here, hits both sides
// of a round alike.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

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
  // x in [-8, 8], or (0.01, 100] for the log family but log1p (bench inputs).
  std::vector<float> symmetric(kLarge), positive(kLarge), out(kLarge);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> s(-8.0f, 8.0f), p(0.01f, 100.0f);
  for (long i = 0; i < kLarge; ++i) {
    symmetric[i] = s(rng);
    positive[i] = p(rng);
  }
  std::printf("%-24s %9s %9s  %s\n", "kernel", "A ns/el", "B ns/el", "B/A median [quartiles]");
  for (const Case& c : cases) {
    const std::string name = c.name;
    if (name.find(filter) == std::string::npos) continue;
    const bool log_family = (name.rfind("log", 0) == 0 || name.rfind("fast_log", 0) == 0) &&
                            name.find("log1p") == std::string::npos;
    const float* in = log_family ? positive.data() : symmetric.data();
    const int calls = c.elements >= kLarge ? 2 : 300;
    nanoseconds_per_call(c.a, in, out.data(), calls);  // warm-up
    nanoseconds_per_call(c.b, in, out.data(), calls);
    std::vector<double> ta, tb, ratio;
    for (int round = 0; round < 41; ++round) {
      const double a = nanoseconds_per_call(c.a, in, out.data(), calls);
      const double b = nanoseconds_per_call(c.b, in, out.data(), calls);
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
