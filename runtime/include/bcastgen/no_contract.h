// A region of code compiled without multiply-add contraction under GCC,
// whatever the includer's flags:
//
//   BCASTGEN_NO_CONTRACT_BEGIN
//   ... function definitions ...
//   BCASTGEN_NO_CONTRACT_END
//
// GCC contracts a * b + c into one fused instruction by default (even in ISO
// mode) wherever the target has FMA: AArch64 always, x86 with -mfma or
// -march=native. The runtime's scalar semantics (the math functions, the
// ops, the reference) promise the bits of each operation rounded on its own,
// the bits of the vector lanes; a contracted copy gives others (on AArch64
// at -O2, gelu's scalar path was one ulp off on one input in a hundred).
//
// The region covers what GCC compiles from these definitions: out-of-line
// copies, and whatever is inlined into them. A function inlined into a
// caller outside any region takes the caller's flags, so code that calls
// bcastgen::ops directly should be compiled with -ffp-contract=off too; the
// generated files have their own pragma. Clang contracts only within one
// expression: the runtime writes each f32 and f64 rounding as a statement of
// its own, and its one multiply-add expression (gelu_tanh's wide form in
// math.h) is in long double, which has no fused instruction on x86-64 (x87)
// or AArch64 (binary128 in software).
#pragma once

#if !defined(__clang__) && defined(__GNUC__)
#define BCASTGEN_NO_CONTRACT_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=off\")")
#define BCASTGEN_NO_CONTRACT_END _Pragma("GCC pop_options")
#else
#define BCASTGEN_NO_CONTRACT_BEGIN
#define BCASTGEN_NO_CONTRACT_END
#endif
