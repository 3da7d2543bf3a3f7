// bcastgen runtime: the broadcast rules. This is the one implementation of
// them; the generator plans from it and generated kernels validate with it.
//
// Sources (see docs/reference/rules.md):
//   none, numpy, pdpd, bidirectional  - OpenVINO "Broadcast Rules For Elementwise Operations"
//   paddle                            - PaddlePaddle's guide "Broadcasting" (seed 004) and
//                                       phi's ElementwiseRawInferMeta / GetBroadcastDimsArrays
//   numpy algorithm                   - Array API standard, "Broadcasting"
//   Broadcast op modes                - OpenVINO Broadcast-3 (numpy, explicit, bidirectional, pdpd)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/shape.h"

namespace bcastgen {

// Rules for elementwise binary ops (and `bidirectional`, the Broadcast op's).
// `pdpd` is OpenVINO's reading of PaddlePaddle (only B broadcasts, onto A);
// `paddle` is PaddlePaddle's own (the lower-rank operand, either one, is
// placed at `axis` and both may broadcast).
enum class Rule { None, Numpy, Pdpd, Bidirectional, Paddle };

inline constexpr Rule kAllRules[] = {Rule::None, Rule::Numpy, Rule::Pdpd, Rule::Bidirectional, Rule::Paddle};

// Modes of the Broadcast op, which materializes one input at a target shape.
enum class BroadcastMode { Numpy, Explicit, Bidirectional, Pdpd };

inline const char* rule_name(Rule r) {
  switch (r) {
    case Rule::None: return "none";
    case Rule::Numpy: return "numpy";
    case Rule::Pdpd: return "pdpd";
    case Rule::Bidirectional: return "bidirectional";
    case Rule::Paddle: return "paddle";
  }
  return "?";
}

// The rules that take an `axis` (the start axis of one operand in the other).
inline bool rule_takes_axis(Rule r) { return r == Rule::Pdpd || r == Rule::Paddle; }

inline const char* mode_name(BroadcastMode m) {
  switch (m) {
    case BroadcastMode::Numpy: return "numpy";
    case BroadcastMode::Explicit: return "explicit";
    case BroadcastMode::Bidirectional: return "bidirectional";
    case BroadcastMode::Pdpd: return "pdpd";
  }
  return "?";
}

inline bool parse_rule(std::string_view s, Rule* out) {
  for (Rule r : kAllRules) {
    if (s == rule_name(r)) { *out = r; return true; }
  }
  return false;
}

inline bool parse_mode(std::string_view s, BroadcastMode* out) {
  for (BroadcastMode m : {BroadcastMode::Numpy, BroadcastMode::Explicit, BroadcastMode::Bidirectional,
                          BroadcastMode::Pdpd}) {
    if (s == mode_name(m)) { *out = m; return true; }
  }
  return false;
}

// The outcome of a rule: the output shape and, per operand, element strides
// aligned to the output (one per output axis, 0 where the operand
// broadcasts). `a_aligned`/`b_aligned` are the operands' dims as placed on
// the output axes (1 where an operand has no such axis).
struct BroadcastResult {
  Shape out;
  Shape a_aligned, b_aligned;
  Shape a_strides, b_strides;
};

namespace detail {

inline void check_dims(const Shape& s, const char* name) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0) {
      throw InvalidArgument(std::string("shape ") + name + " " + format_shape(s) + " has negative dim " +
                            std::to_string(s[i]) + " at position " + std::to_string(i));
    }
  }
}

// Strides of an operand whose own dims are `aligned` (one per output axis),
// broadcast to `out`: its contiguous strides, zeroed where it broadcasts.
inline Shape aligned_strides(const Shape& aligned, const Shape& out) {
  Shape strides = contiguous_strides(aligned);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (aligned[i] != out[i]) strides[i] = 0;
  }
  return strides;
}

inline BroadcastResult finish(Shape out, Shape a_aligned, Shape b_aligned) {
  checked_numel(out);
  BroadcastResult r;
  r.a_strides = aligned_strides(a_aligned, out);
  r.b_strides = aligned_strides(b_aligned, out);
  r.out = std::move(out);
  r.a_aligned = std::move(a_aligned);
  r.b_aligned = std::move(b_aligned);
  return r;
}

