// fold_node: ONNX's shape ops and integer arithmetic over small known
// values, after each operator's definition in ONNX's Operators.md (opsets 7
// to 20). fold_shapes: fold, infer shapes again, until nothing changes.
#include "fold.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <set>

#include "bcastgen/half.h"
#include "bcastgen/onnx/import.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"

namespace bcastgen::onnx_import {

namespace {

// A known value with every element held: integers and bool in `i`, floats
// in `f`.
struct Values {
  DType dtype = DType::I64;
  Shape shape;
  std::vector<std::int64_t> i;
  std::vector<double> f;

  bool is_float() const { return dtype_info(dtype).is_float; }
  std::size_t size() const { return is_float() ? f.size() : i.size(); }
  double number(std::size_t k) const { return is_float() ? f[k] : static_cast<double>(i[k]); }
  // Appends element `at` of `from` (of the same dtype).
  void push(const Values& from, std::size_t at) {
    if (is_float()) {
      f.push_back(from.f[at]);
    } else {
      i.push_back(from.i[at]);
    }
  }
};

std::optional<Values> values_of(const Constant& c) {
  if (dtype_info(c.dtype).size > 8 || c.dtype == DType::U64) return std::nullopt;
  const std::int64_t n = numel_of(c.shape);
  if (n > kMaxFoldedElements) return std::nullopt;
  Values v{c.dtype, c.shape, {}, {}};
  for (std::int64_t k = 0; k < n; ++k) {
    const std::size_t at = c.uniform ? 0 : static_cast<std::size_t>(k);
    if (v.is_float()) {
      v.f.push_back(c.number(at));
    } else {
      v.i.push_back(c.integer(at));
    }
  }
  return v;
}

template <class T>
void put(std::vector<unsigned char>* out, T value) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  out->insert(out->end(), b, b + sizeof(T));
}

// An integer as `dtype` stores it (wrapping, as a C++ conversion does).
void put_integer(std::vector<unsigned char>* out, DType dtype, std::int64_t x) {
  switch (dtype) {
    case DType::I8: put(out, static_cast<std::int8_t>(x)); break;
    case DType::U8: put(out, static_cast<std::uint8_t>(x)); break;
    case DType::Bool: put(out, static_cast<std::uint8_t>(x != 0)); break;
    case DType::I16: put(out, static_cast<std::int16_t>(x)); break;
    case DType::U16: put(out, static_cast<std::uint16_t>(x)); break;
    case DType::I32: put(out, static_cast<std::int32_t>(x)); break;
    case DType::U32: put(out, static_cast<std::uint32_t>(x)); break;
    default: put(out, x); break;
  }
}

void put_float(std::vector<unsigned char>* out, DType dtype, double x) {
  switch (dtype) {
    case DType::F32: put(out, static_cast<float>(x)); break;
    case DType::F16: put(out, detail::half_from_double(detail::kF16Format, x)); break;
    case DType::Bf16: put(out, detail::half_from_double(detail::kBf16Format, x)); break;
    default: put(out, x); break;
  }
}

Constant to_constant(const Values& v) {
  Constant c;
  c.dtype = v.dtype;
  c.shape = v.shape;
  const std::size_t n = v.size();
  bool uniform = n >= 1;
  for (std::size_t k = 1; uniform && k < n; ++k) uniform = v.number(k) == v.number(0);
  c.uniform = uniform;
  for (std::size_t k = 0; k < (uniform ? 1 : n); ++k) {
    if (v.is_float()) {
      put_float(&c.bytes, v.dtype, v.f[k]);
    } else {
      put_integer(&c.bytes, v.dtype, v.i[k]);
    }
  }
  return c;
}

// The node being folded: its attributes, inputs and errors.
struct Node {
  const Model& model;
  const onnx::NodeProto& node;

