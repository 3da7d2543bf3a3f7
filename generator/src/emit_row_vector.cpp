// A row of vectors (IsaPlan::vector without a gathered block): the main
// loop's steps, the whole vectors and the partial one after them, repeating
// (Pattern) and held inputs, and rows peeled to the output's lines.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "emit_body_code.h"

namespace bcastgen::gen {
namespace {

class VectorRow : public BodyCode {
 public:
  using BodyCode::BodyCode;

 private:
  void row_setup(std::size_t k, int depth) override {
    if (inputs_[k].access == Access::Held) emit_held_setup(k, depth);
  }
  void emit_row(const std::string& out_ptr) override { emit_vector_row(out_ptr); }

  void emit_vector_row(const std::string& out_ptr) {
    if (ip_.peel) return emit_peeled_row(out_ptr);
    const int W = ip_.lanes;
    for (const Input& in : inputs_) {
      if (vector_extent() == 0) break;  // a row shorter than a vector: all scalar
      if (in.access == Access::Splat) emit_splat(in);
      else if (in.access == Access::Pattern) emit_pattern(in);
    }
    const std::int64_t main_end = ip_.main_trips * ip_.step;
    if (ip_.main_trips > 0) emit_steps(out_ptr, main_end);
    if (ip_.held_vectors > 0) {
      // The whole row, straight-line, one scope per group: vector v reads
      // held register v.
      for (int g = 0; g < ip_.held_vectors; g += ip_.unroll) {
        const int n = std::min(ip_.unroll, ip_.held_vectors - g);
        pr_.open_scope(fill("elements $first$..$last$ of the row ($n$ vector$s$)",
                            {{"first", g * W}, {"last", (g + n) * W - 1}, {"n", n}, {"s", n > 1 ? "s" : ""}}));
        std::vector<std::int64_t> offs;
        for (int v = g; v < g + n; ++v) offs.push_back(static_cast<std::int64_t>(v) * W);
        emit_vectors(out_ptr, "", offs, "", false, ip_.interleave);
        pr_.close();
      }
    } else if (ip_.tail_vectors > 0) {
      emit_whole_vectors(out_ptr, main_end, ip_.tail_vectors, "tail: ");
    }
    if (ip_.tail_lanes > 0) {
      const std::int64_t start = main_end + static_cast<std::int64_t>(ip_.tail_vectors) * W;
      if (isa_info(ip_.isa).mask_tail) {
        pr_.print("// tail: the last $n$ elements, lanes 0..$last$ of one masked vector",
                  {{"n", ip_.tail_lanes}, {"last", ip_.tail_lanes - 1}});
        emit_tail_masks(ip_.tail_lanes, start);
        emit_vectors(out_ptr, "", {start}, "m", true);
      } else {
        pr_.print("// tail: the last $n$ elements, one by one", {{"n", ip_.tail_lanes}});
        hoist_scalars();
        const bool braces = !shared_nodes().empty();
        for (int e = 0; e < ip_.tail_lanes; ++e) {
          const std::int64_t j = start + e;
          if (braces) pr_.open("");
          scalar_element(out_ptr, std::to_string(j), j);
          if (braces) pr_.close();
        }
      }
    }
  }

  // The main loop: j from 0 to `end` by whole steps, the step's vectors at
  // each j.
  void emit_steps(const std::string& out_ptr, std::int64_t end) {
    const std::int64_t trips = end / ip_.step;
    pr_.print("// $trips$ iterations of $step$ elements ($lanes$ lanes x $unroll$)",
              {{"trips", trips}, {"step", ip_.step}, {"lanes", ip_.lanes}, {"unroll", ip_.unroll}});
    // Unrolled as planned, not whole by the compiler (the file's head says why).
    if (trips > 1) pr_.line("#pragma GCC unroll 1");
    pr_.open("for (std::int64_t j = 0; j < $end$; j += $step$)", {{"end", end}, {"step", ip_.step}});
    std::vector<std::int64_t> offs;
    for (int u = 0; u < ip_.unroll; ++u) offs.push_back(static_cast<std::int64_t>(u) * ip_.lanes);
    emit_vectors(out_ptr, "j", offs, "", false, ip_.interleave);
    pr_.close("for j");
  }

  // `count` whole vectors from element `from` of the row, straight-line.
  void emit_whole_vectors(const std::string& out_ptr, std::int64_t from, int count, const std::string& label) {
    pr_.print("// $label$$n$ whole vector$s$ at $from$",
              {{"label", label}, {"n", count}, {"s", count > 1 ? "s" : ""}, {"from", from}});
    std::vector<std::int64_t> offs;
    for (int v = 0; v < count; ++v) offs.push_back(from + static_cast<std::int64_t>(v) * ip_.lanes);
    emit_vectors(out_ptr, "", offs, "t", false);
  }

