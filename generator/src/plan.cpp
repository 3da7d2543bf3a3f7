#include "bcastgen/gen/plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "bcastgen/gen/expr.h"
#include "rows.h"

namespace bcastgen::gen {

const char* access_name(Access a) {
  switch (a) {
    case Access::Stream: return "stream";
    case Access::Splat: return "splat";
    case Access::Pattern: return "pattern";
    case Access::Gather: return "gather";
    case Access::Held: return "held";
    case Access::Strided: return "strided";
  }
  return "?";
}

const char* operand_class(Access a) {
  switch (a) {
    case Access::Stream: return "contiguous";
    case Access::Splat: return "scalar";
    case Access::Pattern: return "repeat";
    case Access::Gather: return "gathered";
    case Access::Held: return "contiguous";  // over the nest; held is how a variant reads it
    case Access::Strided: return "strided";
  }
  return "?";
}

namespace {

constexpr int kMaxPatternVectors = 16;  // registers a repeating operand may occupy
constexpr std::int64_t kCacheLineBytes = 64;

std::size_t input_count(const KernelPlan& p) { return p.spec.inputs.size(); }

// The last two loops [M, P] where some inputs repeat with period P (inner
// stride 1, outer 0) while every other input is dense across both or still
// in both: they fuse into one row of M*P elements. Returns which inputs
// repeat (empty: the nest has no such pair).
std::vector<bool> repeating_inputs(const KernelPlan& p) {
  if (p.loops.size() < 2) return {};
  const Loop& o = p.loops[p.loops.size() - 2];
  const Loop& in = p.loops.back();
  const std::int64_t P = in.extent;
  if (!(in.out == 1 && o.out == P)) return {};
  std::vector<bool> repeats(input_count(p), false);
  bool any = false;
  for (std::size_t k = 0; k < repeats.size(); ++k) {
    const std::int64_t so = o.in[k], si = in.in[k];
    const bool dense = si == 1 && so == P, still = si == 0 && so == 0;
    repeats[k] = si == 1 && so == 0;
    if (!(dense || still || repeats[k])) return {};
    any = any || repeats[k];
  }
  return any ? repeats : std::vector<bool>{};
}

constexpr int kMaxBlockVectors = 8;  // vectors of output in one gathered block

// Elements input k reads across the loops `block`: 1 + sum (extent-1) x stride.
std::int64_t span_of(const std::vector<Loop>& block, std::size_t k) {
  std::int64_t span = 1;
  for (const Loop& l : block) span += (l.extent - 1) * l.in[k];
  return span;
}

// How input k reads a gathered block: Splat if it does not move in it,
// Stream if it moves with the output (dense), else Gather.
Access block_access(const std::vector<Loop>& block, std::size_t k) {
  bool still = true, dense = true;
  for (const Loop& l : block) {
    still = still && l.in[k] == 0;
    dense = dense && l.in[k] == l.out;
  }
  return still ? Access::Splat : dense ? Access::Stream : Access::Gather;
}

// How an input with element stride `s` along the row reads it.
Access row_access(std::int64_t s) { return s == 0 ? Access::Splat : s == 1 ? Access::Stream : Access::Strided; }

// Why a variant whose row reads an input at a stride (a transpose, a
// stepped slice) stays a scalar loop: the vocabulary has no strided load for
// that input's type on this ISA. "" when every strided input has one.
std::string strided_blocker(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc) {
  for (std::size_t k = 0; k < ip.access.size(); ++k) {
    if (ip.access[k] != Access::Strided) continue;
    const TypeVocabulary* t = voc.type(ip.isa, p.spec.inputs[k].dtype);
    if (t == nullptr || t->load_strided.empty()) {
      return fmt::format("{} is read with stride {} along the row, and the vocabulary has no strided load of {}",
                         p.spec.inputs[k].name, ip.row_stride[k], dtype_name(p.spec.inputs[k].dtype));
    }
    // The gather's lane offsets are 32-bit: lanes x stride must fit.
    const std::int64_t lanes = isa_info(ip.isa).vector_bytes / dtype_size(p.spec.inputs[k].dtype);
    const std::int64_t s = ip.row_stride[k];
    if (s < -(INT32_MAX / lanes) || s > INT32_MAX / lanes) {
      return fmt::format("{} is read with stride {} along the row, beyond a gather's 32-bit offsets",
                         p.spec.inputs[k].name, s);
    }
  }
  return "";
}

// The DAG node as text, for reasons: "t3 = atan2(t1, t2) : f32".
std::string node_text(const KernelPlan& p, std::size_t i) {
  std::vector<std::string> names;
  for (const InputSpec& in : p.spec.inputs) names.push_back(in.name);
  return node_to_string(p.spec.expr, i, names);
}

// Whether every node of the DAG has a vector form on `isa` (or runs lane by
// lane, *lane_nodes), with the lanes of the narrowest number type (*lane:
// the output's type if it is one of them) and bools as compare results of
// the lanes; else why not, naming the node. Wider number types take several
// registers per vector (IsaPlan::parts); bools need a DAG of one width.
std::string vector_blocker(const KernelPlan& p, Isa isa, const Vocabulary& voc, DType* lane,
                           std::vector<std::size_t>* lane_nodes) {
  const ExprDag& d = p.spec.expr;
  std::set<DType> numbers;
  bool has_bools = false;
  for (const ExprNode& n : d.nodes) {
    if (n.dtype != DType::Bool) numbers.insert(n.dtype);
    has_bools = has_bools || n.dtype == DType::Bool;
  }
  int narrow = 8, wide = 1;
  // Widths in registers: a 16-bit float's lane holds its f32 value, unless
  // the ISA has native 16-bit lanes (the vocabulary's lane_bytes).
  for (DType t : numbers) {
    narrow = std::min(narrow, voc.lane_bytes(isa, t));
    wide = std::max(wide, voc.lane_bytes(isa, t));
  }
  if (has_bools && !numbers.empty() && narrow != wide) {
    return "the expression mixes element widths and has bools, which are compare results of one width";
  }
  *lane = DType::Bool;
  if (numbers.count(p.out_dtype) && voc.lane_bytes(isa, p.out_dtype) == narrow) {
    *lane = p.out_dtype;
  } else {
    for (DType t : numbers) {
      if (voc.lane_bytes(isa, t) == narrow) {
        *lane = t;
        break;
      }
    }
  }
  const TypeVocabulary* tv = voc.type(isa, *lane);
  const IsaVocabulary* iv = voc.isa(isa);
  if (!tv || !iv) return fmt::format("the vocabulary has no {} vectors", dtype_name(*lane));
  for (DType t : numbers) {
    const TypeVocabulary* other = voc.type(isa, t);
    if (!other) return fmt::format("the vocabulary has no {} vectors", dtype_name(t));
    // A bool is one compare result, whichever of these types produced or consumes it.
    if (has_bools && other->cmp != tv->cmp) {
      return fmt::format("bools would be compare results of {} and of {} lanes, of different register types",
                         dtype_name(*lane), dtype_name(t));
    }
  }
  const bool cmp_bools = *lane != DType::Bool;  // bools live as compare results of the lanes
  // Under bool lanes bools are byte vectors, but a comparison yields a
  // compare result: it can only be stored, not fed to another node.
  for (std::size_t i = 0; !cmp_bools && i < d.nodes.size(); ++i) {
    if (d.nodes[i].kind == ExprKind::Expand) continue;  // the same value as its operand
    for (std::size_t a : d.nodes[i].args) {
      const ExprNode& arg = d.nodes[expand_operand(d, a)];
      if (arg.kind == ExprKind::Binary && op_kind(arg.op) == OpKind::Comparison) {
        return fmt::format("node {} feeds a comparison's result to another node", node_text(p, i));
      }
    }
  }
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const ExprNode& n = d.nodes[i];
    const bool is_cmp = cmp_bools && n.dtype == DType::Bool;
    auto none = [&] { return fmt::format("node {} has no {} vector form", node_text(p, i), isa_name(isa)); };
    // A number node over numbers without a vector form runs lane by lane
    // inside the vector loop; the rest of the kernel stays in vectors.
    auto by_lanes = [&] {
      for (std::size_t a : n.args) {
        if (d.nodes[a].dtype == DType::Bool) return false;
      }
      if (n.dtype == DType::Bool) return false;
      lane_nodes->push_back(i);
      return true;
    };
    switch (n.kind) {
      case ExprKind::Input:
        if (is_cmp && (tv->load_cmp.empty() || tv->splat_cmp.empty() ||
                       (isa_info(isa).mask_tail && tv->load_cmp_tail.empty()))) {
          return none();
        }
        break;
      case ExprKind::Literal:
        if (is_cmp) return none();
        break;
      case ExprKind::Reduce: return none();  // row kernels: rows.cpp
      case ExprKind::Binary: {
        const DType t = d.nodes[n.args[0]].dtype;
        if (cmp_bools && t == DType::Bool) return none();
        if (!voc.op(isa, t, n.op) && !by_lanes()) return none();
        break;
      }
      case ExprKind::Unary: {
        // Keyed by the operand's dtype: isnan and the like give a compare result of it.
        const DType t = d.nodes[n.args[0]].dtype;
        if (is_cmp != unary_info(n.unary).gives_bool) return none();
        if (!voc.unary(isa, t, n.unary) && !by_lanes()) return none();
        break;
      }
      case ExprKind::Where: {
        const TypeVocabulary* tw = n.dtype == DType::Bool ? tv : voc.type(isa, n.dtype);
        if (!cmp_bools || tw->select.empty()) return none();
        break;
      }
      case ExprKind::Expand: break;  // its operand's registers
      case ExprKind::Cast: {
        // Between numbers without a form: lane by lane (ops::cast).
        const DType from = d.nodes[n.args[0]].dtype;
        if (!voc.cast(isa, from, n.dtype) && !by_lanes()) return none();
        break;
      }
    }
  }
  return "";
}

// "; lane by lane (no avx512 vector form): node t2 = atan2(t0, t1) : f32", or "".
std::string lane_nodes_note(const KernelPlan& p, const IsaPlan& ip) {
  std::string s;
  for (std::size_t i : ip.lane_nodes) s += (s.empty() ? "" : ", ") + std::string("node ") + node_text(p, i);
  if (s.empty()) return "";
  return fmt::format("; lane by lane (no {} vector form): {}", isa_name(ip.isa), s);
}

// Max and min nodes with a literal operand n, never NaN, that the
// vocabulary's literal forms compute. x86's max(a, b) is a > b ? a : b: it
// returns b where either is NaN or both compare equal, as ops::maximum(a,
// b) does, except for a NaN a; so max(n, x) is one instruction. Written
// max(x, n), the operands swap when n is not a zero: equal operands are
// then the same bits. max(x, +0.0) and min(x, +0.0) (+0 for -0) have their
// own form; a -0.0 literal second keeps the NaN-propagating op.
std::vector<IsaPlan::LiteralMinMax> literal_minmax(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc) {
  const ExprDag& d = p.spec.expr;
  std::vector<IsaPlan::LiteralMinMax> found;
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const ExprNode& n = d.nodes[i];
    if (n.kind != ExprKind::Binary || (n.op != Op::Maximum && n.op != Op::Minimum)) continue;
    if (ip.by_lanes(i)) continue;
    const std::size_t a = expand_operand(d, n.args[0]), b = expand_operand(d, n.args[1]);
    const DType t = d.nodes[a].dtype;
    if (!dtype_info(t).is_float) continue;
    auto number = [&](std::size_t k) {
      return d.nodes[k].kind == ExprKind::Literal && !std::isnan(d.nodes[k].literal.f);
    };
    IsaPlan::LiteralMinMax m{i, LiteralForm::Number, a, b};
    if (number(a)) {
      // max(n, x) as written
    } else if (number(b) && d.nodes[b].literal.f != 0) {
      m = {i, LiteralForm::Number, b, a};
    } else if (number(b) && !std::signbit(d.nodes[b].literal.f)) {
      m = {i, LiteralForm::Zero, b, a};
    } else {
      continue;
    }
    if (voc.literal_op(ip.isa, t, n.op, m.form)) found.push_back(m);
  }
  return found;
}

