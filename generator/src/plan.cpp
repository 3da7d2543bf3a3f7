#include "bcastgen/gen/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace bcastgen::gen {

const char* inner_class_name(InnerClass c) {
  switch (c) {
    case InnerClass::VectorVector: return "vector-vector";
    case InnerClass::VectorScalar: return "vector-scalar";
    case InnerClass::ScalarVector: return "scalar-vector";
    case InnerClass::Repeat: return "repeat";
    case InnerClass::Copy: return "copy";
    case InnerClass::Fill: return "fill";
    case InnerClass::Empty: return "empty";
  }
  return "?";
}

const char* access_name(Access a) {
  switch (a) {
    case Access::Stream: return "stream";
    case Access::Splat: return "splat";
    case Access::Pattern: return "pattern";
    case Access::Gather: return "gather";
  }
  return "?";
}

namespace {

constexpr int kMaxPatternVectors = 16;  // registers a repeating operand may occupy

Access access_of(std::int64_t inner_stride) { return inner_stride == 0 ? Access::Splat : Access::Stream; }

InnerClass classify(const KernelPlan& p) {
  if (p.out_numel == 0) return InnerClass::Empty;
  const bool broadcast = p.spec.op == Op::Broadcast;
  if (p.loops.empty()) return broadcast ? InnerClass::Copy : InnerClass::VectorVector;
  const Loop& in = p.loops.back();
  if (broadcast) return in.a == 0 ? InnerClass::Fill : InnerClass::Copy;
  if (in.a != 0 && in.b != 0) return InnerClass::VectorVector;
  return in.a != 0 ? InnerClass::VectorScalar : InnerClass::ScalarVector;
}

// The last two loops [M, P] where one operand repeats with period P while
// the others are dense across both: they fuse into one row of M*P elements.
// Returns which operand repeats ('a' or 'b'), or 0.
char repeating_operand(const KernelPlan& p) {
  if (p.loops.size() < 2) return 0;
  const Loop& o = p.loops[p.loops.size() - 2];
  const Loop& in = p.loops.back();
  const std::int64_t P = in.extent;
  auto dense = [&](std::int64_t so, std::int64_t si) { return si == 1 && so == P; };
  auto repeats = [&](std::int64_t so, std::int64_t si) { return si == 1 && so == 0; };
  if (!dense(o.out, in.out)) return 0;
  const bool broadcast = p.spec.op == Op::Broadcast;
  if (repeats(o.a, in.a) && (broadcast || dense(o.b, in.b))) return 'a';
  if (!broadcast && repeats(o.b, in.b) && dense(o.a, in.a)) return 'b';
  return 0;
}

constexpr int kMaxBlockVectors = 8;  // vectors of output in one gathered block

// Elements an operand reads across the loops `block`: 1 + sum (extent-1) x stride.
std::int64_t span_of(const std::vector<Loop>& block, std::int64_t Loop::*stride) {
  std::int64_t span = 1;
  for (const Loop& l : block) span += (l.extent - 1) * (l.*stride);
  return span;
}

// How an operand reads a gathered block: Splat if it does not move in it,
// Stream if it moves with the output (dense), else Gather.
Access block_access(const std::vector<Loop>& block, std::int64_t Loop::*stride) {
  bool still = true, dense = true;
  for (const Loop& l : block) {
    still = still && l.*stride == 0;
    dense = dense && l.*stride == l.out;
  }
  return still ? Access::Splat : dense ? Access::Stream : Access::Gather;
}

// Rows shorter than a vector: fuse the innermost loops into one block of at
// most kMaxBlockVectors vectors, as long as every operand either moves with
// the output or reads at most one vector's span, so that one (masked) load
// and a constant permute per vector build its lanes. Returns false when the
// rows are long enough, the ISA has no permutes, or nothing fuses.
bool plan_gather(const KernelPlan& p, IsaPlan& ip, const Vocabulary& voc) {
  const IsaVocabulary* iv = voc.isa(ip.isa);
  const TypeVocabulary* tv = voc.type(ip.isa, p.spec.dtype);
  if (p.loops.size() < 2 || p.loops.back().extent >= ip.lanes) return false;
  if (iv->index_const.empty() || iv->mask_const.empty() || tv->permute.empty() || tv->load_tail.empty() ||
      tv->store_tail.empty() || p.out_dtype != p.spec.dtype) {
    return false;
  }
  const bool broadcast = p.spec.op == Op::Broadcast;
  auto fits = [&](const std::vector<Loop>& block) {
    std::int64_t n = 1;
    for (const Loop& l : block) n *= l.extent;
    if (n > static_cast<std::int64_t>(kMaxBlockVectors) * ip.lanes) return false;
    for (auto stride : {&Loop::a, &Loop::b}) {
      if (broadcast && stride == &Loop::b) continue;
      if (block_access(block, stride) == Access::Gather && span_of(block, stride) > ip.lanes) return false;
    }
    return true;
  };
  std::vector<Loop> block = {p.loops.back()};
  for (std::size_t d = p.loops.size() - 1; d-- > 0;) {
    std::vector<Loop> wider = block;
    wider.insert(wider.begin(), p.loops[d]);
    if (!fits(wider)) break;
    block = std::move(wider);
  }
  if (block.size() < 2) return false;
  ip.block = block;
  ip.outer.assign(p.loops.begin(), p.loops.end() - static_cast<std::ptrdiff_t>(block.size()));
  ip.row = 1;
  for (const Loop& l : block) ip.row *= l.extent;
  ip.a = block_access(block, &Loop::a);
  ip.b = broadcast ? Access::Stream : block_access(block, &Loop::b);
  ip.a_span = span_of(block, &Loop::a);
  ip.b_span = broadcast ? 0 : span_of(block, &Loop::b);
  ip.unroll = 1;
  ip.step = ip.lanes;
  ip.main_trips = 0;
  ip.tail_vectors = static_cast<int>(ip.row / ip.lanes);
  ip.tail_lanes = static_cast<int>(ip.row % ip.lanes);
  return true;
}

std::string describe_gather(const KernelPlan& p, const IsaPlan& ip) {
  const std::size_t first = p.loops.size() - ip.block.size();
  std::string extents;
  for (const Loop& l : ip.block) extents += (extents.empty() ? "" : " x ") + std::to_string(l.extent);
  std::string s = fmt::format(
      "rows of {} are shorter than {} lanes: loops i{}..i{} ({}) fuse into one block of {} = {} vector{} + {}",
      p.loops.back().extent, ip.lanes, first, p.loops.size() - 1, extents, ip.row, ip.tail_vectors,
      ip.tail_vectors == 1 ? "" : "s",
      ip.tail_lanes ? fmt::format("{} masked lanes", ip.tail_lanes) : std::string("no partial vector"));
  const bool broadcast = p.spec.op == Op::Broadcast;
  const std::tuple<const char*, Access, std::int64_t> operands[] = {{broadcast ? "in" : "a", ip.a, ip.a_span},
                                                                      {"b", ip.b, ip.b_span}};
  for (const auto& [name, access, span] : operands) {
    if (access == Access::Gather) {
      s += fmt::format("; {} spans {} elements: one {}load, then a constant permute per vector", name, span,
                       span < ip.lanes ? "masked " : "");
    }
  }
  return s;
}

void settle_tail(IsaPlan& ip) {
  ip.step = static_cast<std::int64_t>(ip.lanes) * ip.unroll;
  ip.main_trips = ip.row / ip.step;
  const std::int64_t rest = ip.row % ip.step;
  ip.tail_vectors = static_cast<int>(rest / ip.lanes);
  ip.tail_lanes = static_cast<int>(rest % ip.lanes);
}

IsaPlan plan_isa(const KernelPlan& p, Isa isa, const PlanOptions& opt, const Vocabulary& voc) {
  IsaPlan ip;
  ip.isa = isa;
  ip.outer = p.loops;
  if (!ip.outer.empty()) {
    const Loop in = ip.outer.back();
    ip.outer.pop_back();
    ip.row = in.extent;
    ip.a = access_of(in.a);
    ip.b = access_of(in.b);
  }
  if (p.inner == InnerClass::Empty) {
    ip.outer.clear();
    ip.row = 0;
    ip.why = "the output has no elements: nothing to do";
    return ip;
  }
  const IsaVocabulary* iv = voc.isa(isa);
  const TypeVocabulary* tv = voc.type(isa, p.spec.dtype);
  const bool broadcast = p.spec.op == Op::Broadcast;
  const bool has_op = broadcast || voc.op(isa, p.spec.dtype, p.spec.op).has_value();
  if (isa == Isa::Scalar || !iv || !tv || !has_op) {
    ip.why = isa == Isa::Scalar ? "portable scalar loop"
                                : fmt::format("scalar loop compiled for {}: the vocabulary has no {} {} vector form",
                                              isa_name(isa), dtype_name(p.spec.dtype), op_name(p.spec.op));
    return ip;
  }
  ip.vector = true;
  ip.lanes = iv->bytes / dtype_size(p.spec.dtype);
  ip.unroll = opt.unroll;

  // A short row whose small operand repeats: fuse the last two loops and
  // keep the pattern in registers, instead of one short row per element.
  const char rep = repeating_operand(p);
  if (rep && p.loops.back().extent % ip.lanes != 0) {
    const std::int64_t P = p.loops.back().extent;
    const std::int64_t period_elems = std::lcm(P, static_cast<std::int64_t>(ip.lanes));
    const auto k = static_cast<int>(period_elems / ip.lanes);
    if (k <= kMaxPatternVectors) {
      const Loop fused_outer = ip.outer.back();
      ip.outer.pop_back();
      ip.row = fused_outer.extent * P;
      ip.period = P;
      ip.pattern_vectors = k;
      ip.a = rep == 'a' ? Access::Pattern : Access::Stream;
      ip.b = rep == 'b' ? Access::Pattern : Access::Stream;
      // The main loop steps by whole patterns, so vector i always meets pattern register i % k.
      ip.unroll = k * std::max(1, (opt.unroll + k / 2) / k);
    }
  }
  if (!ip.period && plan_gather(p, ip, voc)) {
    // No streaming stores: blocks this short end in a masked store every few vectors.
    ip.why = describe_gather(p, ip);
    return ip;
  }
  settle_tail(ip);

  // Streaming stores skip the cache for outputs too big to stay in it. Every
  // full-vector store must then be vector-aligned when the output is: the
  // rows must start at multiples of the vector width.
  const int out_size = dtype_size(p.out_dtype);
  bool rows_aligned = true;
  for (const Loop& l : ip.outer) rows_aligned = rows_aligned && (l.out * out_size) % iv->bytes == 0;
  ip.stream = p.footprint_bytes >= opt.stream_threshold_bytes && rows_aligned && p.out_dtype == p.spec.dtype;

  std::string tail = ip.tail_lanes == 0 ? "no partial vector"
                     : iv->mask_tail   ? fmt::format("a masked vector of {} lanes", ip.tail_lanes)
                                       : fmt::format("{} unrolled scalar elements", ip.tail_lanes);
  ip.why = fmt::format("{} lanes x unroll {} = {} elements per step; row {} = {} x {} + {} vectors + {}", ip.lanes,
                       ip.unroll, ip.step, ip.row, ip.main_trips, ip.step, ip.tail_vectors, tail);
  if (ip.period) {
    ip.why += fmt::format("; operand {} repeats every {} elements, held in {} registers", rep, ip.period,
                          ip.pattern_vectors);
  }
  if (ip.stream) ip.why += fmt::format("; streaming stores (footprint {} bytes >= threshold)", p.footprint_bytes);
  return ip;
}

// A block must hold whole main-loop steps of every ISA: steps are lanes x
// unroll (at most 64 x 4) or, for a repeating operand, lcm(period, lanes)
// times a factor of 1, 2 or 4, so 256 elements (periods) divide them all.
constexpr std::int64_t kBlockQuantum = 256;

// Cuts a kernel that is one long row, or one row of a repeating period,
// into [blocks][block] with a block that divides the row exactly, so that
// every trip count stays a constant and a thread pool still has a loop to
// split. Returns a note, or "" when it does not apply.
std::string block_single_row(KernelPlan& p, const PlanOptions& opt) {
  const bool repeat = p.inner == InnerClass::Repeat && p.loops.size() == 2;
  if (!(p.loops.size() == 1 || repeat)) return "";
  const std::int64_t period = repeat ? p.loops[1].extent : 1;
  const std::int64_t units = p.loops[0].extent;  // elements, or periods
  const std::int64_t max_units = std::max<std::int64_t>(kBlockQuantum, opt.max_block_elements / period);
  if (units % kBlockQuantum != 0 || units <= kBlockQuantum) return "";
  std::int64_t best = 0;
  for (std::int64_t b = kBlockQuantum; b <= max_units && b < units; b += kBlockQuantum) {
    if (units % b == 0) best = b;
  }
  if (best == 0) return "";
  const Loop row = p.loops[0];
  const Loop block_loop{units / best, row.a * best, row.b * best, row.out * best};
  const Loop in_block{best, row.a, row.b, row.out};
  p.loops.erase(p.loops.begin());
  p.loops.insert(p.loops.begin(), {block_loop, in_block});
  return fmt::format("the row of {} {} is cut into {} blocks of {} so that it can be split", units,
                     repeat ? "periods" : "elements", units / best, best);
}

// Bytes of a, b and out, each once. It only decides streaming stores, so it
// saturates at INT64_MAX rather than failing: a and b may each be as big as
// the output, whose byte count alone is what must fit.
std::int64_t footprint_bytes(const KernelPlan& p) {
  const std::int64_t elem = dtype_size(p.spec.dtype);
  std::int64_t total = p.out_bytes;
  for (const Shape* s : {&p.spec.a, &p.spec.b}) {
    if (s == &p.spec.b && p.spec.op == Op::Broadcast) break;  // the target has no data
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(checked_numel(*s), elem, &bytes) || __builtin_add_overflow(total, bytes, &total)) {
      return std::numeric_limits<std::int64_t>::max();
    }
  }
  return total;
}

}  // namespace