  // A row peeled to the output's lines (IsaPlan::peel): the lanes up to
  // the next line (`head`, 0 to lanes - 1, from the output pointer), masked;
  // then, from pointers `head` elements further, the steps and whole
  // vectors that every head leaves, at constant offsets, each storing whole
  // lines; then the `rest` (a constant minus head), in one or two masked
  // vectors. Only head, and so rest, is known at run time.
  void emit_peeled_row(const std::string& out_ptr) {
    const int W = ip_.lanes;
    const int line = isa_info(ip_.isa).vector_bytes;
    for (const Input& in : inputs_) {
      if (in.access == Access::Splat) emit_splat(in);
    }
    // One vector at `off` under the mask of its first `lanes` lanes.
    auto masked_vector = [&](const std::string& out, std::int64_t off, const std::string& lanes,
                             const std::string& tag) {
      const std::string mask = expand(iv_->mask_first, {{"mask", tv_->mask}, {"n", lanes}});
      pr_.print("const $mask$ tail = $value$;", {{"mask", tv_->mask}, {"value", mask}});
      emit_vectors(out, "", {off}, tag, true);
    };
    pr_.print("// peel: the row's lanes before $out$'s next $line$-byte line (0 to $last$), masked",
              {{"out", out_ptr}, {"line", line}, {"last", W - 1}});
    pr_.print("const std::int64_t head = static_cast<std::int64_t>((0 - reinterpret_cast<std::uintptr_t>($out$)) % "
              "$line$ / $lane_bytes$);",
              {{"out", out_ptr}, {"line", line}, {"lane_bytes", line / W}});
    pr_.open("if (head != 0)");
    masked_vector(out_ptr, 0, "head", "h");
    pr_.close();
    // From the line on: every streamed operand and out, head elements further.
    const std::vector<Input> row_inputs = inputs_;
    for (std::size_t k = 0; k < inputs_.size(); ++k) {
      if (inputs_[k].access != Access::Stream) continue;
      const std::string shifted = inputs_[k].name + "_line";
      pr_.print("const $type$* $ptr$ = $from$ + head;", {{"type", elem(k)}, {"ptr", shifted}, {"from", inputs_[k].ptr}});
      inputs_[k].ptr = shifted;
    }
    const std::string out = "out_line";
    pr_.print("$type$* $ptr$ = $from$ + head;", {{"type", dtype_info(p_.out_dtype).cpp_type}, {"ptr", out}, {"from", out_ptr}});
    // What every head leaves: the steps, then whole vectors, then 0 to
    // lanes - 1 elements more than the least rest.
    const std::int64_t least = ip_.row - (W - 1);
    const std::int64_t steps_end = least / ip_.step * ip_.step;
    const std::int64_t start = steps_end + (least - steps_end) / W * W;
    const std::int64_t least_rest = least - start;
    if (steps_end > 0) emit_steps(out, steps_end);
    if (start > steps_end) emit_whole_vectors(out, steps_end, static_cast<int>((start - steps_end) / W), "");
    const std::int64_t most_rest = least_rest + W - 1;
    pr_.print("// the rest: $least$ to $most$ elements, masked", {{"least", least_rest}, {"most", most_rest}});
    pr_.print("const std::int64_t rest = $n$ - head;", {{"n", ip_.row - start}});
    if (most_rest <= W) {
      pr_.open(least_rest == 0 ? "if (rest != 0)" : "");
      masked_vector(out, start, "rest", "m");
      pr_.close();
    } else {
      pr_.open("");
      masked_vector(out, start, fmt::format("rest < {0} ? rest : {0}", W), "m");
      pr_.close();
      pr_.open("if (rest > $lanes$)", {{"lanes", W}});
      masked_vector(out, start + W, fmt::format("rest - {}", W), "n");
      pr_.close();
    }
    inputs_ = row_inputs;
  }

  // A repeating input: lcm(period, lanes) elements built once per row,
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
    const std::string name = p_.spec.inputs[node(in.node).input].name;
    pr_.print("// $in$ ($name$) repeats every $period$ elements: $n$ = lcm($period$, $lanes$) elements in $regs$ "
              "registers",
              {{"in", in.name}, {"name", name}, {"period", ip_.period}, {"n", n}, {"lanes", W},
               {"regs", ip_.pattern_vectors}});
    const std::string buf = fmt::format("pattern{}", in.name.substr(2));
    pr_.print("alignas(64) $type$ $buf$[$n$];", {{"type", dtype_info(node(in.node).dtype).cpp_type}, {"buf", buf}, {"n", n}});
    pr_.print("for (int k = 0; k < $n$; ++k) $buf$[k] = $ptr$[k % $period$];",
              {{"n", n}, {"buf", buf}, {"ptr", in.ptr}, {"period", ip_.period}});
    for (int r : used) {
      pr_.print("const $vec$ t$node$_p$r$ = $value$;",
                {{"vec", tv(in.node)->vec},
                 {"node", in.node},
                 {"r", r},
                 {"value", expand(tv(in.node)->load, {{"p", offset_expr(buf, "", static_cast<std::int64_t>(r) * W)}})}});
    }
  }

  // A held input: the vectors of its row, loaded once here, after the
  // deepest loop that moves it (depth; -1: none), for every iteration of
  // the loops inside.
  void emit_held_setup(std::size_t k, int depth) {
    const Input& in = inputs_[k];
    const std::string name = p_.spec.inputs[k].name;
    // (The split loop's iterations are separate calls of this body.)
    const int once_per = depth < 0 && p_.split ? 0 : depth;
    const std::string where = once_per < 0 ? "once per call" : fmt::format("once per iteration of loop i{}", once_per);
    pr_.print("// $in$ ($name$) is the same for every i$loop$: its row's $n$ vector$s$, held in registers, loaded "
              "$where$",
              {{"in", in.name}, {"name", name}, {"loop", ip_.outer.size() - 1}, {"n", ip_.held_vectors},
               {"s", ip_.held_vectors == 1 ? "" : "s"}, {"where", where}});
    for (int v = 0; v < ip_.held_vectors; ++v) {
      const std::int64_t off = static_cast<std::int64_t>(v) * ip_.lanes;
      pr_.print("const $vec$ $reg$ = $value$;", {{"vec", reg_type(in.node)},
                                                   {"reg", vector_name(in.node, "", off)},
                                                   {"value", load(in, offset_expr(in.ptr, "", off), "")}});
    }
  }
};

}  // namespace

std::unique_ptr<BodyCode> vector_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming) {
  return std::make_unique<VectorRow>(p, ip, voc, streaming);
}

}  // namespace bcastgen::gen
