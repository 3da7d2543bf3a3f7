// SLEEF's u10 vector functions over a buffer (sleef_loops.cpp, compiled once
// per ISA because sleef.h declares a function only under its -m flag).
#pragma once

#include <cstdint>

enum class Fn { Exp, Tanh, Sigmoid, Silu };
void sleef_avx2(Fn f, const float* x, float* y, std::int64_t n);
void sleef_avx512(Fn f, const float* x, float* y, std::int64_t n);
