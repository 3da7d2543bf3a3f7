// The reference output of a generated kernel's table entry (the Broadcast
// op through reference::broadcast_to, every other kernel through
// reference::evaluate of the entry's DAG), and the comparison of outputs
// with it. Shared by the generated-kernel and guard-page tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/reference.h"
#include "bcastgen/registry.h"

// Whether the tests run `isa`'s variants here: the CPU's ISAs, or under
// tests/avx512_model (which includes avx512_model.h first) the model's,
// which adds AVX-512.
inline bool runs_here(bcastgen::Isa isa) {
#ifdef BCASTGEN_AVX512_MODEL
  return avx512_model::cpu_supports(isa);
#else
  return bcastgen::cpu_supports(isa);
#endif
}

inline bcastgen::Shape shape_of(bcastgen::ShapeRef s) { return bcastgen::Shape(s.dims, s.dims + s.rank); }

inline void reference_of(const bcastgen::KernelEntry& k, const std::vector<const void*>& inputs, void* out) {
  if (k.to_target) {
    bcastgen::reference::broadcast_to(k.inputs[0].dtype, k.mode, inputs[0], shape_of(k.inputs[0].shape),
                                      shape_of(k.target), k.axis, shape_of(k.axes_mapping), out);
    return;
  }
  std::vector<bcastgen::ExprOperand> operands;
  for (std::size_t i = 0; i < k.input_count; ++i) {
    operands.push_back({inputs[i], shape_of(k.inputs[i].shape), k.inputs[i].dtype});
  }
  bcastgen::reference::evaluate(bcastgen::entry_dag(k), operands, k.rule, k.axis, out);
}

// Element equality of outputs: bit for bit, except that any NaN equals any
// NaN (the sign and payload of a computed NaN are not specified, as in NumPy).
inline bool same_element(bcastgen::DType t, const unsigned char* x, const unsigned char* y) {
  if (t == bcastgen::DType::F32) {
    float a, b;
    std::memcpy(&a, x, 4);
    std::memcpy(&b, y, 4);
    if (std::isnan(a) && std::isnan(b)) return true;
  } else if (t == bcastgen::DType::F64) {
    double a, b;
    std::memcpy(&a, x, 8);
    std::memcpy(&b, y, 8);
    if (std::isnan(a) && std::isnan(b)) return true;
  } else if (bcastgen::is_half(t)) {
    std::uint16_t a, b;
    std::memcpy(&a, x, 2);
    std::memcpy(&b, y, 2);
    const bool f16 = t == bcastgen::DType::F16;
    const float fa = f16 ? bcastgen::to_float(bcastgen::f16{a}) : bcastgen::to_float(bcastgen::bf16{a});
    const float fb = f16 ? bcastgen::to_float(bcastgen::f16{b}) : bcastgen::to_float(bcastgen::bf16{b});
    if (std::isnan(fa) && std::isnan(fb)) return true;
  }
  return std::memcmp(x, y, static_cast<std::size_t>(bcastgen::dtype_size(t))) == 0;
}

// The index of the first of n elements that differ, or -1.
inline std::int64_t first_difference(bcastgen::DType t, const unsigned char* x, const unsigned char* y,
                                     std::int64_t n) {
  const int size = bcastgen::dtype_size(t);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!same_element(t, x + i * size, y + i * size)) return i;
  }
  return -1;
}