  std::string label() const {
    return fmt::format("{} '{}'", node.op_type(), node.name().empty() ? node.output(0) : node.name());
  }
  [[noreturn]] void fail(const std::string& what) const { throw ImportError(label() + ": " + what); }
  bool present(int k) const { return k < node.input_size() && !node.input(k).empty(); }
  const onnx::AttributeProto* attr(const char* name) const {
    for (const auto& a : node.attribute()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  std::int64_t attr_i(const char* name, std::int64_t fallback) const {
    const auto* a = attr(name);
    return a ? a->i() : fallback;
  }
  std::optional<std::vector<std::int64_t>> attr_ints(const char* name) const {
    const auto* a = attr(name);
    if (!a) return std::nullopt;
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
  }
  // Input k's value, where it is known and small.
  std::optional<Values> input(int k) const {
    if (!present(k)) return std::nullopt;
    const Constant* c = model.constant(node.input(k));
    return c ? values_of(*c) : std::nullopt;
  }
  // A 1-D integer list: an input (opset >= `since`) or else the attribute.
  std::optional<std::vector<std::int64_t>> list(int k, const char* attribute, std::int64_t since) const {
    if (model.opset() < since) return attr_ints(attribute);
    if (!present(k)) return std::nullopt;
    std::optional<Values> v = input(k);
    if (!v || v->is_float()) return std::nullopt;
    return v->i;
  }
  // An axis in [-rank, rank) as [0, rank).
  std::int64_t axis(std::int64_t a, std::int64_t rank) const {
    if (a < -rank || a >= rank) fail(fmt::format("axis {} is out of range for rank {}", a, rank));
    return a < 0 ? a + rank : a;
  }
};

// NumPy's broadcast of the inputs; each output element's index into each.
std::optional<std::vector<std::vector<std::size_t>>> broadcast_index(const std::vector<const Values*>& in,
                                                                     Shape* out_shape) {
  Shape out;
  try {
    for (const Values* v : in) out = broadcast_shapes(Rule::Numpy, out, v->shape).out;
  } catch (const Error&) {
    return std::nullopt;
  }
  if (numel_of(out) > kMaxFoldedElements) return std::nullopt;
  *out_shape = out;
  const std::int64_t n = numel_of(out);
  std::vector<std::vector<std::size_t>> idx(in.size());
  for (std::size_t j = 0; j < in.size(); ++j) {
    const Shape& s = in[j]->shape;
    const std::vector<std::int64_t> st = contiguous_strides(s);
    for (std::int64_t e = 0; e < n; ++e) {
      std::int64_t rest = e, at = 0;
      for (std::size_t d = out.size(); d-- > 0;) {
        const std::int64_t coord = rest % out[d];
        rest /= out[d];
        const std::size_t sd = d + s.size();
        if (sd < out.size()) continue;  // a leading axis the input lacks
        const std::size_t k = sd - out.size();
        if (s[k] != 1) at += coord * st[k];
      }
      idx[j].push_back(static_cast<std::size_t>(at));
    }
  }
  return idx;
}

std::int64_t wrap(std::uint64_t x) { return static_cast<std::int64_t>(x); }

// Integer and bool elementwise ops (the shape arithmetic of exports).
using IntFn = std::function<std::int64_t(std::int64_t, std::int64_t)>;

std::optional<IntFn> integer_binary(const Node& n) {
  const std::string& op = n.node.op_type();
  // Overflow wraps (two's complement), as the integer types of a runtime do.
  if (op == "Add") return [](std::int64_t a, std::int64_t b) { return wrap(static_cast<std::uint64_t>(a) + b); };
  if (op == "Sub") return [](std::int64_t a, std::int64_t b) { return wrap(static_cast<std::uint64_t>(a) - b); };
  if (op == "Mul") return [](std::int64_t a, std::int64_t b) { return wrap(static_cast<std::uint64_t>(a) * b); };
  if (op == "Div") {  // ONNX: integer division truncates
    return [&n](std::int64_t a, std::int64_t b) {
      if (b == 0) n.fail("divides by zero");
      return b == -1 ? wrap(0 - static_cast<std::uint64_t>(a)) : a / b;
    };
  }
  if (op == "Mod") {
    const bool fmod = n.attr_i("fmod", 0) != 0;
    return [&n, fmod](std::int64_t a, std::int64_t b) {
      if (b == 0) n.fail("takes a remainder by zero");
      const std::int64_t r = b == -1 ? 0 : a % b;
      return fmod || r == 0 || (r < 0) == (b < 0) ? r : r + b;  // else the divisor's sign
    };
  }
  if (op == "Max") return [](std::int64_t a, std::int64_t b) { return std::max(a, b); };
  if (op == "Min") return [](std::int64_t a, std::int64_t b) { return std::min(a, b); };
  if (op == "Equal") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a == b; };
  if (op == "Less") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a < b; };
  if (op == "LessOrEqual") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a <= b; };
  if (op == "Greater") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a > b; };
  if (op == "GreaterOrEqual") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a >= b; };
  if (op == "And") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a && b; };
  if (op == "Or") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return a || b; };
  if (op == "Xor") return [](std::int64_t a, std::int64_t b) -> std::int64_t { return (a != 0) != (b != 0); };
  return std::nullopt;
}