// "; short max/min forms for a literal operand: node t2 = maximum(t0, t1) : f32", or "".
std::string literal_minmax_note(const KernelPlan& p, const IsaPlan& ip) {
  std::string s;
  for (const IsaPlan::LiteralMinMax& m : ip.literal_minmax) {
    s += (s.empty() ? "" : ", ") + std::string("node ") + node_text(p, m.node);
  }
  return s.empty() ? "" : "; short max/min forms for a literal operand: " + s;
}

// All inputs and the output hold lane elements (no bools beside numbers).
bool one_element_type(const KernelPlan& p, DType lane) {
  for (const InputSpec& in : p.spec.inputs) {
    if (in.dtype != lane) return false;
  }
  return p.out_dtype == lane;
}

// How many offsets in a line of `line` bytes the rows of the output start
// at (as far as the loops' extents reach): line / gcd(line, the loops'
// strides in bytes).
std::int64_t row_offsets_in_line(const KernelPlan& p, const IsaPlan& ip, int line) {
  std::int64_t g = line;
  for (const Loop& l : ip.outer) g = std::gcd(g, l.out * dtype_size(p.out_dtype));
  return line / g;
}

int max_parts(const IsaPlan& ip) { return ip.parts.empty() ? 1 : *std::max_element(ip.parts.begin(), ip.parts.end()); }

// "; lanes of u8: f32 nodes in 4 registers per vector" for a DAG of mixed widths, else "".
std::string parts_note(const KernelPlan& p, const IsaPlan& ip) {
  std::map<DType, int> wider;
  for (std::size_t i = 0; i < ip.parts.size(); ++i) {
    if (ip.parts[i] > 1) wider[p.spec.expr.nodes[i].dtype] = ip.parts[i];
  }
  std::string s;
  for (const auto& [t, n] : wider) {
    s += fmt::format("{}{} nodes in {} registers", s.empty() ? "" : ", ", dtype_name(t), n);
  }
  return s.empty() ? "" : fmt::format("; mixed widths in lanes of {}: {} per vector", dtype_name(ip.lane_dtype), s);
}

// The form that stores two adjacent vectors of the kernel's result as one
// (out_type's store_pair or stream_pair), or none where the vocabulary has
// none or the result takes a cheaper single store (its exact forms). The
// planner pairs patterns by it (asked before streaming is settled) and
// plan_root_stores takes it as the root's group store.
const Form& pair_store_form(const KernelPlan& p, const TypeVocabulary& t, bool streaming) {
  static const Form none;
  if (p.root_in_type && !(streaming ? t.stream_exact : t.store_exact).empty()) return none;
  if (p.root_nans_exact && !(streaming ? t.stream_nan_exact : t.store_nan_exact).empty()) return none;
  return streaming ? t.stream_pair : t.store_pair;
}

