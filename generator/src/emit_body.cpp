#include "emit_body.h"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace bcastgen::gen {
namespace {

// Indented lines, with labelled closing braces for deep nests.
class Printer {
 public:
  void line(const std::string& s) { out_ += std::string(2 * depth_, ' ') + s + "\n"; }
  void open(const std::string& head) {
    line(head + " {");
    ++depth_;
  }
  void close(const std::string& label = "") {
    --depth_;
    line(label.empty() ? "}" : "}  // " + label);
  }
  // The text, without the final newline (the template adds it).
  std::string take() {
    if (!out_.empty() && out_.back() == '\n') out_.pop_back();
    return std::move(out_);
  }

 private:
  std::string out_;
  int depth_ = 1;
};

// One input of the row: its parameter name, pointer at the row, access.
struct Input {
  std::string name;  // "a", "b" or "in"
  std::string ptr;   // pointer expression at the start of the row
  Access access;
};

std::string offset_expr(const std::string& ptr, const std::string& base, std::int64_t off) {
  if (base.empty()) return off == 0 ? ptr : fmt::format("{} + {}", ptr, off);
  return off == 0 ? fmt::format("{} + {}", ptr, base) : fmt::format("{} + {} + {}", ptr, base, off);
}

class BodyEmitter {
 public:
  BodyEmitter(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming)
      : p_(p), ip_(ip), streaming_(streaming), broadcast_(p.spec.op == Op::Broadcast) {
    if (ip.vector) {
      tv_ = voc.type(ip.isa, p.spec.dtype);
      iv_ = voc.isa(ip.isa);
      if (!broadcast_) op_expr_ = *voc.op(ip.isa, p.spec.dtype, p.spec.op);
    }
    elem_ = dtype_info(p.spec.dtype).cpp_type;
    out_elem_ = dtype_info(p.out_dtype).cpp_type;
    compare_ = op_kind(p.spec.op) == OpKind::Comparison;
  }

  std::string emit() {
    if (p_.inner == InnerClass::Empty) {
      for (const char* n : broadcast_ ? std::vector<const char*>{"i0", "in", "out"}
                                      : std::vector<const char*>{"i0", "a", "b", "out"}) {
        pr_.line(fmt::format("(void){};", n));
      }
      pr_.line("// the output has no elements");
      return pr_.take();
    }
    std::vector<Input> inputs;
    if (broadcast_) inputs = {{"in", "in", ip_.a}};
    else inputs = {{"a", "a", ip_.a}, {"b", "b", ip_.b}};
    std::string out_ptr = "out";
    auto advance = [&](std::string& ptr, const std::string& name, const std::string& type, std::int64_t stride,
                       const std::string& i, std::size_t depth) {
      if (stride == 0) return;
      const std::string next = fmt::format("{}{}", name, depth + 1);
      pr_.line(fmt::format("{}* {} = {} + {};", type, next, ptr, stride == 1 ? i : fmt::format("{} * {}", i, stride)));
      ptr = next;
    };
    auto advance_all = [&](const Loop& l, const std::string& i, std::size_t depth) {
      for (std::size_t k = 0; k < inputs.size(); ++k) {
        advance(inputs[k].ptr, inputs[k].name, "const " + elem_, k == 0 ? l.a : l.b, i, depth);
      }
      advance(out_ptr, "out", out_elem_, l.out, i, depth);
    };
    // A gathered block's constants come first, and each operand's lanes are
    // built right after the deepest loop in which it moves (-1: no loop).
    const bool gather = !ip_.block.empty();
    std::vector<int> moves_at(inputs.size(), -1);
    if (gather) {
      for (std::size_t d = 0; d < ip_.outer.size(); ++d) {
        if (ip_.outer[d].a != 0) moves_at[0] = static_cast<int>(d);
        if (inputs.size() > 1 && ip_.outer[d].b != 0) moves_at[1] = static_cast<int>(d);
      }
      emit_gather_constants(inputs);
    }
    auto setups_at = [&](int depth) {
      for (std::size_t k = 0; gather && k < inputs.size(); ++k) {
        if (moves_at[k] == depth) emit_gather_setup(inputs[k], k == 0 ? ip_.a_span : ip_.b_span);
      }
    };
    // The split loop runs outside this body: i0 arrives as a parameter.
    std::size_t first = 0;
    if (p_.split) {
      pr_.line(fmt::format("// iteration i0 of the split loop (extent {})", ip_.outer.front().extent));
      advance_all(ip_.outer.front(), "i0", 0);
      first = 1;
    } else {
      pr_.line("(void)i0;  // one piece: no split loop");
    }
    setups_at(-1);
    if (p_.split) setups_at(0);
    // The other outer loops: constant extents and strides; an operand that
    // does not move in a loop keeps its pointer.
    for (std::size_t d = first; d < ip_.outer.size(); ++d) {
      const std::string i = fmt::format("i{}", d);
      pr_.open(fmt::format("for (std::int64_t {0} = 0; {0} < {1}; ++{0})", i, ip_.outer[d].extent));
      advance_all(ip_.outer[d], i, d);
      setups_at(static_cast<int>(d));
    }
    if (gather) emit_gather_row(inputs, out_ptr);
    else if (ip_.vector) emit_vector_row(inputs, out_ptr);
    else emit_scalar_row(inputs, out_ptr);
    for (std::size_t d = ip_.outer.size(); d-- > first;) pr_.close(fmt::format("for i{}", d));
    return pr_.take();
  }

