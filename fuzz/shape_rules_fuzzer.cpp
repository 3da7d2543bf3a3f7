// Fuzz target: the shape parser (gen::parse_shape) and the rule engine
// (broadcast_shapes, broadcast_to, coalesce). The rule engine is checked
// against an independent oracle written from the README's rule text:
//   - it accepts exactly the pairs the oracle accepts, with the same output
//     shape; BroadcastError names an axis of the output or -1; malformed
//     input (axis < -1, bad axes_mapping) is InvalidArgument; OverflowError
//     only when some product of dims really exceeds 64 bits;
//   - aligned dims and strides are consistent, and for small outputs the
//     per-element index mapping (sum of index x stride) equals the oracle's
//     (right-aligned / placed operand, 0 on broadcast axes), and coalesced
//     loops visit exactly the same (out, a, b) offsets in the same order;
//   - parse_shape round-trips every shape in its three spellings, and its
//     errors say "bad shape" and point at a column inside the text.
// Input: byte 0 chooses text mode (the rest is "A\nB") or binary mode
// (ranks, dims from a table that includes 0, 1 and huge values, an axis,
// an axes_mapping).
#include <limits>
#include <string>
#include <vector>

#include "bcastgen/coalesce.h"
#include "bcastgen/gen/shape_parse.h"
#include "bcastgen/rules.h"
#include "fuzz_common.h"

namespace {

using bcastgen::BroadcastError;
using bcastgen::BroadcastMode;
using bcastgen::BroadcastResult;
using bcastgen::InvalidArgument;
using bcastgen::OverflowError;
using bcastgen::Rule;
using bcastgen::Shape;
using bcastgen::fuzz::Bytes;
using bcastgen::fuzz::shape_text;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// The product of the non-zero dims exceeds 64 bits: a checked product may
// overflow, depending on where the zeros are.
bool may_overflow(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) {
    if (d != 0 && __builtin_mul_overflow(n, d, &n)) return true;
  }
  return false;
}
bool has_zero(const Shape& s) {
  for (std::int64_t d : s) {
    if (d == 0) return true;
  }
  return false;
}

// What the oracle expects.
struct Expect {
  enum Kind { Ok, NoBroadcast, Invalid } kind = Ok;
  Shape out;
  // Operand axis -> output axis, for a and b (-1: not placed; then the
  // operand's dim there must be 1).
  std::vector<long> a_axis, b_axis;
};

// numpy: right-align and compare.
Expect numpy_oracle(const Shape& a, const Shape& b) {
  Expect e;
  const std::size_t n = std::max(a.size(), b.size());
  e.out.assign(n, 0);
  for (std::size_t k = 0; k < n; ++k) {  // k counts from the right
    const std::int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    const std::int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) {
      e.kind = Expect::NoBroadcast;
      return e;
    }
    e.out[n - 1 - k] = da == 1 ? db : da;
  }
  for (std::size_t t = 0; t < a.size(); ++t) e.a_axis.push_back(static_cast<long>(n - a.size() + t));
  for (std::size_t t = 0; t < b.size(); ++t) e.b_axis.push_back(static_cast<long>(n - b.size() + t));
  return e;
}

// pdpd: B placed onto A from axis, B's trailing 1s dropped, only B broadcasts.
Expect pdpd_oracle(const Shape& a, const Shape& b, std::int64_t axis) {
  Expect e;
  if (axis < -1) {
    e.kind = Expect::Invalid;
    return e;
  }
  const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
  if (rb > ra) {
    e.kind = Expect::NoBroadcast;
    return e;
  }
  const std::int64_t start = axis == -1 ? ra - rb : axis;
  std::int64_t len = rb;
  while (len > 0 && b[static_cast<std::size_t>(len - 1)] == 1) --len;
  if (start + len > ra) {
    e.kind = Expect::NoBroadcast;
    return e;
  }
  for (std::int64_t i = 0; i < len; ++i) {
    const std::int64_t db = b[static_cast<std::size_t>(i)], da = a[static_cast<std::size_t>(start + i)];
    if (db != 1 && db != da) {
      e.kind = Expect::NoBroadcast;
      return e;
    }
  }
  e.out = a;
  for (std::int64_t t = 0; t < ra; ++t) e.a_axis.push_back(static_cast<long>(t));
  for (std::int64_t t = 0; t < rb; ++t) e.b_axis.push_back(t < len ? static_cast<long>(start + t) : -1);
  return e;
}

