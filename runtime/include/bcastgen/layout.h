// bcastgen runtime: the layout through which a kernel reads an input. An
// input is declared with the shape of the tensor in memory (dense,
// row-major); its layout re-indexes it without a copy: a transpose, a
// reshape (of dims that stay contiguous), a slice. The expression
// `transpose(x, [0, 2, 1]) * g` reads x through one. What broadcasts with
// the other operands is the layout's shape; the loops then read x at the
// layout's strides and offset, which are constants of the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/shape.h"

namespace bcastgen {

enum class LayoutKind { Transpose, Reshape, Slice };

// One row per LayoutKind, in enum order: its name in expressions and the
// arguments it takes.
struct LayoutInfo {
  LayoutKind kind;
  const char* name;
  const char* params;
};
inline constexpr LayoutInfo kLayoutInfo[] = {
    {LayoutKind::Transpose, "transpose", "(x, [perm])"},
    {LayoutKind::Reshape, "reshape", "(x, [d0, d1, ...])"},
    {LayoutKind::Slice, "slice", "(x, axis=a, start=s, stop=e, step=k)"},
};
inline constexpr const LayoutInfo& layout_info(LayoutKind k) { return kLayoutInfo[static_cast<std::size_t>(k)]; }
static_assert(kLayoutInfo[2].kind == LayoutKind::Slice, "kLayoutInfo lists the LayoutKinds in enum order");

struct LayoutStep {
  LayoutKind kind = LayoutKind::Transpose;
  // Transpose: the permutation (output axis i reads axis dims[i]);
  // Reshape: the new shape, every dim >= 0 but at most one -1, the dim the
  // element count leaves.
  std::vector<std::int64_t> dims;
  // Slice, as Python's and ONNX's: along `axis` (negative counts from the
  // end), elements start, start + step, ... before stop; start and stop
  // negative count from the end, and both are clamped to the axis.
  std::int64_t axis = 0, start = 0, stop = 0, step = 1;