// The stores of one variant's root (IsaPlan::RootStores), plain or
// streaming. A bool root held as a compare result stores as bools; a bf16
// root whose lanes are bf16 values stores without rounding, one whose NaNs
// are bf16 NaNs rounds without the NaN fixup, where the vocabulary has
// those forms.
IsaPlan::RootStores root_stores(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming) {
  const ExprDag& d = p.spec.expr;
  const bool cmp = is_compare_result(d, d.root, ip.lane_dtype);
  const DType t = d.nodes[d.root].dtype;
  const TypeVocabulary* tv = voc.type(ip.isa, t == DType::Bool ? ip.lane_dtype : t);
  IsaPlan::RootStores s;
  if (tv == nullptr) return s;
  const bool grouped = ip.parts_of(d.root) == 1;
  if (cmp) {
    s.whole = tv->store_bool;
    s.partial = tv->store_bool_tail;
    if (grouped) s.group = tv->store_bool4;
    s.group_size = 4;
    return s;
  }
  const Form& exact = streaming ? tv->stream_exact : tv->store_exact;
  const Form& nan_exact = streaming ? tv->stream_nan_exact : tv->store_nan_exact;
  s.whole = p.root_in_type && !exact.empty()          ? exact
            : p.root_nans_exact && !nan_exact.empty() ? nan_exact
            : streaming                                ? tv->stream
                                                       : tv->store;
  s.partial_first = !tv->store_first.empty();
  s.partial = s.partial_first ? tv->store_first : tv->store_tail;
  if (grouped) s.group = pair_store_form(p, *tv, streaming);
  s.group_size = 2;
  return s;
}

// A row kernel's output stores through the vocabulary of row_store_dtype:
// f32, or the 16-bit type its store rounds to.
IsaPlan::RootStores row_root_stores(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming) {
  IsaPlan::RootStores s;
  const TypeVocabulary* tv = voc.type(ip.isa, row_store_dtype(*p.rows));
  if (tv == nullptr) return s;
  s.whole = streaming && !tv->stream.empty() ? tv->stream : tv->store;
  s.partial = tv->store_tail;
  return s;
}

void plan_root_stores(const KernelPlan& p, IsaPlan& ip, const Vocabulary& voc) {
  if (!ip.vector) return;
  const auto stores = p.rows ? row_root_stores : root_stores;
  ip.stores = stores(p, ip, voc, false);
  if (ip.stream) ip.streamed_stores = stores(p, ip, voc, true);
}

}  // namespace

bool is_compare_result(const ExprDag& d, std::size_t i, DType lane_dtype) {
  const ExprNode& n = d.nodes[expand_operand(d, i)];
  if (n.dtype != DType::Bool) return false;
  return lane_dtype != DType::Bool || (n.kind == ExprKind::Binary && op_kind(n.op) == OpKind::Comparison);
}

DType form_dtype(const ExprDag& d, std::size_t i, DType t, Isa isa, const Vocabulary& voc) {
  const bool held_as_f32 = voc.lane_bytes(isa, d.nodes[i].dtype) == dtype_lane_size(DType::F32);
  return i == d.root && is_half(d.nodes[i].dtype) && is_half(t) && held_as_f32 ? DType::F32 : t;
}

namespace {

// Per node, the vectors per call of an f32 math function in a grouped step
// of four (IsaPlan::math_pack): the vocabulary's math_pack for the ISA and
// the CPU kind, for a unary node with an ulp bound and an f32 vector form
// (form_dtype), of one register per vector and not lane by lane; else 1.
std::vector<int> math_packs(const KernelPlan& p, const IsaPlan& ip, CpuKind cpu, const Vocabulary& voc) {
  const ExprDag& d = p.spec.expr;
  std::vector<int> packs(d.nodes.size(), 1);
  const IsaVocabulary* iv = voc.isa(ip.isa);
  if (iv == nullptr) return packs;
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const ExprNode& n = d.nodes[i];
    if (n.kind != ExprKind::Unary || unary_info(n.unary).max_ulp == 0 || ip.by_lanes(i)) continue;
    if (ip.parts_of(i) != 1 || ip.parts_of(n.args[0]) != 1) continue;
    const DType form = form_dtype(d, i, d.nodes[n.args[0]].dtype, ip.isa, voc);
    if (form != DType::F32 || !voc.unary(ip.isa, form, n.unary).has_value()) continue;
    packs[i] = iv->math_pack_width(n.unary, cpu);
  }
  return packs;
}

// "; math functions take several of a step's vectors a call (...): t1 =
// fast_log(t0) : f32 takes 2 (zen4)" where a grouped step of four packs a
// math function (the kind named where its row of the vocabulary decided),
// else "".
std::string math_pack_note(const KernelPlan& p, const IsaPlan& ip, CpuKind cpu, const Vocabulary& voc) {
  if (ip.unroll != 4 || ip.interleave) return "";
  const IsaVocabulary& iv = *voc.isa(ip.isa);
  const auto on = iv.math_pack_on.find(cpu);
  std::string s;
  for (std::size_t i = 0; i < ip.math_pack.size(); ++i) {
    if (ip.math_pack[i] == 1) continue;
    const UnaryOp op = p.spec.expr.nodes[i].unary;
    const bool by_cpu = on != iv.math_pack_on.end() && on->second.count(op) != 0;
    s += fmt::format("{}{} takes {}{}", s.empty() ? "" : ", ", node_text(p, i), ip.math_pack[i],
                     by_cpu ? fmt::format(" ({})", cpu_kind_name(cpu)) : "");
  }
  return s.empty() ? "" : "; math functions take several of a step's vectors a call (simd/math_pack.inl): " + s;
}