bool is_comparison(const std::string& op) {
  return op == "Equal" || op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual";
}

// Binary and variadic integer ops, Neg, Abs, Not, Where.
std::optional<Values> fold_integer_elementwise(const Node& n) {
  const std::string& op = n.node.op_type();
  std::vector<Values> in;
  for (int k = 0; k < n.node.input_size(); ++k) {
    std::optional<Values> v = n.input(k);
    if (!v) return std::nullopt;
    in.push_back(std::move(*v));
  }
  if (in.empty()) return std::nullopt;
  const bool where = op == "Where";
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k].is_float() && !(where && k == 0)) return std::nullopt;  // float arithmetic is the kernels' (classify)
  }
  if (op == "Neg" || op == "Abs" || op == "Not" || op == "Identity") {
    Values out = in[0];
    for (std::int64_t& x : out.i) {
      const std::int64_t minus = wrap(0 - static_cast<std::uint64_t>(x));
      x = op == "Neg" ? minus : op == "Abs" ? (x < 0 ? minus : x) : op == "Not" ? !x : x;
    }
    return out;
  }
  std::vector<const Values*> ptrs;
  for (const Values& v : in) ptrs.push_back(&v);
  Shape shape;
  const auto idx = broadcast_index(ptrs, &shape);
  if (!idx) return std::nullopt;
  Values out{where ? in[1].dtype : is_comparison(op) ? DType::Bool : in[0].dtype, shape, {}, {}};
  const std::size_t count = (*idx)[0].size();
  if (where) {
    if (in.size() != 3 || in[0].dtype != DType::Bool) return std::nullopt;
    for (std::size_t e = 0; e < count; ++e) {
      out.i.push_back(in[0].i[(*idx)[0][e]] ? in[1].i[(*idx)[1][e]] : in[2].i[(*idx)[2][e]]);
    }
    return out;
  }
  const std::optional<IntFn> fn = integer_binary(n);
  if (!fn || (in.size() != 2 && op != "Max" && op != "Min" && op != "Sum")) return std::nullopt;
  for (std::size_t e = 0; e < count; ++e) {
    std::int64_t acc = in[0].i[(*idx)[0][e]];
    for (std::size_t k = 1; k < in.size(); ++k) acc = (*fn)(acc, in[k].i[(*idx)[k][e]]);
    out.i.push_back(acc);
  }
  return out;
}

std::optional<Values> fold_cast(const Node& n) {
  std::optional<Values> x = n.input(0);
  const std::optional<DType> to = dtype_of(static_cast<int>(n.attr_i("to", 0)));
  if (!x || !to || to == DType::U64) return std::nullopt;
  Values out{*to, x->shape, {}, {}};
  for (std::size_t k = 0; k < x->size(); ++k) {
    const double d = x->number(k);
    if (out.is_float()) {
      out.f.push_back(x->is_float() ? d : static_cast<double>(x->i[k]));
    } else if (x->is_float()) {
      if (!std::isfinite(d) || std::fabs(d) >= 0x1p63) return std::nullopt;  // undefined in C++
      out.i.push_back(*to == DType::Bool ? d != 0 : static_cast<std::int64_t>(d));
    } else {
      out.i.push_back(*to == DType::Bool ? x->i[k] != 0 : x->i[k]);
    }
  }
  // Round-trip through the storage, so the values are the target's (wrapped, rounded).
  return values_of(to_constant(out));
}

// Elements of `x` along `axis` at `picks` (Gather, and Slice one axis at a time).
Values take(const Values& x, std::size_t axis, const std::vector<std::int64_t>& picks) {
  Values out{x.dtype, x.shape, {}, {}};
  out.shape[axis] = static_cast<std::int64_t>(picks.size());
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= x.shape[d];
  for (std::size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t p : picks) {
      for (std::int64_t e = 0; e < inner; ++e) {
        const auto at = static_cast<std::size_t>((o * x.shape[axis] + p) * inner + e);
        out.push(x, at);
      }
    }
  }
  return out;
}

