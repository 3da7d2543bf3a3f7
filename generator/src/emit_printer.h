// Helpers of the body emitters (emit_body_code.h, emit_rows.cpp): an indented
// printer and the C++ spelling of literals and offsets.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bcastgen/expr.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "bcastgen/half.h"

namespace bcastgen::gen {

// A value of a $name$ variable of a printed line: text, or an integer
// printed in decimal.
struct PrintValue {
  std::string text;
  PrintValue(std::string s) : text(std::move(s)) {}  // NOLINT: implicit, as a map value
  PrintValue(const char* s) : text(s) {}            // NOLINT
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  PrintValue(T v) : text(std::to_string(v)) {}  // NOLINT
};
using PrintVars = std::initializer_list<std::pair<const char*, PrintValue>>;

// A line of code with its $name$ variables filled (expand(): the
// vocabulary's forms take the same placeholders), as protoc's Printer.
inline std::string fill(const std::string& pattern, PrintVars vars) {
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : vars) values.emplace(name, value.text);
  return expand(pattern, values);
}

// Indented lines, with labelled closing braces for deep nests.
class Printer {
 public:
  void line(const std::string& s) { out_ += std::string(2 * depth_, ' ') + s + "\n"; }
  void print(const std::string& pattern, PrintVars vars) { line(fill(pattern, vars)); }
  void open(const std::string& pattern, PrintVars vars) { open(fill(pattern, vars)); }
  void open(const std::string& head) {
    line(head.empty() ? "{" : head + " {");
    ++depth_;
  }
  // A bare scope, "{  // comment".
  void open_scope(const std::string& comment) {
    line("{  // " + comment);
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

inline std::string offset_expr(const std::string& ptr, const std::string& base, std::int64_t off) {
  if (base.empty()) return off == 0 ? ptr : fmt::format("{} + {}", ptr, off);
  return off == 0 ? fmt::format("{} + {}", ptr, base) : fmt::format("{} + {} + {}", ptr, base, off);
}

// A literal as a C++ constant of its node's type, exactly (floats print
// with enough digits to round-trip; integers are braced so that they have
// the element type, which ops:: templates deduce).
inline std::string literal_cpp(const ExprLiteral& lit, DType t) {
  const DTypeInfo& info = dtype_info(t);
  if (t == DType::Bool) return lit.b ? "true" : "false";
  if (is_half(t)) {  // its bits (the literal holds a value of the type)
    const std::uint16_t bits = t == DType::F16 ? half_from<f16>(lit.f).bits : half_from<bf16>(lit.f).bits;
    return fmt::format("{}{{{:#06x}}}", info.cpp_type, bits);
  }
  if (info.is_float) {
    std::string s = t == DType::F32 ? fmt::format("{:.9g}", static_cast<float>(lit.f)) : fmt::format("{:.17g}", lit.f);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return t == DType::F32 ? s + "f" : s;
  }
  if (info.is_signed) {
    // The most negative value has no literal: write it as (min + 1) - 1.
    const std::string v = lit.i == INT64_MIN ? "-9223372036854775807LL - 1" : fmt::format("{}", lit.i);
    return fmt::format("{}{{{}}}", info.cpp_type, v);
  }
  return fmt::format("{}{{{}u}}", info.cpp_type, lit.u);
}

// A mask with the low n of 64 lanes set, one bit per lane.
inline std::uint64_t low_lanes(std::int64_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

// In loop `i` at `depth` of a nest, `ptr` moved by `stride` elements per
// iteration: "const float* in0_1 = in0 + i0 * 768;" (nothing for stride 0).
inline void advance_pointer(Printer& pr, std::string& ptr, const std::string& name, const std::string& type,
                            std::int64_t stride, const std::string& i, std::size_t depth) {
  if (stride == 0) return;
  const std::string next = fmt::format("{}_{}", name, depth + 1);
  pr.line(fmt::format("{}* {} = {} + {};", type, next, ptr, stride == 1 ? i : fmt::format("{} * {}", i, stride)));
  ptr = next;
}

// The split loop's iteration i0 (the first of `outer`; `advance` moves the
// pointers by it), or a note that the body has none: the depth of the
// first loop the body opens.
template <class Advance>
std::size_t split_iteration(Printer& pr, bool split, const char* what, const std::vector<Loop>& outer,
                            Advance advance) {
  if (!split) {
    pr.line("(void)i0;  // one piece: no split loop");
    return 0;
  }
  pr.print("// $what$ i0 of the split loop (extent $extent$)", {{"what", what}, {"extent", outer.front().extent}});
  advance(outer.front());
  return 1;
}

// The scalar op (ops.h) of a computed node over its operands' expressions.
inline std::string scalar_call(const ExprNode& n, const std::vector<std::string>& a) {
  switch (n.kind) {
    case ExprKind::Binary: return fmt::format("bcastgen::ops::{}({}, {})", op_name(n.op), a[0], a[1]);
    case ExprKind::Unary: return fmt::format("bcastgen::ops::{}({})", unary_name(n.unary), a[0]);
    case ExprKind::Where: return fmt::format("bcastgen::ops::where({}, {}, {})", a[0], a[1], a[2]);
    case ExprKind::Cast: return fmt::format("bcastgen::ops::cast<{}>({})", dtype_info(n.dtype).cpp_type, a[0]);
    default: return "?";
  }
}

}  // namespace bcastgen::gen