// Rows shorter than a vector: fuse the innermost loops into one block of at
// most kMaxBlockVectors vectors, as long as every input either moves with
// the output or reads at most one vector's span, so that one (masked) load
// and a constant permute per vector build its lanes. Returns false when the
// rows are long enough, the ISA has no permutes, or nothing fuses.
bool plan_gather(const KernelPlan& p, IsaPlan& ip, const Vocabulary& voc) {
  const IsaVocabulary* iv = voc.isa(ip.isa);
  const TypeVocabulary* tv = voc.type(ip.isa, ip.lane_dtype);
  if (p.loops.size() < 2 || p.loops.back().extent >= ip.lanes) return false;
  if (iv->index_const.empty() || iv->mask_const.empty() || tv->permute.empty() || tv->load_tail.empty() ||
      tv->store_tail.empty() || !one_element_type(p, ip.lane_dtype) || max_parts(ip) > 1) {
    return false;
  }
  auto fits = [&](const std::vector<Loop>& block) {
    std::int64_t n = 1;
    for (const Loop& l : block) n *= l.extent;
    if (n > static_cast<std::int64_t>(kMaxBlockVectors) * ip.lanes) return false;
    for (std::size_t k = 0; k < input_count(p); ++k) {
      for (const Loop& l : block) {
        if (l.in[k] < 0) return false;  // (a reversing slice: its span counts down)
      }
      if (block_access(block, k) == Access::Gather && span_of(block, k) > ip.lanes) return false;
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
  ip.span.assign(input_count(p), 0);
  for (std::size_t k = 0; k < input_count(p); ++k) {
    ip.access[k] = block_access(block, k);
    ip.span[k] = span_of(block, k);
  }
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
  for (std::size_t k = 0; k < input_count(p); ++k) {
    if (ip.access[k] == Access::Gather) {
      s += fmt::format("; {} spans {} elements: one {}load, then a constant permute per vector",
                       p.spec.inputs[k].name, ip.span[k], ip.span[k] < ip.lanes ? "masked " : "");
    }
  }
  return s;
}

// Held rows take at most this share of the ISA's vector registers, so that
// a group of `unroll` vectors and its nodes keep the rest.
constexpr int kHeldRegisterShare = 4;  // 1/4: 8 of AVX-512's 32, 4 of AVX2's 16

// Inputs that the innermost outer loop does not move read the same row on
// every one of its iterations: hold that row in registers, loaded (and, for
// 16-bit floats, widened) once where it changes, instead of once per row.
// Holding needs the row unrolled whole, so that each vector of it has a
// register of its own: a row of at most the register budget. The innermost
// outer loop must not be the split loop, whose iterations are separate
// calls (nothing would be reused). Returns a note for `why`, or "".
std::string plan_held(const KernelPlan& p, IsaPlan& ip) {
  if (ip.outer.size() < 2 || ip.period || !ip.block.empty() || max_parts(ip) > 1 || ip.row < ip.lanes) return "";
  const Loop& inner = ip.outer.back();
  std::vector<std::size_t> held;
  for (std::size_t k = 0; k < input_count(p); ++k) {
    if (ip.access[k] == Access::Stream && inner.in[k] == 0) held.push_back(k);
  }
  const std::int64_t vectors = ip.row / ip.lanes;
  const std::int64_t budget = isa_info(ip.isa).vector_registers / kHeldRegisterShare;
  if (held.empty() || vectors * static_cast<std::int64_t>(held.size()) > budget) return "";
  ip.held_vectors = static_cast<int>(vectors);
  ip.main_trips = 0;
  ip.tail_vectors = ip.held_vectors;  // (tail_lanes, row % lanes, is settle_tail's)
  std::string names;
  for (std::size_t k : held) {
    ip.access[k] = Access::Held;
    names += (names.empty() ? "" : ", ") + p.spec.inputs[k].name;
  }
  const std::size_t regs = static_cast<std::size_t>(vectors) * held.size();
  return fmt::format("; {} held in {} register{} (loop i{} does not move {}: loaded once where {})", names, regs,
                     regs == 1 ? "" : "s", ip.outer.size() - 1, held.size() > 1 ? "them" : "it",
                     held.size() > 1 ? "they change" : "it changes");
}

// A row that reads an input at a stride (a transpose of the last two axes)
// touches one cache line per element; the rows after it read the next
// elements of those lines. Walked whole, a row of N such elements keeps N
// lines live, and a power-of-two stride maps them to a few cache sets, so
// they are evicted before the next row comes back (a 512-row transpose at
// stride 768 floats ran 9x slower than a plain pass). Tiles fix that:
// where the input is contiguous along the innermost outer loop L, split L
// by the elements of one line (T) and the row by a chunk of C elements, and
// walk a tile's T rows of C before moving on: [.., L/T, row/C, T] around a
// row of C. Each line is then read while it is in L1, once, and the output
// is written as T streams, each along its row (the other order, row chunks
// outside, scatters every tile's stores over L rows: a probe of [8, 512, 768]
// on a Zen 5 took 2.1 ms instead of 0.74, bench/results/2026-12-05-zen5-transpose.txt).
//
// Where the vocabulary has transpose_tile for the input's type and a tile is
// square (C = T: the lanes fit in a line), each tile of the input is read as
// T whole lines, transposed in registers into a buffer in L1 and read from
// there as a contiguous row (IsaPlan::tiles), the tile kTileAhead chunks
// ahead prefetched; else its lanes are gathered. Returns a note for `why`,
// or "" when the nest does not tile.
constexpr std::int64_t kTileAhead = 2;  // 2, 4 and 8 within 3% on the case above

std::string tile_strided(const KernelPlan& p, IsaPlan& ip, const Vocabulary& voc) {
  if (ip.outer.empty() || !ip.vector || ip.period || !ip.block.empty()) return "";
  const Loop L = ip.outer.back();
  std::int64_t line_elems = 0;
  std::vector<std::string> names;
  std::vector<std::size_t> strided;
  bool transposable = true;
  for (std::size_t k = 0; k < ip.access.size(); ++k) {
    if (ip.access[k] != Access::Strided) continue;
    if (L.in[k] != 1) return "";
    const std::int64_t elems = kCacheLineBytes / dtype_size(p.spec.inputs[k].dtype);
    line_elems = std::max(line_elems, elems);
    names.push_back(p.spec.inputs[k].name);
    strided.push_back(k);
    const TypeVocabulary* t = voc.type(ip.isa, p.spec.inputs[k].dtype);
    transposable = transposable && t != nullptr && !t->transpose_tile.empty() && elems >= ip.lanes;
  }
  if (names.empty()) return "";
  const std::int64_t T = line_elems, C = std::max<std::int64_t>(ip.lanes, line_elems);
  if (L.extent % T != 0 || ip.row % C != 0 || ip.row <= C / 2) return "";
  const std::int64_t s = ip.row_stride[strided.front()];
  Loop tiles{L.extent / T, L.in, L.out * T};
  for (std::int64_t& x : tiles.in) x *= T;
  Loop chunks{ip.row / C, ip.row_stride, C};
  for (std::int64_t& x : chunks.in) x *= C;
  Loop in_tile = L;
  in_tile.extent = T;
  const std::int64_t row = ip.row;
  transposable = transposable && C == T;
  if (transposable) {
    for (std::size_t k : strided) {
      const std::int64_t wrap = (kTileAhead - chunks.extent) * chunks.in[k] + tiles.in[k];
      ip.tiles.push_back({k, ip.row_stride[k], kTileAhead, kTileAhead * chunks.in[k], wrap});
      ip.access[k] = Access::Stream;  // the tile's buffer, row after row
      ip.row_stride[k] = 1;
      in_tile.in[k] = C;
    }
  }
  ip.outer.back() = tiles;
  ip.outer.push_back(chunks);
  ip.outer.push_back(in_tile);
  ip.row = C;
  ip.unroll = static_cast<int>(C / ip.lanes);
  // The cost in cache lines: a tile reads C lines (one per element of its
  // row) for T x C elements, each line once, as a contiguous read would; a
  // row walked whole would touch one line per element, `row` live lines.
  const std::string how =
      transposable
          ? fmt::format("each tile's {} lines read whole and transposed in registers into a buffer in L1 "
                        "(transpose_tile), the tile {} chunks ahead prefetched",
                        T, kTileAhead)
          : fmt::format("each of the {} cache lines a tile gathers from read once, while in L1", C);
  const std::string cost = fmt::format("; {} cache lines per tile of {} elements, as many as a contiguous read "
                                       "(untiled: {} lines live across each row of {})",
                                       C, T * C, row, row);
  return fmt::format("; {} read at stride {}: tiles of {} rows x {} elements (loop of {} split by {}, row of {} by {}, "
                     "the tiles outside, so that the output is written along its rows): {}",
                     fmt::join(names, ", "), s, T, C, L.extent, T, row, C, how) +
         cost;
}

void settle_tail(IsaPlan& ip) {
  ip.step = static_cast<std::int64_t>(ip.lanes) * ip.unroll;
  ip.main_trips = ip.row / ip.step;
  const std::int64_t rest = ip.row % ip.step;
  ip.tail_vectors = static_cast<int>(rest / ip.lanes);
  ip.tail_lanes = static_cast<int>(rest % ip.lanes);
}

// Whether the kernel reads at least as many bytes as it writes (the
// footprint holds out once and every input once).
bool reads_as_much_as_it_writes(const KernelPlan& p) { return p.footprint_bytes - p.out_bytes >= p.out_bytes; }

// Whether a unary node's row (kUnaryInfo) satisfies `pred`.
template <class Pred>
bool has_unary_where(const KernelPlan& p, Pred pred) {
  return std::any_of(p.spec.expr.nodes.begin(), p.spec.expr.nodes.end(),
                     [&](const ExprNode& n) { return n.kind == ExprKind::Unary && pred(unary_info(n.unary)); });
}

// Whether a node computes an approximated math function (exp, tanh, gelu,
// fast_sigmoid, ...: max_ulp > 0).
bool computes_a_function(const KernelPlan& p) {
  return has_unary_where(p, [](const UnaryInfo& info) { return info.max_ulp > 0; });
}

// Whether the kernel's arithmetic, not memory, bounds it: the exact tier's
// 40 to 70 operations per vector for a function do. The fast tier's (about
// 20) do not: a DRAM-sized gate fast_sigmoid(x) * z took 0.29 ns per element
// with normal stores and 0.24 streaming (Zen 4, docs/benchmarks.md, "Math functions").
bool bound_by_its_functions(const KernelPlan& p) {
  return has_unary_where(p, [](const UnaryInfo& info) { return info.max_ulp > 0 && !info.fast; });
}

// The footprint from which a kernel's stores stream (stream_threshold), and
// which rule gave it, for the plan's why.
struct StreamRule {
  std::optional<std::int64_t> bytes;
  std::string whose;
};
StreamRule stream_rule(const KernelPlan& p, const PlanOptions& opt) {
  if (opt.stream_threshold_bytes) return {*opt.stream_threshold_bytes, "the spec's threshold"};
  if (bound_by_its_functions(p)) return {std::nullopt, "its math functions keep it compute-bound"};
  const CpuKindInfo& cpu = cpu_kind_info(opt.cpu);
  if (reads_as_much_as_it_writes(p)) {
    return {cpu.stream_reading_bytes,
            fmt::format("the {} kind's threshold for kernels that read as much as they write", cpu.name)};
  }
  return {cpu.stream_bytes, fmt::format("the {} kind's threshold", cpu.name)};
}

// Whether a variant is a plain stream, which a narrower variant runs as
// fast or faster on a kind with stream_vector_bytes (cpu_kinds.h): no
// approximated function, every operand streamed, splatted or held (no
// period or gather, where wide masks and permutes pay), a main loop, and a
// store as wide as its lanes (a compare into bool packs its lanes, which
// AVX-512 does from a mask register in one instruction). Measured on f32,
// i32 and u8 lanes, so not for 16-bit floats (whose stores round, in one
// instruction on avx512bf16) nor for nodes of two widths.
bool streams_at_any_width(const KernelPlan& p, const IsaPlan& ip) {
  if (!ip.vector || computes_a_function(p) || (ip.main_trips == 0 && ip.held_vectors == 0)) return false;
  for (Access a : ip.access) {
    if (a == Access::Pattern || a == Access::Gather) return false;
  }
  if (std::any_of(ip.parts.begin(), ip.parts.end(), [](int parts) { return parts != 1; })) return false;
  if (ip.lane_dtype == DType::F16 || ip.lane_dtype == DType::Bf16) return false;
  return dtype_size(p.out_dtype) == dtype_size(ip.lane_dtype);
}

// The plan line of a variant that CPUs with wider ISAs run in place of
// their own variants, left out: "runs on avx512 CPUs too, whose variant is
// left out".
std::string runs_in_place_of(const std::vector<Isa>& wider) {
  std::vector<const char*> names;
  for (Isa isa : wider) names.push_back(isa_name(isa));
  return fmt::format("runs on {} CPUs too, whose variant{} left out", fmt::join(names, ", "),
                     wider.size() == 1 ? " is" : "s are");
}

// The kind's stream_vector_bytes: leaves out of a streaming kernel's plan
// the variants with wider vectors whose CPUs run a narrower vector variant
// of it, and says so on that variant. Not for a tuned kernel, whose
// variants are as measured (KernelTuning::isa).
void narrow_streaming_variants(KernelPlan& p, const PlanOptions& opt) {
  const CpuKindInfo& cpu = cpu_kind_info(opt.cpu);
  if (cpu.stream_vector_bytes == 0 || opt.tuning) return;
  std::vector<std::pair<std::size_t, Isa>> narrowed;  // (the variant that runs instead, the ISA left out)
  for (const IsaPlan& wide : p.isas) {
    if (isa_info(wide.isa).vector_bytes <= cpu.stream_vector_bytes || !streams_at_any_width(p, wide)) continue;
    std::optional<std::size_t> narrow;
    for (std::size_t i = 0; i < p.isas.size(); ++i) {
      const IsaPlan& n = p.isas[i];
      if (n.vector && isa_info(n.isa).vector_bytes <= cpu.stream_vector_bytes && isa_includes(wide.isa, n.isa) &&
          (!narrow || isa_rank(n.isa) > isa_rank(p.isas[*narrow].isa))) {
        narrow = i;
      }
    }
    if (narrow) narrowed.emplace_back(*narrow, wide.isa);
  }
  if (narrowed.empty()) return;
  for (std::size_t i = 0; i < p.isas.size(); ++i) {
    for (const auto& [n, isa] : narrowed) {
      if (n == i) p.isas[i].runs_for.push_back(isa);
    }
    if (p.isas[i].runs_for.empty()) continue;
    p.isas[i].why += fmt::format("; {}: a stream, which {} runs as fast or faster in {}-byte vectors",
                                 runs_in_place_of(p.isas[i].runs_for), cpu.name, cpu.stream_vector_bytes);
  }
  p.isas.erase(std::remove_if(p.isas.begin(), p.isas.end(),
                              [&](const IsaPlan& ip) {
                                return std::any_of(narrowed.begin(), narrowed.end(),
                                                   [&](const auto& n) { return n.second == ip.isa; });
                              }),
               p.isas.end());
}

bool same_as_base(const ExprDag& d, Isa isa, const PlanOptions& opt, const Vocabulary& voc);

// Whether tuning left out this ISA's variant: it includes the tuned
// variant's ISA, which CPUs that have it run instead (KernelTuning::isa).
bool narrowed_by_tuning(Isa isa, const PlanOptions& opt) {
  return opt.tuning && opt.tuning->isa && isa != *opt.tuning->isa && isa_includes(isa, *opt.tuning->isa);
}

IsaPlan plan_isa(const KernelPlan& p, Isa isa, const PlanOptions& opt, const Vocabulary& voc) {
  IsaPlan ip;
  ip.isa = isa;
  ip.outer = p.loops;
  ip.access.assign(input_count(p), Access::Stream);
  if (!ip.outer.empty()) {
    const Loop in = ip.outer.back();
    ip.outer.pop_back();
    ip.row = in.extent;
    ip.row_stride = in.in;
    for (std::size_t k = 0; k < input_count(p); ++k) ip.access[k] = row_access(in.in[k]);
  }
  if (p.empty) {
    ip.outer.clear();
    ip.row = 0;
    ip.why = "the output has no elements: nothing to do";
    return ip;
  }
  const IsaInfo& row = isa_info(isa);
  const bool has_vectors = row.vector_bytes > 0 && voc.isa(isa) != nullptr;
  std::string blocker = has_vectors ? vector_blocker(p, isa, voc, &ip.lane_dtype, &ip.lane_nodes) : "";
  if (blocker.empty() && has_vectors) blocker = strided_blocker(p, ip, voc);
  if (!has_vectors || !blocker.empty()) {
    ip.lane_nodes.clear();
    ip.why = row.vector_bytes == 0 ? "portable scalar loop"
                                   : fmt::format("scalar loop compiled for {}: {}", isa_name(isa),
                                                 has_vectors ? blocker : "the vocabulary has no such ISA");
    return ip;
  }
  ip.vector = true;
  ip.literal_minmax = literal_minmax(p, ip, voc);
  ip.lanes = row.vector_bytes / voc.lane_bytes(isa, ip.lane_dtype);
  for (const ExprNode& n : p.spec.expr.nodes) {
    ip.parts.push_back(n.dtype == DType::Bool ? 1 : voc.lane_bytes(isa, n.dtype) / voc.lane_bytes(isa, ip.lane_dtype));
  }
  // Nodes of several registers per vector take that many times the
  // registers: unroll less, so that a step's values still fit.
  const CpuKindInfo& cpu = cpu_kind_info(opt.cpu);
  const int unroll = opt.tuning ? opt.tuning->unroll : opt.unroll > 0 ? opt.unroll : cpu.unroll;
  ip.unroll = std::max(1, unroll / max_parts(ip));
  ip.math_pack = math_packs(p, ip, opt.cpu, voc);

  // A short row whose small inputs repeat: fuse the last two loops and
  // keep the pattern in registers, instead of one short row per element.
  const std::vector<bool> rep = repeating_inputs(p);
  bool pattern_ok = !rep.empty() && p.loops.back().extent % ip.lanes != 0 && max_parts(ip) == 1;
  bool paired_patterns = false;
  for (std::size_t k = 0; pattern_ok && k < rep.size(); ++k) pattern_ok = !rep[k] || p.spec.inputs[k].dtype == ip.lane_dtype;
  if (pattern_ok) {
    const std::int64_t P = p.loops.back().extent;
    // A period longer than the registers allow cannot fit; checked first, so
    // that lcm and the register count stay small (a huge P once made the
    // count overflow an int and pass).
    const std::int64_t lanes = ip.lanes;
    const std::int64_t vectors = P <= kMaxPatternVectors * lanes ? std::lcm(P, lanes) / lanes : kMaxPatternVectors + 1;
    if (vectors <= kMaxPatternVectors) {
      const int k = static_cast<int>(vectors);
      const Loop fused_outer = ip.outer.back();
      ip.outer.pop_back();
      ip.row = fused_outer.extent * P;
      ip.period = P;
      ip.pattern_vectors = k;
      for (std::size_t j = 0; j < rep.size(); ++j) {
        ip.access[j] = rep[j] ? Access::Pattern : fused_outer.in[j] == 0 ? Access::Splat : Access::Stream;
      }
      // The main loop steps by whole patterns, so vector i always meets
      // pattern register i % k; by two where one is an odd number of vectors
      // and the result stores in pairs (pair_store_form: avx512bf16's bf16;
      // asked for the store form, as streaming is settled below), so that
      // no vector of the step stores alone (NHWC's 3 vectors become 6).
      int patterns = std::max(1, (unroll + k / 2) / k);
      const TypeVocabulary* out_type = voc.type(isa, p.out_dtype);
      if (k % 2 == 1 && patterns % 2 == 1 && k * patterns <= unroll && out_type &&
          !pair_store_form(p, *out_type, false).empty()) {
        patterns *= 2;
        paired_patterns = true;
      }
      ip.unroll = k * patterns;
    }
  }
  if (!ip.period && plan_gather(p, ip, voc)) {
    // No streaming stores: blocks this short end in a masked store every few vectors.
    ip.why = describe_gather(p, ip) + lane_nodes_note(p, ip) + literal_minmax_note(p, ip) +
             math_pack_note(p, ip, opt.cpu, voc);
    return ip;
  }
  const std::string tiled = tile_strided(p, ip, voc);
  settle_tail(ip);
  const std::string held = tiled + plan_held(p, ip);

  // Streaming stores skip the cache for outputs too big to stay in it. Every
  // full-vector store must then be vector-aligned when the output is: the
  // rows must start at multiples of the vector width.
  const int out_size = dtype_size(p.out_dtype);
  bool rows_aligned = true;
  for (const Loop& l : ip.outer) rows_aligned = rows_aligned && (l.out * out_size) % row.vector_bytes == 0;
  // ... and the ISA must have a fence and a non-temporal store for the
  // output's registers (a compare result, stored as bytes, has none).
  const bool out_is_cmp = p.out_dtype == DType::Bool && ip.lane_dtype != DType::Bool;
  const bool can_stream = *row.nt_fence != '\0' && !out_is_cmp && !voc.type(isa, p.out_dtype)->stream.empty();
  const StreamRule stream = stream_rule(p, opt);
  ip.stream = can_stream && stream.bytes && p.footprint_bytes >= *stream.bytes && rows_aligned;

  // Rows that start at different offsets in the output's lines, peeled to
  // the next line (a fact of the CPU kind, or measured for this kernel by
  // tune): only where the tail is a mask the ISA can make at run time and
  // stores by, every input is a stream or a splat (a pattern's or a held
  // row's registers follow the row's offsets), every node has one register
  // and a vector form, and the row has a step. (A streaming output's rows
  // are aligned: never peeled.)
  bool plain_inputs = true;
  for (Access a : ip.access) plain_inputs = plain_inputs && (a == Access::Stream || a == Access::Splat);
  const bool tuned_peel = opt.tuning && opt.tuning->peel;
  ip.peel = (tuned_peel ? *opt.tuning->peel : cpu.peel_rows) && !rows_aligned && !out_is_cmp && row.mask_tail &&
            !voc.isa(isa)->mask_first.empty() && voc.type(isa, p.out_dtype)->store_first.empty() && plain_inputs &&
            ip.period == 0 && ip.held_vectors == 0 && ip.lane_nodes.empty() && max_parts(ip) == 1 &&
            ip.main_trips > 0;

  std::string tail = ip.tail_lanes == 0 ? "no partial vector"
                     : row.mask_tail   ? fmt::format("a masked vector of {} lanes", ip.tail_lanes)
                                       : fmt::format("{} unrolled scalar elements", ip.tail_lanes);
  ip.why = ip.held_vectors
               ? fmt::format("{} lanes; row {} unrolled whole: {} vector{} in groups of {} + {}", ip.lanes, ip.row,
                             ip.tail_vectors, ip.tail_vectors == 1 ? "" : "s", ip.unroll, tail)
           : ip.peel
               ? fmt::format("{} lanes x unroll {} = {} elements per step; row {}, whose starts fall at {} offsets in "
                             "the output's {}-byte lines: a masked vector up to the next line, then from there the "
                             "steps and whole vectors every start leaves, each storing one line, and the rest masked "
                             "({})",
                             ip.lanes, ip.unroll, ip.step, ip.row, row_offsets_in_line(p, ip, row.vector_bytes),
                             row.vector_bytes, tuned_peel ? "tuned" : cpu.name)
               : fmt::format("{} lanes x unroll {} = {} elements per step; row {} = {} x {} + {} vectors + {}",
                             ip.lanes, ip.unroll, ip.step, ip.row, ip.main_trips, ip.step, ip.tail_vectors, tail);
  if (ip.period) {
    std::string names;
    for (std::size_t k = 0; k < rep.size(); ++k) {
      if (rep[k]) names += (names.empty() ? "" : ", ") + p.spec.inputs[k].name;
    }
    ip.why += fmt::format("; {} repeat{} every {} elements, held in {} registers", names,
                          names.find(',') == std::string::npos ? "s" : "", ip.period, ip.pattern_vectors);
    if (paired_patterns) ip.why += "; two patterns per step, so that the stores go in pairs";
  }
  ip.why += held + parts_note(p, ip) + lane_nodes_note(p, ip) + literal_minmax_note(p, ip);
  // The order within a step (or a held row's group), a fact of the CPU kind
  // (cpu_kinds.h) or, measured for this kernel, of a wisdom file.
  const bool interleave = opt.tuning ? opt.tuning->interleave : cpu.interleave;
  ip.interleave = interleave && (ip.main_trips > 0 || ip.held_vectors > 0) && ip.unroll > 1;
  if (ip.interleave) {
    ip.why += fmt::format("; each vector's loads, nodes and store together ({})",
                          opt.tuning ? "tuned" : cpu.name);
  }
  ip.why += math_pack_note(p, ip, opt.cpu, voc);
  if (opt.tuning) {
    if (opt.tuning->isa == ip.isa) {
      for (Isa other : opt.isas) {
        if (narrowed_by_tuning(other, opt) && !same_as_base(p.spec.expr, other, opt, voc)) {
          ip.runs_for.push_back(other);
        }
      }
    }
    const bool variant = !ip.runs_for.empty();
    const char* what = tuned_peel ? (variant ? "order, unroll, peel and variant" : "order, unroll and peel")
                                  : (variant ? "order, unroll and variant" : "order and unroll");
    ip.why += fmt::format("; {} from {} ({})", what, opt.tuning->source, opt.tuning->measured);
    if (variant) ip.why += "; " + runs_in_place_of(ip.runs_for);
  }
  if (ip.stream) {
    ip.why += fmt::format("; streaming stores (footprint {} bytes >= {}, {})", p.footprint_bytes, *stream.bytes,
                          stream.whose);
  } else if (can_stream && !stream.bytes && p.footprint_bytes >= cpu.stream_reading_bytes) {
    ip.why += fmt::format("; normal stores: {}, where streaming gains nothing", stream.whose);
  }
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
  const bool repeat = p.loops.size() == 2 && !repeating_inputs(p).empty();
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
  Loop block_loop{units / best, row.in, row.out * best};
  for (std::int64_t& s : block_loop.in) s *= best;
  const Loop in_block{best, row.in, row.out};
  p.loops.erase(p.loops.begin());
  p.loops.insert(p.loops.begin(), {block_loop, in_block});
  return fmt::format("the row of {} {} is cut into {} blocks of {} so that it can be split", units,
                     repeat ? "periods" : "elements", units / best, best);
}

// Bytes of every input and of out, each once. It only decides streaming
// stores, so it saturates at INT64_MAX rather than failing: inputs may each
// be as big as the output, whose byte count alone is what must fit.
std::int64_t footprint_bytes(const KernelPlan& p) {
  std::int64_t total = p.out_bytes;
  for (const InputSpec& in : p.spec.inputs) {
    std::int64_t bytes = 0;
    if (__builtin_mul_overflow(checked_numel(in.shape), dtype_size(in.dtype), &bytes) ||
        __builtin_add_overflow(total, bytes, &total)) {
      return std::numeric_limits<std::int64_t>::max();
    }
  }
  return total;
}

// Whether an ISA that extends a base (vocabulary.yaml) would plan this
// kernel as an ISA it extends does: up its chain of bases to the first one
// that is planned too, no ISA has its own forms for a node's dtype (or,
// where it has only stores of the dtype, the result is not of it). Its
// variant would be that ISA's again, so it is left out (the dispatcher
// runs that one on the CPU).
bool same_as_base(const ExprDag& d, Isa isa, const PlanOptions& opt, const Vocabulary& voc) {
  auto own_forms = [&](Isa i) {
    return std::any_of(d.nodes.begin(), d.nodes.end(), [&](const ExprNode& n) {
      const bool stored = &n == &d.nodes[d.root];
      return voc.overrides(i, n.dtype) && (stored || !voc.overrides_only_stores(i, n.dtype));
    });
  };
  for (Isa i = isa;;) {
    const IsaVocabulary* iv = voc.isa(i);
    if (!iv || !iv->base || own_forms(i)) return false;
    if (std::find(opt.isas.begin(), opt.isas.end(), *iv->base) != opt.isas.end()) return true;
    i = *iv->base;
  }
}

// Whether the root only picks or re-signs values of its own 16-bit type
// (KernelPlan::root_in_type). An operand of that type holds a value of it:
// an input or a literal is one, any other node was rounded to it.
bool root_keeps_its_type(const ExprDag& d) {
  const ExprNode& n = d.nodes[d.root];
  auto all = [&](std::initializer_list<std::size_t> args) {
    return std::all_of(args.begin(), args.end(), [&](std::size_t a) { return d.nodes[a].dtype == n.dtype; });
  };
  switch (n.kind) {
    case ExprKind::Input:
    case ExprKind::Literal: return true;
    case ExprKind::Expand: return all({n.args[0]});
    case ExprKind::Where: return all({n.args[1], n.args[2]});
    case ExprKind::Binary:
      return (n.op == Op::Maximum || n.op == Op::Minimum || n.op == Op::Copysign) && all({n.args[0], n.args[1]});
    case ExprKind::Unary: return (n.unary == UnaryOp::Neg || n.unary == UnaryOp::Abs) && all({n.args[0]});
    case ExprKind::Cast: return all({n.args[0]});
    case ExprKind::Reduce: return false;  // row kernels round their reductions at the store
  }
  return false;
}

// Whether the root's NaNs, if it can be one, have a zero low half (see
// KernelPlan::root_nans_exact), node by node in topological order. A bf16
// node other than the root was rounded to bf16; integers and bools are
// never NaN; literals are canonical; an f32 input, an f64 or an f16 value
// (whose NaN payload reaches bits 13 to 15 of its f32) may not be. The math
// functions are left out: their results are not only IEEE ops.
bool root_nans_exact_in_bf16(const ExprDag& d) {
  std::vector<bool> exact(d.nodes.size(), false);
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const ExprNode& n = d.nodes[i];
    bool operands = true;
    for (std::size_t a : n.args) operands = operands && exact[a];
    bool ieee = false;
    switch (n.kind) {
      case ExprKind::Literal: ieee = true; break;
      case ExprKind::Input: ieee = n.dtype == DType::Bf16; break;
      case ExprKind::Cast: ieee = n.dtype != DType::F64 && n.dtype != DType::F16; break;
      case ExprKind::Where:
      case ExprKind::Expand: ieee = true; break;
      case ExprKind::Reduce: break;  // softmax computes exp
      case ExprKind::Binary:
        switch (n.op) {
          case Op::Add: case Op::Subtract: case Op::Multiply: case Op::Divide: case Op::Maximum:
          case Op::Minimum: case Op::SquaredDifference: case Op::Copysign: ieee = true; break;
          default: break;
        }
        break;
      case ExprKind::Unary:
        switch (n.unary) {
          case UnaryOp::Neg: case UnaryOp::Abs: case UnaryOp::Sqrt: case UnaryOp::Square:
          case UnaryOp::Reciprocal: case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Trunc:
          case UnaryOp::Round: case UnaryOp::Sign: ieee = true; break;
          default: break;
        }
        break;
    }
    const bool rounded_to_bf16 = i != d.root && n.dtype == DType::Bf16;
    exact[i] = rounded_to_bf16 || !dtype_info(n.dtype).is_float || (ieee && operands);
  }
  return exact[d.root];
}

}  // namespace

