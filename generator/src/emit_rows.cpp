// Row kernels: the body of one ISA variant, as rows.cpp planned it. Per
// row: the per-row values, then each reduction pass (its partials, then
// their fixed tree), then the output pass or the row's one value. Where the
// plan pairs rows (RowPlan::rows_per_step), the two rows' code alternates
// pass by pass; row b's names end in _b.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "emit_printer.h"
#include "rows.h"

namespace bcastgen::gen {
namespace {

std::string reduce_enum(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "bcastgen::ReduceOp::Sum";
    case ReduceOp::Max: return "bcastgen::ReduceOp::Max";
    case ReduceOp::Min: return "bcastgen::ReduceOp::Min";
    default: return "?";
  }
}

Op combine_op(ReduceOp op) {
  return op == ReduceOp::Max ? Op::Maximum : op == ReduceOp::Min ? Op::Minimum : Op::Add;
}

// The C++ element type of input k.
std::string input_type(const KernelPlan& p, std::size_t k) { return dtype_info(p.spec.inputs[k].dtype).cpp_type; }

// The code of one row: its passes, with names suffixed by `rs` ("" for the
// first row of a step, "_b" for the second), over the row's pointers.
class RowEmitter {
 public:
  RowEmitter(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming, Printer& pr,
             std::string rs, std::vector<std::string> ptrs, std::string out)
      : p_(p), r_(*p.rows), g_(p.rows->program), ip_(ip), voc_(voc), streaming_(streaming), pr_(pr),
        rs_(std::move(rs)), ptr_(std::move(ptrs)), out_(std::move(out)), next_(ptr_.size()) {
    if (ip.vector) {
      f32_ = voc.type(ip.isa, DType::F32);
      iv_ = voc.isa(ip.isa);
    }
    known_.assign(g_.nodes.size(), false);
    splat_.assign(g_.nodes.size(), false);
  }

  void begin() {
    if (r_.stash) pr_.print("alignas(64) float $stash$[$row$];", {{"stash", stash_name()}, {"row", r_.row}});
    if (r_.prefetch_next && ip_.vector) declare_next_rows();
  }

  // The per-row values that reduction pass k reads, then the pass.
  void pass(int k) {
    emit_scalars(k);
    emit_pass(k);
  }

  // The values after the last pass, then the output pass or the row's value.
  void finish() {
    emit_scalars(r_.passes);
    if (r_.out_per_row) {
      pr_.print("$out$[0] = $value$;", {{"out", out_}, {"value", scalar_operand(g_.root)}});
      return;
    }
    emit_output_pass(out_);
  }

 private:
  const ExprNode& node(std::size_t i) const { return g_.nodes[i]; }
  std::size_t canon(std::size_t i) const { return expand_operand(g_, i); }
  std::string ctype(std::size_t i) const { return dtype_info(node(i).dtype).cpp_type; }
  bool varying(std::size_t i) const { return r_.varying[canon(i)]; }

  std::string stash_name() const { return "stash" + rs_; }

  // Where the next step's row of each input read along the row starts (the
  // row itself at the last step, so that no pointer leaves its input), for
  // the output pass's prefetches (RowPlan::prefetch_next).
  void declare_next_rows() {
    const Loop& last = r_.outer.back();
    const std::string i = fmt::format("i{}", r_.outer.size() - 1);
    for (std::size_t k = 0; k < ptr_.size(); ++k) {
      if (!advances_with_rows(r_, k)) continue;
      next_[k] = fmt::format("next{}{}", k, rs_);
      pr_.print("const $type$* $next$ = $i$ + 1 < $extent$ ? $ptr$ + $stride$ : $ptr$;  // the next step's row, "
                "prefetched",
                {{"type", input_type(p_, k)}, {"next", next_[k]}, {"i", i}, {"extent", last.extent}, {"ptr", ptr_[k]},
                 {"stride", last.in[k]}});
    }
  }

  // One prefetch per cache line of each next row's part that this step of
  // the output pass reads in its own row.
  void emit_prefetches(std::int64_t step) {
    for (std::size_t k = 0; k < next_.size(); ++k) {
      if (next_[k].empty()) continue;
      const std::int64_t per_line = std::max<std::int64_t>(1, 64 / dtype_size(p_.spec.inputs[k].dtype));
      for (std::int64_t e = 0; e < step; e += per_line) {
        pr_.print("__builtin_prefetch($at$);", {{"at", offset_expr(next_[k], "j", e)}});
      }
    }
  }

