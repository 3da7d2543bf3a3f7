// bcastgen runtime: loop coalescing. Turns broadcast strides into the fewest
// loops that visit the output in row-major order; shared by the generic
// fallback loop and the generator's planner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "bcastgen/rules.h"
#include "bcastgen/shape.h"

namespace bcastgen {

// A loop nest over the output, outermost first. Strides are in elements, one
// per loop, for operand A, operand B and the (dense, row-major) output.
// Forms:
//   - extents empty (rank 0): the output has exactly one element, at offset 0
//     of every operand (a scalar, or a shape of all 1s);
//   - output with no elements: extents == {0} and every stride list == {0};
//   - otherwise every extent is >= 2 and the innermost out stride is 1.
struct CoalescedLoops {
  Shape extents;
  Shape a_strides, b_strides, out_strides;
};

// The same over N inputs: per loop one stride per input (in[k][loop]).
struct CoalescedNest {
  Shape extents;
  std::vector<Shape> in;  // one stride list per input
  Shape out;
};

// Drops output axes of extent 1, then merges each pair of adjacent axes
// i, i+1 whose strides satisfy stride[i] == stride[i+1] * extent[i+1] for the
// output and every input (a contiguous run, or a run where an input
// broadcasts on both axes, stride 0). Merging is greedy from the outermost
// axis, which is maximal because the merge condition is associative.
// `in_strides[k]` are input k's strides aligned to `out` (rules.h).
inline CoalescedNest coalesce_inputs(const Shape& out, const std::vector<Shape>& in_strides) {
  CoalescedNest c;
  c.in.resize(in_strides.size());
  const Shape out_strides = contiguous_strides(out);
  for (std::int64_t d : out) {
    if (d == 0) {
      c.extents = {0};
      for (Shape& s : c.in) s = {0};
      c.out = {0};
      return c;
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t e = out[i];
    if (e == 1) continue;
    if (!c.extents.empty()) {
      const std::size_t k = c.extents.size() - 1;
      bool merge = c.out[k] == out_strides[i] * e;
      for (std::size_t j = 0; j < in_strides.size(); ++j) merge = merge && c.in[j][k] == in_strides[j][i] * e;
      if (merge) {
        c.extents[k] *= e;
        c.out[k] = out_strides[i];
        for (std::size_t j = 0; j < in_strides.size(); ++j) c.in[j][k] = in_strides[j][i];
        continue;
      }
    }
    c.extents.push_back(e);
    c.out.push_back(out_strides[i]);
    for (std::size_t j = 0; j < in_strides.size(); ++j) c.in[j].push_back(in_strides[j][i]);
  }
  return c;
}

// The two-operand form, for the generic fallback loop.
inline CoalescedLoops coalesce(const BroadcastResult& r) {
  CoalescedNest n = coalesce_inputs(r.out, {r.a_strides, r.b_strides});
  return {std::move(n.extents), std::move(n.in[0]), std::move(n.in[1]), std::move(n.out)};
}

}  // namespace bcastgen