std::optional<std::int64_t> stream_threshold(const KernelPlan& p, const PlanOptions& opt) {
  return stream_rule(p, opt).bytes;
}

PlanOptions plan_options(const Spec& spec) {
  PlanOptions opt;
  opt.isas = spec.isas.empty() ? default_isas() : spec.isas;
  opt.stream_threshold_bytes = spec.stream_threshold_bytes;
  opt.cpu = spec.cpu;
  return opt;
}

// Whether a row kernel's output pass prefetches the next step's rows
// (RowPlan::prefetch_next): rows from DRAM, re-read after the first pass.
static void plan_row_prefetch(KernelPlan& p, const PlanOptions& opt) {
  RowPlan& r = *p.rows;
  if (r.out_per_row || r.outer.empty()) return;
  bool along_the_row = false;
  for (std::size_t k = 0; k < r.per_row.size(); ++k) along_the_row = along_the_row || advances_with_rows(r, k);
  const CpuKindInfo& cpu = cpu_kind_info(opt.cpu);
  if (!along_the_row || p.footprint_bytes < cpu.stream_reading_bytes) return;
  r.prefetch_next = true;
  r.prefetch_why = fmt::format("its footprint, {} bytes, is at least the {} kind's {} (rows from DRAM)",
                               p.footprint_bytes, cpu.name, cpu.stream_reading_bytes);
}