std::optional<Values> fold_gather(const Node& n) {
  std::optional<Values> x = n.input(0), idx = n.input(1);
  if (!x || !idx || idx->is_float() || x->shape.empty()) return std::nullopt;
  const auto axis = static_cast<std::size_t>(n.axis(n.attr_i("axis", 0), static_cast<std::int64_t>(x->shape.size())));
  std::vector<std::int64_t> picks;
  for (std::int64_t p : idx->i) {
    const std::int64_t dim = x->shape[axis];
    if (p < -dim || p >= dim) n.fail(fmt::format("index {} is out of range for dimension {}", p, dim));
    picks.push_back(p < 0 ? p + dim : p);
  }
  Values out = take(*x, axis, picks);
  Shape shape(x->shape.begin(), x->shape.begin() + static_cast<std::ptrdiff_t>(axis));
  shape.insert(shape.end(), idx->shape.begin(), idx->shape.end());
  shape.insert(shape.end(), x->shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x->shape.end());
  out.shape = shape;
  return out;
}

std::optional<Values> fold_slice(const Node& n) {
  std::optional<Values> x = n.input(0);
  const auto starts = n.list(1, "starts", 10), ends = n.list(2, "ends", 10);
  if (!x || !starts || !ends || starts->size() != ends->size()) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(x->shape.size());
  std::vector<std::int64_t> axes;
  if (n.model.opset() < 10 ? n.attr("axes") != nullptr : n.present(3)) {
    const auto a = n.list(3, "axes", 10);
    if (!a) return std::nullopt;
    axes = *a;
  } else {
    for (std::size_t k = 0; k < starts->size(); ++k) axes.push_back(static_cast<std::int64_t>(k));
  }
  std::vector<std::int64_t> steps(starts->size(), 1);
  if (n.model.opset() >= 10 && n.present(4)) {
    const auto s = n.list(4, "steps", 10);
    if (!s) return std::nullopt;
    steps = *s;
  }
  if (axes.size() != starts->size() || steps.size() != starts->size()) return std::nullopt;
  Values out = *x;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const auto axis = static_cast<std::size_t>(n.axis(axes[k], rank));
    const std::int64_t dim = x->shape[axis], step = steps[k];
    if (step == 0) n.fail("a step is 0");
    auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
      if (v < 0) v += dim;
      return std::clamp(v, lo, hi);
    };
    std::vector<std::int64_t> picks;
    if (step > 0) {
      const std::int64_t b = clamp((*starts)[k], 0, dim), e = clamp((*ends)[k], 0, dim);
      for (std::int64_t p = b; p < e && picks.size() <= static_cast<std::size_t>(dim); p += std::min(step, dim)) {
        picks.push_back(p);
      }
    } else {
      const std::int64_t b = clamp((*starts)[k], 0, dim - 1), e = clamp((*ends)[k], -1, dim - 1);
      for (std::int64_t p = b; p > e && picks.size() <= static_cast<std::size_t>(dim); p -= (step < -dim - 1 ? dim + 1 : -step)) {
        picks.push_back(p);
      }
    }
    out = take(out, axis, picks);
  }
  return out;
}

std::optional<Values> fold_concat(const Node& n) {
  std::vector<Values> in;
  for (int k = 0; k < n.node.input_size(); ++k) {
    std::optional<Values> v = n.input(k);
    if (!v) return std::nullopt;
    in.push_back(std::move(*v));
  }
  if (in.empty() || in[0].shape.empty()) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(in[0].shape.size());
  const auto axis = static_cast<std::size_t>(n.axis(n.attr_i("axis", 0), rank));
  Values out{in[0].dtype, in[0].shape, {}, {}};
  out.shape[axis] = 0;
  for (const Values& v : in) {
    if (v.dtype != out.dtype || v.shape.size() != in[0].shape.size()) return std::nullopt;
    out.shape[axis] += v.shape[axis];
  }
  std::int64_t outer = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= out.shape[d];
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const Values& v : in) {
      const std::int64_t chunk = numel_of(v.shape) / std::max<std::int64_t>(outer, 1);
      for (std::int64_t e = 0; e < chunk; ++e) {
        const auto at = static_cast<std::size_t>(o * chunk + e);
        out.push(v, at);
      }
    }
  }
  return out;
}