inline std::string pair_text(const std::string& rule, const Shape& a, const Shape& b, const char* a_name = "A",
                             const char* b_name = "B") {
  return rule + ": " + a_name + " " + format_shape(a) + " and " + b_name + " " + format_shape(b) +
         " do not broadcast: ";
}

// Prepends 1s up to `rank`.
inline Shape right_align(const Shape& s, std::size_t rank) {
  Shape r(rank - s.size(), 1);
  r.insert(r.end(), s.begin(), s.end());
  return r;
}

// The Array API algorithm: right-align, then per axis equal or one is 1.
// A 0 broadcasts only with 1 or 0, which the same test gives.
inline BroadcastResult numpy(const Shape& a, const Shape& b, const std::string& rule, const char* a_name = "A",
                             const char* b_name = "B") {
  const std::size_t n = std::max(a.size(), b.size());
  Shape aa = right_align(a, n), bb = right_align(b, n), out(n, 0);
  for (std::size_t i = 0; i < n; ++i) {  // left to right: the first offending axis is reported
    const std::int64_t d1 = aa[i], d2 = bb[i];
    if (d1 == 1) {
      out[i] = d2;
    } else if (d2 == 1 || d1 == d2) {
      out[i] = d1;
    } else {
      throw BroadcastError(pair_text(rule, a, b, a_name, b_name) + "axis " + std::to_string(i) + " has " +
                               std::to_string(d1) + " vs " + std::to_string(d2),
                           rule, static_cast<std::int64_t>(i), d1, d2);
    }
  }
  return finish(std::move(out), std::move(aa), std::move(bb));
}

// OpenVINO's PDPD rule: B is placed onto A from `axis`, after dropping B's
// trailing 1s; only B broadcasts, so the result is always A's shape.
inline BroadcastResult pdpd(const Shape& a, const Shape& b, std::int64_t axis, const char* a_name = "A",
                            const char* b_name = "B") {
  if (axis < -1) {
    throw InvalidArgument("pdpd: axis " + std::to_string(axis) + " is invalid: only -1 (the default) or an axis >= 0");
  }
  const std::string rule = "pdpd (axis " + std::to_string(axis) + ")";
  const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
  if (rb > ra) {
    throw BroadcastError(pair_text(rule, a, b, a_name, b_name) + b_name + " has rank " + std::to_string(rb) +
                             " > rank " + std::to_string(ra) + " of " + a_name + "; only " + b_name +
                             " broadcasts onto " + a_name,
                         "pdpd", -1, ra, rb);
  }
  // axis = -1 means rank(A) - rank(B), computed on B as given.
  const std::int64_t start = axis == -1 ? ra - rb : axis;
  std::int64_t len = rb;
  while (len > 0 && b[static_cast<std::size_t>(len - 1)] == 1) --len;  // trailing 1s are ignored
  if (start + len > ra) {
    throw BroadcastError(pair_text(rule, a, b, a_name, b_name) + b_name + " placed at axis " +
                             std::to_string(start) + " needs " + std::to_string(len) + " axes but " + a_name +
                             " has rank " + std::to_string(ra),
                         "pdpd", -1, ra, len);  // a placement, not one axis: -1 (errors.h)
  }
  Shape bb(a.size(), 1);
  for (std::int64_t i = 0; i < len; ++i) {
    const auto k = static_cast<std::size_t>(start + i);
    const std::int64_t db = b[static_cast<std::size_t>(i)];
    if (db != 1 && db != a[k]) {
      std::string msg = pair_text(rule, a, b, a_name, b_name) + "axis " + std::to_string(k) + " has " +
                        std::to_string(a[k]) + " vs " + std::to_string(db);
      if (a[k] == 1) {
        msg += " (only " + std::string(b_name) + " broadcasts under OpenVINO's pdpd rule; PaddlePaddle would grow " +
               a_name + "'s 1 here, use rule numpy for that)";
      }
      throw BroadcastError(msg, "pdpd", static_cast<std::int64_t>(k), a[k], db);
    }
    bb[k] = db;
  }
  return finish(a, a, std::move(bb));
}