// A kernel with reductions (rows.cpp): its loops over the rows, and per
// ISA whether its variant is vector code, and its streaming stores.
static void plan_row_kernel(KernelPlan& p, const PlanOptions& opt, const Vocabulary& voc) {
  p.rows = plan_rows(p.spec, p.spec.expr);
  const RowPlan& r = *p.rows;
  // The nest over the output's elements: the loops over the rows, and the
  // row itself where the output is the row (a row's one value has none).
  p.loops = r.outer;
  if (r.rows_per_step == 2) p.loops.push_back(r.pair);  // the two rows of a step
  if (!r.out_per_row) {
    Loop row{r.row, {}, 1};
    for (bool one : r.per_row) row.in.push_back(one ? 0 : 1);
    p.loops.push_back(row);
  }
  p.split = !r.outer.empty();
  p.outer_extent = p.split ? r.outer.front().extent : 1;
  const bool paired = r.rows_per_step == 2 && r.outer.size() == 1;
  p.split_why = p.split ? fmt::format("loop i0 ({} iterations, {}) can be split across threads", p.outer_extent,
                                      paired ? "two whole rows each" : "whole rows")
                        : "one piece: the kernel is one row";
  p.classes.clear();
  for (bool one : r.per_row) p.classes.push_back(one ? Access::Splat : Access::Stream);
  const StreamRule stream = stream_rule(p, opt);
  plan_row_prefetch(p, opt);
  for (Isa isa : opt.isas) {
    if (same_as_base(p.spec.expr, isa, opt, voc) || narrowed_by_tuning(isa, opt)) continue;
    IsaPlan ip = plan_row_isa(p, isa, voc);
    ip.access = p.classes;
    const int vector_bytes = isa_info(isa).vector_bytes;
    const bool rows_aligned = vector_bytes > 0 && (r.row * dtype_size(p.out_dtype)) % vector_bytes == 0;
    const TypeVocabulary* out_type = voc.type(isa, p.out_dtype);
    ip.stream = ip.vector && !r.out_per_row && out_type && !out_type->stream.empty() && stream.bytes &&
                p.footprint_bytes >= *stream.bytes && rows_aligned;
    if (ip.stream) ip.why += fmt::format("; streaming stores from {} bytes ({})", *stream.bytes, stream.whose);
    plan_root_stores(p, ip, voc);
    p.isas.push_back(std::move(ip));
  }
}

