// Row kernels: the plan (RowPlan, plan.h) of a DAG with reductions.
#include "rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/expr.h"
#include "bcastgen/gen/expr.h"

namespace bcastgen::gen {
namespace {

// The program (RowPlan::program) of `dag` over rows of `row` elements:
// softmax(x) is e * (1 / sum(e)) with e = exp(x - max(x)), log_softmax(x) is
// (x - max(x)) - log(sum(e)), mean(x) is sum(x) / row, and a reduction of an
// f16 or bf16 operand runs in f32, rounded once to its type. Only the nodes
// the root needs are kept.
ExprDag lower(const ExprDag& dag, std::int64_t row) {
  ExprDag g;
  g.input_used = dag.input_used;
  g.layouts = dag.layouts;
  auto add = [&](ExprNode n) {
    n.column = 0;
    g.nodes.push_back(std::move(n));
    return g.nodes.size() - 1;
  };
  auto reduce = [&](ReduceOp op, std::size_t x) {
    ExprNode n;
    n.kind = ExprKind::Reduce;
    n.reduce = op;
    n.dtype = g.nodes[x].dtype;
    n.args = {x};
    n.axes = {-1};
    return add(n);
  };
  auto binary = [&](Op op, std::size_t a, std::size_t b) {
    ExprNode n;
    n.kind = ExprKind::Binary;
    n.op = op;
    n.dtype = g.nodes[a].dtype;
    n.args = {a, b};
    return add(n);
  };
  auto unary = [&](UnaryOp u, std::size_t x) {
    ExprNode n;
    n.kind = ExprKind::Unary;
    n.unary = u;
    n.dtype = g.nodes[x].dtype;
    n.args = {x};
    return add(n);
  };
  auto cast = [&](std::size_t x, DType t) {
    ExprNode n;
    n.kind = ExprKind::Cast;
    n.dtype = t;
    n.args = {x};
    return add(n);
  };
  std::vector<std::size_t> map(dag.nodes.size());
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    ExprNode n = dag.nodes[i];
    for (std::size_t& a : n.args) a = map[a];
    if (n.kind != ExprKind::Reduce) {
      map[i] = add(n);
      continue;
    }
    const bool half = is_half(n.dtype);
    std::size_t x = n.args[0];
    if (half) x = cast(x, DType::F32);
    std::size_t r = 0;
    switch (n.reduce) {
      case ReduceOp::Sum:
      case ReduceOp::Max:
      case ReduceOp::Min: r = reduce(n.reduce, x); break;
      case ReduceOp::Mean: {
        ExprNode count;
        count.kind = ExprKind::Literal;
        count.dtype = g.nodes[x].dtype;
        count.literal.text = std::to_string(row);
        count.literal.f = static_cast<double>(row);
        r = binary(Op::Divide, reduce(ReduceOp::Sum, x), add(count));
        break;
      }
      case ReduceOp::Softmax:
      case ReduceOp::LogSoftmax: {
        const std::size_t d = binary(Op::Subtract, x, reduce(ReduceOp::Max, x));
        const std::size_t e = unary(UnaryOp::Exp, d);
        const std::size_t s = reduce(ReduceOp::Sum, e);
        // softmax: e times 1/s, one reciprocal per row for a divide per element.
        r = n.reduce == ReduceOp::Softmax ? binary(Op::Multiply, e, unary(UnaryOp::Reciprocal, s))
                                          : binary(Op::Subtract, d, unary(UnaryOp::Log, s));
        break;
      }
    }
    map[i] = half ? cast(r, n.dtype) : r;
  }
  g.root = map[dag.root];
  return reachable(g);
}

// RowPlan::stash: the latest f32 node of the last reduction pass that the
// output pass reads and that computes a math function, in rows of at most
// kMaxStash elements (the buffer stays in L1).
std::optional<std::size_t> stash_node(const RowPlan& r) {
  const ExprDag& g = r.program;
  if (r.out_per_row || r.passes == 0 || r.row > RowPlan::kMaxStash) return std::nullopt;
  // What the output pass reads: the varying nodes from the root down.
  std::vector<bool> reads(g.nodes.size(), false);
  reads[g.root] = r.varying[g.root];
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    if (!reads[i]) continue;
    for (std::size_t a : g.nodes[i].args) reads[a] = reads[a] || r.varying[a];
  }
  // What the last pass computes: its reductions' operands, down.
  std::vector<bool> last(g.nodes.size(), false);
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    const ExprNode& n = g.nodes[i];
    if (n.kind == ExprKind::Reduce && r.level[n.args[0]] == r.passes - 1) last[n.args[0]] = r.varying[n.args[0]];
    if (!last[i]) continue;
    for (std::size_t a : n.args) last[a] = last[a] || r.varying[a];
  }
  std::vector<bool> costly(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const ExprNode& n = g.nodes[i];
    costly[i] = n.kind == ExprKind::Unary && unary_info(n.unary).max_ulp > 0;
    for (std::size_t a : n.args) costly[i] = costly[i] || (r.varying[a] && costly[a]);
  }
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    if (i != g.root && reads[i] && last[i] && costly[i] && g.nodes[i].dtype == DType::F32) return i;
  }
  return std::nullopt;
}

