// Included first (g++ -include avx512_model.h) where simd/avx512.h runs under
// the model of immintrin.h beside it: its functions and the generated
// kernels' avx512 variants are compiled for AVX2, whose instructions the
// model's are, so that no AVX-512 instruction reaches a CPU without it.
// cpu.h is included once (#pragma once), so this definition stays.
#pragma once
#define BCASTGEN_AVX512_MODEL  // tests/kernel_reference.h's runs_here asks the model

#include "bcastgen/cpu.h"

#undef BCASTGEN_TARGET_AVX512
#define BCASTGEN_TARGET_AVX512 BCASTGEN_TARGET_AVX2

#include "bcastgen/registry.h"

namespace avx512_model {

// The check of the CPU in tests/avx512_model's build, the generated
// kernels' (its generate.sh calls this one) and the test drivers': the
// model runs avx512's variants here.
inline bool cpu_supports(bcastgen::Isa isa) { return isa == bcastgen::Isa::Avx512 || bcastgen::cpu_supports(isa); }

// The generated entries' check of a chosen ISA (bcastgen::check_isa, which
// asks the CPU), with the model's answer: generate.sh calls this one.
inline void check_isa(const char* kernel, bcastgen::Isa isa) {
  if (!avx512_model::cpu_supports(isa)) bcastgen::detail::throw_unsupported_isa(kernel, isa);
}

}  // namespace avx512_model
