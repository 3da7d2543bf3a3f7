// bcastgen runtime: the fixed order of a row kernel's sums, maxima and
// minima (gen/plan.h, RowPlan). Element j of a row goes to partial
// j % kRowPartials, in order; the partials then combine in one tree,
// p[i] = op(p[i], p[i + h]) for h = kRowPartials / 2, ..., 1. A vector
// variant holds the partials in registers and combines them register by
// register down to one vector, whose lanes it stores and hands to
// row_tree: every variant (AVX-512, AVX2, NEON, scalar) adds the same
// numbers in the same order, so a kernel's output has the same bits on
// every ISA.
//
// The error of a sum of n floats in this order: a term passes through at
// most ceil(n / 64) - 1 additions in its partial (the first, to -0.0, is
// exact) and 6 in the tree, so |computed - exact| <= gamma(ceil(n / 64) + 5)
// * sum |x_j|, gamma(k) = k u / (1 - k u), u = 2^-24 for f32 (Higham,
// Accuracy and Stability of Numerical Algorithms, 4.2): for n = 768, 17 u;
// for n = 65,536, 1029 u (6.1e-5) relative to sum |x_j|.
#pragma once

#include <limits>

#include "bcastgen/expr.h"
#include "bcastgen/ops.h"

namespace bcastgen {

inline constexpr int kRowPartials = 64;

// op(a, b) of a row reduction: add, or NaN-propagating maximum / minimum (ops.h).
template <ReduceOp kOp, class T>
inline T row_combine(T a, T b) {
  static_assert(kOp == ReduceOp::Sum || kOp == ReduceOp::Max || kOp == ReduceOp::Min,
                "row kernels reduce by sum, max or min");
  if constexpr (kOp == ReduceOp::Sum) {
    return ops::add(a, b);
  } else if constexpr (kOp == ReduceOp::Max) {
    return ops::maximum(a, b);
  } else {
    return ops::minimum(a, b);
  }
}

// The value a partial starts from: op(identity, x) is x for every x
// (-0.0 for a sum, so that a row of -0.0 sums to -0.0).
template <ReduceOp kOp, class T>
inline constexpr T row_identity() {
  if constexpr (kOp == ReduceOp::Sum) {
    return -T(0);
  } else if constexpr (kOp == ReduceOp::Max) {
    return -std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::infinity();
  }
}

// p[0] after p[i] = op(p[i], p[i + h]) for h = n / 2, ..., 1 (n a power of two).
template <ReduceOp kOp, class T>
inline T row_tree(T* p, int n) {
  for (int h = n / 2; h >= 1; h /= 2) {
    for (int i = 0; i < h; ++i) p[i] = row_combine<kOp>(p[i], p[i + h]);
  }
  return p[0];
}

}  // namespace bcastgen