// Reshape's target: 0 copies the input's dimension (unless allowzero), one
// -1 is inferred. Throws for a negative dimension or a count that differs.
Shape reshape_target(const Node& n, const Shape& in, const std::vector<std::int64_t>& spec) {
  const bool allowzero = n.attr_i("allowzero", 0) != 0;
  Shape out;
  int inferred = -1;
  std::int64_t known = 1;
  for (std::size_t k = 0; k < spec.size(); ++k) {
    std::int64_t d = spec[k];
    if (d == 0 && !allowzero) {
      if (k >= in.size()) n.fail(fmt::format("shape {} copies dimension {} of a rank-{} input", spec, k, in.size()));
      d = in[k];
    }
    if (d == -1) {
      if (inferred >= 0) n.fail(fmt::format("shape {} has more than one -1", spec));
      inferred = static_cast<int>(k);
    } else if (d < 0) {
      n.fail(fmt::format("shape {} (input '{}') has the negative dimension {}", spec, n.node.input(1), d));
    } else {
      known = numel_of({known, d});
    }
    out.push_back(d);
  }
  const std::int64_t total = numel_of(in);
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) {
      n.fail(fmt::format("shape {} does not fit the {} elements of {}", spec, total, format_shape(in)));
    }
    out[static_cast<std::size_t>(inferred)] = total / known;
  } else if (known != total) {
    n.fail(fmt::format("shape {} has {} elements, its input {} has {}", spec, known, format_shape(in), total));
  }
  return out;
}

// The axes of Squeeze or Unsqueeze, made non-negative; ONNX rejects a
// repeated axis (-1 and 2 of a rank-3 output are the same one).
std::set<std::int64_t> distinct_axes(const Node& n, const std::vector<std::int64_t>& axes, std::int64_t rank) {
  std::set<std::int64_t> at;
  for (std::int64_t a : axes) {
    if (!at.insert(n.axis(a, rank)).second) n.fail(fmt::format("axis {} is listed twice", a));
  }
  return at;
}

// Unsqueeze, Squeeze, Reshape, Flatten of a known value: the same elements.
std::optional<Values> fold_reshape(const Node& n) {
  std::optional<Values> x = n.input(0);
  if (!x) return std::nullopt;
  const std::string& op = n.node.op_type();
  const auto rank = static_cast<std::int64_t>(x->shape.size());
  if (op == "Reshape") {
    const std::optional<Values> spec = n.input(1);
    if (!spec || spec->is_float()) return std::nullopt;
    x->shape = reshape_target(n, x->shape, spec->i);
  } else if (op == "Flatten") {
    const std::int64_t axis = n.attr_i("axis", 1);
    const std::int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a > rank) n.fail(fmt::format("axis {} is out of range for rank {}", axis, rank));
    std::int64_t outer = 1;
    for (std::int64_t d = 0; d < a; ++d) outer *= x->shape[static_cast<std::size_t>(d)];
    x->shape = {outer, numel_of(x->shape) / std::max<std::int64_t>(outer, 1)};
  } else {
    const auto axes = n.list(1, "axes", 13);
    if (op == "Unsqueeze") {
      if (!axes) return std::nullopt;
      const auto out_rank = rank + static_cast<std::int64_t>(axes->size());
      const std::set<std::int64_t> at = distinct_axes(n, *axes, out_rank);
      Shape s;
      std::size_t next = 0;
      for (std::int64_t d = 0; d < out_rank; ++d) s.push_back(at.count(d) ? 1 : x->shape[next++]);
      x->shape = s;
    } else {  // Squeeze: the listed axes, or every 1
      const std::set<std::int64_t> at = axes ? distinct_axes(n, *axes, rank) : std::set<std::int64_t>{};
      Shape s;
      for (std::int64_t d = 0; d < rank; ++d) {
        const std::int64_t extent = x->shape[static_cast<std::size_t>(d)];
        const bool drop = axes ? at.count(d) != 0 : extent == 1;
        if (drop && extent != 1) n.fail(fmt::format("axis {} has extent {}, not 1", d, extent));
        if (!drop) s.push_back(extent);
      }
      x->shape = s;
    }
  }
  return x;
}

