// The expression front end of fused kernels (issue 14): parses an `expr:`
// string over named, typed inputs into a typed DAG in which every distinct
// subexpression is one node: what the spec, planner and emitter work on.
//
// Grammar, with C precedence and left associativity (tightest first):
//   primary   number | true | false | input | ( expr ) | call
//   unary     - ! ~                 neg, logical_not, bitwise_not
//   * / %                           multiply, divide, floor_mod (% is NumPy's %)
//   + -                             add, subtract
//   << >>                           bitwise_left_shift, bitwise_right_shift
//   < <= > >=                       less, less_equal, greater, greater_equal
//   == !=                           equal, not_equal
//   &  ^  |                         bitwise_and, bitwise_xor, bitwise_or (three levels)
//   &&  ||                          logical_and, logical_or (two levels)
// Calls: every binary op by its name or alias (add(a, b), power, pow,
// remainder, ...) and max, min; every unary function of kUnaryInfo
// (runtime expr.h) by its name: neg abs sqrt square reciprocal logical_not
// bitwise_not, floor ceil trunc round sign, isnan isinf isfinite signbit,
// and the math functions exp ... gelu ... atanh; clamp(x, lo, hi), meaning
// minimum(maximum(x, lo), hi) as NumPy's clip; where(cond, x, y);
// cast(x, dtype) with a dtype name (a cast to x's own type is x itself);
// and expand(x, [d0, d1, ...]), x broadcast with a target shape of
// non-negative integer dims (ONNX's Expand), of x's type, which joins the
// output's shape under the numpy rule.
//
// Types:
// - Binary ops need operands of one type (cast to mix) that op_supports()
//   accepts; comparisons give bool. logical ops and ! take bool.
// - Unary: neg, abs, square, floor, ceil, trunc, round, sign take numbers;
//   sqrt, reciprocal and the math functions floats; bitwise_not integers
//   and bool. isnan, isinf, isfinite, signbit take floats and give bool.
// - where needs a bool condition and branches of one type.
// - A number takes its type from its context: the other operand, where's
//   other branch, the op's result (inside a literal-only subexpression), or
//   the target of cast(5, f32). With no context (`1 < 2`, a literal-only
//   expression) it is an error: write cast(1, f32). A number written with
//   '.' or an exponent is a float literal and an error in an integer
//   context; an integer out of the type's range, a float literal that
//   overflows the type or rounds a nonzero value to 0, and a number where
//   bool is expected are errors. A minus sign directly before a number is
//   part of the literal (`-128` is an i8). true and false are bool.
// - The output dtype is the root's.
// Sharing is structural: a*b and a*b are one node, a*b and b*a are two, and
// nothing is folded or reassociated (each node is computed as written).
//
// Limits: at most kMaxExprInputs inputs, kMaxExprNodes nodes (after
// sharing), kMaxExprDepth nested parentheses and calls, and kMaxExprLength
// bytes of text. Nothing recurses deeper than kMaxExprDepth, so no text can
// overflow the stack.
//
// Unused inputs are not an error here: input_used says which inputs the
// expression reads, and the caller (spec, CLI) decides.
//
// The scalar semantics of every node are bcastgen::ops's (ops.h): the
// binary ops, the unary functions by their names (neg wraps on unsigned, as
// NumPy's negative), where and cast; reference::evaluate (reference.h)
// evaluates a DAG with them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/expr.h"
#include "bcastgen/types.h"

namespace bcastgen::gen {

inline constexpr std::size_t kMaxExprInputs = 16;
inline constexpr std::size_t kMaxExprNodes = 1024;
inline constexpr int kMaxExprDepth = 200;
// transpose, reshape and slice around one input, and the dims in a perm or shape.
inline constexpr std::size_t kMaxLayoutSteps = 16;
inline constexpr std::size_t kMaxLayoutDims = 64;
inline constexpr std::size_t kMaxExprLength = std::size_t{1} << 20;

struct ExprInput {
  std::string name;  // an identifier: [A-Za-z_][A-Za-z0-9_]*, not true or false
  DType dtype = DType::F32;
};

using bcastgen::ExprDag;
using bcastgen::ExprKind;
using bcastgen::ExprLiteral;
using bcastgen::ExprNode;
using bcastgen::UnaryOp;

// One line per node, "t4 = add(t2, t3) : f32", then "root t6": inputs as
// "t0 = x : f32", literals as "t5 = 0 : f32", casts as "cast(t1, i32)".
std::string to_string(const ExprDag& dag, const std::vector<ExprInput>& inputs);
// Node i alone, as to_string prints it (without the newline); inputs by
// `input_names` (index order).
std::string node_to_string(const ExprDag& dag, std::size_t i, const std::vector<std::string>& input_names);

// A bad expression. column() is the 1-based byte position in the text
// (the column, for one-line text) of the offending token, in [1, size + 1];
// what() is "column C: message", then the text's line and a caret under C.
// A spec adds its file:line:col from the YAML scalar's position + column.
class ExprError : public InvalidArgument {
 public:
  ExprError(std::string_view text, int column, const std::string& message);
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  int column_;
  std::string message_;
};

// The line of `text` holding `column` and, under it, a caret at the column
// (each line indented by two spaces), e.g. "  max(x, y +)\n            ^".
// A long line is cut to 100 bytes from 60 before the column, marked "...".
std::string expr_caret(std::string_view text, int column);

// The DAG with its f16 and bf16 intermediates computed in f32: each 16-bit
// input is widened once (exactly), operations and literals of a 16-bit type
// become f32, and the root is rounded once to its dtype. An explicit cast to
// a 16-bit type still rounds. (The default, without it, rounds every node
// to its dtype, as NumPy and ONNX's per-node types do.)
ExprDag compute_in_f32(const ExprDag& dag);

// `dag` without the nodes its root does not read (input nodes stay: they
// are the kernel's parameters).
ExprDag reachable(const ExprDag& dag);

// Parses and types `text`. Throws ExprError for a bad expression, and
// InvalidArgument for bad declarations (more than kMaxExprInputs inputs, a
// name that is not an identifier, a name given twice).
ExprDag parse_expr(std::string_view text, const std::vector<ExprInput>& inputs);

}  // namespace bcastgen::gen