// paddle: the lower-rank operand placed at axis (-1: the rank difference) of
// the other, its trailing 1s dropped; either operand may broadcast.
Expect paddle_oracle(const Shape& a, const Shape& b, std::int64_t axis) {
  Expect e;
  const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
  const std::int64_t diff = ra > rb ? ra - rb : rb - ra;
  if (axis < -1 || axis > diff) {
    e.kind = Expect::Invalid;
    return e;
  }
  if (ra == rb) return numpy_oracle(a, b);
  const bool b_low = rb < ra;
  const Shape& low = b_low ? b : a;
  const Shape& high = b_low ? a : b;
  const std::int64_t start = axis == -1 ? diff : axis;
  std::int64_t len = static_cast<std::int64_t>(low.size());
  while (len > 0 && low[static_cast<std::size_t>(len - 1)] == 1) --len;
  e.out = high;
  for (std::int64_t i = 0; i < len; ++i) {
    const std::int64_t dl = low[static_cast<std::size_t>(i)], dh = high[static_cast<std::size_t>(start + i)];
    if (dl != dh && dl != 1 && dh != 1) {
      e.kind = Expect::NoBroadcast;
      return e;
    }
    e.out[static_cast<std::size_t>(start + i)] = dh == 1 ? dl : dh;
  }
  std::vector<long> high_axis, low_axis;
  for (std::size_t t = 0; t < high.size(); ++t) high_axis.push_back(static_cast<long>(t));
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(low.size()); ++t) {
    low_axis.push_back(t < len ? static_cast<long>(start + t) : -1);
  }
  e.a_axis = b_low ? high_axis : low_axis;
  e.b_axis = b_low ? low_axis : high_axis;
  return e;
}

Expect none_oracle(const Shape& a, const Shape& b) {
  Expect e;
  if (a != b) {
    e.kind = Expect::NoBroadcast;
    return e;
  }
  e.out = a;
  for (std::size_t t = 0; t < a.size(); ++t) {
    e.a_axis.push_back(static_cast<long>(t));
    e.b_axis.push_back(static_cast<long>(t));
  }
  return e;
}

// The Broadcast op; a is the input, b the target.
Expect broadcast_to_oracle(BroadcastMode mode, const Shape& in, const Shape& target, std::int64_t axis,
                           const std::vector<std::int64_t>& mapping) {
  Expect e;
  switch (mode) {
    case BroadcastMode::Bidirectional: return numpy_oracle(in, target);
    case BroadcastMode::Pdpd: {
      Expect p = pdpd_oracle(target, in, axis);
      std::swap(p.a_axis, p.b_axis);
      return p;
    }
    case BroadcastMode::Numpy: {
      if (in.size() > target.size()) {
        e.kind = Expect::NoBroadcast;
        return e;
      }
      const std::size_t off = target.size() - in.size();
      for (std::size_t t = 0; t < in.size(); ++t) e.a_axis.push_back(static_cast<long>(off + t));
      break;
    }
    case BroadcastMode::Explicit: {
      if (mapping.size() != in.size()) {
        e.kind = Expect::Invalid;
        return e;
      }
      for (std::size_t t = 0; t < mapping.size(); ++t) {
        if (mapping[t] < 0 || mapping[t] >= static_cast<std::int64_t>(target.size()) ||
            (t > 0 && mapping[t] <= mapping[t - 1])) {
          e.kind = Expect::Invalid;
          return e;
        }
        e.a_axis.push_back(static_cast<long>(mapping[t]));
      }
      break;
    }
  }
  for (std::size_t t = 0; t < in.size(); ++t) {
    const std::int64_t d = in[t], td = target[static_cast<std::size_t>(e.a_axis[t])];
    if (d != 1 && d != td) {
      e.kind = Expect::NoBroadcast;
      return e;
    }
  }
  e.out = target;
  for (std::size_t t = 0; t < target.size(); ++t) e.b_axis.push_back(static_cast<long>(t));
  return e;
}