KernelPlan plan_kernel(const KernelSpec& k, const PlanOptions& opt, const Vocabulary& voc) {
  KernelPlan p;
  p.spec = k;
  const bool broadcast = k.op == Op::Broadcast;
  p.shapes = broadcast ? broadcast_to(k.mode, k.a, k.b, k.axis, k.axes_mapping)
                       : broadcast_shapes(k.rule, k.a, k.b, k.axis);
  p.out_dtype = result_dtype(k.op, k.dtype);
  p.out_numel = checked_numel(p.shapes.out);
  p.out_bytes = checked_mul(p.out_numel, dtype_size(p.out_dtype), "output bytes");
  p.footprint_bytes = footprint_bytes(p);

  BroadcastResult for_loops = p.shapes;
  // The Broadcast op's target has no data: coalesce as if it were the output.
  if (broadcast) for_loops.b_strides = contiguous_strides(p.shapes.out);
  const CoalescedLoops c = coalesce(for_loops);
  for (std::size_t i = 0; i < c.extents.size(); ++i) {
    p.loops.push_back({c.extents[i], c.a_strides[i], broadcast ? 0 : c.b_strides[i], c.out_strides[i]});
  }
  p.inner = classify(p);
  if (p.inner != InnerClass::Empty && repeating_operand(p)) p.inner = InnerClass::Repeat;
  auto plan_isas = [&] {
    p.isas.clear();
    for (Isa isa : opt.isas) p.isas.push_back(plan_isa(p, isa, opt, voc));
    // The split loop is loops[0] if every variant kept it as its outermost
    // loop (fusing a repeating period may have absorbed it).
    p.split = p.loops.size() >= 2;
    for (const IsaPlan& ip : p.isas) {
      p.split = p.split && !ip.outer.empty() && ip.outer.front().extent == p.loops.front().extent;
    }
  };
  plan_isas();
  std::string blocked;
  if (!p.split && p.inner != InnerClass::Empty) {
    blocked = block_single_row(p, opt);
    if (!blocked.empty()) plan_isas();
  }
  p.outer_extent = p.split ? p.loops.front().extent : 1;
  p.split_why = p.split ? fmt::format("loop i0 ({} iterations) can be split across threads", p.outer_extent)
                        : "one piece: the kernel has no outer loop common to all its variants";
  if (!blocked.empty()) p.split_why = blocked + "; " + p.split_why;
  return p;
}

std::string describe_loops(const KernelPlan& p, const std::string& indent) {
  if (p.inner == InnerClass::Empty) return indent + "(no loops: the output has no elements)\n";
  if (p.loops.empty()) return indent + "(no loops: one element)\n";
  const bool broadcast = p.spec.op == Op::Broadcast;
  std::string s = indent + fmt::format("{:<6}{:>12}{:>12}", "loop", "extent", broadcast ? "in" : "a");
  if (!broadcast) s += fmt::format("{:>12}", "b");
  s += fmt::format("{:>12}\n", "out");
  for (std::size_t i = 0; i < p.loops.size(); ++i) {
    const Loop& l = p.loops[i];
    s += indent + fmt::format("{:<6}{:>12}{:>12}", fmt::format("i{}", i), l.extent, l.a);
    if (!broadcast) s += fmt::format("{:>12}", l.b);
    s += fmt::format("{:>12}", l.out);
    if (i + 1 == p.loops.size()) s += fmt::format("   inner: {}", inner_class_name(p.inner));
    s += "\n";
  }
  return s;
}

std::string describe_isa(const KernelPlan&, const IsaPlan& ip) { return ip.why; }

}  // namespace bcastgen::gen
