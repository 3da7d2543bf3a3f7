// The statements every kind of row of an ISA variant's body is made of
// (the values of the DAG's nodes, scalar and in vectors, the loads and the
// stores the plan chose), and the loop nest around the row. Each kind of
// row (IsaPlan) is a class of its own that adds its constants, setups and
// row: ScalarRow (emit_body.cpp), VectorRow (emit_row_vector.cpp: steps,
// tails, patterns, held and peeled rows) and GatherBlock
// (emit_row_gather.cpp: rows shorter than a vector fused into a block).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "bcastgen/half.h"
#include "emit_printer.h"
#include "rows.h"

namespace bcastgen::gen {

class BodyCode {
 public:
  BodyCode(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming)
      : p_(p), ip_(ip), voc_(voc), dag_(p.spec.expr), streaming_(streaming) {
    if (ip.vector) {
      tv_ = voc.type(ip.isa, ip.lane_dtype);
      iv_ = voc.isa(ip.isa);
    }
    uses_.assign(dag_.nodes.size(), 0);
    for (const ExprNode& n : dag_.nodes) {
      if (n.kind == ExprKind::Expand) continue;  // not a use: the same value (canon)
      for (std::size_t a : n.args) ++uses_[canon(a)];
    }
    for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
      inputs_.push_back({fmt::format("in{}", k), fmt::format("in{}", k), ip.access[k], node_of_input(k), k});
    }
  }

  virtual ~BodyCode() = default;
  BodyCode(const BodyCode&) = delete;
  BodyCode& operator=(const BodyCode&) = delete;

  // The body: the constant outer loops (the split loop's iteration i0
  // arrives as a parameter), each input's setups where it changes, and the
  // row of this kind innermost.
  std::string emit() {
    if (p_.empty) {
      pr_.line("(void)i0;");
      for (const Input& in : inputs_) pr_.print("(void)$in$;", {{"in", in.name}});
      pr_.line("(void)out;");
      pr_.line("// the output has no elements");
      return pr_.take();
    }
    std::string out_ptr = "out";
    const std::string out_elem = dtype_info(p_.out_dtype).cpp_type;
    for (std::size_t k = 0; k < inputs_.size() && k < p_.offsets.size(); ++k) {
      if (p_.offsets[k] == 0) continue;
      inputs_[k].ptr = inputs_[k].name + "_at";
      pr_.print("const $type$* $ptr$ = $in$ + $offset$;  // the first element its layout reads",
                {{"type", elem(k)}, {"ptr", inputs_[k].ptr}, {"in", inputs_[k].name}, {"offset", p_.offsets[k]}});
    }
    auto advance = [&](std::string& ptr, const std::string& name, const std::string& type, std::int64_t stride,
                       const std::string& i, std::size_t depth) { advance_pointer(pr_, ptr, name, type, stride, i, depth); };
    auto advance_all = [&](const Loop& l, const std::string& i, std::size_t depth) {
      for (std::size_t k = 0; k < inputs_.size(); ++k) {
        advance(inputs_[k].ptr, inputs_[k].name, "const " + elem(k), l.in[k], i, depth);
      }
      advance(out_ptr, "out", out_elem, l.out, i, depth);
    };
    // A gathered block's constants come first, and each gathered or held
    // input's registers are built right after the deepest loop in which it
    // moves (-1: no loop).
    const bool gather = !ip_.block.empty();
    if (ip_.vector && (gather || vector_extent() > 0)) hoist_literals();
    std::vector<int> moves_at(inputs_.size(), -1);
    for (std::size_t d = 0; d < ip_.outer.size(); ++d) {
      for (std::size_t k = 0; k < inputs_.size(); ++k) {
        if (ip_.outer[d].in[k] != 0) moves_at[k] = static_cast<int>(d);
      }
    }
    row_constants();
    auto setups_at = [&](int depth) {
      for (std::size_t k = 0; k < inputs_.size(); ++k) {
        if (moves_at[k] != depth) continue;
        row_setup(k, depth);
      }
    };
    // The split loop runs outside this body: i0 arrives as a parameter.
    const std::size_t first =
        split_iteration(pr_, p_.split, "iteration", ip_.outer, [&](const Loop& l) { advance_all(l, "i0", 0); });
    setups_at(-1);
    if (p_.split) setups_at(0);
    // The other outer loops: constant extents and strides; an input that
    // does not move in a loop keeps its pointer.
    for (std::size_t d = first; d < ip_.outer.size(); ++d) {
      const std::string i = fmt::format("i{}", d);
      if (d + 1 == ip_.outer.size()) emit_tile_reads();
      pr_.open("for (std::int64_t $i$ = 0; $i$ < $extent$; ++$i$)", {{"i", i}, {"extent", ip_.outer[d].extent}});
      advance_all(ip_.outer[d], i, d);
      setups_at(static_cast<int>(d));
    }
    emit_row(out_ptr);
    for (std::size_t d = ip_.outer.size(); d-- > first;) pr_.close("for i" + std::to_string(d));
    return pr_.take();
  }

