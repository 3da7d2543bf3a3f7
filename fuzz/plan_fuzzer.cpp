// Fuzz target: the planner (gen::plan_kernel). A small reference
// interpreter runs the plan — the coalesced nest KernelPlan::loops, and per
// ISA the IsaPlan's outer loops around a row whose inputs are each read per
// their Access (Stream: base + j, Splat: base, Pattern: base + j % period,
// Gather: base + the digits of j in the fused block times the input's
// strides) — and records, for every output element, which element of each
// input it reads. That must equal the rule engine's mapping (sum of index x
// broadcast stride, from broadcast_shapes for `op:` kernels, broadcast_to
// for the Broadcast op, broadcast_inputs for expression kernels), every
// output element written exactly once. Also checked: every loop carries one
// stride per input and the plan one access (and one span) per input, tails
// add up (main trips x step + tail vectors x lanes + tail lanes = row), a
// pattern's registers hold whole periods and the main loop whole patterns,
// streaming stores only on vector-aligned rows of big enough outputs, and
// the split loop is every variant's outermost loop. Most inputs decode to
// one binary op or the Broadcast op, as before N-input kernels; one in four
// (by a byte after the others) to a fused expression kernel of 1-5 inputs
// from a small table (gen::parse_expr). One accepted kernel in 8 is also
// emitted (gen::generate), which must not fail.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "fuzz_common.h"