std::int64_t numel_of(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

// Offset into an operand of dims `dims` placed by `axis_of` for output multi-index idx.
std::int64_t oracle_offset(const Shape& dims, const std::vector<long>& axis_of, const Shape& idx) {
  std::int64_t off = 0;
  for (std::size_t t = 0; t < dims.size(); ++t) {
    const std::int64_t i = axis_of[t] < 0 || dims[t] == 1 ? 0 : idx[static_cast<std::size_t>(axis_of[t])];
    off = off * dims[t] + i;
  }
  return off;
}

// Checks a successful result against the oracle's expectation.
void check_result(const char* what, const Shape& a, const Shape& b, const BroadcastResult& r, const Expect& e,
                  bool b_has_data) {
  const std::string ctx = std::string(what) + " A=" + shape_text(a) + " B=" + shape_text(b);
  FUZZ_CHECK(e.kind == Expect::Ok, ctx + ": accepted, but the oracle rejects it");
  FUZZ_CHECK(r.out == e.out, ctx + ": out " + shape_text(r.out) + " but the oracle says " + shape_text(e.out));
  if (may_overflow(a) || may_overflow(b) || may_overflow(r.out)) {
    // Accepted only when the output is empty; counts would not fit past here.
    FUZZ_CHECK(has_zero(r.out), ctx + ": an element count above 64 bits was accepted");
    return;
  }
  const std::size_t n = r.out.size();
  FUZZ_CHECK(r.a_aligned.size() == n && r.b_aligned.size() == n && r.a_strides.size() == n && r.b_strides.size() == n,
             ctx + ": aligned ranks");
  for (const auto* s : {&r.a_aligned, &r.b_aligned}) {
    for (std::size_t k = 0; k < n; ++k) {
      FUZZ_CHECK((*s)[k] == r.out[k] || (*s)[k] == 1, ctx + ": aligned dim neither out's nor 1");
    }
  }
  FUZZ_CHECK(numel_of(r.a_aligned) == numel_of(a), ctx + ": a_aligned has a's elements");
  if (b_has_data) FUZZ_CHECK(numel_of(r.b_aligned) == numel_of(b), ctx + ": b_aligned has b's elements");
  const Shape ca = bcastgen::contiguous_strides(r.a_aligned), cb = bcastgen::contiguous_strides(r.b_aligned);
  for (std::size_t k = 0; k < n; ++k) {
    FUZZ_CHECK(r.a_strides[k] == (r.a_aligned[k] == r.out[k] ? ca[k] : 0), ctx + ": a stride");
    FUZZ_CHECK(r.b_strides[k] == (r.b_aligned[k] == r.out[k] ? cb[k] : 0), ctx + ": b stride");
  }
  const std::int64_t total = numel_of(r.out);
  if (total > 4096) return;
  // Per element: the rule's strides against the oracle's placement.
  Shape idx(n, 0);
  std::vector<std::int64_t> seq_a, seq_b;
  for (std::int64_t i = 0; i < total; ++i) {
    std::int64_t oa = 0, ob = 0;
    for (std::size_t k = 0; k < n; ++k) {
      oa += idx[k] * r.a_strides[k];
      ob += idx[k] * r.b_strides[k];
    }
    FUZZ_CHECK(oa == oracle_offset(a, e.a_axis, idx), ctx + ": a offset of element " + std::to_string(i));
    if (b_has_data) FUZZ_CHECK(ob == oracle_offset(b, e.b_axis, idx), ctx + ": b offset of element " + std::to_string(i));
    seq_a.push_back(oa);
    seq_b.push_back(ob);
    for (std::size_t k = n; k-- > 0;) {
      if (++idx[k] < r.out[k]) break;
      idx[k] = 0;
    }
  }
  // Coalesced loops: the same offsets, in the same order.
  const bcastgen::CoalescedLoops c = bcastgen::coalesce(r);
  const std::size_t m = c.extents.size();
  FUZZ_CHECK(c.a_strides.size() == m && c.b_strides.size() == m && c.out_strides.size() == m, ctx + ": coalesce sizes");
  if (total == 0) {
    FUZZ_CHECK(m == 1 && c.extents[0] == 0, ctx + ": coalesce of an empty output");
    return;
  }
  for (std::size_t k = 0; k < m; ++k) FUZZ_CHECK(c.extents[k] >= 2, ctx + ": coalesced extent < 2");
  if (m > 0) FUZZ_CHECK(c.out_strides[m - 1] == 1, ctx + ": innermost out stride");
  Shape ci(m, 0);
  for (std::int64_t i = 0; i < total; ++i) {
    std::int64_t oa = 0, ob = 0, oo = 0;
    for (std::size_t k = 0; k < m; ++k) {
      oa += ci[k] * c.a_strides[k];
      ob += ci[k] * c.b_strides[k];
      oo += ci[k] * c.out_strides[k];
    }
    FUZZ_CHECK(oo == i && oa == seq_a[static_cast<std::size_t>(i)] && ob == seq_b[static_cast<std::size_t>(i)],
               ctx + ": coalesced loops visit element " + std::to_string(i) + " differently");
    for (std::size_t k = m; k-- > 0;) {
      if (++ci[k] < c.extents[k]) break;
      ci[k] = 0;
    }
  }
}

bool any_may_overflow(const Shape& a, const Shape& b, const Expect& e) {
  return may_overflow(a) || may_overflow(b) || (e.kind == Expect::Ok && may_overflow(e.out));
}

template <class Run>
void check_rule(const char* what, const Shape& a, const Shape& b, const Expect& e, bool b_has_data, Run run) {
  const std::string ctx = std::string(what) + " A=" + shape_text(a) + " B=" + shape_text(b);
  try {
    const BroadcastResult r = run();
    check_result(what, a, b, r, e, b_has_data);
  } catch (const BroadcastError& err) {
    FUZZ_CHECK(e.kind == Expect::NoBroadcast, ctx + ": BroadcastError, but the oracle says otherwise: " + err.what());
    FUZZ_CHECK(std::string(err.what()).find("do not broadcast") != std::string::npos, ctx + ": " + err.what());
    const auto rank = static_cast<std::int64_t>(std::max(a.size(), b.size()));
    FUZZ_CHECK(err.axis() >= -1 && err.axis() < rank, ctx + ": error axis out of range: " + err.what());
  } catch (const OverflowError& err) {
    // Shapes that broadcast, and some product of dims exceeds 64 bits
    // (really, or in a zero-size shape whose other dims are huge).
    FUZZ_CHECK(e.kind == Expect::Ok && any_may_overflow(a, b, e), ctx + ": spurious overflow: " + err.what());
  } catch (const InvalidArgument& err) {
    FUZZ_CHECK(e.kind == Expect::Invalid, ctx + ": InvalidArgument, but the oracle says otherwise: " + err.what());
  }
}

void check_all_rules(const Shape& a, const Shape& b, std::int64_t axis, const std::vector<std::int64_t>& mapping) {
  using bcastgen::broadcast_shapes;
  using bcastgen::broadcast_to;
  check_rule("none", a, b, none_oracle(a, b), true, [&] { return broadcast_shapes(Rule::None, a, b, axis); });
  check_rule("numpy", a, b, numpy_oracle(a, b), true, [&] { return broadcast_shapes(Rule::Numpy, a, b, axis); });
  check_rule("bidirectional", a, b, numpy_oracle(a, b), true,
             [&] { return broadcast_shapes(Rule::Bidirectional, a, b, axis); });
  check_rule("pdpd", a, b, pdpd_oracle(a, b, axis), true, [&] { return broadcast_shapes(Rule::Pdpd, a, b, axis); });
  check_rule("paddle", a, b, paddle_oracle(a, b, axis), true,
             [&] { return broadcast_shapes(Rule::Paddle, a, b, axis); });
  for (BroadcastMode m :
       {BroadcastMode::Numpy, BroadcastMode::Explicit, BroadcastMode::Bidirectional, BroadcastMode::Pdpd}) {
    const std::string what = std::string("broadcast_to ") + bcastgen::mode_name(m);
    check_rule(what.c_str(), a, b, broadcast_to_oracle(m, a, b, axis, mapping), m == BroadcastMode::Bidirectional,
               [&] { return broadcast_to(m, a, b, axis, mapping); });
  }
  // numpy is symmetric in its output.
  const Expect ab = numpy_oracle(a, b);
  if (ab.kind == Expect::Ok && !any_may_overflow(a, b, ab)) {
    FUZZ_CHECK(broadcast_shapes(Rule::Numpy, b, a).out == ab.out, "numpy is not symmetric");
  }
}

std::string join(const Shape& s, const char* sep) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? sep : "") + std::to_string(s[i]);
  return t;
}