  // The per-row values whose reductions are known by pass `level`.
  void emit_scalars(int level) {
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const ExprNode& n = node(i);
      if (r_.varying[i] || known_[i] || r_.level[i] > level) continue;
      if (n.kind == ExprKind::Literal || n.kind == ExprKind::Expand || n.kind == ExprKind::Reduce) continue;
      if (n.kind == ExprKind::Input) {
        pr_.print("const $type$ s$node$$row$ = $ptr$[0];  // one value per row",
                  {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"ptr", ptr_[n.input]}});
      } else {
        std::vector<std::string> args;
        for (std::size_t a : n.args) args.push_back(scalar_operand(a));
        pr_.print("const $type$ s$node$$row$ = $value$;",
                  {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"value", scalar_call(n, args)}});
      }
      known_[i] = true;
    }
  }

  // A node's scalar: a literal in place, a per-row value s<i>, a value of
  // the row's element v<i>.
  std::string scalar_operand(std::size_t a) const {
    a = canon(a);
    if (node(a).kind == ExprKind::Literal) return literal_cpp(node(a).literal, node(a).dtype);
    return fmt::format("{}{}{}", r_.varying[a] ? "v" : "s", a, rs_);
  }

  // The row-varying nodes that `targets` need, in DAG order; in the output
  // pass, the stashed node is read back from the row's buffer (a leaf).
  std::vector<std::size_t> needed(const std::vector<std::size_t>& targets, bool output_pass = false) const {
    std::vector<bool> need(g_.nodes.size(), false);
    for (std::size_t t : targets) {
      if (varying(t)) need[canon(t)] = true;
    }
    for (std::size_t i = g_.nodes.size(); i-- > 0;) {
      if (!need[i] || (output_pass && stashed(i))) continue;
      for (std::size_t a : node(i).args) {
        if (varying(a)) need[canon(a)] = true;
      }
    }
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      if (need[i] && node(i).kind != ExprKind::Expand) out.push_back(i);
    }
    return out;
  }

  bool stashed(std::size_t i) const { return r_.stash && *r_.stash == i; }

  std::vector<std::size_t> pass_reductions(int k) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      if (node(i).kind == ExprKind::Reduce && r_.level[node(i).args[0]] == k) out.push_back(i);
    }
    return out;
  }

  std::string reduction_names(const std::vector<std::size_t>& reds) const {
    std::string s;
    for (std::size_t i : reds) s += fmt::format("{}{} of t{}", s.empty() ? "" : ", ", reduce_name(node(i).reduce), node(i).args[0]);
    return s;
  }

  // --- scalar code ---------------------------------------------------------

  void emit_scalar_values(const std::vector<std::size_t>& nodes, const std::string& j, bool output_pass = false) {
    for (std::size_t i : nodes) {
      const ExprNode& n = node(i);
      if (output_pass && stashed(i)) {
        pr_.print("const $type$ v$node$$row$ = $stash$[$j$];  // the last pass's",
                  {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"stash", stash_name()}, {"j", j}});
        continue;
      }
      if (n.kind == ExprKind::Input) {
        pr_.print("const $type$ v$node$$row$ = $ptr$[$j$];",
                  {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"ptr", ptr_[n.input]}, {"j", j}});
        continue;
      }
      std::vector<std::string> args;
      for (std::size_t a : n.args) args.push_back(scalar_operand(a));
      pr_.print("const $type$ v$node$$row$ = $value$;",
                {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"value", scalar_call(n, args)}});
    }
  }

  void emit_pass(int k) {
    const std::vector<std::size_t> reds = pass_reductions(k);
    pr_.print("// pass $k$$of_b$: $reductions$",
              {{"k", k + 1}, {"of_b", rs_.empty() ? "" : " of row b"}, {"reductions", reduction_names(reds)}});
    if (ip_.vector) {
      emit_vector_pass(reds);
    } else {
      emit_scalar_pass(reds);
    }
    for (std::size_t i : reds) known_[i] = true;
  }

  void emit_scalar_pass(const std::vector<std::size_t>& reds) {
    const int P = RowPlan::kPartials;
    std::vector<std::size_t> targets;
    for (std::size_t i : reds) {
      targets.push_back(node(i).args[0]);
      pr_.print("$type$ acc$node$$row$[$partials$];", {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"partials", P}});
      pr_.print("for (int l = 0; l < $partials$; ++l) acc$node$$row$[l] = bcastgen::row_identity<$reduce$, $type$>();",
                {{"partials", P}, {"node", i}, {"row", rs_}, {"reduce", reduce_enum(node(i).reduce)}, {"type", ctype(i)}});
    }
    pr_.open("for (std::int64_t j = 0; j < $row$; ++j)", {{"row", r_.row}});
    emit_scalar_values(needed(targets), "j");
    for (std::size_t i : reds) {
      pr_.print("acc$node$$row$[j % $partials$] = bcastgen::row_combine<$reduce$>(acc$node$$row$[j % $partials$], $x$);",
                {{"node", i}, {"row", rs_}, {"partials", P}, {"reduce", reduce_enum(node(i).reduce)},
                 {"x", scalar_operand(node(i).args[0])}});
    }
    if (const std::optional<std::size_t> s = stash_in(needed(targets))) {
      pr_.print("$stash$[j] = v$node$$row$;  // read back by the output pass",
                {{"stash", stash_name()}, {"node", *s}, {"row", rs_}});
    }
    pr_.close();
    for (std::size_t i : reds) {
      pr_.print("const $type$ s$node$$row$ = bcastgen::row_tree<$reduce$>(acc$node$$row$, $partials$);",
                {{"type", ctype(i)}, {"node", i}, {"row", rs_}, {"reduce", reduce_enum(node(i).reduce)}, {"partials", P}});
    }
  }

  void emit_scalar_output(const std::string& out) {
    pr_.line(rs_.empty() ? "// the output pass" : "// the output pass of row b");
    pr_.open("for (std::int64_t j = 0; j < $row$; ++j)", {{"row", r_.row}});
    emit_scalar_values(needed({g_.root}, true), "j", true);
    pr_.print("$out$[j] = $value$;", {{"out", out}, {"value", scalar_operand(g_.root)}});
    pr_.close();
  }

  // --- vector code ---------------------------------------------------------

  const TypeVocabulary* tv(std::size_t i) const {
    return is_half(node(i).dtype) ? voc_.type(ip_.isa, node(i).dtype) : f32_;
  }

  // The lanes of a partial vector of n lanes: a mask constant.
  std::string lane_mask(std::int64_t n) const {
    std::string words;
    for (int l = 0; l < ip_.lanes; ++l) words += fmt::format("{}{}", l ? ", " : "", l < n ? -1 : 0);
    return expand(iv_->mask_const, {{"words", words}, {"bits", fmt::format("{:#x}", low_lanes(n))}});
  }

  // The splat registers of the per-row values and literals that `nodes` read.
  void emit_splats(const std::vector<std::size_t>& nodes, const std::vector<std::size_t>& extra) {
    auto splat = [&](std::size_t a) {
      a = canon(a);
      if (r_.varying[a] || splat_[a]) return;
      pr_.print("const $vec$ c$node$$row$ = $value$;",
                {{"vec", f32_->vec}, {"node", a}, {"row", rs_}, {"value", expand(f32_->splat, {{"x", scalar_operand(a)}})}});
      splat_[a] = true;
    };
    for (std::size_t i : nodes) {
      for (std::size_t a : node(i).args) splat(a);
    }
    for (std::size_t a : extra) splat(a);
  }

  std::string vector_operand(std::size_t a, const std::string& suffix) const {
    a = canon(a);
    return r_.varying[a] ? fmt::format("t{}_{}{}", a, suffix, rs_) : fmt::format("c{}{}", a, rs_);
  }

  // The stashed node, where `nodes` (a pass's) compute it.
  std::optional<std::size_t> stash_in(const std::vector<std::size_t>& nodes) const {
    if (!r_.stash || std::find(nodes.begin(), nodes.end(), *r_.stash) == nodes.end()) return std::nullopt;
    return r_.stash;
  }

  // Node i for the vector at `base` + `off` (register t<i>_<suffix>); masked
  // loads under `mask` when it is not empty. In the output pass the stashed
  // node is loaded from the row's buffer.
  void emit_vector_node(std::size_t i, const std::string& suffix, const std::string& base, std::int64_t off,
                        const std::string& mask, bool output_pass) {
    const ExprNode& n = node(i);
    auto load = [&](const TypeVocabulary* t, const std::string& at) {
      return mask.empty() ? expand(t->load, {{"p", at}}) : expand(t->load_tail, {{"p", at}, {"t", mask}});
    };
    std::string value;
    if (output_pass && stashed(i)) {
      value = load(f32_, offset_expr(stash_name(), base, off));
    } else {
      switch (n.kind) {
        case ExprKind::Input: value = load(tv(i), offset_expr(ptr_[n.input], base, off)); break;
        case ExprKind::Cast: value = vector_operand(n.args[0], suffix); break;  // f16/bf16 loads widen to f32
        case ExprKind::Binary:
          value = expand(*voc_.op(ip_.isa, DType::F32, n.op),
                         {{"a", vector_operand(n.args[0], suffix)}, {"b", vector_operand(n.args[1], suffix)}});
          break;
        case ExprKind::Unary:
          value = expand(*voc_.unary(ip_.isa, DType::F32, n.unary), {{"x", vector_operand(n.args[0], suffix)}});
          break;
        default: value = "?"; break;
      }
    }
    pr_.print("const $vec$ t$node$_$suffix$$row$ = $value$;$note$",
              {{"vec", f32_->vec}, {"node", i}, {"suffix", suffix}, {"row", rs_}, {"value", value},
               {"note", output_pass && stashed(i) ? "  // the last pass's" : ""}});
  }

  // `count` whole vectors from row offset `first`: registers suffixed
  // <prefix>0, <prefix>1, ..., one vector apart.
  struct VectorGroup {
    std::vector<std::string> suffixes;
    std::vector<std::int64_t> offs;
  };
  VectorGroup group(const std::string& prefix, std::int64_t count, std::int64_t first) const {
    VectorGroup g;
    for (std::int64_t q = 0; q < count; ++q) {
      g.suffixes.push_back(fmt::format("{}{}", prefix, q));
      g.offs.push_back(first + q * ip_.lanes);
    }
    return g;
  }

  // The values of `nodes` for a group of vectors (suffixes[u] at base +
  // offs[u]), node by node; a math function takes two or four of them a
  // call where the plan packs it (IsaPlan::math_pack; simd/math_pack.inl).
  void emit_vector_group(const std::vector<std::size_t>& nodes, const std::vector<std::string>& suffixes,
                         const std::string& base, const std::vector<std::int64_t>& offs, const std::string& mask,
                         bool output_pass) {
    for (std::size_t i : nodes) {
      const std::size_t width = mask.empty() && !(output_pass && stashed(i)) && !ip_.math_pack.empty()
                                    ? static_cast<std::size_t>(ip_.math_pack[i])
                                    : 1;
      if (width <= 1 || suffixes.size() % width != 0) {
        for (std::size_t u = 0; u < suffixes.size(); ++u) emit_vector_node(i, suffixes[u], base, offs[u], mask, output_pass);
        continue;
      }
      const std::string ns = pack_namespace(static_cast<int>(width)), tuple = ns + "::f32v";
      for (std::size_t first = 0; first < suffixes.size(); first += width) {
        std::string args;
        for (std::size_t u = first; u < first + width; ++u) {
          args += (u > first ? ", " : "") + vector_operand(node(i).args[0], suffixes[u]);
        }
        const std::string pack = fmt::format("t{}_{}x{}{}", i, suffixes[first], width, rs_);
        const std::string call = expand(packed_call(*voc_.unary(ip_.isa, DType::F32, node(i).unary), static_cast<int>(width)),
                                        {{"x", tuple + "{{" + args + "}}"}});
        pr_.print("const $tuple$ $pack$ = $call$;", {{"tuple", tuple}, {"pack", pack}, {"call", call}});
        for (std::size_t u = first; u < first + width; ++u) {
          pr_.print("const $vec$ t$node$_$suffix$$row$ = $pack$.v[$k$];",
                    {{"vec", f32_->vec}, {"node", i}, {"suffix", suffixes[u]}, {"row", rs_}, {"pack", pack}, {"k", u - first}});
        }
      }
    }
  }

  // Partial vector q of reduction i.
  std::string partial(std::size_t i, int q) const { return fmt::format("a{}_{}{}", i, q, rs_); }

  std::string vector_combine(ReduceOp op, const std::string& a, const std::string& b) const {
    return expand(*voc_.op(ip_.isa, DType::F32, combine_op(op)), {{"a", a}, {"b", b}});
  }

  void emit_vector_pass(const std::vector<std::size_t>& reds) {
    const int L = ip_.lanes, R = RowPlan::kPartials / L;
    const std::int64_t P = RowPlan::kPartials;
    std::vector<std::size_t> targets;
    for (std::size_t i : reds) targets.push_back(node(i).args[0]);
    const std::vector<std::size_t> nodes = needed(targets);
    emit_splats(nodes, targets);
    for (std::size_t i : reds) {
      for (int q = 0; q < R; ++q) {
        pr_.print("$vec$ $partial$ = $value$;",
                  {{"vec", f32_->vec},
                   {"partial", partial(i, q)},
                   {"value", expand(f32_->splat, {{"x", fill("bcastgen::row_identity<$reduce$, float>()",
                                                             {{"reduce", reduce_enum(node(i).reduce)}})}})}});
      }
    }
    const std::optional<std::size_t> stash = stash_in(nodes);
    // Vector q of a group at base + off: into its partials, and the stashed
    // node into the row's buffer for the output pass.
    auto accumulate = [&](int q, const std::string& suffix, const std::string& base, std::int64_t off,
                          const std::string& mask) {
      for (std::size_t i : reds) {
        const std::string acc = partial(i, q);
        const std::string sum = vector_combine(node(i).reduce, acc, vector_operand(node(i).args[0], suffix));
        pr_.line(mask.empty() ? fmt::format("{} = {};", acc, sum)
                              : fmt::format("{} = {};", acc, expand(f32_->blend_tail, {{"t", mask}, {"x", sum}, {"y", acc}})));
      }
      if (!stash) return;
      const std::string at = offset_expr(stash_name(), base, off), reg = fmt::format("t{}_{}{}", *stash, suffix, rs_);
      pr_.line((mask.empty() ? expand(f32_->store, {{"p", at}, {"v", reg}})
                             : expand(f32_->store_tail, {{"p", at}, {"t", mask}, {"v", reg}})) +
               ";  // read back by the output pass");
    };
    const std::int64_t full = r_.row / P * P;
    if (full > 0) {
      pr_.print("// $partials$ partials in $regs$ registers: element j goes to partial j % $partials$",
                {{"partials", P}, {"regs", R}});
      pr_.open("for (std::int64_t j = 0; j < $end$; j += $partials$)", {{"end", full}, {"partials", P}});
      const VectorGroup g = group("", R, 0);
      emit_vector_group(nodes, g.suffixes, "j", g.offs, "", false);
      for (int q = 0; q < R; ++q) accumulate(q, g.suffixes[static_cast<std::size_t>(q)], "j", q * L, "");
      pr_.close();
    }
    // The rest of the row, at constant offsets (registers named for the pass).
    const std::int64_t rest = r_.row - full;
    const std::size_t tag = reds.front();
    const VectorGroup g = group(fmt::format("r{}_", tag), rest / L, full);
    emit_vector_group(nodes, g.suffixes, "", g.offs, "", false);
    for (std::size_t q = 0; q < g.suffixes.size(); ++q) accumulate(static_cast<int>(q), g.suffixes[q], "", g.offs[q], "");
    if (rest % L != 0) {
      const int q = static_cast<int>(rest / L);
      const std::string mask = fmt::format("tail{}{}", tag, rs_), suffix = fmt::format("t{}", tag);
      pr_.print("const $mask$ $name$ = $value$;  // the row's last $n$ elements",
                {{"mask", f32_->mask}, {"name", mask}, {"value", lane_mask(rest % L)}, {"n", rest % L}});
      emit_vector_group(nodes, {suffix}, "", {full + q * L}, mask, false);
      accumulate(q, suffix, "", full + q * L, mask);
    }
    const int align = isa_info(ip_.isa).vector_bytes;
    for (std::size_t i : reds) {
      for (int h = R / 2; h >= 1; h /= 2) {
        for (int q = 0; q < h; ++q) {
          pr_.print("$partial$ = $value$;",
                    {{"partial", partial(i, q)}, {"value", vector_combine(node(i).reduce, partial(i, q), partial(i, q + h))}});
        }
      }
      const std::string a = partial(i, 0);
      if (!f32_->lanes_down.empty() && !f32_->first_lane.empty()) {  // the same tree, inside the register
        for (int h = L / 2; h >= 1; h /= 2) {
          pr_.print("$a$ = $value$;",
                    {{"a", a},
                     {"value", vector_combine(node(i).reduce, a,
                                              expand(f32_->lanes_down, {{"h", std::to_string(h)}, {"x", a}}))}});
        }
        pr_.print("const float s$node$$row$ = $value$;",
                  {{"node", i}, {"row", rs_}, {"value", expand(f32_->first_lane, {{"x", a}})}});
        continue;
      }
      const std::string b = fmt::format("b{}{}", i, rs_);
      pr_.print("alignas($align$) float $buf$[$lanes$];", {{"align", align}, {"buf", b}, {"lanes", L}});
      pr_.line(expand(f32_->store, {{"p", b}, {"v", a}}) + ";");
      pr_.print("const float s$node$$row$ = bcastgen::row_tree<$reduce$>($buf$, $lanes$);",
                {{"node", i}, {"row", rs_}, {"reduce", reduce_enum(node(i).reduce)}, {"buf", b}, {"lanes", L}});
    }
  }

  // The store of the output's vector (the plan's IsaPlan::RootStores): the
  // root's register, or where the root rounds to f16 or bf16, its operand's.
  std::string store(const std::string& ptr, const std::string& suffix, const std::string& mask) const {
    const IsaPlan::RootStores& s = ip_.root_stores(streaming_);
    const std::string reg = vector_operand(canon(output_targets().front()), suffix);
    if (!mask.empty()) return expand(s.partial, {{"p", ptr}, {"t", mask}, {"v", reg}}) + ";";
    return expand(s.whole, {{"p", ptr}, {"v", reg}}) + ";";
  }

  // The root's value nodes: those of its operand where the root is the rounding store's cast.
  std::vector<std::size_t> output_targets() const {
    const std::size_t v = canon(g_.root);
    if (row_store_dtype(r_) != DType::F32) return {node(v).args[0]};
    return {v};
  }

  void emit_output_pass(const std::string& out) {
    if (!ip_.vector) {
      emit_scalar_output(out);
      return;
    }
    const int L = ip_.lanes, U = ip_.unroll;
    const std::int64_t step = static_cast<std::int64_t>(L) * U;
    const std::vector<std::size_t> targets = output_targets();
    const std::vector<std::size_t> nodes = needed(targets, true);
    pr_.print("// the output pass$of_b$: $unroll$ vectors of $lanes$ a step",
              {{"of_b", rs_.empty() ? "" : " of row b"}, {"unroll", U}, {"lanes", L}});
    emit_splats(nodes, targets);
    const std::int64_t main = r_.row / step * step;
    if (main > 0) {
      pr_.open("for (std::int64_t j = 0; j < $end$; j += $step$)", {{"end", main}, {"step", step}});
      const VectorGroup g = group("", U, 0);
      emit_vector_group(nodes, g.suffixes, "j", g.offs, "", true);
      for (int u = 0; u < U; ++u) pr_.line(store(offset_expr(out, "j", u * L), g.suffixes[static_cast<std::size_t>(u)], ""));
      emit_prefetches(step);
      pr_.close();
    }
    const std::int64_t rest = r_.row - main;
    const VectorGroup g = group("r", rest / L, main);
    emit_vector_group(nodes, g.suffixes, "", g.offs, "", true);
    for (std::size_t q = 0; q < g.suffixes.size(); ++q) pr_.line(store(offset_expr(out, "", g.offs[q]), g.suffixes[q], ""));
    if (rest % L != 0) {
      const std::int64_t off = main + rest / L * L;
      const std::string mask = "tail" + rs_;
      pr_.print("const $mask$ $name$ = $value$;  // the row's last $n$ elements",
                {{"mask", f32_->mask}, {"name", mask}, {"value", lane_mask(rest % L)}, {"n", rest % L}});
      emit_vector_group(nodes, {"t"}, "", {off}, mask, true);
      pr_.line(store(offset_expr(out, "", off), "t", mask));
    }
  }

  const KernelPlan& p_;
  const RowPlan& r_;
  const ExprDag& g_;
  const IsaPlan& ip_;
  const Vocabulary& voc_;
  bool streaming_;
  const TypeVocabulary* f32_ = nullptr;
  const IsaVocabulary* iv_ = nullptr;
  Printer& pr_;
  std::string rs_;                // the names' suffix: "" for row a, "_b" for row b
  std::vector<std::string> ptr_;  // per input, the row's pointer
  std::string out_;               // the row's output pointer
  std::vector<std::string> next_;  // per input, the next row's pointer, where it is prefetched
  std::vector<bool> known_;  // per node: its per-row scalar s<i> is declared
  std::vector<bool> splat_;  // per node: its splat register c<i> is declared
};

}  // namespace

