// Runs every kernel of tests/contraction/contraction.yaml (and of
// contraction_math.yaml where it was generated too: the aarch64 stage) on
// every ISA this CPU runs and compares it with the runtime reference, bit for
// bit (any NaN equals any NaN). tests/contraction/contraction_test.sh links
// it with the generated file compiled under each compiler and optimization
// level; this file itself is compiled with -ffp-contract=off, so the
// reference rounds every node. Prints one line per mismatching variant;
// exits 1 on any.
//
// The kernels' objects come first on the link line: an inline function of
// the runtime (bcastgen::ops::gelu<float>) has one copy per object, and the
// linker keeps the first. So the reference here runs the kernels' copy, and
// if that copy were contracted it would differ from the vector lanes, which
// are compiled inside the kernels.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/reference.h"
#include "contraction.h"  // generated: kt_contraction::contraction_kernels()
#if __has_include("contraction_math.h")
#include "contraction_math.h"  // generated: kt_contraction_math::contraction_math_kernels()
#define BCASTGEN_CONTRACTION_MATH 1
#endif
#include "kernel_reference.h"

namespace {

// Values with about 22 (f32) or 40 (f64) significant bits: their products
// need more bits than the type has, so rounding the product before the sum
// (NumPy) and not rounding it (an FMA) give different results often.
std::vector<unsigned char> make_input(bcastgen::DType t, std::int64_t n, std::mt19937_64& rng) {
  const int size = bcastgen::dtype_size(t);
  std::vector<unsigned char> buf(static_cast<std::size_t>(n * size));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::int64_t>(rng() >> 1);
    if (t == bcastgen::DType::F64) {
      const double v = static_cast<double>(r % (std::int64_t{1} << 41) - (std::int64_t{1} << 40)) / 1048576.0;
      std::memcpy(buf.data() + i * size, &v, 8);
    } else {
      const float v = static_cast<float>(r % (1 << 22) - (1 << 21)) / 1024.0f;
      std::memcpy(buf.data() + i * size, &v, 4);
    }
  }
  return buf;
}

}  // namespace

int main() {
  std::mt19937_64 rng(20261123);
  int variants = 0, failures = 0;
  std::vector<const bcastgen::KernelEntry*> kernels;
  for (const bcastgen::KernelEntry& k : kt_contraction::contraction_kernels()) kernels.push_back(&k);
#ifdef BCASTGEN_CONTRACTION_MATH
  for (const bcastgen::KernelEntry& k : kt_contraction_math::contraction_math_kernels()) kernels.push_back(&k);
#endif
  for (const bcastgen::KernelEntry* entry : kernels) {
    const bcastgen::KernelEntry& k = *entry;
    std::vector<std::vector<unsigned char>> inputs;
    std::vector<const void*> ptrs;
    for (std::size_t i = 0; i < k.input_count; ++i) {
      inputs.push_back(make_input(k.inputs[i].dtype, bcastgen::checked_numel(shape_of(k.inputs[i].shape)), rng));
    }
    for (const auto& in : inputs) ptrs.push_back(in.data());
    const std::int64_t n = bcastgen::checked_numel(shape_of(k.out));
    const auto bytes = static_cast<std::size_t>(n * bcastgen::dtype_size(k.out_dtype));
    std::vector<unsigned char> want(bytes), got(bytes);
    reference_of(k, ptrs, want.data());
    for (bcastgen::Isa isa : bcastgen::kAllIsas) {
      if (!bcastgen::cpu_supports(isa)) continue;
      ++variants;
      k.run(isa, ptrs.data(), got.data());
      std::int64_t differ = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t at = i * bcastgen::dtype_size(k.out_dtype);
        differ += !same_element(k.out_dtype, got.data() + at, want.data() + at);
      }
      if (differ > 0) {
        ++failures;
        std::printf("%s on %s: %lld of %lld elements differ from the reference\n", k.name,
                    bcastgen::isa_name(isa), static_cast<long long>(differ), static_cast<long long>(n));
      }
    }
  }
  std::printf("contraction_check: %d kernel variants, %d differ from the reference\n", variants, failures);
  return failures == 0 ? 0 : 1;
}