  bool operator==(const LayoutStep& o) const {
    return kind == o.kind && dims == o.dims && axis == o.axis && start == o.start && stop == o.stop && step == o.step;
  }
  bool operator!=(const LayoutStep& o) const { return !(*this == o); }
};

// The steps applied to an input, first to last; empty: read as declared.
using InputLayout = std::vector<LayoutStep>;

// Where the elements of a layout are: element (i0, i1, ...) of `shape` is
// at offset + sum(ik * strides[k]) elements from the tensor's start.
struct StridedLayout {
  Shape shape;
  Shape strides;
  std::int64_t offset = 0;
};

namespace detail {

inline std::string layout_dims_text(const std::vector<std::int64_t>& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

inline void apply_transpose(StridedLayout& l, const std::vector<std::int64_t>& perm, const std::string& who) {
  const std::size_t rank = l.shape.size();
  std::vector<bool> seen(rank, false);
  bool ok = perm.size() == rank;
  for (std::size_t i = 0; ok && i < perm.size(); ++i) {
    ok = perm[i] >= 0 && static_cast<std::size_t>(perm[i]) < rank && !seen[static_cast<std::size_t>(perm[i])];
    if (ok) seen[static_cast<std::size_t>(perm[i])] = true;
  }
  if (!ok) {
    throw InvalidArgument(who + ": transpose's perm " + layout_dims_text(perm) + " is not a permutation of the " +
                          std::to_string(rank) + " axes of " + format_shape(l.shape));
  }
  StridedLayout t = l;
  for (std::size_t i = 0; i < rank; ++i) {
    t.shape[i] = l.shape[static_cast<std::size_t>(perm[i])];
    t.strides[i] = l.strides[static_cast<std::size_t>(perm[i])];
  }
  l = std::move(t);
}

inline void apply_slice(StridedLayout& l, const LayoutStep& s, const std::string& who) {
  const auto rank = static_cast<std::int64_t>(l.shape.size());
  const std::int64_t axis = s.axis < 0 ? s.axis + rank : s.axis;
  if (axis < 0 || axis >= rank) {
    throw InvalidArgument(who + ": slice's axis " + std::to_string(s.axis) + " is out of range for " +
                          format_shape(l.shape));
  }
  if (s.step == 0) throw InvalidArgument(who + ": slice's step is 0");
  const std::int64_t d = l.shape[static_cast<std::size_t>(axis)];
  // Python's slice indices: negative from the end, then clamped; [0, d]
  // going up, [-1, d - 1] going down.
  auto clamp = [&](std::int64_t v) {
    if (v < 0) v = v < -d ? -1 : v + d;  // (no overflow: d >= 0 and v >= INT64_MIN)
    const std::int64_t lo = s.step > 0 ? 0 : -1, hi = s.step > 0 ? d : d - 1;
    return v < lo ? lo : v > hi ? hi : v;
  };
  const std::int64_t start = clamp(s.start), stop = clamp(s.stop);
  std::int64_t n = 0;
  if (s.step > 0 && stop > start) n = (stop - start - 1) / s.step + 1;
  if (s.step < 0 && stop < start) n = (start - stop - 1) / (s.step == INT64_MIN ? INT64_MAX : -s.step) + 1;
  const std::size_t a = static_cast<std::size_t>(axis);
  if (n > 0) l.offset += start * l.strides[a];
  l.shape[a] = n;
  l.strides[a] = n > 1 ? l.strides[a] * s.step : l.strides[a];
}

// NumPy's reshape without a copy: each run of old dims that multiplies to a
// run of new dims must be contiguous within itself.
inline void apply_reshape(StridedLayout& l, const std::vector<std::int64_t>& dims, const std::string& who) {
  std::int64_t have = 1, want = 1;
  bool overflow = false;
  int inferred = -1;
  for (std::int64_t d : l.shape) have *= d;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const std::int64_t d = dims[i];
    if (d == -1 && inferred < 0) {
      inferred = static_cast<int>(i);
      continue;
    }
    if (d < 0) throw InvalidArgument(who + ": reshape's dim " + std::to_string(d) + " is negative");
    if (d != 0 && want > INT64_MAX / d) overflow = true;
    want = overflow ? want : want * d;
  }
  std::vector<std::int64_t> resolved = dims;
  if (inferred >= 0 && !overflow && want != 0 && have % want == 0) {
    resolved[static_cast<std::size_t>(inferred)] = have / want;
    want = have;
  }
  if (overflow || have != want) {
    throw InvalidArgument(who + ": reshape cannot make " + format_shape(l.shape) + " (" + std::to_string(have) +
                          " elements) into " + layout_dims_text(dims));
  }
  StridedLayout r;
  r.shape = resolved;
  r.offset = l.offset;
  r.strides.assign(resolved.size(), 0);
  if (have == 0) {
    r.strides = contiguous_strides(r.shape);
    l = std::move(r);
    return;
  }
  // The old and new dims other than 1, matched run by run.
  std::vector<std::size_t> olds, news;
  for (std::size_t i = 0; i < l.shape.size(); ++i) {
    if (l.shape[i] != 1) olds.push_back(i);
  }
  for (std::size_t i = 0; i < resolved.size(); ++i) {
    if (resolved[i] != 1) news.push_back(i);
  }
  std::size_t oi = 0, ni = 0;
  while (oi < olds.size() && ni < news.size()) {
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t op = l.shape[olds[oi]], np = resolved[news[ni]];
    while (op != np) {
      if (np < op) {
        np *= resolved[news[nj++]];
      } else {
        op *= l.shape[olds[oj++]];
      }
    }
    for (std::size_t k = oi; k + 1 < oj; ++k) {
      if (l.strides[olds[k]] != l.strides[olds[k + 1]] * l.shape[olds[k + 1]]) {
        throw InvalidArgument(who + ": reshape of " + format_shape(l.shape) + " into " + layout_dims_text(dims) +
                              " needs a copy: the dims it merges are not contiguous after the steps before it");
      }
    }
    std::int64_t stride = l.strides[olds[oj - 1]];
    for (std::size_t k = nj; k-- > ni;) {
      r.strides[news[k]] = stride;
      stride *= resolved[news[k]];
    }
    oi = oj;
    ni = nj;
  }
  l = std::move(r);
}

}  // namespace detail

// The layout of a tensor of shape `declared` read through `steps`. Throws
// InvalidArgument, prefixed by `who` ("input 'x'"), for a perm that is no
// permutation, a reshape to another element count or of dims that are not
// contiguous, a slice axis out of range or a zero step.
inline StridedLayout resolve_layout(const Shape& declared, const InputLayout& steps, const std::string& who) {
  StridedLayout l{declared, contiguous_strides(declared), 0};
  for (const LayoutStep& s : steps) {
    switch (s.kind) {
      case LayoutKind::Transpose: detail::apply_transpose(l, s.dims, who); break;
      case LayoutKind::Reshape: detail::apply_reshape(l, s.dims, who); break;
      case LayoutKind::Slice: detail::apply_slice(l, s, who); break;
    }
  }
  return l;
}

// The strides of a layout on the output's axes, as the rule aligned it
// (`aligned`: its shape with 1s inserted, rules.h): a dim of 1 reads one
// element (stride 0), every other dim is the layout's next dim other than 1.
inline Shape aligned_layout_strides(const Shape& aligned, const StridedLayout& l) {
  Shape s(aligned.size(), 0);
  std::size_t j = 0;
  for (std::size_t d = 0; d < aligned.size(); ++d) {
    if (aligned[d] == 1) continue;
    while (j < l.shape.size() && l.shape[j] == 1) ++j;
    if (j < l.shape.size()) s[d] = l.strides[j++];
  }
  return s;
}

}  // namespace bcastgen