std::string emit_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming) {
  const RowPlan& r = *p.rows;
  Printer pr;
  if (p.empty) {
    pr.line("(void)i0;");
    for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) pr.print("(void)in$k$;", {{"k", k}});
    pr.line("(void)out;");
    pr.line("// the output has no elements");
    return pr.take();
  }
  std::vector<std::string> ptrs;
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    ptrs.push_back(fmt::format("in{}", k));
    if (k < p.offsets.size() && p.offsets[k] != 0) {
      pr.print("const $type$* in$k$_at = in$k$ + $offset$;  // the first element its layout reads",
               {{"type", input_type(p, k)}, {"k", k}, {"offset", p.offsets[k]}});
      ptrs.back() = fmt::format("in{}_at", k);
    }
  }
  std::string out = "out";
  const std::string out_elem = dtype_info(p.out_dtype).cpp_type;
  auto advance_all = [&](const Loop& l, const std::string& i, std::size_t depth) {
    for (std::size_t k = 0; k < ptrs.size(); ++k) {
      advance_pointer(pr, ptrs[k], fmt::format("in{}", k), "const " + input_type(p, k), l.in[k], i, depth);
    }
    advance_pointer(pr, out, "out", out_elem, l.out, i, depth);
  };
  const std::size_t first =
      split_iteration(pr, p.split, "row block", r.outer, [&](const Loop& l) { advance_all(l, "i0", 0); });
  for (std::size_t d = first; d < r.outer.size(); ++d) {
    const std::string i = fmt::format("i{}", d);
    pr.open("for (std::int64_t $i$ = 0; $i$ < $extent$; ++$i$)", {{"i", i}, {"extent", r.outer[d].extent}});
    advance_all(r.outer[d], i, d);
  }
  pr.print("// $rows$ of $row$ elements: $passes$ reduction pass$es$, then $then$",
           {{"rows", r.rows_per_step == 2 ? "two rows (a, then b pass by pass)" : "one row"},
            {"row", r.row},
            {"passes", r.passes},
            {"es", r.passes == 1 ? "" : "es"},
            {"then", r.out_per_row ? "its one value" : "the output pass"}});
  if (r.stash) pr.print("// t$node$ (a math function's) is computed once, in the last pass, and read back", {{"node", *r.stash}});
  if (r.prefetch_next && ip.vector) pr.line("// the output pass prefetches the next step's rows: " + r.prefetch_why);
  std::vector<RowEmitter> rows;
  rows.emplace_back(p, ip, voc, streaming, pr, "", ptrs, out);
  if (r.rows_per_step == 2) {  // row b: one step of the paired loop on
    std::vector<std::string> next = ptrs;
    for (std::size_t k = 0; k < next.size(); ++k) {
      if (r.pair.in[k] == 0) continue;
      next[k] = fmt::format("in{}_b", k);
      pr.print("const $type$* $next$ = $ptr$ + $stride$;",
               {{"type", input_type(p, k)}, {"next", next[k]}, {"ptr", ptrs[k]}, {"stride", r.pair.in[k]}});
    }
    pr.print("$type$* out_b = $out$ + $stride$;", {{"type", out_elem}, {"out", out}, {"stride", r.pair.out}});
    rows.emplace_back(p, ip, voc, streaming, pr, "_b", next, "out_b");
  }
  for (RowEmitter& row : rows) row.begin();
  for (int k = 0; k < r.passes; ++k) {
    for (RowEmitter& row : rows) row.pass(k);
  }
  for (RowEmitter& row : rows) row.finish();
  for (std::size_t d = r.outer.size(); d-- > first;) pr.close("for i" + std::to_string(d));
  return pr.take();
}

}  // namespace bcastgen::gen
