// Fuzz target: the planner (gen::plan_kernel). A small reference
// interpreter runs the plan — the coalesced nest KernelPlan::loops, and per
// ISA the IsaPlan's outer loops around a row whose operands are read per
// their Access (Stream: base + j, Splat: base, Pattern: base + j % period,
// Gather: base + the digits of j in the fused block times its strides) —
// and records, for every output element, which a and b elements it reads.
// That must equal the rule engine's mapping (sum of index x broadcast
// stride, from broadcast_shapes / broadcast_to), every output element
// written exactly once. Also checked: tails add up (main trips x step +
// tail vectors x lanes + tail lanes = row), a pattern's registers hold whole
// periods and the main loop whole patterns, streaming stores only on
// vector-aligned rows of big enough outputs, and the split loop is every
// variant's outermost loop. One accepted kernel in 8 is also emitted
// (gen::generate), which must not fail.
#include <algorithm>
#include <string>
#include <vector>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "fuzz_common.h"

namespace {

using namespace bcastgen;
using namespace bcastgen::gen;
using bcastgen::fuzz::Bytes;
using bcastgen::fuzz::shape_text;

constexpr std::int64_t kMaxInterpreted = 1 << 12;  // elements; bigger plans get the structural checks only

struct Mapping {
  std::vector<std::int64_t> a, b;  // per output element; -1: not written
  std::vector<int> writes;
};

// Visits a loop nest: `body(oa, ob, oo)` at each point, from base offsets.
template <class Body>
void nest(const std::vector<Loop>& loops, std::size_t k, std::int64_t oa, std::int64_t ob, std::int64_t oo,
          Body&& body) {
  if (k == loops.size()) {
    body(oa, ob, oo);
    return;
  }
  const Loop& l = loops[k];
  for (std::int64_t i = 0; i < l.extent; ++i) nest(loops, k + 1, oa + i * l.a, ob + i * l.b, oo + i * l.out, body);
}

std::string ctx_of(const KernelSpec& k) {
  return std::string(op_name(k.op)) + " " + dtype_name(k.dtype) + " " +
         (k.op == Op::Broadcast ? std::string("mode ") + mode_name(k.mode) : std::string("rule ") + rule_name(k.rule)) +
         " axis " + std::to_string(k.axis) + " mapping " + shape_text(k.axes_mapping) + " A=" + shape_text(k.a) +
         " B=" + shape_text(k.b);
}

void record(Mapping& m, const std::string& ctx, std::int64_t na, std::int64_t nb, bool has_b, std::int64_t oo,
            std::int64_t ia, std::int64_t ib) {
  const auto n = static_cast<std::int64_t>(m.writes.size());
  FUZZ_CHECK(oo >= 0 && oo < n, ctx + ": writes out[" + std::to_string(oo) + "] of " + std::to_string(n));
  FUZZ_CHECK(ia >= 0 && ia < na, ctx + ": reads a[" + std::to_string(ia) + "] of " + std::to_string(na));
  if (has_b) FUZZ_CHECK(ib >= 0 && ib < nb, ctx + ": reads b[" + std::to_string(ib) + "] of " + std::to_string(nb));
  const auto o = static_cast<std::size_t>(oo);
  ++m.writes[o];
  m.a[o] = ia;
  m.b[o] = has_b ? ib : 0;
}

void compare(const Mapping& got, const Mapping& want, const std::string& ctx) {
  for (std::size_t i = 0; i < want.writes.size(); ++i) {
    FUZZ_CHECK(got.writes[i] == 1, ctx + ": out[" + std::to_string(i) + "] written " + std::to_string(got.writes[i]) +
                                       " times");
    FUZZ_CHECK(got.a[i] == want.a[i], ctx + ": out[" + std::to_string(i) + "] reads a[" + std::to_string(got.a[i]) +
                                          "], the rule says a[" + std::to_string(want.a[i]) + "]");
    FUZZ_CHECK(got.b[i] == want.b[i], ctx + ": out[" + std::to_string(i) + "] reads b[" + std::to_string(got.b[i]) +
                                          "], the rule says b[" + std::to_string(want.b[i]) + "]");
  }
}

void check_isa_structure(const KernelPlan& p, const IsaPlan& ip, const std::string& ctx, const PlanOptions& opt) {
  std::int64_t n = ip.row;
  for (const Loop& l : ip.outer) n *= l.extent;
  FUZZ_CHECK(n == p.out_numel, ctx + ": outer loops x row = " + std::to_string(n) + " elements");
  FUZZ_CHECK(ip.row >= 0, ctx + ": row");
  if (p.inner == InnerClass::Empty) {
    FUZZ_CHECK(ip.row == 0 && ip.outer.empty(), ctx + ": an empty kernel does nothing");
    return;
  }
  if (!ip.vector) {
    FUZZ_CHECK(ip.a != Access::Pattern && ip.b != Access::Pattern, ctx + ": a pattern on a scalar loop");
    return;
  }
  FUZZ_CHECK(ip.isa != Isa::Scalar, ctx + ": vector code for the scalar ISA");
  FUZZ_CHECK(ip.lanes >= 1 && ip.unroll >= 1 && ip.step == static_cast<std::int64_t>(ip.lanes) * ip.unroll,
             ctx + ": step = lanes x unroll");
  FUZZ_CHECK(ip.main_trips * ip.step + static_cast<std::int64_t>(ip.tail_vectors) * ip.lanes + ip.tail_lanes == ip.row,
             ctx + ": main + tail vectors + tail lanes = row");
  FUZZ_CHECK(ip.tail_lanes >= 0 && ip.tail_lanes < ip.lanes, ctx + ": tail lanes < lanes");
  if (!ip.block.empty()) {
    // A gathered block: short rows fused, every operand within one vector.
    std::int64_t n = 1;
    for (const Loop& l : ip.block) n *= l.extent;
    FUZZ_CHECK(ip.block.size() >= 2 && n == ip.row, ctx + ": the block is its fused loops");
    FUZZ_CHECK(ip.block.back().extent < ip.lanes, ctx + ": a block of rows shorter than a vector");
    FUZZ_CHECK(ip.a != Access::Gather || (ip.a_span >= 1 && ip.a_span <= ip.lanes), ctx + ": a's span");
    FUZZ_CHECK(ip.b != Access::Gather || (ip.b_span >= 1 && ip.b_span <= ip.lanes), ctx + ": b's span");
    FUZZ_CHECK(!ip.stream, ctx + ": streaming a gathered block");
    return;
  }
  FUZZ_CHECK(ip.tail_vectors >= 0 && static_cast<std::int64_t>(ip.tail_vectors) * ip.lanes + ip.tail_lanes < ip.step,
             ctx + ": the tail is less than one step");
  const bool pattern = ip.a == Access::Pattern || ip.b == Access::Pattern;
  FUZZ_CHECK(pattern == (ip.period > 0), ctx + ": period iff pattern");
  if (pattern) {
    const std::int64_t held = static_cast<std::int64_t>(ip.pattern_vectors) * ip.lanes;
    FUZZ_CHECK(ip.pattern_vectors >= 1 && ip.pattern_vectors <= 16, ctx + ": pattern registers");
    FUZZ_CHECK(held % ip.period == 0, ctx + ": the pattern registers hold whole periods");
    FUZZ_CHECK(ip.step % held == 0, ctx + ": the main loop steps by whole patterns");
    FUZZ_CHECK(ip.row % ip.period == 0, ctx + ": the row holds whole periods");
  }
  if (ip.stream) {
    FUZZ_CHECK(p.footprint_bytes >= opt.stream_threshold_bytes, ctx + ": streaming below the threshold");
    FUZZ_CHECK(p.out_dtype == p.spec.dtype, ctx + ": streaming with a different output type");
    const std::int64_t vbytes = static_cast<std::int64_t>(ip.lanes) * dtype_size(p.spec.dtype);
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

}  // namespace

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  if (size > 512) return 0;
  Bytes in(data, size);
  KernelSpec k;
  k.name = "k";
  k.op = kAllOps[in.pick(std::size(kAllOps))];
  std::vector<DType> dtypes;
  for (DType t : kAllDTypes) {
    if (op_supports(k.op, t)) dtypes.push_back(t);
  }
  k.dtype = dtypes[in.pick(dtypes.size())];
  const Rule rules[] = {Rule::None, Rule::Numpy, Rule::Pdpd, Rule::Paddle};
  const BroadcastMode modes[] = {BroadcastMode::Numpy, BroadcastMode::Explicit, BroadcastMode::Bidirectional,
                                 BroadcastMode::Pdpd};
  k.rule = in.pick_from(rules);
  k.mode = in.pick_from(modes);
  k.a = decode_shape(in);
  k.b = in.pick(4) == 0 ? k.a : decode_shape(in);  // often equal: dense kernels
  if (in.flag()) {  // b from a's dims with some 1s: shapes that broadcast
    k.b = k.a;
    for (auto& d : k.b) d = in.flag() ? 1 : d;
    k.b.erase(k.b.begin(), k.b.begin() + static_cast<long>(in.pick(k.b.size() + 1)));
  }
  k.axis = static_cast<std::int64_t>(in.pick(8)) - 1;
  for (std::size_t i = 0, t = in.pick(2); i < k.a.size(); ++i, t += 1 + in.pick(2)) {
    k.axes_mapping.push_back(static_cast<std::int64_t>(t));
  }
  PlanOptions opt;
  for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Scalar}) {
    if (in.u8() % 4 != 0) opt.isas.push_back(isa);
  }
  if (opt.isas.empty()) opt.isas.push_back(Isa::Avx2);
  const int unrolls[] = {4, 4, 1, 2, 8};
  opt.unroll = in.pick_from(unrolls);
  const std::int64_t thresholds[] = {40 << 20, 0, 64, 4096};
  opt.stream_threshold_bytes = in.pick_from(thresholds);
  const std::int64_t blocks[] = {16384, 256, 1024, 1 << 20};
  opt.max_block_elements = in.pick_from(blocks);
  const bool emit = in.u8() % 8 == 0;  // emitting is slow (templates): one input in 8
  const std::string ctx = ctx_of(k);

  // The rule engine's verdict and mapping.
  BroadcastResult r;
  try {
    r = k.op == Op::Broadcast ? broadcast_to(k.mode, k.a, k.b, k.axis, k.axes_mapping)
                              : broadcast_shapes(k.rule, k.a, k.b, k.axis);
  } catch (const Error&) {
    try {
      plan_kernel(k, opt);
    } catch (const Error&) {
      return 0;  // both reject it
    }
    FUZZ_CHECK(false, ctx + ": the planner accepts what the rule engine rejects");
  }
  const std::int64_t out_numel = checked_numel(r.out);  // checked by the rule engine
  std::int64_t out_bytes = 0;
  const bool bytes_overflow =
      __builtin_mul_overflow(out_numel, dtype_size(result_dtype(k.op, k.dtype)), &out_bytes);
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
  FUZZ_CHECK(p.out_numel == checked_numel(r.out), ctx + ": out_numel");
  FUZZ_CHECK(p.out_bytes == p.out_numel * dtype_size(p.out_dtype), ctx + ": out_bytes");
  FUZZ_CHECK(p.isas.size() == opt.isas.size(), ctx + ": one variant per ISA");
  (void)describe_loops(p, "  ");

  // The split loop is every variant's outermost loop.
  if (p.split) {
    FUZZ_CHECK(!p.loops.empty() && p.outer_extent == p.loops[0].extent, ctx + ": split extent");
    for (const IsaPlan& ip : p.isas) {
      FUZZ_CHECK(!ip.outer.empty(), ctx + ": a split kernel whose variant has no outer loop");
      const Loop& o = ip.outer[0];
      const Loop& s = p.loops[0];
      FUZZ_CHECK(o.extent == s.extent && o.a == s.a && o.b == s.b && o.out == s.out,
                 ctx + ": a variant's outermost loop is not the split loop");
    }
  } else {
    FUZZ_CHECK(p.outer_extent == 1, ctx + ": outer_extent of a kernel that is not split");
  }
  for (std::size_t i = 0; i < p.isas.size(); ++i) {
    FUZZ_CHECK(p.isas[i].isa == opt.isas[i], ctx + ": ISA order");
    check_isa_structure(p, p.isas[i], ctx + " on " + isa_name(p.isas[i].isa), opt);
    (void)describe_isa(p, p.isas[i]);
  }

  // Element counts of the operands (they may not fit when the output is empty).
  std::int64_t na = 1, nb = 1;
  bool counts_fit = true;
  for (std::int64_t d : k.a) counts_fit = counts_fit && !__builtin_mul_overflow(na, d, &na);
  for (std::int64_t d : k.b) counts_fit = counts_fit && !__builtin_mul_overflow(nb, d, &nb);

  if (p.out_numel <= kMaxInterpreted && counts_fit) {
    const bool has_b = k.op != Op::Broadcast;
    const auto n = static_cast<std::size_t>(p.out_numel);
    // The rule engine's per-element mapping.
    Mapping want{std::vector<std::int64_t>(n), std::vector<std::int64_t>(n), std::vector<int>(n, 1)};
    {
      Shape idx(r.out.size(), 0);
      for (std::size_t i = 0; i < n; ++i) {
        std::int64_t oa = 0, ob = 0;
        for (std::size_t d = 0; d < idx.size(); ++d) {
          oa += idx[d] * r.a_strides[d];
          ob += idx[d] * r.b_strides[d];
        }
        want.a[i] = oa;
        want.b[i] = has_b ? ob : 0;
        for (std::size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < r.out[d]) break;
          idx[d] = 0;
        }
      }
    }
    auto fresh = [&] {
      return Mapping{std::vector<std::int64_t>(n, -1), std::vector<std::int64_t>(n, -1), std::vector<int>(n, 0)};
    };
    // The coalesced nest.
    if (p.inner != InnerClass::Empty) {
      Mapping got = fresh();
      const std::string lctx = ctx + " (loops)";
      nest(p.loops, 0, 0, 0, 0, [&](std::int64_t oa, std::int64_t ob, std::int64_t oo) {
        record(got, lctx, na, nb, has_b, oo, oa, ob);
      });
      compare(got, want, lctx);
    }
    // Each variant: outer loops, then the row per the access modes.
    for (const IsaPlan& ip : p.isas) {
      const std::string ictx = ctx + " on " + isa_name(ip.isa);
      Mapping got = fresh();
      // A gathered block's element j: its mixed-radix digits times the strides.
      auto block_offset = [&](std::int64_t j, std::int64_t Loop::*stride) {
        std::int64_t off = 0;
        for (std::size_t f = ip.block.size(); f-- > 0;) {
          off += (j % ip.block[f].extent) * (ip.block[f].*stride);
          j /= ip.block[f].extent;
        }
        return off;
      };
      auto index = [&](Access acc, std::int64_t base, std::int64_t j, std::int64_t Loop::*stride) {
        switch (acc) {
          case Access::Stream: return base + j;
          case Access::Splat: return base;
          case Access::Pattern: return base + j % ip.period;
          case Access::Gather: return base + block_offset(j, stride);
        }
        return std::int64_t{-1};
      };
      nest(ip.outer, 0, 0, 0, 0, [&](std::int64_t oa, std::int64_t ob, std::int64_t oo) {
        for (std::int64_t j = 0; j < ip.row; ++j) {
          record(got, ictx, na, nb, has_b, oo + j, index(ip.a, oa, j, &Loop::a), index(ip.b, ob, j, &Loop::b));
        }
      });
      compare(got, want, ictx);
    }
  }

  // And the emitter takes it.
  if (!emit || !counts_fit || p.out_numel > (std::int64_t{1} << 40) || na > (std::int64_t{1} << 40) ||
      nb > (std::int64_t{1} << 40)) {
    return 0;  // above the default max_elements: validate_spec rejects it
  }
  try {
    Spec spec;
    spec.ns = "fuzz";
    spec.isas = opt.isas;
    spec.stream_threshold_bytes = opt.stream_threshold_bytes;
    spec.kernels.push_back(k);
    GenerateOptions go;
    go.stem = "fuzz";
    const GeneratedFiles g = generate(spec, go);
    FUZZ_CHECK(g.files.count("fuzz.cpp") == 1, ctx + ": no source");
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, ctx + ": generate failed: " + e.what());
  }
  return 0;
}