KernelPlan plan_kernel(const KernelSpec& k, const PlanOptions& opt, const Vocabulary& voc) {
  return plan_kernel(k, broadcast_kernel_inputs(k), opt, voc);
}

KernelPlan plan_kernel(const KernelSpec& k, BroadcastInputs shapes, const PlanOptions& opt, const Vocabulary& voc) {
  KernelPlan p;
  p.spec = k;
  p.cpu = opt.cpu;
  if (k.compute_f32) p.spec.expr = compute_in_f32(k.expr);
  p.shapes = std::move(shapes);
  p.out_dtype = k.out_dtype();
  p.out_numel = checked_numel(p.shapes.out);
  p.out_bytes = checked_mul(p.out_numel, dtype_size(p.out_dtype), "output bytes");
  p.footprint_bytes = footprint_bytes(p);
  p.empty = p.out_numel == 0;
  p.offsets.assign(k.inputs.size(), 0);
  for (std::size_t j = 0; j < k.inputs.size(); ++j) {
    const InputLayout& layout = input_layout(k.expr, j);
    if (!layout.empty()) p.offsets[j] = resolve_layout(k.inputs[j].shape, layout, k.inputs[j].name).offset;
  }
  p.root_nans_exact = p.out_dtype == DType::Bf16 && root_nans_exact_in_bf16(p.spec.expr);
  p.root_in_type = p.out_dtype == DType::Bf16 && root_keeps_its_type(p.spec.expr);
  if (has_reductions(p.spec.expr)) {
    plan_row_kernel(p, opt, voc);
    return p;
  }

  const CoalescedNest c = coalesce_inputs(p.shapes.out, p.shapes.strides);
  for (std::size_t i = 0; i < c.extents.size(); ++i) {
    Loop l{c.extents[i], {}, c.out[i]};
    for (const Shape& s : c.in) l.in.push_back(s[i]);
    p.loops.push_back(std::move(l));
  }
  auto plan_isas = [&] {
    p.isas.clear();
    for (Isa isa : opt.isas) {
      if (same_as_base(p.spec.expr, isa, opt, voc) || narrowed_by_tuning(isa, opt)) continue;
      p.isas.push_back(plan_isa(p, isa, opt, voc));
    }
    narrow_streaming_variants(p, opt);
    for (IsaPlan& ip : p.isas) plan_root_stores(p, ip, voc);
    // The split loop is loops[0] if every variant kept it as its outermost
    // loop (fusing a repeating period may have absorbed it).
    p.split = p.loops.size() >= 2;
    for (const IsaPlan& ip : p.isas) {
      p.split = p.split && !ip.outer.empty() && ip.outer.front().extent == p.loops.front().extent;
    }
  };
  plan_isas();
  std::string blocked;
  if (!p.split && !p.empty) {
    blocked = block_single_row(p, opt);
    if (!blocked.empty()) plan_isas();
  }
  p.outer_extent = p.split ? p.loops.front().extent : 1;
  p.split_why = p.split ? fmt::format("loop i0 ({} iterations) can be split across threads", p.outer_extent)
                        : "one piece: the kernel has no outer loop common to all its variants";
  if (!blocked.empty()) p.split_why = blocked + "; " + p.split_why;
  // The inputs' classes as the best vector variant reads them (else by the nest).
  p.classes.assign(k.inputs.size(), Access::Stream);
  for (std::size_t j = 0; !p.loops.empty() && j < k.inputs.size(); ++j) p.classes[j] = row_access(p.loops.back().in[j]);
  for (const IsaPlan& ip : p.isas) {
    if (ip.vector) {
      p.classes = ip.access;
      for (const IsaPlan::TileRead& r : ip.tiles) p.classes[r.input] = Access::Strided;  // by the nest
      break;
    }
  }
  return p;
}

