// bcastgen runtime: loop coalescing. Turns a BroadcastResult into the fewest
// loops that visit the output in row-major order; shared by the generic
// fallback loop and the generator's planner.
#pragma once

#include <cstddef>
#include <cstdint>

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

// Drops output axes of extent 1, then merges each pair of adjacent axes
// i, i+1 whose strides satisfy stride[i] == stride[i+1] * extent[i+1] for all
// three operands (a contiguous run, or a run where an operand broadcasts on
// both axes, stride 0). Merging is greedy from the outermost axis, which is
// maximal because the merge condition is associative.
inline CoalescedLoops coalesce(const BroadcastResult& r) {
  CoalescedLoops c;
  const Shape out_strides = contiguous_strides(r.out);
  for (std::int64_t d : r.out) {
    if (d == 0) {
      c.extents = {0};
      c.a_strides = {0};
      c.b_strides = {0};
      c.out_strides = {0};
      return c;
    }
  }
  for (std::size_t i = 0; i < r.out.size(); ++i) {
    const std::int64_t e = r.out[i];
    if (e == 1) continue;
    const std::int64_t sa = r.a_strides[i], sb = r.b_strides[i], so = out_strides[i];
    if (!c.extents.empty()) {
      const std::size_t k = c.extents.size() - 1;
      if (c.a_strides[k] == sa * e && c.b_strides[k] == sb * e && c.out_strides[k] == so * e) {
        c.extents[k] *= e;
        c.a_strides[k] = sa;
        c.b_strides[k] = sb;
        c.out_strides[k] = so;
        continue;
      }
    }
    c.extents.push_back(e);
    c.a_strides.push_back(sa);
    c.b_strides.push_back(sb);
    c.out_strides.push_back(so);
  }
  return c;
}

}  // namespace bcastgen