// Parses `text`; on success checks the round trips, on failure the message.
bool parse_checked(const std::string& text, Shape* out) {
  try {
    *out = bcastgen::gen::parse_shape(text);
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    FUZZ_CHECK(m.find("bad shape") != std::string::npos, m);
    const auto at = m.rfind("at column ");
    FUZZ_CHECK(at != std::string::npos, m);
    const long col = std::strtol(m.c_str() + at + 10, nullptr, 10);
    FUZZ_CHECK(col >= 1 && col <= static_cast<long>(text.size()) + 1, m);
    return false;
  }
  for (std::int64_t d : *out) FUZZ_CHECK(d >= 0, "parse_shape returned a negative dim");
  FUZZ_CHECK(bcastgen::gen::parse_shape(bcastgen::format_shape(*out)) == *out, "round trip [a,b]");
  if (!out->empty()) {
    FUZZ_CHECK(bcastgen::gen::parse_shape(join(*out, ",")) == *out, "round trip a,b");
    FUZZ_CHECK(bcastgen::gen::parse_shape(join(*out, "x")) == *out, "round trip axb");
  }
  return true;
}

const std::int64_t kDims[] = {0, 1, 1, 1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 64, 65, 1000,
                              std::int64_t{1} << 31, std::int64_t{1} << 32, std::int64_t{1} << 62, kMax};