 private:
  // The scalar value of input `in` at row index `j` (an expression).
  std::string scalar_at(const Input& in, const std::string& j) const {
    if (in.access == Access::Splat) return "s" + in.name;
    return fmt::format("{}[{}]", in.ptr, j);
  }

  std::string scalar_op(const std::vector<Input>& inputs, const std::string& j) const {
    if (broadcast_) return scalar_at(inputs[0], j);
    return fmt::format("bcastgen::ops::{}({}, {})", op_name(p_.spec.op), scalar_at(inputs[0], j),
                       scalar_at(inputs[1], j));
  }

  void hoist_scalars(const std::vector<Input>& inputs) {
    for (const Input& in : inputs) {
      if (in.access == Access::Splat) pr_.line(fmt::format("const {} s{} = {}[0];", elem_, in.name, in.ptr));
    }
  }

  void emit_scalar_row(const std::vector<Input>& inputs, const std::string& out_ptr) {
    hoist_scalars(inputs);
    pr_.open(fmt::format("for (std::int64_t j = 0; j < {}; ++j)", ip_.row));
    pr_.line(fmt::format("{}[j] = {};", out_ptr, scalar_op(inputs, "j")));
    pr_.close();
  }

  // The register holding input `in` for the vector at row offset `off`.
  std::string vector_name(const Input& in, const std::string& suffix, std::int64_t off) const {
    if (in.access == Access::Splat) return "v" + in.name;
    if (in.access == Access::Pattern) {
      const std::int64_t period = static_cast<std::int64_t>(ip_.pattern_vectors) * ip_.lanes;
      return fmt::format("p{}{}", in.name, (off % period) / ip_.lanes);
    }
    return fmt::format("v{}{}", in.name, suffix);
  }

  // A group of vectors at offsets base + offs[i], loads first, then ops,
  // then stores (as in XNNPACK's kernels: independent work side by side).
  void emit_vectors(const std::vector<Input>& inputs, const std::string& out_ptr, const std::string& base,
                    std::int64_t base_value, const std::vector<std::int64_t>& offs, const std::string& tag,
                    bool masked) {
    std::vector<std::string> results;
    for (std::size_t u = 0; u < offs.size(); ++u) {
      const std::string suffix = fmt::format("{}{}", tag, u);
      for (const Input& in : inputs) {
        if (in.access != Access::Stream) continue;
        const std::string ptr = offset_expr(in.ptr, base, offs[u]);
        pr_.line(fmt::format("const {} v{}{} = {};", tv_->vec, in.name, suffix,
                             expand(masked ? tv_->load_tail : tv_->load, {{"p", ptr}, {"t", "tail"}})));
      }
    }
    for (std::size_t u = 0; u < offs.size(); ++u) {
      const std::string suffix = fmt::format("{}{}", tag, u);
      const std::int64_t row_off = base_value + offs[u];
      if (broadcast_) {
        results.push_back(vector_name(inputs[0], suffix, row_off));
        continue;
      }
      const std::string r = "r" + suffix;
      pr_.line(fmt::format("const {} {} = {};", compare_ ? tv_->cmp : tv_->vec, r,
                           expand(op_expr_, {{"a", vector_name(inputs[0], suffix, row_off)},
                                             {"b", vector_name(inputs[1], suffix, row_off)}})));
      results.push_back(r);
    }
    for (std::size_t u = 0; u < offs.size(); ++u) {
      const std::string ptr = offset_expr(out_ptr, base, offs[u]);
      std::string pattern;
      if (compare_) pattern = masked ? tv_->store_bool_tail : tv_->store_bool;
      else if (masked) pattern = tv_->store_tail;
      else pattern = streaming_ ? tv_->stream : tv_->store;
      std::string stmt = expand(pattern, {{"p", ptr}, {"v", results[u]}, {"m", results[u]}, {"t", "tail"}});
      pr_.line(stmt.back() == '}' ? stmt : stmt + ";");
    }
  }