namespace {

using namespace bcastgen;
using namespace bcastgen::gen;
using bcastgen::fuzz::Bytes;
using bcastgen::fuzz::shape_text;

constexpr std::int64_t kMaxInterpreted = 1 << 12;  // elements; bigger plans get the structural checks only

// Per output element, the element of each input it reads; -1: not written.
struct Mapping {
  std::vector<std::vector<std::int64_t>> in;  // in[k][o]
  std::vector<int> writes;
};

// Visits a loop nest: `body(offsets, oo)` at each point, from base offsets
// (one per input).
template <class Body>
void nest(const std::vector<Loop>& loops, std::size_t depth, const std::vector<std::int64_t>& base, std::int64_t oo,
          Body&& body) {
  if (depth == loops.size()) {
    body(base, oo);
    return;
  }
  const Loop& l = loops[depth];
  std::vector<std::int64_t> off(base.size());
  for (std::int64_t i = 0; i < l.extent; ++i) {
    for (std::size_t k = 0; k < off.size(); ++k) off[k] = base[k] + i * l.in[k];
    nest(loops, depth + 1, off, oo + i * l.out, body);
  }
}

std::string ctx_of(const KernelSpec& k) {
  std::string s = "'" + k.expr_text + "' ";
  s += k.to_target ? std::string("mode ") + mode_name(k.mode) + " target " + shape_text(k.target) + " mapping " +
                         shape_text(k.axes_mapping)
                   : std::string("rule ") + rule_name(k.rule);
  s += " axis " + std::to_string(k.axis);
  for (const InputSpec& in : k.inputs) s += " " + in.name + "=" + shape_text(in.shape) + ":" + dtype_name(in.dtype);
  return s;
}

void record(Mapping& m, const KernelSpec& k, const std::string& ctx, const std::vector<std::int64_t>& counts,
            std::int64_t oo, const std::vector<std::int64_t>& at) {
  const auto n = static_cast<std::int64_t>(m.writes.size());
  FUZZ_CHECK(oo >= 0 && oo < n, ctx + ": writes out[" + std::to_string(oo) + "] of " + std::to_string(n));
  const auto o = static_cast<std::size_t>(oo);
  ++m.writes[o];
  for (std::size_t j = 0; j < counts.size(); ++j) {
    FUZZ_CHECK(at[j] >= 0 && at[j] < counts[j], ctx + ": reads " + k.inputs[j].name + "[" + std::to_string(at[j]) +
                                                    "] of " + std::to_string(counts[j]));
    m.in[j][o] = at[j];
  }
}

void compare(const Mapping& got, const Mapping& want, const KernelSpec& k, const std::string& ctx) {
  for (std::size_t i = 0; i < want.writes.size(); ++i) {
    FUZZ_CHECK(got.writes[i] == 1, ctx + ": out[" + std::to_string(i) + "] written " + std::to_string(got.writes[i]) +
                                       " times");
    for (std::size_t j = 0; j < want.in.size(); ++j) {
      const std::string& name = k.inputs[j].name;
      FUZZ_CHECK(got.in[j][i] == want.in[j][i], ctx + ": out[" + std::to_string(i) + "] reads " + name + "[" +
                                                    std::to_string(got.in[j][i]) + "], the rule says " + name + "[" +
                                                    std::to_string(want.in[j][i]) + "]");
    }
  }
}

// Every loop carries one stride per input.
void check_loops(const std::vector<Loop>& loops, std::size_t inputs, const std::string& ctx, const char* what) {
  for (const Loop& l : loops) {
    FUZZ_CHECK(l.in.size() == inputs, ctx + ": a loop of " + what + " has " + std::to_string(l.in.size()) +
                                          " input strides for " + std::to_string(inputs) + " inputs");
  }
}

void check_isa_structure(const KernelPlan& p, const IsaPlan& ip, const std::string& ctx, const PlanOptions& opt) {
  const std::size_t inputs = p.spec.inputs.size();
  check_loops(ip.outer, inputs, ctx, "outer");
  check_loops(ip.block, inputs, ctx, "the block");
  FUZZ_CHECK(ip.access.size() == inputs, ctx + ": one access per input");
  std::int64_t n = ip.row;
  for (const Loop& l : ip.outer) n *= l.extent;
  FUZZ_CHECK(n == p.out_numel, ctx + ": outer loops x row = " + std::to_string(n) + " elements");
  FUZZ_CHECK(ip.row >= 0, ctx + ": row");
  if (p.empty) {
    FUZZ_CHECK(ip.row == 0 && ip.outer.empty(), ctx + ": an empty kernel does nothing");
    return;
  }
  const bool pattern = std::count(ip.access.begin(), ip.access.end(), Access::Pattern) > 0;
  if (!ip.vector) {
    FUZZ_CHECK(!pattern, ctx + ": a pattern on a scalar loop");
    return;
  }
  FUZZ_CHECK(ip.isa != Isa::Scalar, ctx + ": vector code for the scalar ISA");
  FUZZ_CHECK(ip.lanes >= 1 && ip.unroll >= 1 && ip.step == static_cast<std::int64_t>(ip.lanes) * ip.unroll,
             ctx + ": step = lanes x unroll");
  FUZZ_CHECK(ip.main_trips * ip.step + static_cast<std::int64_t>(ip.tail_vectors) * ip.lanes + ip.tail_lanes == ip.row,
             ctx + ": main + tail vectors + tail lanes = row");
  FUZZ_CHECK(ip.tail_lanes >= 0 && ip.tail_lanes < ip.lanes, ctx + ": tail lanes < lanes");
  if (!ip.block.empty()) {
    // A gathered block: short rows fused, every input within one vector.
    std::int64_t n = 1;
    for (const Loop& l : ip.block) n *= l.extent;
    FUZZ_CHECK(ip.block.size() >= 2 && n == ip.row, ctx + ": the block is its fused loops");
    FUZZ_CHECK(ip.block.back().extent < ip.lanes, ctx + ": a block of rows shorter than a vector");
    FUZZ_CHECK(ip.span.size() == inputs, ctx + ": one span per input");
    FUZZ_CHECK(!pattern, ctx + ": a pattern in a gathered block");
    for (std::size_t k = 0; k < inputs; ++k) {
      FUZZ_CHECK(ip.access[k] != Access::Gather || (ip.span[k] >= 1 && ip.span[k] <= ip.lanes),
                 ctx + ": " + p.spec.inputs[k].name + "'s span");
    }
    FUZZ_CHECK(!ip.stream, ctx + ": streaming a gathered block");
    return;
  }
  // (A held row is unrolled whole: all of it is tail, at most the held budget.)
  if (ip.held_vectors > 0) {
    FUZZ_CHECK(ip.main_trips == 0 && ip.tail_vectors == ip.held_vectors && ip.tail_lanes < ip.lanes &&
                   ip.held_vectors <= isa_info(ip.isa).vector_registers / 4,
               ctx + ": a held row is whole vectors within the register budget and one partial vector");
  } else {
    FUZZ_CHECK(ip.tail_vectors >= 0 && static_cast<std::int64_t>(ip.tail_vectors) * ip.lanes + ip.tail_lanes < ip.step,
               ctx + ": the tail is less than one step");
  }
  FUZZ_CHECK(pattern == (ip.period > 0), ctx + ": period iff pattern");
  if (pattern) {
    const std::int64_t held = static_cast<std::int64_t>(ip.pattern_vectors) * ip.lanes;
    FUZZ_CHECK(ip.pattern_vectors >= 1 && ip.pattern_vectors <= 16, ctx + ": pattern registers");
    FUZZ_CHECK(held % ip.period == 0, ctx + ": the pattern registers hold whole periods");
    FUZZ_CHECK(ip.step % held == 0, ctx + ": the main loop steps by whole patterns");
    FUZZ_CHECK(ip.row % ip.period == 0, ctx + ": the row holds whole periods");
  }
  if (ip.stream) {
    const std::optional<std::int64_t> threshold = stream_threshold(p, opt);
    FUZZ_CHECK(threshold && p.footprint_bytes >= *threshold, ctx + ": streaming below the threshold");
    FUZZ_CHECK(p.out_dtype == ip.lane_dtype, ctx + ": streaming with an output type other than the lanes'");
    const std::int64_t vbytes = static_cast<std::int64_t>(ip.lanes) * dtype_size(ip.lane_dtype);
    for (const Loop& l : ip.outer) {
      FUZZ_CHECK((l.out * dtype_size(p.out_dtype)) % vbytes == 0, ctx + ": streaming rows must start aligned");
    }
  }
}

const std::int64_t kDims[] = {0, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64,
                              65, 96, 127, 128, 129, 255, 256, 257, 512, 768, 1024, 4096, 65536, 1 << 20};

Shape decode_shape(Bytes& in) {
  Shape s(in.pick(7));
  for (auto& d : s) d = in.pick_from(kDims);
  return s;
}

// A shape that broadcasts against `x`: its dims with some set to 1 and some
// leading ones dropped.
Shape broadcastable(Bytes& in, const Shape& x) {
  Shape s = x;
  for (auto& d : s) d = in.flag() ? 1 : d;
  s.erase(s.begin(), s.begin() + static_cast<long>(in.pick(s.size() + 1)));
  return s;
}

// Fused expression kernels. dtypes: one letter per input, '.' for the
// kernel's drawn dtype, else b (bool), i (i32), f (f32).
struct ExprCase {
  const char* text;
  std::vector<const char*> names;
  const char* dtypes;
};

const std::vector<ExprCase>& expr_cases() {
  static const std::vector<ExprCase> cases = {
      {"max(x * scale + shift, 0)", {"x", "scale", "shift"}, "..."},              // batch-norm + ReLU
      {"max(a + b, 0)", {"a", "b"}, ".."},                                        // residual + ReLU
      {"s * 0.125 + mask", {"s", "mask"}, ".."},                                  // attention scores (floats)
      {"(x - mean) * rstd * gamma + beta", {"x", "mean", "rstd", "gamma", "beta"}, "....."},  // LayerNorm tail
      {"min(max(x + bias, 0), 6)", {"x", "bias"}, ".."},                          // ReLU6
      {"where(keep, s, -10000.0)", {"s", "keep"}, ".b"},                          // causal mask (floats)
      {"where(x > y, x * x, z)", {"x", "y", "z"}, "..."},
      {"clamp(x, lo, hi)", {"x", "lo", "hi"}, "..."},
      {"sqrt(abs(x)) + y / z", {"x", "y", "z"}, "..."},                           // floats
      {"(x & y) | ~z", {"x", "y", "z"}, "..."},                                   // integers and bool
      {"x * x - y * y + x * y", {"x", "y"}, ".."},                                // shared subexpressions
      {"x", {"x"}, "."},                                                          // a one-input copy
      {"cast(n, f32) * x + x", {"n", "x"}, "if"},                                 // mixed types: scalar loops
  };
  return cases;
}

DType case_dtype(char c, DType drawn) {
  switch (c) {
    case 'b': return DType::Bool;
    case 'i': return DType::I32;
    case 'f': return DType::F32;
    default: return drawn;
  }
}

std::vector<ExprInput> expr_inputs(const ExprCase& e, DType drawn) {
  std::vector<ExprInput> decls;
  for (std::size_t j = 0; j < e.names.size(); ++j) decls.push_back({e.names[j], case_dtype(e.dtypes[j], drawn)});
  return decls;
}

// An expression kernel from the table: its dtype among those the
// expression accepts, shapes x = a, then b, then shapes that broadcast
// against a (or a itself); pdpd and paddle take two inputs, so other
// counts get bidirectional.
KernelSpec expr_kernel(Bytes& in, const Shape& a, const Shape& b, Rule rule, std::int64_t axis) {
  const ExprCase& e = expr_cases()[in.pick(expr_cases().size())];
  std::vector<DType> dtypes;
  for (DType t : kAllDTypes) {
    try {
      parse_expr(e.text, expr_inputs(e, t));
      dtypes.push_back(t);
    } catch (const ExprError&) {
    }
  }
  FUZZ_CHECK(!dtypes.empty(), std::string("no dtype accepts the table's expression ") + e.text);
  const DType dtype = dtypes[in.pick(dtypes.size())];
  const std::vector<ExprInput> decls = expr_inputs(e, dtype);
  KernelSpec k;
  k.name = "k";
  k.expr_text = e.text;
  k.expr = parse_expr(e.text, decls);
  k.rule = e.names.size() != 2 && rule_takes_axis(rule) ? Rule::Bidirectional : rule;
  k.axis = axis;
  for (std::size_t j = 0; j < decls.size(); ++j) {
    Shape s = j == 0 ? a : j == 1 ? b : in.pick(3) == 0 ? a : broadcastable(in, a);
    k.inputs.push_back({decls[j].name, std::move(s), decls[j].dtype, {}});
  }
  return k;
}

}  // namespace

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  if (size > 512) return 0;
  Bytes in(data, size);
  const Op op = kAllOps[in.pick(std::size(kAllOps))];
  std::vector<DType> dtypes;
  for (DType t : kAllDTypes) {
    if (op_supports(op, t)) dtypes.push_back(t);
  }
  const DType dtype = dtypes[in.pick(dtypes.size())];
  const Rule rules[] = {Rule::None, Rule::Numpy, Rule::Pdpd, Rule::Paddle};
  const BroadcastMode modes[] = {BroadcastMode::Numpy, BroadcastMode::Explicit, BroadcastMode::Bidirectional,
                                 BroadcastMode::Pdpd};
  const Rule rule = in.pick_from(rules);
  const BroadcastMode mode = in.pick_from(modes);
  const Shape a = decode_shape(in);
  Shape b = in.pick(4) == 0 ? a : decode_shape(in);  // often equal: dense kernels
  if (in.flag()) b = broadcastable(in, a);           // shapes that broadcast
  const std::int64_t axis = static_cast<std::int64_t>(in.pick(8)) - 1;
  std::vector<std::int64_t> axes_mapping;
  for (std::size_t i = 0, t = in.pick(2); i < a.size(); ++i, t += 1 + in.pick(2)) {
    axes_mapping.push_back(static_cast<std::int64_t>(t));
  }
  PlanOptions opt;
  for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Scalar}) {
    if (in.u8() % 4 != 0) opt.isas.push_back(isa);
  }
  if (opt.isas.empty()) opt.isas.push_back(Isa::Avx2);
  const int unrolls[] = {4, 0, 1, 2, 8};
  opt.unroll = in.pick_from(unrolls);
  const std::int64_t thresholds[] = {-1, 0, 64, 4096};  // -1: the CPU kind's
  if (const std::int64_t t = in.pick_from(thresholds); t >= 0) opt.stream_threshold_bytes = t;
  const std::int64_t blocks[] = {16384, 256, 1024, 1 << 20};
  opt.max_block_elements = in.pick_from(blocks);
  const bool emit = in.u8() % 8 == 0;  // emitting is slow (templates): one input in 8
  // Read last, so that inputs written before expression kernels keep their meaning.
  const bool fused = in.u8() % 4 == 1;
  const KernelSpec k = fused                ? expr_kernel(in, a, b, rule, axis)
                       : op == Op::Broadcast ? broadcast_kernel("k", dtype, mode, a, b, axis, axes_mapping)
                                             : binary_kernel("k", op, dtype, rule, a, b, axis);
  // The CPU kind (its unroll where the pick above was 0, its order of loads
  // and stores): read after everything else, so that older inputs keep their meaning.
  opt.cpu = static_cast<CpuKind>(in.pick(kCpuKindCount));
  const std::size_t inputs = k.inputs.size();
  const std::string ctx = ctx_of(k);

  // The rule engine's verdict and mapping.
  BroadcastInputs r;
  try {
    if (k.to_target) {
      BroadcastResult two = broadcast_to(k.mode, k.inputs[0].shape, k.target, k.axis, k.axes_mapping);
      r = {two.out, {two.a_aligned}, {two.a_strides}};
    } else if (!fused) {
      BroadcastResult two = broadcast_shapes(k.rule, k.inputs[0].shape, k.inputs[1].shape, k.axis);
      r = {two.out, {two.a_aligned, two.b_aligned}, {two.a_strides, two.b_strides}};
    } else {
      std::vector<Shape> shapes;
      std::vector<std::string> names;
      for (const InputSpec& i : k.inputs) {
        shapes.push_back(i.shape);
        names.push_back(i.name);
      }
      r = broadcast_inputs(k.rule, shapes, k.axis, names);
    }
  } catch (const Error&) {
    try {
      plan_kernel(k, opt);
    } catch (const Error&) {
      return 0;  // both reject it
    }
    FUZZ_CHECK(false, ctx + ": the planner accepts what the rule engine rejects");
  }
  FUZZ_CHECK(r.strides.size() == inputs, ctx + ": the rule engine's strides");
  const std::int64_t out_numel = checked_numel(r.out);  // checked by the rule engine
  std::int64_t out_bytes = 0;
  const bool bytes_overflow = __builtin_mul_overflow(out_numel, dtype_size(k.out_dtype()), &out_bytes);
  KernelPlan p;
  try {
    p = plan_kernel(k, opt);
  } catch (const OverflowError& e) {
    FUZZ_CHECK(bytes_overflow, ctx + ": plan_kernel overflowed: " + e.what());
    return 0;
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, ctx + ": plan_kernel failed: " + e.what());
  }
  FUZZ_CHECK(!bytes_overflow, ctx + ": output bytes overflow, but plan_kernel did not say so");
  FUZZ_CHECK(p.shapes.out == r.out, ctx + ": the plan's output shape");
  FUZZ_CHECK(p.out_dtype == k.out_dtype(), ctx + ": the plan's output dtype");
  FUZZ_CHECK(p.out_numel == checked_numel(r.out), ctx + ": out_numel");
  FUZZ_CHECK(p.empty == (p.out_numel == 0), ctx + ": empty iff the output has no elements");
  FUZZ_CHECK(p.out_bytes == p.out_numel * dtype_size(p.out_dtype), ctx + ": out_bytes");
  FUZZ_CHECK(p.footprint_bytes >= p.out_bytes, ctx + ": the footprint holds the output");
  FUZZ_CHECK(p.classes.size() == inputs, ctx + ": one class per input");
  // One variant per ISA, but those the CPU kind's stream_vector_bytes leaves
  // out, whose CPUs run a narrower variant that lists them (runs_for) and
  // says so on its plan line.
  for (Isa isa : opt.isas) {
    const bool planned =
        std::any_of(p.isas.begin(), p.isas.end(), [&](const IsaPlan& ip) { return ip.isa == isa; });
    const auto runs_for = [&](const IsaPlan& ip) {
      return std::find(ip.runs_for.begin(), ip.runs_for.end(), isa) != ip.runs_for.end();
    };
    const long in_place = std::count_if(p.isas.begin(), p.isas.end(), runs_for);
    FUZZ_CHECK(planned || (cpu_kind_info(opt.cpu).stream_vector_bytes > 0 && in_place == 1),
               ctx + ": no variant of " + isa_name(isa) + " and none that runs in its place");
    FUZZ_CHECK(!(planned && in_place > 0), ctx + ": a variant of " + isa_name(isa) + " and one that runs for it");
  }
  for (const IsaPlan& ip : p.isas) {
    for (Isa wide : ip.runs_for) {
      FUZZ_CHECK(isa_includes(wide, ip.isa) && wide != ip.isa,
                 ctx + ": " + isa_name(ip.isa) + " runs for " + isa_name(wide) + ", which does not include it");
      FUZZ_CHECK(ip.why.find(std::string("runs on ")) != std::string::npos &&
                     ip.why.find(isa_name(wide)) != std::string::npos,
                 ctx + ": " + isa_name(ip.isa) + "'s plan line does not say it runs for " + isa_name(wide));
    }
  }
  FUZZ_CHECK(p.isas.size() <= opt.isas.size(), ctx + ": at most one variant per ISA");
  check_loops(p.loops, inputs, ctx, "the coalesced nest");
  (void)describe_loops(p, "  ");
  (void)describe_expr(p, "  ");

  // The split loop is every variant's outermost loop.
  if (p.split) {
    FUZZ_CHECK(!p.loops.empty() && p.outer_extent == p.loops[0].extent, ctx + ": split extent");
    for (const IsaPlan& ip : p.isas) {
      FUZZ_CHECK(!ip.outer.empty(), ctx + ": a split kernel whose variant has no outer loop");
      const Loop& o = ip.outer[0];
      const Loop& s = p.loops[0];
      FUZZ_CHECK(o.extent == s.extent && o.in == s.in && o.out == s.out,
                 ctx + ": a variant's outermost loop is not the split loop");
    }
  } else {
    FUZZ_CHECK(p.outer_extent == 1, ctx + ": outer_extent of a kernel that is not split");
  }
  for (std::size_t i = 0, o = 0; i < p.isas.size(); ++i, ++o) {
    while (o < opt.isas.size() && opt.isas[o] != p.isas[i].isa) ++o;  // the variants left out
    FUZZ_CHECK(o < opt.isas.size(), ctx + ": ISA order");
    check_isa_structure(p, p.isas[i], ctx + " on " + isa_name(p.isas[i].isa), opt);
    (void)describe_isa(p, p.isas[i]);
  }

  // Element counts of the inputs (they may not fit when the output is empty).
  std::vector<std::int64_t> counts(inputs, 1);
  bool counts_fit = true;
  for (std::size_t j = 0; j < inputs; ++j) {
    for (std::int64_t d : k.inputs[j].shape) counts_fit = counts_fit && !__builtin_mul_overflow(counts[j], d, &counts[j]);
  }

  if (p.out_numel <= kMaxInterpreted && counts_fit) {
    const auto n = static_cast<std::size_t>(p.out_numel);
    // The rule engine's per-element mapping.
    Mapping want{std::vector<std::vector<std::int64_t>>(inputs, std::vector<std::int64_t>(n)), std::vector<int>(n, 1)};
    {
      Shape idx(r.out.size(), 0);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < inputs; ++j) {
          std::int64_t off = 0;
          for (std::size_t d = 0; d < idx.size(); ++d) off += idx[d] * r.strides[j][d];
          want.in[j][i] = off;
        }
        for (std::size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < r.out[d]) break;
          idx[d] = 0;
        }
      }
    }
    auto fresh = [&] {
      return Mapping{std::vector<std::vector<std::int64_t>>(inputs, std::vector<std::int64_t>(n, -1)),
                     std::vector<int>(n, 0)};
    };
    const std::vector<std::int64_t> zero(inputs, 0);
    // The coalesced nest.
    if (!p.empty) {
      Mapping got = fresh();
      const std::string lctx = ctx + " (loops)";
      nest(p.loops, 0, zero, 0, [&](const std::vector<std::int64_t>& at, std::int64_t oo) {
        record(got, k, lctx, counts, oo, at);
      });
      compare(got, want, k, lctx);
    }
    // Each variant: outer loops, then the row per the inputs' access modes.
    for (const IsaPlan& ip : p.isas) {
      const std::string ictx = ctx + " on " + isa_name(ip.isa);
      Mapping got = fresh();
      // A gathered block's element j: its mixed-radix digits times input k's strides.
      auto block_offset = [&](std::int64_t j, std::size_t q) {
        std::int64_t off = 0;
        for (std::size_t f = ip.block.size(); f-- > 0;) {
          off += (j % ip.block[f].extent) * ip.block[f].in[q];
          j /= ip.block[f].extent;
        }
        return off;
      };
      auto index = [&](Access acc, std::int64_t base, std::int64_t j, std::size_t q) {
        switch (acc) {
          case Access::Stream:
          case Access::Held: return base + j;
          case Access::Splat: return base;
          case Access::Pattern: return base + j % ip.period;
          case Access::Gather: return base + block_offset(j, q);
          case Access::Strided: return base + j * ip.row_stride[q];
        }
        return std::int64_t{-1};
      };
      // A held row is the same for every iteration of the innermost outer
      // loop, and its registers cover whole vectors of the row.
      for (std::size_t q = 0; q < inputs; ++q) {
        if (ip.access[q] != Access::Held) continue;
        FUZZ_CHECK(ip.outer.size() >= 2 && ip.outer.back().in[q] == 0, ictx + ": a held input moves in the innermost loop");
        FUZZ_CHECK(ip.held_vectors == ip.row / ip.lanes && ip.main_trips == 0, ictx + ": a held row is not unrolled whole");
      }
      std::vector<std::int64_t> at(inputs);
      nest(ip.outer, 0, zero, 0, [&](const std::vector<std::int64_t>& base, std::int64_t oo) {
        for (std::int64_t j = 0; j < ip.row; ++j) {
          for (std::size_t q = 0; q < inputs; ++q) at[q] = index(ip.access[q], base[q], j, q);
          record(got, k, ictx, counts, oo + j, at);
        }
      });
      compare(got, want, k, ictx);
    }
  }

  // And the emitter takes it.
  bool small = counts_fit && p.out_numel <= (std::int64_t{1} << 40);
  for (std::int64_t c : counts) small = small && c <= (std::int64_t{1} << 40);
  if (!emit || !small) return 0;  // above the default max_elements: validate_spec rejects it
  // Beside it, the same kernel named like a SIMD wrapper (read last, so that
  // older inputs keep their meaning): the generated code calls the wrappers
  // through their alias (v::add_f32), so the name changes nothing else.
  const std::vector<std::string>& wrappers = bcastgen::fuzz::wrapper_names();
  KernelSpec named = k;
  named.name = wrappers[in.pick(wrappers.size())];
  try {
    Spec spec;
    spec.ns = "fuzz";
    spec.isas = opt.isas;
    spec.stream_threshold_bytes = opt.stream_threshold_bytes;
    spec.kernels = {k, named};
    validate_spec(spec, "fuzz.yaml");
    GenerateOptions go;
    go.stem = "fuzz";
    const GeneratedFiles g = generate(spec, go);
    FUZZ_CHECK(g.files.count("fuzz.cpp") == 1, ctx + ": no source");
    // The wrapper's name is never called unqualified: each `name(` is the
    // kernel's own definition, or a qualified call of it or of the wrapper.
    const std::string& cpp = g.files.at("fuzz.cpp");
    const std::string call = named.name + "(";
    for (std::size_t at = cpp.find(call); at != std::string::npos; at = cpp.find(call, at + 1)) {
      const bool qualified = at >= 2 && cpp.compare(at - 2, 2, "::") == 0;
      const bool defined = at >= 5 && cpp.compare(at - 5, 5, "void ") == 0;
      const bool part_of_a_name = at > 0 && (std::isalnum(static_cast<unsigned char>(cpp[at - 1])) || cpp[at - 1] == '_');
      FUZZ_CHECK(qualified || defined || part_of_a_name,
                 ctx + ": kernel '" + named.name + "': an unqualified call of " + named.name + " at offset " +
                     std::to_string(at) + ": " + cpp.substr(at < 40 ? 0 : at - 40, 80));
    }
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, ctx + ": generate failed: " + e.what());
  }
  return 0;
}