// PaddlePaddle's own elementwise rule (seed 004; phi's ElementwiseRawInferMeta
// and GetBroadcastDimsArrays). The lower-rank operand, A or B, is placed at
// `axis` of the other: -1 means |rank(A) - rank(B)| (computed on the shapes
// as given), any other axis must lie in [0, rank difference]. Its trailing
// 1s are dropped (the guide's "when the last dimension of y is 1, it will be
// ignored") and it is padded with 1s on both sides; then each axis must be
// equal or 1 on either side, as in numpy. Within the allowed axes, dropping
// the trailing 1s and padding with 1s place the same dims (docs/reference/rules.md, "paddle").
inline BroadcastResult paddle(const Shape& a, const Shape& b, std::int64_t axis) {
  const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
  const std::int64_t diff = ra > rb ? ra - rb : rb - ra;
  if (axis < -1 || axis > diff) {
    throw InvalidArgument("paddle: axis " + std::to_string(axis) + " is invalid for A " + format_shape(a) +
                          " and B " + format_shape(b) + ": it must be -1 or in [0, " + std::to_string(diff) +
                          "], the rank difference");
  }
  const std::string rule = "paddle (axis " + std::to_string(axis) + ")";
  const bool b_is_lower = rb < ra;  // with equal ranks, A is "placed" at 0: the axis plays no part
  const Shape& low = b_is_lower ? b : a;
  const std::int64_t start = axis == -1 ? diff : axis;
  std::size_t len = low.size();
  while (len > 0 && low[len - 1] == 1) --len;  // trailing 1s are dropped
  Shape placed(static_cast<std::size_t>(std::max(ra, rb)), 1);
  std::copy(low.begin(), low.begin() + static_cast<std::ptrdiff_t>(len),
            placed.begin() + static_cast<std::ptrdiff_t>(start));
  const Shape& high = b_is_lower ? a : b;
  Shape out(placed.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t da = b_is_lower ? high[i] : placed[i], db = b_is_lower ? placed[i] : high[i];
    if (da == 1) {
      out[i] = db;
    } else if (db == 1 || da == db) {
      out[i] = da;
    } else {
      const std::string where = ra == rb ? std::string() : std::string(b_is_lower ? "B" : "A") +
                                                               " placed at axis " + std::to_string(start) + " gives ";
      throw BroadcastError(pair_text(rule, a, b) + where + "axis " + std::to_string(i) + " has " +
                               std::to_string(da) + " vs " + std::to_string(db),
                           "paddle", static_cast<std::int64_t>(i), da, db);
    }
  }
  return b_is_lower ? finish(std::move(out), high, std::move(placed)) : finish(std::move(out), std::move(placed), high);
}

}  // namespace detail

// Broadcasts two operand shapes under an elementwise rule. For `pdpd`,
// `axis` is the start axis of B in A (-1: rank(A) - rank(B)); for `paddle`,
// of the lower-rank operand in the other (-1: the rank difference); other
// rules ignore it. For `bidirectional`, B is the Broadcast op's target shape.
// Throws BroadcastError when the shapes do not broadcast, InvalidArgument on
// malformed input (negative dims, an axis out of range) and OverflowError when the
// output's element count does not fit in 64 bits.
inline BroadcastResult broadcast_shapes(Rule rule, const Shape& a, const Shape& b, std::int64_t axis = -1) {
  detail::check_dims(a, "A");
  detail::check_dims(b, "B");
  switch (rule) {
    case Rule::None: {
      if (a.size() != b.size()) {
        throw BroadcastError(detail::pair_text("none", a, b) + "ranks differ, " + std::to_string(a.size()) + " vs " +
                                 std::to_string(b.size()) + " (rule none needs equal shapes)",
                             "none", -1, static_cast<std::int64_t>(a.size()), static_cast<std::int64_t>(b.size()));
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) {
          throw BroadcastError(detail::pair_text("none", a, b) + "axis " + std::to_string(i) + " has " +
                                   std::to_string(a[i]) + " vs " + std::to_string(b[i]) +
                                   " (rule none needs equal shapes)",
                               "none", static_cast<std::int64_t>(i), a[i], b[i]);
        }
      }
      return detail::finish(a, a, b);
    }
    case Rule::Numpy: return detail::numpy(a, b, "numpy");
    case Rule::Bidirectional: return detail::numpy(a, b, "bidirectional", "input", "target");
    case Rule::Pdpd: return detail::pdpd(a, b, axis);
    case Rule::Paddle: return detail::paddle(a, b, axis);
  }
  throw InvalidArgument("unknown rule");
}

