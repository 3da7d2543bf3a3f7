// bcastgen runtime: the type-erased table every generated file exports, so
// tools and tests can find and run its kernels without knowing their types.
// A kernel is N named inputs, an expression DAG over them and one output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bcastgen/cpu.h"
#include "bcastgen/expr.h"
#include "bcastgen/rules.h"
#include "bcastgen/types.h"
#include "bcastgen/view.h"

namespace bcastgen {

// One step of the layout an input is read through (LayoutStep, layout.h).
struct KernelLayoutStep {
  LayoutKind kind;
  ShapeRef dims;  // Transpose's perm, Reshape's shape
  std::int64_t axis, start, stop, step;  // Slice
};

// One input, in the generated function's parameter order: the tensor's
// shape, and the layout the kernel reads it through (none: layout_steps 0).
struct KernelInput {
  const char* name;
  DType dtype;
  ShapeRef shape;
  const KernelLayoutStep* layout;
  std::size_t layout_steps;
};

// One node of the kernel's DAG, as plain data (see ExprNode): Binary uses
// op, Unary unary, Input input, Literal the value member of its dtype,
// Expand target, Reduce reduce and axes.
struct KernelNode {
  ExprKind kind;
  Op op;
  UnaryOp unary;
  DType dtype;
  std::size_t arg_count;
  std::size_t args[3];
  std::size_t input;
  double f;
  std::int64_t i;
  std::uint64_t u;
  bool b;
  ShapeRef target;
  ReduceOp reduce;
  ShapeRef axes;
};

struct KernelEntry {
  const char* name;
  const char* expr;            // as written in the spec; "add(a, b)" for `op: add`, "in" for the Broadcast op
  DType out_dtype;
  Rule rule;                   // elementwise kernels
  bool to_target;              // the Broadcast op: inputs[0] materialized at `target`
  BroadcastMode mode;          // to_target
  std::int64_t axis;           // pdpd, paddle, mode pdpd
  ShapeRef axes_mapping;       // mode explicit
  ShapeRef target;             // to_target
  const KernelInput* inputs;
  std::size_t input_count;
  ShapeRef out;
  const KernelNode* nodes;
  std::size_t node_count;
  std::size_t root;
  // Runs with the best variant not above `isa`; in[k] points at input k.
  void (*run)(Isa isa, const void* const* in, void* out);
  // Extent of the split loop, and a run of iterations [begin, end) of it.
  std::int64_t outer_extent;
  void (*run_range)(Isa isa, std::int64_t begin, std::int64_t end, const void* const* in, void* out);
};

// The kernel's DAG as an ExprDag (for the reference evaluator).
inline ExprDag entry_dag(const KernelEntry& e) {
  ExprDag d;
  for (std::size_t i = 0; i < e.node_count; ++i) {
    const KernelNode& k = e.nodes[i];
    ExprNode n;
    n.kind = k.kind;
    n.op = k.op;
    n.unary = k.unary;
    n.dtype = k.dtype;
    n.args.assign(k.args, k.args + k.arg_count);
    n.input = k.input;
    n.literal.f = k.f;
    n.literal.i = k.i;
    n.literal.u = k.u;
    n.literal.b = k.b;
    n.target = k.target.to_shape();
    n.reduce = k.reduce;
    n.axes = k.axes.to_shape();
    d.nodes.push_back(n);
  }
  d.root = e.root;
  for (std::size_t k = 0; k < e.input_count; ++k) {
    const KernelInput& in = e.inputs[k];
    if (in.layout_steps == 0) continue;
    d.layouts.resize(k + 1);
    for (std::size_t j = 0; j < in.layout_steps; ++j) {
      const KernelLayoutStep& l = in.layout[j];
      d.layouts[k].push_back({l.kind, l.dims.to_shape(), l.axis, l.start, l.stop, l.step});
    }
  }
  d.input_used.assign(e.input_count, false);
  for (const ExprNode& n : d.nodes) {
    if (n.kind == ExprKind::Input && n.input < e.input_count) d.input_used[n.input] = true;
  }
  return d;
}

// The entry points' argument checks, shared by every kernel of a file
// (templates/entries.cpp.mustache, table_entry, dispatch): the range of the
// split loop, an ISA this CPU runs, and the error of a dispatch that found
// no variant for an ISA.
namespace detail {
[[noreturn]] BCASTGEN_COLD_PATH inline void throw_bad_range(const char* kernel, std::int64_t begin, std::int64_t end,
                                                             std::int64_t extent) {
  throw InvalidArgument(std::string("kernel '") + kernel + "': range [" + std::to_string(begin) + ", " +
                        std::to_string(end) + ") is not within [0, " + std::to_string(extent) + ")");
}

[[noreturn]] BCASTGEN_COLD_PATH inline void throw_unsupported_isa(const char* kernel, Isa isa) {
  throw InvalidArgument(std::string("kernel '") + kernel + "': this CPU cannot run isa " + isa_name(isa));
}
}  // namespace detail

inline void check_range(const char* kernel, std::int64_t begin, std::int64_t end, std::int64_t extent) {
  if (begin < 0 || end > extent || begin > end) detail::throw_bad_range(kernel, begin, end, extent);
}

inline void check_isa(const char* kernel, Isa isa) {
  if (!cpu_supports(isa)) detail::throw_unsupported_isa(kernel, isa);
}

[[noreturn]] BCASTGEN_COLD_PATH inline void throw_no_variant(const char* kernel, Isa isa) {
  throw Error(std::string("kernel '") + kernel + "': no generated variant runs on ISA " + isa_name(isa));
}

struct KernelTable {
  const KernelEntry* entries;
  std::size_t size;
  const KernelEntry* begin() const { return entries; }
  const KernelEntry* end() const { return entries + size; }
};

}  // namespace bcastgen