Shape decode_shape(Bytes& in) {
  Shape s(in.pick(7));
  for (auto& d : s) d = in.pick_from(kDims);
  return s;
}

}  // namespace

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  if (data[0] & 1) {
    // Text: "A\nB".
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto nl = text.find('\n');
    Shape a, b;
    const bool ok_a = parse_checked(text.substr(0, nl), &a);
    const bool ok_b = nl != std::string::npos && parse_checked(text.substr(nl + 1), &b);
    if (ok_a && ok_b && a.size() <= 32 && b.size() <= 32) check_all_rules(a, b, -1, {});
    return 0;
  }
  Bytes in(data + 1, size - 1);
  const Shape a = decode_shape(in), b = decode_shape(in);
  const std::int64_t axis = static_cast<std::int64_t>(in.pick(12)) - 3;  // -3 .. 8
  std::vector<std::int64_t> mapping;
  if (in.flag()) {  // a valid-looking mapping: increasing, into b
    for (std::size_t i = 0, t = in.pick(3); i < a.size(); ++i, t += 1 + in.pick(2)) mapping.push_back(static_cast<std::int64_t>(t));
  } else {
    mapping.resize(in.pick(5));
    for (auto& m : mapping) m = static_cast<std::int64_t>(in.pick(10)) - 2;
  }
  check_all_rules(a, b, axis, mapping);
  return 0;
}