std::string axis_list(const std::vector<std::int64_t>& axes) {
  std::string s;
  for (std::int64_t a : axes) s += (s.empty() ? "" : ", ") + std::to_string(a);
  return "[" + s + "]";
}

}  // namespace

RowPlan plan_rows(const KernelSpec& k, const ExprDag& dag) {
  const std::string who = "kernel '" + k.name + "': ";
  if (k.rule != Rule::Numpy) {
    throw InvalidArgument(who + "reductions broadcast back under rule numpy; this kernel's rule is " +
                          rule_name(k.rule));
  }
  std::vector<Shape> declared;
  std::vector<std::string> names;
  for (const InputSpec& in : k.inputs) {
    declared.push_back(in.shape);
    names.push_back(in.name);
  }
  const BroadcastInputs b = broadcast_expr_inputs(dag, k.rule, declared, k.axis, names);
  const std::vector<Shape> shapes = node_shapes(dag, layout_shapes(dag, declared, names), who);
  RowPlan r;
  r.domain = b.out;
  const std::size_t rank = r.domain.size();
  // The reduced axes, in the domain's numbering: the same trailing ones for all.
  std::vector<std::int64_t> row_axes;
  bool first = true;
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    const ExprNode& n = dag.nodes[i];
    if (n.kind != ExprKind::Reduce) continue;
    const Shape& xs = shapes[n.args[0]];
    const std::size_t lead = rank - xs.size();
    const std::string at = who + reduce_name(n.reduce) + " " + axis_list(n.axes) + " (node " + std::to_string(i) + ")";
    std::vector<std::int64_t> axes;
    for (std::int64_t a : reduce_axes(n, xs.size(), at + ": ")) {
      const std::size_t d = lead + static_cast<std::size_t>(a);
      if (xs[static_cast<std::size_t>(a)] != r.domain[d]) {
        throw InvalidArgument(at + ": its operand " + format_shape(xs) + " has extent " +
                              std::to_string(xs[static_cast<std::size_t>(a)]) + " on axis " + std::to_string(a) +
                              ", where the kernel's domain " + format_shape(r.domain) + " has " +
                              std::to_string(r.domain[d]) +
                              ": a row kernel reduces an operand that spans the axes it reduces");
      }
      axes.push_back(static_cast<std::int64_t>(d));
    }
    const std::int64_t from = axes.front();
    for (std::size_t j = 0; j < axes.size(); ++j) {
      if (axes[j] != from + static_cast<std::int64_t>(j) || axes.back() != static_cast<std::int64_t>(rank) - 1) {
        throw InvalidArgument(at + ": reduces axes " + axis_list(axes) + " of the domain " + format_shape(r.domain) +
                              "; a row kernel reduces the innermost axes (the last ones, contiguous in memory); "
                              "reductions over outer axes are not supported");
      }
    }
    if (!first && axes != row_axes) {
      throw InvalidArgument(at + ": reduces axes " + axis_list(axes) + " of the domain where another reduction "
                                 "reduces " + axis_list(row_axes) + "; a row kernel reduces one set of axes");
    }
    row_axes = axes;
    first = false;
  }
  const std::size_t split = static_cast<std::size_t>(row_axes.front());
  for (std::size_t d = split; d < rank; ++d) r.row *= r.domain[d];
  if (r.row == 0) throw InvalidArgument(who + "reduces over an empty axis of " + format_shape(r.domain));
  // Each input: contiguous along the row, or one value per row.
  for (std::size_t j = 0; j < k.inputs.size(); ++j) {
    const Shape& s = b.strides[j];
    bool zero = true, dense = true;
    std::int64_t expect = 1;
    for (std::size_t d = rank; d-- > split;) {
      zero = zero && s[d] == 0;
      if (r.domain[d] != 1) dense = dense && s[d] == expect;
      expect *= r.domain[d];
    }
    if (!zero && !dense) {
      throw InvalidArgument(who + "input '" + k.inputs[j].name + "' is read along the row (axes " +
                            axis_list(row_axes) + " of " + format_shape(r.domain) + ") at strides " +
                            format_shape(Shape(s.begin() + static_cast<std::ptrdiff_t>(split), s.end())) +
                            "; a row kernel reads each input contiguously along the row or as one value per row");
    }
    r.per_row.push_back(zero && r.row > 1);
  }
  // The output: the row, or one value per row.
  const Shape& rs = shapes[dag.root];
  const std::size_t lead = rank - rs.size();
  bool rowwise = true, one = true;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t e = d < lead ? 1 : rs[d - lead];
    if (d < split && e != r.domain[d]) {
      throw InvalidArgument(who + "the output's shape " + format_shape(rs) + " does not span the domain " +
                            format_shape(r.domain) + " on axis " + std::to_string(d) + " outside the reduced axes");
    }
    if (d >= split) {
      rowwise = rowwise && e == r.domain[d];
      one = one && e == 1;
    }
  }
  if (!rowwise && !one) {
    throw InvalidArgument(who + "the output's shape " + format_shape(rs) + " is neither the row nor one value per row "
                          "of the domain " + format_shape(r.domain));
  }
  r.out_per_row = !rowwise;
  r.out_shape = rs;
  // The loops over the rows, coalesced where every stride allows.
  std::vector<Loop> loops;
  for (std::size_t d = 0; d < split; ++d) {
    if (r.domain[d] == 1) continue;
    Loop l{r.domain[d], {}, 1};
    for (std::size_t j = 0; j < k.inputs.size(); ++j) l.in.push_back(b.strides[j][d]);
    l.out = r.out_per_row ? 1 : r.row;
    for (std::size_t e = d + 1; e < split; ++e) l.out *= r.domain[e];
    loops.push_back(std::move(l));
  }
  for (Loop& l : loops) {
    if (!r.outer.empty()) {
      Loop& o = r.outer.back();
      bool merge = o.out == l.out * l.extent;
      for (std::size_t j = 0; j < l.in.size(); ++j) merge = merge && o.in[j] == l.in[j] * l.extent;
      if (merge) {
        o.extent *= l.extent;
        o.in = l.in;
        o.out = l.out;
        continue;
      }
    }
    r.outer.push_back(l);
  }
  if (!r.outer.empty() && r.outer.back().extent % 2 == 0 && r.row <= RowPlan::kMaxPairedRow) {
    Loop& last = r.outer.back();
    r.rows_per_step = 2;
    r.pair = Loop{2, last.in, last.out};
    last.extent /= 2;
    for (std::int64_t& s : last.in) s *= 2;
    last.out *= 2;
  }
  // The program and its passes.
  r.program = lower(dag, r.row);
  const ExprDag& g = r.program;
  r.level.assign(g.nodes.size(), 0);
  r.varying.assign(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const ExprNode& n = g.nodes[i];
    for (std::size_t a : n.args) {
      r.level[i] = std::max(r.level[i], r.level[a]);
      r.varying[i] = r.varying[i] || r.varying[a];
    }
    if (n.kind == ExprKind::Input) r.varying[i] = !r.per_row[n.input];
    if (n.kind == ExprKind::Reduce) {
      r.level[i] = r.level[n.args[0]] + 1;
      r.varying[i] = false;
      r.passes = std::max(r.passes, r.level[i]);
    }
  }
  r.stash = stash_node(r);
  if (r.varying[g.root] && r.out_per_row) {
    throw InvalidArgument(who + "internal: the output is one value per row, but its value varies along the row");
  }
  return r;
}