  // Elements of the row covered by vector instructions (the rest, if any,
  // is the scalar tail).
  std::int64_t vector_extent() const {
    const std::int64_t whole = ip_.main_trips * ip_.step + static_cast<std::int64_t>(ip_.tail_vectors) * ip_.lanes;
    return iv_->mask_tail ? ip_.row : whole;
  }

  void emit_vector_row(const std::vector<Input>& inputs, const std::string& out_ptr) {
    const int W = ip_.lanes;
    for (const Input& in : inputs) {
      if (vector_extent() == 0) break;  // a row shorter than a vector: all scalar
      if (in.access == Access::Splat) {
        pr_.line(fmt::format("const {} v{} = {};", tv_->vec, in.name,
                             expand(tv_->splat, {{"x", fmt::format("{}[0]", in.ptr)}})));
      } else if (in.access == Access::Pattern) {
        emit_pattern(in);
      }
    }
    const std::int64_t main_end = ip_.main_trips * ip_.step;
    if (ip_.main_trips > 0) {
      pr_.line(fmt::format("// {} iterations of {} elements ({} lanes x {})", ip_.main_trips, ip_.step, W,
                           ip_.unroll));
      pr_.open(fmt::format("for (std::int64_t j = 0; j < {}; j += {})", main_end, ip_.step));
      std::vector<std::int64_t> offs;
      for (int u = 0; u < ip_.unroll; ++u) offs.push_back(static_cast<std::int64_t>(u) * W);
      emit_vectors(inputs, out_ptr, "j", 0, offs, "", false);
      pr_.close("for j");
    }
    if (ip_.tail_vectors > 0) {
      pr_.line(fmt::format("// tail: {} whole vector{} at {}", ip_.tail_vectors, ip_.tail_vectors > 1 ? "s" : "",
                           main_end));
      std::vector<std::int64_t> offs;
      for (int v = 0; v < ip_.tail_vectors; ++v) offs.push_back(main_end + static_cast<std::int64_t>(v) * W);
      emit_vectors(inputs, out_ptr, "", 0, offs, "t", false);
    }
    if (ip_.tail_lanes > 0) {
      const std::int64_t start = main_end + static_cast<std::int64_t>(ip_.tail_vectors) * W;
      if (iv_->mask_tail) {
        const std::uint64_t mask = ip_.tail_lanes >= 64 ? ~0ull : (1ull << ip_.tail_lanes) - 1;
        pr_.line(fmt::format("// tail: the last {} elements, lanes 0..{} of one masked vector", ip_.tail_lanes,
                             ip_.tail_lanes - 1));
        pr_.line(fmt::format("const {} tail = {:#x}{};", tv_->mask, mask, W > 32 ? "ull" : ""));
        emit_vectors(inputs, out_ptr, "", 0, {start}, "m", true);
      } else {
        pr_.line(fmt::format("// tail: the last {} elements, one by one", ip_.tail_lanes));
        hoist_scalars(inputs);
        for (int e = 0; e < ip_.tail_lanes; ++e) {
          const std::int64_t j = start + e;
          // A repeating operand is read at j modulo its period.
          auto value = [&](const Input& in) {
            if (in.access == Access::Splat) return "s" + in.name;
            return fmt::format("{}[{}]", in.ptr, in.access == Access::Pattern ? j % ip_.period : j);
          };
          const std::string expr =
              broadcast_ ? value(inputs[0])
                         : fmt::format("bcastgen::ops::{}({}, {})", op_name(p_.spec.op), value(inputs[0]),
                                       value(inputs[1]));
          pr_.line(fmt::format("{}[{}] = {};", out_ptr, j, expr));
        }
      }
    }
  }