std::optional<Values> fold_range(const Node& n) {
  std::optional<Values> start = n.input(0), limit = n.input(1), delta = n.input(2);
  if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 || delta->size() != 1) {
    return std::nullopt;
  }
  const double s = start->number(0), l = limit->number(0), d = delta->number(0);
  if (d == 0) n.fail("delta is 0");
  const double count = std::max(std::ceil((l - s) / d), 0.0);
  if (count > static_cast<double>(kMaxFoldedElements)) return std::nullopt;
  Values out{start->dtype, {static_cast<std::int64_t>(count)}, {}, {}};
  for (std::int64_t k = 0; k < out.shape[0]; ++k) {
    if (out.is_float()) {
      out.f.push_back(s + static_cast<double>(k) * d);
    } else {
      out.i.push_back(wrap(static_cast<std::uint64_t>(start->i[0]) + static_cast<std::uint64_t>(k) * delta->i[0]));
    }
  }
  return out;
}

// Expand and Tile of a small known value.
std::optional<Values> fold_expand_tile(const Node& n) {
  std::optional<Values> x = n.input(0), arg = n.input(1);
  if (!x || !arg || arg->is_float()) return std::nullopt;
  Values target{x->dtype, {}, {}, {}};
  if (n.node.op_type() == "Expand") {
    for (std::int64_t d : arg->i) {
      if (d < 0) n.fail(fmt::format("shape {} (input '{}') has the negative dimension {}", arg->i, n.node.input(1), d));
    }
    Shape shape;
    try {
      shape = broadcast_shapes(Rule::Numpy, x->shape, arg->i).out;
    } catch (const Error& e) {
      n.fail(e.what());
    }
    if (numel_of(shape) > kMaxFoldedElements) return std::nullopt;
    target.shape = shape;  // broadcast_index reads the shapes alone
    const auto idx = broadcast_index({&*x, &target}, &shape);
    if (!idx) return std::nullopt;
    Values out{x->dtype, shape, {}, {}};
    for (std::size_t at : (*idx)[0]) {
      out.push(*x, at);
    }
    return out;
  }
  if (arg->i.size() != x->shape.size()) n.fail("repeats has another length than the input's rank");
  Values out = *x;
  for (std::size_t axis = 0; axis < x->shape.size(); ++axis) {
    if (arg->i[axis] < 0) n.fail(fmt::format("repeats {} has a negative count", arg->i));
    if (numel_of({arg->i[axis], numel_of(out.shape)}) > kMaxFoldedElements) return std::nullopt;
    std::vector<std::int64_t> picks;
    for (std::int64_t r = 0; r < arg->i[axis]; ++r) {
      for (std::int64_t p = 0; p < x->shape[axis]; ++p) picks.push_back(p);
    }
    out = take(out, axis, picks);
  }
  return out;
}

// Shape (opset 15's start and end clamp like Slice's) and Size.
std::optional<Values> fold_shape_of(const Node& n) {
  const std::optional<TensorType> t = n.model.type(n.node.input(0));
  if (!t || !t->shape) return std::nullopt;
  const Shape& s = *t->shape;
  Values out;
  if (n.node.op_type() == "Size") {
    out.i = {numel_of(s)};
    return out;
  }
  const auto rank = static_cast<std::int64_t>(s.size());
  auto clamp = [&](std::int64_t v) { return std::clamp(v < 0 ? v + rank : v, std::int64_t{0}, rank); };
  const std::int64_t b = clamp(n.attr_i("start", 0)), e = clamp(n.attr_i("end", rank));
  for (std::int64_t k = b; k < e; ++k) out.i.push_back(s[static_cast<std::size_t>(k)]);
  out.shape = {static_cast<std::int64_t>(out.i.size())};
  return out;
}

// A Constant node's value (its `value` tensor or the scalar and list forms).
std::optional<Constant> constant_of_node(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    if (a.name() == "value") return read_tensor(a.t(), "Constant '" + node.name() + "'");
    onnx::TensorProto t;
    if (a.name() == "value_float") {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_float_data(a.f());
    } else if (a.name() == "value_int") {
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_int64_data(a.i());
    } else if (a.name() == "value_floats") {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_dims(a.floats_size());
      for (float f : a.floats()) t.add_float_data(f);
    } else if (a.name() == "value_ints") {
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_dims(a.ints_size());
      for (std::int64_t i : a.ints()) t.add_int64_data(i);
    } else {
      continue;
    }
    return read_tensor(t, "Constant '" + node.name() + "'");
  }
  return std::nullopt;
}

