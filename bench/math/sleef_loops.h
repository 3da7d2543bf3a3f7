// SLEEF's u10 vector functions over a buffer (sleef_loops.cpp, compiled once
// per ISA because sleef.h declares a function only under its -m flag).
#pragma once

#include <cstdint>

// Every benchmarked function, X(name): SLEEF has the first nine; the
// composites are built from them as PyTorch's CPU kernels do.
#define BCASTGEN_MATH_BENCH_FUNCTIONS_(X)                                                      \
  X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(erf) X(tanh) X(gelu) X(sigmoid) \
  X(silu) X(softplus) X(gelu_tanh)

#define BCASTGEN_ENUM_(NAME) NAME,
enum class Fn { BCASTGEN_MATH_BENCH_FUNCTIONS_(BCASTGEN_ENUM_) };
#undef BCASTGEN_ENUM_

void sleef_avx2(Fn f, const float* x, float* y, std::int64_t n);
void sleef_avx512(Fn f, const float* x, float* y, std::int64_t n);