bool advances_with_rows(const RowPlan& r, std::size_t k) {
  return !r.per_row[k] && !r.outer.empty() && r.outer.back().in[k] != 0;
}

DType row_store_dtype(const RowPlan& r) {
  const ExprNode& n = r.program.nodes[expand_operand(r.program, r.program.root)];
  return n.kind == ExprKind::Cast && is_half(n.dtype) ? n.dtype : DType::F32;
}

IsaPlan plan_row_isa(const KernelPlan& p, Isa isa, const Vocabulary& voc) {
  const RowPlan& r = *p.rows;
  const ExprDag& g = r.program;
  IsaPlan ip;
  ip.isa = isa;
  ip.outer = r.outer;
  ip.row = r.row;
  ip.lane_dtype = DType::F32;
  // The vector form every row-varying node needs, or why there is none.
  std::string missing;
  const TypeVocabulary* f32 = voc.type(isa, DType::F32);
  auto need = [&](bool ok, const std::string& what) {
    if (!ok && missing.empty()) missing = what;
  };
  need(f32 && !f32->load_tail.empty() && !f32->store_tail.empty() && !f32->blend_tail.empty(),
       "f32 vectors with masked loads, stores and blends");
  auto half_ok = [&](DType t) {
    const TypeVocabulary* h = voc.type(isa, t);
    return f32 && h && h->lane_bytes == 4 && !h->load_tail.empty() && !h->store_tail.empty() && h->mask == f32->mask;
  };
  for (std::size_t i = 0; i < g.nodes.size() && missing.empty(); ++i) {
    const ExprNode& n = g.nodes[i];
    const bool feeds_vector = r.varying[i] || n.kind == ExprKind::Reduce;
    if (!r.varying[i]) {
      // A per-row value that a vector node reads is splat: an f32.
      for (std::size_t j = i + 1; j < g.nodes.size(); ++j) {
        const auto& args = g.nodes[j].args;
        if (r.varying[j] && std::find(args.begin(), args.end(), i) != args.end()) {
          need(n.dtype == DType::F32, fmt::format("a {} value per row", dtype_name(n.dtype)));
        }
      }
      if (!feeds_vector) continue;
    }
    switch (n.kind) {
      case ExprKind::Input: need(n.dtype == DType::F32 || (is_half(n.dtype) && half_ok(n.dtype)), fmt::format("{} inputs", dtype_name(n.dtype))); break;
      case ExprKind::Literal:
      case ExprKind::Expand: break;
      case ExprKind::Reduce: need(n.dtype == DType::F32, fmt::format("{} reductions", dtype_name(n.dtype))); break;
      case ExprKind::Binary:
        need(n.dtype == DType::F32 && voc.op(isa, DType::F32, n.op).has_value(), fmt::format("{} of f32", op_name(n.op)));
        break;
      case ExprKind::Unary:
        need(n.dtype == DType::F32 && voc.unary(isa, DType::F32, n.unary).has_value(),
             fmt::format("{} of f32", unary_name(n.unary)));
        break;
      case ExprKind::Cast: {
        const DType from = g.nodes[n.args[0]].dtype;
        const bool widen = n.dtype == DType::F32 && is_half(from) && g.nodes[n.args[0]].kind == ExprKind::Input;
        const bool store = i == g.root && is_half(n.dtype) && from == DType::F32 && half_ok(n.dtype);
        need(widen || store, fmt::format("a cast from {} to {}", dtype_name(from), dtype_name(n.dtype)));
        break;
      }
      default: need(false, std::string(expr_kind_name(n.kind)) + " nodes"); break;
    }
  }
  if (!r.out_per_row) need(g.nodes[g.root].dtype == DType::F32 || g.nodes[g.root].kind == ExprKind::Cast, "the output's type");
  if (isa_info(isa).vector_bytes == 0) missing.clear();  // the scalar ISA: no vector form asked
  ip.vector = isa_info(isa).vector_bytes > 0 && missing.empty();
  ip.lanes = ip.vector ? isa_info(isa).vector_bytes / 4 : 1;
  ip.unroll = ip.vector ? 4 : 1;
  ip.step = ip.lanes * ip.unroll;
  // The f32 math functions of the row's vectors, over two a call where the
  // vocabulary packs them for this ISA and CPU kind: a row's loop keeps more
  // registers live (the per-row splats) than an elementwise one, and four a
  // call spilled. LayerNorm + GELU on [4096, 768], avx512 on a Zen 5, three
  // runs each: 2.59-2.61 ms over two, 3.09-3.21 over four, 2.75-2.90 one at
  // a time (gelu(x * g + b) alone: 1.97 ms; the LayerNorm alone: 0.56-0.67).
  const IsaVocabulary* iv = voc.isa(isa);
  ip.math_pack.assign(g.nodes.size(), 1);
  for (std::size_t i = 0; ip.vector && iv && i < g.nodes.size(); ++i) {
    const ExprNode& n = g.nodes[i];
    if (n.kind == ExprKind::Unary && unary_info(n.unary).max_ulp > 0 && r.varying[i]) {
      ip.math_pack[i] = std::min(2, iv->math_pack_width(n.unary, p.cpu));
    }
  }
  std::string passes = r.passes == 1 ? "one reduction pass" : fmt::format("{} reduction passes", r.passes);
  const std::string out = r.out_per_row ? "one value per row" : "an output pass";
  if (ip.vector) {
    ip.why = fmt::format(
        "row kernel: {} and {} over each row of {} (re-read from cache); f32 x{} vectors, each sum, max and min in "
        "{} partials ({} registers of {} lanes) combined in a fixed tree, the same bits as every other variant",
        passes, out, r.row, ip.lanes, RowPlan::kPartials, RowPlan::kPartials / ip.lanes, ip.lanes);
  } else {
    ip.why = fmt::format("row kernel: {} and {} over each row of {}; scalar loop{}, {} partials per reduction in the "
                         "same order and tree as the vector variants",
                         passes, out, r.row,
                         missing.empty() ? "" : fmt::format(" (no {} vector form for {})", isa_name(isa), missing),
                         RowPlan::kPartials);
  }
  return ip;
}

}  // namespace bcastgen::gen