  // The repeating operand: lcm(period, lanes) elements built once per row,
  // then held in registers so the row needs no per-period loop.
  void emit_pattern(const Input& in) {
    const int W = ip_.lanes;
    const std::int64_t n = static_cast<std::int64_t>(ip_.pattern_vectors) * W;
    // Only the registers some vector of the row uses (a short row may not reach all).
    std::set<int> used;
    for (std::int64_t off = 0; off < vector_extent() && static_cast<int>(used.size()) < ip_.pattern_vectors;
         off += W) {
      used.insert(static_cast<int>((off % n) / W));
    }
    pr_.line(fmt::format("// {} repeats every {} elements: {} = lcm({}, {}) elements in {} registers", in.name,
                         ip_.period, n, ip_.period, W, ip_.pattern_vectors));
    pr_.line(fmt::format("alignas(64) {} pattern_{}[{}];", elem_, in.name, n));
    pr_.line(fmt::format("for (int k = 0; k < {}; ++k) pattern_{}[k] = {}[k % {}];", n, in.name, in.ptr,
                         ip_.period));
    for (int r : used) {
      pr_.line(fmt::format("const {} p{}{} = {};", tv_->vec, in.name, r,
                           expand(tv_->load, {{"p", offset_expr("pattern_" + in.name, "", static_cast<std::int64_t>(r) * W)}})));
    }
  }

  // --- Gathered blocks (IsaPlan::block) ---------------------------------

  // Vectors in one block: the whole ones and the masked last one.
  int block_vectors() const { return ip_.tail_vectors + (ip_.tail_lanes ? 1 : 0); }

  // Element e of the block, as an offset into an operand with the block's
  // strides `stride`: the mixed-radix digits of e times the strides.
  std::int64_t block_offset(std::int64_t e, std::int64_t Loop::*stride) const {
    std::int64_t off = 0;
    for (std::size_t f = ip_.block.size(); f-- > 0;) {
      off += (e % ip_.block[f].extent) * (ip_.block[f].*stride);
      e /= ip_.block[f].extent;
    }
    return off;
  }

  // Element indices as 32-bit word indices: an element of w words (w = 2
  // for 64-bit types) occupies words w*x .. w*x+w-1.
  std::string words(const std::vector<std::int64_t>& elements) const {
    const int w = dtype_size(p_.spec.dtype) / 4;
    std::string s;
    for (std::int64_t x : elements) {
      for (int k = 0; k < w; ++k) s += fmt::format("{}{}", s.empty() ? "" : ", ", x * w + k);
    }
    return s;
  }

  // A lane mask with the first n lanes set: -1 in every 32-bit word of a
  // set lane ({words}, AVX2) or one bit per lane ({bits}, AVX-512).
  std::string lane_mask(int n) const {
    const int w = dtype_size(p_.spec.dtype) / 4;
    std::string word_list;
    for (int l = 0; l < ip_.lanes * w; ++l) word_list += fmt::format("{}{}", l ? ", " : "", l / w < n ? -1 : 0);
    const std::uint64_t bits = n >= 64 ? ~0ull : (1ull << n) - 1;
    return expand(iv_->mask_const, {{"words", word_list}, {"bits", fmt::format("{:#x}", bits)}});
  }