namespace detail {
// Input i's name in broadcast_inputs' errors: names[i], else "A", "B", ...
inline std::string input_name(const std::vector<std::string>& names, std::size_t i) {
  return i < names.size() ? names[i] : std::string(1, static_cast<char>('A' + i % 26));
}
}  // namespace detail

// N inputs broadcast together: the output shape, and each input's strides
// aligned to it (one per output axis, 0 where the input broadcasts).
struct BroadcastInputs {
  Shape out;
  std::vector<Shape> aligned;  // per input: its dims as the rule places them on out's axes
  std::vector<Shape> strides;  // per input: element strides on out's axes (0 where it broadcasts)
};

// Broadcasts the inputs of a kernel under an elementwise rule. Two inputs
// take any rule (as broadcast_shapes, with the inputs' names in errors). Other counts take numpy or
// bidirectional, which fold the Array API algorithm over all of them (the
// result does not depend on the order), or none (all shapes equal); pdpd
// and paddle place one operand in another and so take exactly two. One
// input is its own output. `names` name the inputs in errors ("A", "B", ...
// when empty). Throws as broadcast_shapes does.
inline BroadcastInputs broadcast_inputs(Rule rule, const std::vector<Shape>& shapes, std::int64_t axis = -1,
                                        const std::vector<std::string>& names = {}) {
  auto name = [&](std::size_t i) { return detail::input_name(names, i); };
  BroadcastInputs r;
  if (shapes.size() == 2 && rule != Rule::Numpy) {
    BroadcastResult two = broadcast_shapes(rule, shapes[0], shapes[1], axis);
    r.out = std::move(two.out);
    r.aligned = {std::move(two.a_aligned), std::move(two.b_aligned)};
    r.strides = {std::move(two.a_strides), std::move(two.b_strides)};
    return r;
  }
  if (rule_takes_axis(rule)) {
    throw InvalidArgument(std::string("rule ") + rule_name(rule) + " broadcasts exactly two inputs, not " +
                          std::to_string(shapes.size()) + " (use numpy for more)");
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) detail::check_dims(shapes[i], name(i).c_str());
  if (shapes.empty()) return r;  // no inputs: a rank-0 output
  r.out = shapes[0];
  std::string so_far = name(0);
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    if (rule == Rule::None) {
      if (shapes[i] != shapes[0]) {
        throw BroadcastError(detail::pair_text("none", shapes[0], shapes[i], name(0).c_str(), name(i).c_str()) +
                                 "rule none needs equal shapes",
                             "none", -1, static_cast<std::int64_t>(shapes[0].size()),
                             static_cast<std::int64_t>(shapes[i].size()));
      }
    } else {
      r.out = detail::numpy(r.out, shapes[i], rule_name(rule), so_far.c_str(), name(i).c_str()).out;
    }
    so_far += ", " + name(i);
  }
  checked_numel(r.out);
  for (const Shape& s : shapes) {
    r.aligned.push_back(detail::right_align(s, r.out.size()));
    r.strides.push_back(detail::aligned_strides(r.aligned.back(), r.out));
  }
  return r;
}