std::string describe_loops(const KernelPlan& p, const std::string& indent) {
  if (p.empty) return indent + "(no loops: the output has no elements)\n";
  if (p.loops.empty()) return indent + "(no loops: one element)\n";
  std::size_t width = 12;
  for (const InputSpec& in : p.spec.inputs) width = std::max(width, in.name.size() + 2);
  std::string s = indent + fmt::format("{:<6}{:>12}", "loop", "extent");
  for (const InputSpec& in : p.spec.inputs) s += fmt::format("{:>{}}", in.name, width);
  s += fmt::format("{:>{}}\n", "out", width);
  for (std::size_t i = 0; i < p.loops.size(); ++i) {
    const Loop& l = p.loops[i];
    s += indent + fmt::format("{:<6}{:>12}", fmt::format("i{}", i), l.extent);
    for (std::int64_t st : l.in) s += fmt::format("{:>{}}", st, width);
    s += fmt::format("{:>{}}\n", l.out, width);
  }
  s += indent + "inputs:";
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    s += fmt::format("{} {} {}", k ? "," : "", p.spec.inputs[k].name, operand_class(p.classes[k]));
  }
  return s + "\n";
}

namespace {

// How a node meets the 16-bit floats: its storage and compute dtypes and
// the conversions between them ("" for other nodes).
std::string half_note(const ExprDag& d, std::size_t i) {
  const ExprNode& n = d.nodes[i];
  const DType from = n.args.empty() ? n.dtype : d.nodes[n.args[0]].dtype;
  const char* to = dtype_name(n.dtype);
  switch (n.kind) {
    case ExprKind::Input:
      return is_half(n.dtype) ? fmt::format("  (stored {}, read as its exact f32 value)", to) : "";
    case ExprKind::Cast:
      if (is_half(n.dtype)) return fmt::format("  (rounded once to {}, to nearest even)", to);
      return is_half(from) ? "  (from its exact f32 value)" : "";
    case ExprKind::Binary:
    case ExprKind::Unary:
      if (is_half(n.dtype)) return fmt::format("  (computed in f32, rounded to {})", to);
      return is_half(from) ? "  (compares the f32 values)" : "";
    default: return "";
  }
}

}  // namespace

std::string describe_expr(const KernelPlan& p, const std::string& indent) {
  std::string s;
  for (std::size_t i = 0; i < p.spec.expr.nodes.size(); ++i) {
    s += indent + node_text(p, i) + (i == p.spec.expr.root ? "  -> out" : "") + half_note(p.spec.expr, i) + "\n";
  }
  return s;
}

std::string describe_isa(const KernelPlan&, const IsaPlan& ip) { return ip.why; }

}  // namespace bcastgen::gen