// ConstantOfShape of a known shape: a uniform constant (a float 0 by default).
std::optional<Constant> constant_of_shape(const Node& n) {
  const std::optional<Values> shape = n.input(0);
  if (!shape || shape->is_float() || shape->shape.size() != 1) return std::nullopt;
  for (std::int64_t d : shape->i) {
    if (d < 0) n.fail(fmt::format("shape {} (input '{}') has the negative dimension {}", shape->i, n.node.input(0), d));
  }
  Constant c;
  c.shape = shape->i;
  c.uniform = true;
  c.dtype = DType::F32;
  c.bytes.assign(4, 0);
  if (const auto* a = n.attr("value")) {
    std::optional<Constant> v = read_tensor(a->t(), n.label() + " value");
    if (!v || v->stored() != 1) return std::nullopt;
    c.dtype = v->dtype;
    c.bytes = v->bytes;
  }
  return c;
}

using FoldFn = std::function<std::optional<Values>(const Node&)>;

// The ops folded over known values: ONNX's shape ops, and the elementwise
// ops of integer shape arithmetic.
const std::map<std::string, FoldFn>& fold_ops() {
  static const std::map<std::string, FoldFn> t = {
      {"Shape", fold_shape_of}, {"Size", fold_shape_of}, {"Gather", fold_gather}, {"Slice", fold_slice},
      {"Concat", fold_concat}, {"Cast", fold_cast}, {"Squeeze", fold_reshape}, {"Unsqueeze", fold_reshape},
      {"Reshape", fold_reshape}, {"Flatten", fold_reshape}, {"Range", fold_range}, {"Expand", fold_expand_tile},
      {"Tile", fold_expand_tile}, {"Identity", fold_integer_elementwise},
      {"Add", fold_integer_elementwise}, {"Sub", fold_integer_elementwise}, {"Mul", fold_integer_elementwise},
      {"Div", fold_integer_elementwise}, {"Mod", fold_integer_elementwise}, {"Max", fold_integer_elementwise},
      {"Min", fold_integer_elementwise}, {"Neg", fold_integer_elementwise}, {"Abs", fold_integer_elementwise},
      {"Equal", fold_integer_elementwise}, {"Less", fold_integer_elementwise},
      {"LessOrEqual", fold_integer_elementwise}, {"Greater", fold_integer_elementwise},
      {"GreaterOrEqual", fold_integer_elementwise}, {"And", fold_integer_elementwise},
      {"Or", fold_integer_elementwise}, {"Xor", fold_integer_elementwise}, {"Not", fold_integer_elementwise},
      {"Where", fold_integer_elementwise},
  };
  return t;
}

bool default_domain(const onnx::NodeProto& node) { return node.domain().empty() || node.domain() == "ai.onnx"; }

}  // namespace

std::optional<Constant> fold_node(const Model& model, const onnx::NodeProto& node) {
  if (!default_domain(node) || node.output_size() != 1 || node.output(0).empty()) return std::nullopt;
  const Node n{model, node};
  if (node.op_type() == "Constant") return constant_of_node(node);
  if (node.op_type() == "ConstantOfShape") return constant_of_shape(n);
  const auto it = fold_ops().find(node.op_type());
  if (it == fold_ops().end()) return std::nullopt;
  const std::optional<Values> v = it->second(n);
  if (!v || numel_of(v->shape) != static_cast<std::int64_t>(v->size())) return std::nullopt;
  Constant c = to_constant(*v);
  const bool shape_op = node.op_type() == "Shape" || node.op_type() == "Size";
  if (!shape_op && dtype_info(c.dtype).is_float && !c.uniform) return std::nullopt;  // a tensor, not a shape
  return c;
}

