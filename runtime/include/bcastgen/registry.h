// bcastgen runtime: the type-erased table every generated file exports, so
// tools and tests can find and run its kernels without knowing their types.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bcastgen/cpu.h"
#include "bcastgen/rules.h"
#include "bcastgen/types.h"
#include "bcastgen/view.h"

namespace bcastgen {

struct KernelEntry {
  const char* name;
  Op op;
  DType dtype;                // input element type (output: result_dtype(op, dtype))
  Rule rule;                  // binary ops
  BroadcastMode mode;         // op == Broadcast
  std::int64_t axis;          // pdpd
  ShapeRef axes_mapping;      // explicit
  ShapeRef a, b, out;         // for Broadcast: a is the input, b the target
  // Runs with the best variant not above `isa`; `b` is ignored by Broadcast.
  void (*run)(Isa isa, const void* a, const void* b, void* out);
  // Extent of the split loop, and a run of iterations [begin, end) of it.
  std::int64_t outer_extent;
  void (*run_range)(Isa isa, std::int64_t begin, std::int64_t end, const void* a, const void* b, void* out);
};

struct KernelTable {
  const KernelEntry* entries;
  std::size_t size;
  const KernelEntry* begin() const { return entries; }
  const KernelEntry* end() const { return entries + size; }
};

}  // namespace bcastgen