  // Index vectors for each Gather operand and vector of the block, and the
  // masks for partial spans and the partial last vector.
  void emit_gather_constants(const std::vector<Input>& inputs) {
    const int W = ip_.lanes;
    const int vectors = block_vectors();
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const Input& in = inputs[k];
      if (in.access != Access::Gather) continue;
      auto stride = k == 0 ? &Loop::a : &Loop::b;
      pr_.line(fmt::format("// {}: output element e of the block reads {}[index(e)]; lane l of vector v is e = v*{} + l",
                           in.name, in.name, W));
      for (int v = 0; v < vectors; ++v) {
        std::vector<std::int64_t> idx;
        for (int l = 0; l < W; ++l) {
          const std::int64_t e = static_cast<std::int64_t>(v) * W + l;
          idx.push_back(e < ip_.row ? block_offset(e, stride) : 0);
        }
        pr_.line(fmt::format("const {} index_{}{} = {};", iv_->index, in.name, v,
                             expand(iv_->index_const, {{"words", words(idx)}})));
      }
      const std::int64_t span = k == 0 ? ip_.a_span : ip_.b_span;
      if (span < W) {
        pr_.line(fmt::format("const {} span_mask_{} = {};  // {} elements", tv_->mask, in.name,
                             lane_mask(static_cast<int>(span)), span));
      }
    }
    if (ip_.tail_lanes) {
      pr_.line(fmt::format("const {} tail = {};  // the last {} elements of the block", tv_->mask,
                           lane_mask(ip_.tail_lanes), ip_.tail_lanes));
    }
  }

  // Where an operand changes: load its span once and permute it into one
  // register per vector of the block (a Splat operand: one broadcast).
  void emit_gather_setup(const Input& in, std::int64_t span) {
    if (in.access == Access::Splat) {
      pr_.line(fmt::format("const {} v{} = {};", tv_->vec, in.name,
                           expand(tv_->splat, {{"x", fmt::format("{}[0]", in.ptr)}})));
      return;
    }
    if (in.access != Access::Gather) return;
    const std::string load = span < ip_.lanes ? expand(tv_->load_tail, {{"p", in.ptr}, {"t", "span_mask_" + in.name}})
                                              : expand(tv_->load, {{"p", in.ptr}});
    pr_.line(fmt::format("const {} span_{} = {};  // {}[0..{}]", tv_->vec, in.name, load, in.name, span - 1));
    const int vectors = block_vectors();
    for (int v = 0; v < vectors; ++v) {
      pr_.line(fmt::format("const {} g{}{} = {};", tv_->vec, in.name, v,
                           expand(tv_->permute, {{"v", "span_" + in.name}, {"i", fmt::format("index_{}{}", in.name, v)}})));
    }
  }

  // The block: whole vectors, then the partial one under the mask `tail`.
  void emit_gather_row(const std::vector<Input>& inputs, const std::string& out_ptr) {
    const int W = ip_.lanes;
    pr_.line(fmt::format("// the block: {} elements = {} vector{}{}", ip_.row, ip_.tail_vectors,
                         ip_.tail_vectors == 1 ? "" : "s",
                         ip_.tail_lanes ? fmt::format(" + {} masked lanes", ip_.tail_lanes) : ""));
    const int vectors = block_vectors();
    for (int v = 0; v < vectors; ++v) {
      const bool part = v == ip_.tail_vectors;
      const std::int64_t off = static_cast<std::int64_t>(v) * W;
      auto operand = [&](const Input& in) {
        if (in.access == Access::Splat) return "v" + in.name;
        if (in.access == Access::Gather) return fmt::format("g{}{}", in.name, v);
        const std::string ptr = offset_expr(in.ptr, "", off);
        return part ? expand(tv_->load_tail, {{"p", ptr}, {"t", "tail"}}) : expand(tv_->load, {{"p", ptr}});
      };
      const std::string r = broadcast_ ? operand(inputs[0])
                                       : expand(op_expr_, {{"a", operand(inputs[0])}, {"b", operand(inputs[1])}});
      const std::string ptr = offset_expr(out_ptr, "", off);
      pr_.line((part ? expand(tv_->store_tail, {{"p", ptr}, {"t", "tail"}, {"v", r}})
                     : expand(tv_->store, {{"p", ptr}, {"v", r}})) + ";");
    }
  }

  const KernelPlan& p_;
  const IsaPlan& ip_;
  bool streaming_, broadcast_, compare_ = false;
  const TypeVocabulary* tv_ = nullptr;
  const IsaVocabulary* iv_ = nullptr;
  std::string op_expr_, elem_, out_elem_;
  Printer pr_;
};

}  // namespace

std::string emit_variant_body(const KernelPlan& plan, const IsaPlan& isa, const Vocabulary& vocabulary,
                              bool streaming) {
  return BodyEmitter(plan, isa, vocabulary, streaming).emit();
}

}  // namespace bcastgen::gen
