// The math bench's inputs, shared by math_bench.cpp and ab_driver.cpp so
// that both time the same values: each function's x is uniform over [-8,
// 8], or over (0, 16] for the logarithms (their domain), from one seed.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <random>
#include <string>

#include "sleef_loops.h"  // Fn, BCASTGEN_MATH_BENCH_FUNCTIONS_

namespace bench {

inline bool positive_domain(Fn f) { return f == Fn::log || f == Fn::log2 || f == Fn::log10 || f == Fn::log1p; }

inline void fill_math_input(Fn f, float* x, std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(positive_domain(f) ? 0x1p-20f : -8.0f, positive_domain(f) ? 16.0f : 8.0f);
  for (std::size_t i = 0; i < n; ++i) x[i] = d(rng);
}

// The function of one of run.sh's one-input kernels, named [fast_]FN_small
// or [fast_]FN_large (kernels.sh); false for any other name.
inline bool kernel_function(std::string kernel, Fn* f) {
  if (kernel.rfind("fast_", 0) == 0) kernel.erase(0, 5);
  for (const char* size : {"_small", "_large"}) {
    const std::string suffix = size;
    if (kernel.size() > suffix.size() && kernel.compare(kernel.size() - suffix.size(), suffix.size(), suffix) == 0) {
      kernel.resize(kernel.size() - suffix.size());
#define BCASTGEN_NAMED_(NAME)   \
  if (kernel == #NAME) {        \
    *f = Fn::NAME;              \
    return true;                \
  }
      BCASTGEN_MATH_BENCH_FUNCTIONS_(BCASTGEN_NAMED_)
#undef BCASTGEN_NAMED_
      return false;
    }
  }
  return false;
}

}  // namespace bench