void check_shape_inputs(const Model& model, const onnx::NodeProto& node) {
  if (!default_domain(node)) return;
  const Node n{model, node};
  const std::string& op = node.op_type();
  if (op == "Transpose") {
    const std::optional<TensorType> t = node.input_size() > 0 ? model.type(node.input(0)) : std::nullopt;
    const auto perm = n.attr_ints("perm");
    if (!t || !t->shape || !perm) return;
    std::vector<std::int64_t> sorted = *perm;
    std::sort(sorted.begin(), sorted.end());
    bool ok = sorted.size() == t->shape->size();
    for (std::size_t k = 0; ok && k < sorted.size(); ++k) ok = sorted[k] == static_cast<std::int64_t>(k);
    if (!ok) {
      n.fail(fmt::format("perm {} is not a permutation of the {} axes of '{}' {}", *perm, t->shape->size(),
                         node.input(0), *t->shape));
    }
    return;
  }
  if (op == "Reshape" && node.input_size() > 1) {
    const std::optional<TensorType> t = model.type(node.input(0));
    const std::optional<Values> spec = n.input(1);
    if (t && t->shape && spec && !spec->is_float()) reshape_target(n, *t->shape, spec->i);
    return;
  }
  if ((op == "Expand" || op == "Tile") && node.input_size() > 1) {
    const std::optional<Values> arg = n.input(1);
    if (!arg || arg->is_float()) return;
    for (std::int64_t d : arg->i) {
      if (d < 0) {
        n.fail(fmt::format("{} {} (input '{}') has the negative dimension {}", op == "Tile" ? "repeats" : "shape",
                           arg->i, node.input(1), d));
      }
    }
  }
}

std::map<int, Constant> fold_shapes(Model& model) {
  std::map<int, Constant> folded;
  const auto& graph = model.graph();
  // Each round folds what the shapes known so far allow; a new static shape
  // (a Reshape whose target was folded) may let the next round fold more.
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < graph.node_size(); ++i) {
      if (folded.count(i)) continue;
      const auto& node = graph.node(i);
      check_shape_inputs(model, node);
      if (std::optional<Constant> c = fold_node(model, node)) {
        model.set_constant(node.output(0), *c);
        folded.emplace(i, std::move(*c));
        changed = true;
      }
    }
    if (changed) model.infer(folded);
  }
  return folded;
}

std::string unknown_shape_reason(const Model& model, const std::string& tensor) {
  const std::string head = "the shape of '" + tensor + "' is not known";
  std::string at = tensor;
  for (int depth = 0; depth < 256; ++depth) {  // a graph is acyclic; the bound keeps a bad one finite
    const onnx::NodeProto* p = model.producer(at);
    if (p == nullptr) return head + " (the graph gives no shape for '" + at + "')";
    const std::string label = fmt::format("{} '{}'", p->op_type(), p->name().empty() ? at : p->name());
    std::string unknown;
    for (const auto& in : p->input()) {
      const std::optional<TensorType> t = in.empty() ? std::nullopt : model.type(in);
      if (!in.empty() && (!t || !t->shape)) unknown = in;
    }
    if (unknown.empty()) {
      // Every input's shape is static: the output depends on an input's data.
      for (int k = 1; k < p->input_size(); ++k) {
        if (!p->input(k).empty() && model.constant(p->input(k)) == nullptr) {
          return fmt::format("{}: it depends on the data of '{}' (input {} of {})", head, p->input(k), k, label);
        }
      }
      return fmt::format("{}: ONNX shape inference gives none for the output of {}", head, label);
    }
    at = unknown;
  }
  return head;
}

std::string describe(const Constant& c) {
  const std::string head = fmt::format("{} {}", dtype_info(c.dtype).name, format_shape(c.shape));
  const std::int64_t n = numel_of(c.shape);
  auto element = [&](std::size_t k) {
    return dtype_info(c.dtype).is_float ? fmt::format("{}", c.number(k)) : fmt::format("{}", c.integer(k));
  };
  if (c.uniform && n != 1) return fmt::format("{} = all {}", head, element(0));
  std::vector<std::string> items;
  for (std::int64_t k = 0; k < std::min<std::int64_t>(n, 16); ++k) items.push_back(element(static_cast<std::size_t>(k)));
  if (c.shape.empty()) return fmt::format("{} = {}", head, items.empty() ? "" : items[0]);
  return fmt::format("{} = [{}{}]", head, fmt::join(items, ", "), n > 16 ? ", ..." : "");
}

}  // namespace bcastgen::onnx_import
