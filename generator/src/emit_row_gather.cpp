// A gathered block (IsaPlan::block): innermost loops shorter than a vector
// fused into one block, each input loaded once where it changes and spread
// over the block's vectors by constant permutes.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "emit_body_code.h"

namespace bcastgen::gen {
namespace {

class GatherBlock : public BodyCode {
 public:
  using BodyCode::BodyCode;

 private:
  void row_constants() override { emit_gather_constants(); }
  void row_setup(std::size_t k, int /*depth*/) override { emit_gather_setup(k); }
  void emit_row(const std::string& out_ptr) override { emit_gather_row(out_ptr); }

  // Vectors in one block: the whole ones and the masked last one.
  int block_vectors() const { return ip_.tail_vectors + (ip_.tail_lanes ? 1 : 0); }

  // Element e of the block, as an offset into input k: the mixed-radix
  // digits of e times the block's strides.
  std::int64_t block_offset(std::int64_t e, std::size_t k) const {
    std::int64_t off = 0;
    for (std::size_t f = ip_.block.size(); f-- > 0;) {
      off += (e % ip_.block[f].extent) * ip_.block[f].in[k];
      e /= ip_.block[f].extent;
    }
    return off;
  }

  // Element indices as 32-bit word indices: an element of w words (w = 2
  // for 64-bit types) occupies words w*x .. w*x+w-1.
  std::string words(const std::vector<std::int64_t>& elements) const {
    const int w = dtype_size(ip_.lane_dtype) / 4;
    std::string s;
    for (std::int64_t x : elements) {
      for (int k = 0; k < w; ++k) s += fmt::format("{}{}", s.empty() ? "" : ", ", x * w + k);
    }
    return s;
  }

  // A lane mask with the first n lanes set: -1 in every 32-bit word of a
  // set lane ({words}, AVX2) or one bit per lane ({bits}, AVX-512).
  std::string lane_mask(int n) const {
    const int w = dtype_size(ip_.lane_dtype) / 4;
    std::string word_list;
    for (int l = 0; l < ip_.lanes * w; ++l) word_list += fmt::format("{}{}", l ? ", " : "", l / w < n ? -1 : 0);
    const std::uint64_t bits = low_lanes(n);
    return expand(iv_->mask_const, {{"words", word_list}, {"bits", fmt::format("{:#x}", bits)}});
  }

  // Index vectors for each Gather input and vector of the block, and the
  // masks for partial spans and the partial last vector.
  void emit_gather_constants() {
    const int W = ip_.lanes;
    const int vectors = block_vectors();
    for (std::size_t k = 0; k < inputs_.size(); ++k) {
      const Input& in = inputs_[k];
      if (in.access != Access::Gather) continue;
      pr_.print("// $in$: output element e of the block reads $in$[index(e)]; lane l of vector v is e = v*$lanes$ + l",
                {{"in", in.name}, {"lanes", W}});
      for (int v = 0; v < vectors; ++v) {
        std::vector<std::int64_t> idx;
        for (int l = 0; l < W; ++l) {
          const std::int64_t e = static_cast<std::int64_t>(v) * W + l;
          idx.push_back(e < ip_.row ? block_offset(e, k) : 0);
        }
        pr_.print("const $index$ index_$in$_$v$ = $value$;",
                  {{"index", iv_->index}, {"in", in.name}, {"v", v}, {"value", expand(iv_->index_const, {{"words", words(idx)}})}});
      }
      if (ip_.span[k] < W) {
        pr_.print("const $mask$ span_mask_$in$ = $value$;  // $n$ elements",
                  {{"mask", tv_->mask}, {"in", in.name}, {"value", lane_mask(static_cast<int>(ip_.span[k]))}, {"n", ip_.span[k]}});
      }
    }
    // The partial vector's mask, for its loads and its store (none where it
    // stores its first lanes plainly and loads no input per vector).
    const bool streamed =
        std::any_of(inputs_.begin(), inputs_.end(), [](const Input& in) { return in.access == Access::Stream; });
    if (ip_.tail_lanes && (streamed || !stores_first())) {
      pr_.print("const $mask$ tail = $value$;  // the last $n$ elements of the block",
                {{"mask", tv_->mask}, {"value", lane_mask(ip_.tail_lanes)}, {"n", ip_.tail_lanes}});
    }
  }

  // Where an input changes: load its span once and permute it into one
  // register per vector of the block (a Splat input: one broadcast).
  void emit_gather_setup(std::size_t k) {
    const Input& in = inputs_[k];
    if (in.access == Access::Splat) {
      emit_splat(in);
      return;
    }
    if (in.access != Access::Gather) return;
    const std::int64_t span = ip_.span[k];
    const std::string load = span < ip_.lanes ? expand(tv_->load_tail, {{"p", in.ptr}, {"t", "span_mask_" + in.name}})
                                              : expand(tv_->load, {{"p", in.ptr}});
    pr_.print("const $vec$ span_$in$ = $value$;  // $in$[0..$last$]",
              {{"vec", tv_->vec}, {"in", in.name}, {"value", load}, {"last", span - 1}});
    for (int v = 0; v < block_vectors(); ++v) {
      pr_.print("const $vec$ t$node$_g$v$ = $value$;",
                {{"vec", tv_->vec},
                 {"node", in.node},
                 {"v", v},
                 {"value", expand(tv_->permute, {{"v", "span_" + in.name}, {"i", fmt::format("index_{}_{}", in.name, v)}})}});
    }
  }

  // The block: whole vectors, then the partial one under the mask `tail`.
  void emit_gather_row(const std::string& out_ptr) {
    const int W = ip_.lanes;
    pr_.print("// the block: $row$ elements = $n$ vector$s$$masked$",
              {{"row", ip_.row},
               {"n", ip_.tail_vectors},
               {"s", ip_.tail_vectors == 1 ? "" : "s"},
               {"masked", ip_.tail_lanes ? fill(" + $n$ masked lanes", {{"n", ip_.tail_lanes}}) : ""}});
    for (int v = 0; v < block_vectors(); ++v) {
      const bool part = v == ip_.tail_vectors;
      const std::int64_t off = static_cast<std::int64_t>(v) * W;
      const std::string suffix = fmt::format("v{}", v);
      for (const Input& in : inputs_) {
        if (in.access != Access::Stream) continue;
        pr_.print("const $vec$ $reg$ = $value$;", {{"vec", tv_->vec},
                                                     {"reg", vector_name(in.node, suffix, off)},
                                                     {"value", load(in, offset_expr(in.ptr, "", off), part ? "tail" : "")}});
      }
      emit_nodes(suffix, off, part ? ip_.tail_lanes : W);
      pr_.line(store(offset_expr(out_ptr, "", off), vector_name(dag_.root, suffix, off), part, "tail",
                     ip_.tail_lanes));
    }
  }
};

}  // namespace

std::unique_ptr<BodyCode> gather_block_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc,
                                            bool streaming) {
  return std::make_unique<GatherBlock>(p, ip, voc, streaming);
}

}  // namespace bcastgen::gen
