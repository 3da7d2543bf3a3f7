// The reference output of a generated kernel's table entry: the Broadcast
// op through reference::broadcast_to, every other kernel through
// reference::evaluate of the entry's DAG. Shared by the generated-kernel
// and guard-page tests.
#pragma once

#include <vector>

#include "bcastgen/reference.h"
#include "bcastgen/registry.h"

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