// Broadcasts the inputs of a kernel together with the targets of its
// Expand nodes (expand_targets, expr.h), which have no data: the targets
// join the inputs' shapes in the output's, and the result holds the inputs'
// alignment and strides only. Expand takes the numpy rule, under which an
// expanded operand and every other input align to the output right to
// left, so each input's strides are the ones numpy gives it. Throws
// InvalidArgument for targets under another rule, and as broadcast_inputs.
inline BroadcastInputs broadcast_inputs(Rule rule, const std::vector<Shape>& shapes, const std::vector<Shape>& targets,
                                        std::int64_t axis, const std::vector<std::string>& names = {}) {
  if (targets.empty()) return broadcast_inputs(rule, shapes, axis, names);
  if (rule != Rule::Numpy) {
    throw InvalidArgument(std::string("expand() broadcasts under rule numpy; this kernel's rule is ") +
                          rule_name(rule));
  }
  std::vector<Shape> all = shapes;
  std::vector<std::string> all_names;
  for (std::size_t i = 0; i < shapes.size(); ++i) all_names.push_back(detail::input_name(names, i));
  for (const Shape& target : targets) {
    all.push_back(target);
    all_names.push_back("expand target");  // the message shows the shape after the name
  }
  BroadcastInputs r = broadcast_inputs(rule, all, axis, all_names);
  r.aligned.resize(shapes.size());
  r.strides.resize(shapes.size());
  return r;
}

// The Broadcast op: materializes `input` at `target`. In the result, A is
// the input and B the target. `axis` is used by pdpd, `axes_mapping` by
// explicit (input axis i goes to target axis axes_mapping[i]).
inline BroadcastResult broadcast_to(BroadcastMode mode, const Shape& input, const Shape& target,
                                    std::int64_t axis = -1, const std::vector<std::int64_t>& axes_mapping = {}) {
  detail::check_dims(input, "input");
  detail::check_dims(target, "target");
  switch (mode) {
    case BroadcastMode::Bidirectional: return detail::numpy(input, target, "bidirectional", "input", "target");
    case BroadcastMode::Pdpd: {
      // The rule's A is the target; report the input as operand A.
      BroadcastResult r = detail::pdpd(target, input, axis, "target", "input");
      std::swap(r.a_aligned, r.b_aligned);
      std::swap(r.a_strides, r.b_strides);
      return r;
    }
    default: break;
  }
  Shape placed(target.size(), 1);
  if (mode == BroadcastMode::Numpy) {
    // Unidirectional: the input must broadcast *to* the target.
    if (input.size() > target.size()) {
      throw BroadcastError(detail::pair_text("numpy (to target)", input, target, "input", "target") +
                               "input has rank " + std::to_string(input.size()) + " > target rank " +
                               std::to_string(target.size()),
                           "numpy", -1, static_cast<std::int64_t>(input.size()),
                           static_cast<std::int64_t>(target.size()));
    }
    placed = detail::right_align(input, target.size());
  } else {  // Explicit
    if (axes_mapping.size() != input.size()) {
      throw InvalidArgument("explicit: axes_mapping has " + std::to_string(axes_mapping.size()) +
                            " entries but input " + format_shape(input) + " has rank " +
                            std::to_string(input.size()));
    }
    for (std::size_t i = 0; i < axes_mapping.size(); ++i) {
      const std::int64_t t = axes_mapping[i];
      if (t < 0 || t >= static_cast<std::int64_t>(target.size())) {
        throw InvalidArgument("explicit: axes_mapping[" + std::to_string(i) + "] = " + std::to_string(t) +
                              " is outside target " + format_shape(target) + " of rank " +
                              std::to_string(target.size()));
      }
      if (i > 0 && t <= axes_mapping[i - 1]) {
        throw InvalidArgument("explicit: axes_mapping must be strictly increasing, but entry " + std::to_string(i) +
                              " is " + std::to_string(t) + " after " + std::to_string(axes_mapping[i - 1]));
      }
      placed[static_cast<std::size_t>(t)] = input[i];
    }
  }
  const std::string rule = std::string(mode_name(mode)) + " (to target)";
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (placed[i] != 1 && placed[i] != target[i]) {
      throw BroadcastError(detail::pair_text(rule, input, target, "input", "target") + "axis " + std::to_string(i) +
                               " has " + std::to_string(placed[i]) + " vs " + std::to_string(target[i]),
                           mode_name(mode), static_cast<std::int64_t>(i), placed[i], target[i]);
    }
  }
  return detail::finish(target, std::move(placed), target);
}

}  // namespace bcastgen