 protected:
  // What a kind of row adds to the nest: its constants before the loops,
  // input k's registers where it changes (after the loop at `depth`; -1
  // before any), and the row.
  virtual void row_constants() {}
  virtual void row_setup(std::size_t /*k*/, int /*depth*/) {}
  virtual void emit_row(const std::string& out_ptr) = 0;

  // Before the in-tile loop of transposed tiles (IsaPlan::tiles): each such
  // input's tile, transposed into a buffer that the loop reads row by row.
  void emit_tile_reads() {
    if (ip_.tiles.empty()) return;
    const std::size_t chunk_depth = ip_.outer.size() - 2;
    const Loop& chunks = ip_.outer[chunk_depth];
    const Loop& in_tile = ip_.outer.back();
    for (const IsaPlan::TileRead& r : ip_.tiles) {
      Input& in = inputs_[r.input];
      const std::string buf = in.name + "_tile";
      const std::int64_t rows = in_tile.extent, row = in_tile.in[r.input];
      const std::string ahead = chunks.extent > r.ahead
                                    ? fmt::format("i{} < {} ? {} : {}", chunk_depth, chunks.extent - r.ahead, r.near,
                                                  r.wrap)
                                    : std::to_string(r.wrap);
      pr_.print("// $in$ ($name$): this chunk's $rows$ x $row$ tile, $rows$ lines at stride $stride$ read whole and "
                "transposed in registers into $buf$ (L1), then read row by row; the tile $ahead$ chunks ahead "
                "prefetched",
                {{"in", in.name}, {"name", p_.spec.inputs[r.input].name}, {"rows", rows}, {"row", row},
                 {"stride", r.stride}, {"buf", buf}, {"ahead", r.ahead}});
      pr_.print("alignas(64) $type$ $buf$[$n$];", {{"type", elem(r.input)}, {"buf", buf}, {"n", rows * row}});
      const TypeVocabulary* t = voc_.type(ip_.isa, p_.spec.inputs[r.input].dtype);
      pr_.line(expand(t->transpose_tile, {{"p", in.ptr}, {"s", std::to_string(r.stride)}, {"a", ahead}, {"b", buf}}) +
               ";");
      in.ptr = buf;
    }
  }

  // One input of the row: its block parameter, pointer at the row, access, DAG node.
  struct Input {
    std::string name;  // "in0", ...
    std::string ptr;   // pointer expression at the start of the row
    Access access;
    std::size_t node;
    std::size_t node_input;  // its index among the kernel's inputs
  };

  std::size_t node_of_input(std::size_t k) const {
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) {
      if (dag_.nodes[i].kind == ExprKind::Input && dag_.nodes[i].input == k) return i;
    }
    return dag_.nodes.size();  // unused (the spec rejects that)
  }

  std::string elem(std::size_t k) const { return dtype_info(p_.spec.inputs[k].dtype).cpp_type; }
  const ExprNode& node(std::size_t i) const { return dag_.nodes[i]; }
  // The node whose value node i is (an Expand node's target only shaped the loops).
  std::size_t canon(std::size_t i) const { return expand_operand(dag_, i); }
  const Input* input_of(std::size_t i) const {
    return node(i).kind == ExprKind::Input ? &inputs_[node(i).input] : nullptr;
  }
  // A bool held as a compare result of the lanes (not as a byte vector).
  bool is_cmp(std::size_t i) const { return is_compare_result(dag_, i, ip_.lane_dtype); }

  // --- Scalar code --------------------------------------------------------

  // The scalar value of node i at row index `j` (`jv` when constant):
  // inputs and literals are read in place (a splat input from its hoisted
  // s<i>), nodes used once are nested into their user, and the nodes in
  // `named` are the temporaries s<i>.
  std::string scalar_value(std::size_t i, const std::string& j, std::int64_t jv, const std::set<std::size_t>& named) const {
    if (node(i).kind == ExprKind::Expand) return scalar_value(canon(i), j, jv, named);
    if (named.count(i)) return fmt::format("s{}", i);
    const ExprNode& n = node(i);
    switch (n.kind) {
      case ExprKind::Input: {
        const Input& in = inputs_[n.input];
        if (in.access == Access::Splat) return fmt::format("s{}", i);
        if (in.access == Access::Pattern) return fmt::format("{}[{}]", in.ptr, jv % ip_.period);
        if (in.access == Access::Strided) {
          const std::int64_t s = ip_.row_stride[n.input];
          return j == std::to_string(jv) ? fmt::format("{}[{}]", in.ptr, jv * s) : fmt::format("{}[{} * {}]", in.ptr, j, s);
        }
        return fmt::format("{}[{}]", in.ptr, j);
      }
      case ExprKind::Literal: return literal_cpp(n.literal, n.dtype);
      default: break;
    }
    std::vector<std::string> args;
    for (std::size_t a : n.args) args.push_back(scalar_value(a, j, jv, named));
    return scalar_call(n, args);
  }

  // Nodes computed once per element into a temporary: those used twice or more.
  std::set<std::size_t> shared_nodes() const {
    std::set<std::size_t> s;
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) {
      const ExprKind k = node(i).kind;
      if (uses_[i] > 1 && k != ExprKind::Input && k != ExprKind::Literal && k != ExprKind::Expand) s.insert(i);
    }
    return s;
  }

  // out[j] = the root, after the shared temporaries.
  void scalar_element(const std::string& out_ptr, const std::string& j, std::int64_t jv) {
    const std::set<std::size_t> shared = shared_nodes();
    std::set<std::size_t> done;
    for (std::size_t i : shared) {
      pr_.print("const $type$ s$node$ = $value$;",
                {{"type", dtype_info(node(i).dtype).cpp_type}, {"node", i}, {"value", scalar_value(i, j, jv, done)}});
      done.insert(i);
    }
    pr_.print("$out$[$j$] = $value$;", {{"out", out_ptr}, {"j", j}, {"value", scalar_value(dag_.root, j, jv, done)}});
  }

  void hoist_scalars() {
    for (const Input& in : inputs_) {
      if (in.access == Access::Splat && in.node < dag_.nodes.size()) {
        pr_.print("const $type$ s$node$ = $ptr$[0];",
                  {{"type", dtype_info(node(in.node).dtype).cpp_type}, {"node", in.node}, {"ptr", in.ptr}});
      }
    }
  }

  void emit_scalar_row(const std::string& out_ptr) {
    hoist_scalars();
    pr_.open("for (std::int64_t j = 0; j < $row$; ++j)", {{"row", ip_.row}});
    scalar_element(out_ptr, "j", 0);
    pr_.close();
  }

  // --- Vector code --------------------------------------------------------

  // The literal form planned for node i (IsaPlan::literal_minmax), if any.
  const IsaPlan::LiteralMinMax* literal_minmax(std::size_t i) const {
    for (const IsaPlan::LiteralMinMax& m : ip_.literal_minmax) {
      if (m.node == i) return &m;
    }
    return nullptr;
  }

  // Whether a vector reads literal i's register: a max/min's zero form
  // (LiteralForm::Zero) has the zero in its instructions.
  bool literal_in_vectors(std::size_t i) const {
    if (canon(dag_.root) == i) return true;
    for (std::size_t j = 0; j < dag_.nodes.size(); ++j) {
      const ExprNode& n = node(j);
      if (n.kind == ExprKind::Expand) continue;
      const IsaPlan::LiteralMinMax* m = literal_minmax(j);
      if (m && m->form == LiteralForm::Zero) continue;  // reads only m->x
      for (std::size_t a : n.args) {
        if (canon(a) == i) return true;
      }
    }
    return false;
  }

  // Literal splats, once, before every loop.
  void hoist_literals() {
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) {
      if (node(i).kind != ExprKind::Literal || !literal_in_vectors(i)) continue;
      pr_.print("const $vec$ t$node$ = $value$;  // literal $text$",
                {{"vec", tv(i)->vec}, {"node", i},
                 {"value", expand(tv(i)->splat, {{"x", literal_cpp(node(i).literal, node(i).dtype)}})},
                 {"text", node(i).literal.text}});
    }
  }

  // Registers of node i per vector (IsaPlan::parts), and the lanes of each.
  int parts(std::size_t i) const { return ip_.parts_of(i); }
  std::int64_t part_lanes(std::size_t i) const { return ip_.lanes / parts(i); }

  // The register holding node i (its part `part`) in the vector at row
  // offset `off` of a group whose registers end in `suffix`: t<node>_<suffix>,
  // and _<part> for a node of several registers.
  std::string vector_name(std::size_t i, const std::string& suffix, std::int64_t off, int part = 0) const {
    if (node(i).kind == ExprKind::Expand) return vector_name(canon(i), suffix, off, part);
    const ExprNode& n = node(i);
    if (n.kind == ExprKind::Literal) return fmt::format("t{}", i);
    if (const Input* in = input_of(i)) {
      if (in->access == Access::Splat) return fmt::format("t{}", i);
      if (in->access == Access::Pattern) {
        const std::int64_t period = static_cast<std::int64_t>(ip_.pattern_vectors) * ip_.lanes;
        return fmt::format("t{}_p{}", i, (off % period) / ip_.lanes);
      }
      if (in->access == Access::Gather) return fmt::format("t{}_g{}", i, off / ip_.lanes);
      if (held_at(*in, off)) return fmt::format("t{}_h{}", i, off / ip_.lanes);
    }
    return parts(i) == 1 ? fmt::format("t{}_{}", i, suffix) : fmt::format("t{}_{}_{}", i, suffix, part);
  }

  // The vector expression of part `part` of a computed node over its
  // operands' registers.
  std::string vector_expr(std::size_t i, const std::string& suffix, std::int64_t off, int part) const {
    const ExprNode& n = node(i);
    auto arg = [&](std::size_t a) { return vector_name(n.args[a], suffix, off, part); };
    switch (n.kind) {
      case ExprKind::Binary: {
        const DType t = form_dtype(i, node(n.args[0]).dtype);
        if (const IsaPlan::LiteralMinMax* m = literal_minmax(i)) {
          const auto form = voc_.literal_op(ip_.isa, t, n.op, m->form);
          // The planner only picks forms the vocabulary has.
          if (!form) throw Error(fmt::format("internal: no literal form planned for node {}", i));
          const std::string x = vector_name(m->x, suffix, off, part);
          if (m->form == LiteralForm::Zero) return expand(*form, {{"x", x}});
          return expand(*form, {{"n", vector_name(m->number, suffix, off, part)}, {"x", x}});
        }
        return expand(*voc_.op(ip_.isa, t, n.op), {{"a", arg(0)}, {"b", arg(1)}});
      }
      case ExprKind::Unary:
        return expand(*voc_.unary(ip_.isa, form_dtype(i, node(n.args[0]).dtype), n.unary), {{"x", arg(0)}});
      case ExprKind::Where: return expand(tv(i)->select, {{"c", arg(0)}, {"x", arg(1)}, {"y", arg(2)}});
      case ExprKind::Cast: return cast_expr(i, suffix, off, part);
      default: return "?";
    }
  }

  // Part `part` of a cast: between widths, a widening cast reads segment
  // {s} of one register of its operand, a narrowing one joins several.
  std::string cast_expr(std::size_t i, const std::string& suffix, std::int64_t off, int part) const {
    const std::size_t a = node(i).args[0];
    const int from = parts(a), to = parts(i);
    std::string x;
    int segment = 0;
    if (to > from) {
      x = vector_name(a, suffix, off, part / (to / from));
      segment = part % (to / from);
    } else {
      for (int k = 0; k < from / to; ++k) {
        x += (k ? ", " : "") + vector_name(a, suffix, off, part * (from / to) + k);
      }
    }
    return expand(*voc_.cast(ip_.isa, node(a).dtype, form_dtype(i, node(i).dtype)),
                  {{"x", x}, {"s", std::to_string(segment)}});
  }

  // The dtype whose vector form computes node i over operands of dtype t (plan.h).
  DType form_dtype(std::size_t i, DType t) const { return gen::form_dtype(dag_, i, t, ip_.isa, voc_); }

  // Whether input `in`'s vector at row offset `off` is one of its held
  // registers (a partial last vector is not: it reads as Stream).
  bool held_at(const Input& in, std::int64_t off) const {
    return in.access == Access::Held && off / ip_.lanes < ip_.held_vectors;
  }

  // Whether input `in` is loaded with each vector at row offset `off`.
  bool loaded_per_vector(const Input& in, std::int64_t off) const {
    return in.access == Access::Stream || in.access == Access::Strided || (in.access == Access::Held && !held_at(in, off));
  }

  // Where input `in`'s vector at row element base + off starts: a strided
  // input's lanes are `stride` elements apart.
  std::string input_at(const Input& in, const std::string& base, std::int64_t off) const {
    if (in.access != Access::Strided) return offset_expr(in.ptr, base, off);
    const std::int64_t s = ip_.row_stride[in.node_input];
    return base.empty() ? offset_expr(in.ptr, "", off * s) : offset_expr(in.ptr, fmt::format("{} * {}", base, s), off * s);
  }

  // The load of input `in` at `ptr` (masked by `mask` when not empty).
  std::string load(const Input& in, const std::string& ptr, const std::string& mask) const {
    if (in.access == Access::Strided) {
      const TypeVocabulary* t = tv(in.node);
      const std::string s = std::to_string(ip_.row_stride[in.node_input]);
      return mask.empty() ? expand(t->load_strided, {{"p", ptr}, {"s", s}})
                          : expand(t->load_strided_tail, {{"p", ptr}, {"s", s}, {"t", mask}});
    }
    if (is_cmp(in.node)) {
      return mask.empty() ? expand(tv_->load_cmp, {{"p", ptr}}) : expand(tv_->load_cmp_tail, {{"p", ptr}, {"t", mask}});
    }
    const TypeVocabulary* t = tv(in.node);
    return mask.empty() ? expand(t->load, {{"p", ptr}}) : expand(t->load_tail, {{"p", ptr}, {"t", mask}});
  }

  std::string reg_type(std::size_t i) const { return is_cmp(i) ? tv_->cmp : tv(i)->vec; }

  // The vocabulary of node i's registers: its own dtype's; a bool's is
  // the lanes' (a compare result), as the planner checked they agree.
  const TypeVocabulary* tv(std::size_t i) const {
    const DType t = node(i).dtype;
    return t == DType::Bool ? tv_ : voc_.type(ip_.isa, t);
  }

  // The computed nodes of one vector, in DAG order; `active` lanes hold
  // elements of the row (fewer than all in a masked vector).
  void emit_nodes(const std::string& suffix, std::int64_t off, int active) {
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) emit_node(i, suffix, off, active);
  }

  // Computed node i of one vector (nothing for inputs and literals).
  void emit_node(std::size_t i, const std::string& suffix, std::int64_t off, int active) {
    const ExprKind k = node(i).kind;
    if (k == ExprKind::Input || k == ExprKind::Literal || k == ExprKind::Expand) return;
    if (by_lanes(i)) {
      emit_lane_node(i, suffix, off, active);
      return;
    }
    for (int q = 0; q < parts(i); ++q) {
      pr_.print("const $vec$ $name$ = $value$;",
                {{"vec", reg_type(i)}, {"name", vector_name(i, suffix, off, q)}, {"value", vector_expr(i, suffix, off, q)}});
    }
  }

  // How many vectors of a step of four each call of node i takes: the
  // plan's (IsaPlan::math_pack), more than one for an f32 math function the
  // ISA has over two or four vectors at once.
  int math_pack_width(std::size_t i) const { return ip_.math_pack.empty() ? 1 : ip_.math_pack[i]; }

  // The nodes of a step of four whole vectors, node by node, each f32 math
  // function called once per two or four of them (math_pack_width, namespace
  // x2 or x4): a function's operations then alternate between the vectors in
  // the source, as GCC, which does not schedule them at -O2 on x86, emits
  // them (docs/benchmarks.md, "Math functions").
  void emit_nodes_packed(const std::string& tag, const std::vector<std::int64_t>& offs) {
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) {
      const std::size_t width = static_cast<std::size_t>(math_pack_width(i));
      if (width == 1) {
        for (std::size_t u = 0; u < offs.size(); ++u) emit_node(i, fmt::format("{}{}", tag, u), offs[u], ip_.lanes);
        continue;
      }
      const ExprNode& n = node(i);
      const std::string ns = pack_namespace(static_cast<int>(width)), tuple = ns + "::f32v";
      for (std::size_t first = 0; first < offs.size(); first += width) {
        std::string args;
        for (std::size_t u = first; u < first + width; ++u) {
          args += (u > first ? ", " : "") + vector_name(n.args[0], fmt::format("{}{}", tag, u), offs[u]);
        }
        const std::string pack = width == offs.size() ? fmt::format("t{}_{}x{}", i, tag, width)
                                                      : fmt::format("t{}_{}x{}_{}", i, tag, width, first / width);
        const std::string call = expand(packed_call(*voc_.unary(ip_.isa, DType::F32, n.unary), static_cast<int>(width)),
                                        {{"x", tuple + "{{" + args + "}}"}});
        pr_.print("const $tuple$ $pack$ = $call$;", {{"tuple", tuple}, {"pack", pack}, {"call", call}});
        for (std::size_t u = first; u < first + width; ++u) {
          pr_.print("const $vec$ $name$ = $pack$.v[$k$];", {{"vec", reg_type(i)},
                                                              {"name", vector_name(i, fmt::format("{}{}", tag, u), offs[u])},
                                                              {"pack", pack}, {"k", u - first}});
        }
      }
    }
  }

  // Whether a whole step of these vectors calls a math function over more
  // than one at once: four of them, and a node that packs.
  bool step_packs_math(std::size_t vectors, bool masked) const {
    if (vectors != 4 || masked) return false;
    for (std::size_t i = 0; i < dag_.nodes.size(); ++i) {
      if (math_pack_width(i) > 1) return true;
    }
    return false;
  }

  bool by_lanes(std::size_t i) const { return ip_.by_lanes(i); }

  // A node without a vector form (IsaPlan::lane_nodes): its operands are
  // stored to arrays, the scalar op runs on each active lane, and the
  // result is loaded back, so that the other nodes stay in vectors. Lanes
  // past the row are not computed (an integer divide must not see them).
  void emit_lane_node(std::size_t i, const std::string& suffix, std::int64_t off, int active) {
    const ExprNode& n = node(i);
    const int W = ip_.lanes;
    const std::string name = fmt::format("t{}_{}", i, suffix);
    const int align = isa_info(ip_.isa).vector_bytes;
    std::vector<std::string> lane_args;
    for (std::size_t a = 0; a < n.args.size(); ++a) {
      const std::size_t arg = n.args[a];
      const std::string buf = fmt::format("{}_arg{}", name, a);
      pr_.print("alignas($align$) $type$ $buf$[$lanes$];",
                {{"align", align}, {"type", dtype_info(node(arg).dtype).cpp_type}, {"buf", buf}, {"lanes", W}});
      for (int q = 0; q < parts(arg); ++q) {
        pr_.line(expand(tv(arg)->store, {{"p", offset_expr(buf, "", q * part_lanes(arg))},
                                         {"v", vector_name(arg, suffix, off, q)}}) + ";");
      }
      lane_args.push_back(buf + "[l]");
    }
    // A partial vector zeroes the lanes it does not compute.
    pr_.print("alignas($align$) $type$ $name$_lanes[$lanes$]$init$;", {{"align", align},
                                                                      {"type", dtype_info(n.dtype).cpp_type},
                                                                      {"name", name},
                                                                      {"lanes", W},
                                                                      {"init", active < W ? " = {}" : ""}});
    pr_.print("for (int l = 0; l < $active$; ++l) $name$_lanes[l] = $value$;  // no $isa$ vector form",
              {{"active", active}, {"name", name}, {"value", scalar_call(n, lane_args)}, {"isa", isa_name(ip_.isa)}});
    for (int q = 0; q < parts(i); ++q) {
      pr_.print("const $vec$ $reg$ = $value$;",
                {{"vec", tv(i)->vec},
                 {"reg", vector_name(i, suffix, off, q)},
                 {"value", expand(tv(i)->load, {{"p", offset_expr(name + "_lanes", "", q * part_lanes(i))}})}});
    }
  }

  // The store of the root's register `v` at `ptr` (the plan's
  // IsaPlan::RootStores); a masked one writes the first `active` lanes,
  // under `mask`.
  std::string store(const std::string& ptr, const std::string& v, bool masked, const std::string& mask,
                    std::int64_t active = 0) const {
    const IsaPlan::RootStores& s = root_stores();
    static const Form none;
    const Form& form = !masked ? s.whole : s.partial_first && active == 0 ? none : s.partial;
    // The planner only picks forms the vocabulary has; an empty one here is a planner bug.
    if (form.empty()) {
      throw Error(fmt::format("internal: no {} store form planned on {}", masked ? "masked" : "vector",
                              isa_name(ip_.isa)));
    }
    std::string stmt = expand(form, {{"p", ptr}, {"v", v}, {"m", v}, {"t", mask}, {"n", std::to_string(active)}});
    return stmt.back() == '}' ? stmt : stmt + ";";
  }

  const IsaPlan::RootStores& root_stores() const { return ip_.root_stores(streaming_); }
  // Whether the root's partial vectors store their first lanes by plain
  // stores (store_first), so that they need no mask.
  bool stores_first() const { return root_stores().partial_first; }

  // Whether the n vectors at offs[u], ... store as one group: adjacent in
  // the row, and the group starts at a multiple of n vectors of the row (so
  // a streamed pair is as aligned as the row), where `base` is one too.
  bool groups_at(const std::string& base, const std::vector<std::int64_t>& offs, std::size_t u, int n) const {
    const std::int64_t width = n * static_cast<std::int64_t>(ip_.lanes);
    if (u + n > offs.size() || offs[u] % width != 0 || !(base.empty() || ip_.step % width == 0)) return false;
    for (int k = 1; k < n; ++k) {
      if (offs[u + k] != offs[u] + k * ip_.lanes) return false;
    }
    return true;
  }

  // A group of vectors at offsets base + offs[i]: loads first, then the
  // nodes, then stores (as in XNNPACK's kernels: independent work side by
  // side), or, interleaved (a CPU kind's fact, IsaPlan::interleave), each
  // vector's loads, nodes and store together.
  void emit_vectors(const std::string& out_ptr, const std::string& base, const std::vector<std::int64_t>& offs,
                    const std::string& tag, bool masked, bool interleave = false) {
    auto loads = [&](std::size_t u) {
      const std::string suffix = fmt::format("{}{}", tag, u);
      for (const Input& in : inputs_) {
        if (!loaded_per_vector(in, offs[u])) continue;
        for (int q = 0; q < parts(in.node); ++q) {
          pr_.print("const $vec$ $reg$ = $value$;",
                    {{"vec", reg_type(in.node)},
                     {"reg", vector_name(in.node, suffix, offs[u], q)},
                     {"value", load(in, input_at(in, base, offs[u] + q * part_lanes(in.node)),
                                    masked ? tail_mask(in.node, q) : "")}});
        }
      }
    };
    auto nodes = [&](std::size_t u) {
      emit_nodes(fmt::format("{}{}", tag, u), offs[u], masked ? ip_.tail_lanes : ip_.lanes);
    };
    auto stores = [&](std::size_t u) {
      const std::size_t root = dag_.root;
      for (int q = 0; q < parts(root); ++q) {
        if (masked && stores_first() && lanes_in_part(root, q, ip_.tail_lanes) == 0) continue;  // nothing to store
        pr_.line(store(offset_expr(out_ptr, base, offs[u] + q * part_lanes(root)),
                       vector_name(root, fmt::format("{}{}", tag, u), offs[u], q), masked, tail_mask(root, q),
                       lanes_in_part(root, q, ip_.tail_lanes)));
      }
    };
    // The stores of vectors first[u] .. first[u] + size[first[u]] - 1 go
    // as one group where the plan has a group form (RootStores::group),
    // else each vector stores alone (size 1).
    const Form& group = root_stores().group;
    const int n = root_stores().group_size;
    std::vector<std::size_t> first(offs.size());
    std::vector<int> size(offs.size(), 1);
    for (std::size_t u = 0; u < offs.size();) {
      const int g = !masked && !group.empty() && groups_at(base, offs, u, n) ? n : 1;
      for (int k = 0; k < g; ++k) first[u + k] = u;
      size[u] = g;
      u += g;
    }
    auto store_of = [&](std::size_t u) {
      if (size[u] == 1) return stores(u);
      std::map<std::string, std::string> args = {{"p", offset_expr(out_ptr, base, offs[u])}};
      for (int k = 0; k < size[u]; ++k) {
        args[std::string(1, static_cast<char>('a' + k))] =
            vector_name(dag_.root, fmt::format("{}{}", tag, u + k), offs[u + k]);
      }
      pr_.line(expand(group, args) + ";");
    };
    // The group's store once its last vector is computed.
    auto last_of_group = [&](std::size_t u) { return u + 1 == first[u] + size[first[u]]; };
    if (interleave) {
      for (std::size_t u = 0; u < offs.size(); ++u) {
        loads(u);
        nodes(u);
        if (last_of_group(u)) store_of(first[u]);
      }
      return;
    }
    for (std::size_t u = 0; u < offs.size(); ++u) loads(u);
    if (step_packs_math(offs.size(), masked)) {
      emit_nodes_packed(tag, offs);
    } else {
      for (std::size_t u = 0; u < offs.size(); ++u) nodes(u);
    }
    for (std::size_t u = 0; u < offs.size(); ++u) {
      if (first[u] == u) store_of(u);
    }
  }

  // The mask of the partial vector for part `part` of node i: `tail`, or
  // tail<parts>_<part> for a node of several registers (emit_tail_masks).
  std::string tail_mask(std::size_t i, int part) const {
    return parts(i) == 1 ? "tail" : fmt::format("tail{}_{}", parts(i), part);
  }

  // Of a partial vector of `active` lanes, the lanes in part `part` of
  // node i's registers.
  std::int64_t lanes_in_part(std::size_t i, int part, std::int64_t active) const {
    const std::int64_t n = part_lanes(i);
    return std::clamp<std::int64_t>(active - part * n, 0, n);
  }

  // The masks of a partial vector of `active` lanes that its loads and
  // stores use: `tail`, and one per part for nodes of several registers.
  void emit_tail_masks(int active, std::int64_t off) {
    std::set<int> done;
    auto masks_of = [&](std::size_t i) {
      if (!done.insert(parts(i)).second) return;
      const std::int64_t n = part_lanes(i);
      for (int q = 0; q < parts(i); ++q) {
        const std::int64_t in_part = lanes_in_part(i, q, active);
        pr_.print("const $mask$ $name$ = $bits$$suffix$;", {{"mask", parts(i) == 1 ? tv_->mask : tv(i)->mask},
                                                                {"name", tail_mask(i, q)},
                                                                {"bits", fmt::format("{:#x}", low_lanes(in_part))},
                                                                {"suffix", n > 32 ? "ull" : ""}});
      }
    };
    for (const Input& in : inputs_) {
      if (loaded_per_vector(in, off)) masks_of(in.node);
    }
    if (!stores_first()) masks_of(dag_.root);
  }

  // Elements of the row covered by vector instructions (the rest, if any,
  // is the scalar tail).
  std::int64_t vector_extent() const {
    const std::int64_t whole = ip_.main_trips * ip_.step + static_cast<std::int64_t>(ip_.tail_vectors) * ip_.lanes;
    return isa_info(ip_.isa).mask_tail ? ip_.row : whole;
  }

  // A splat input: its one value of the row in every lane.
  void emit_splat(const Input& in) {
    const std::string x = fmt::format("{}[0]", in.ptr);
    pr_.print("const $vec$ t$node$ = $value$;",
              {{"vec", reg_type(in.node)},
               {"node", in.node},
               {"value", expand(is_cmp(in.node) ? tv_->splat_cmp : tv(in.node)->splat, {{"x", x}})}});
  }

  const KernelPlan& p_;
  const IsaPlan& ip_;
  const Vocabulary& voc_;
  const ExprDag& dag_;
  bool streaming_;
  const TypeVocabulary* tv_ = nullptr;
  const IsaVocabulary* iv_ = nullptr;
  std::vector<Input> inputs_;
  std::vector<int> uses_;
  Printer pr_;
};

// The body of each kind of row, over the same plan.
std::unique_ptr<BodyCode> scalar_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming);
std::unique_ptr<BodyCode> vector_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming);
std::unique_ptr<BodyCode> gather_block_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc,
                                            bool streaming);

}  // namespace bcastgen::gen
