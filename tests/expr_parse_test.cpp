// gen::parse_expr, the expression front end of fused kernels (issue 14):
// every grammar form and precedence level (checked on the DAG, printed as
// nested calls), every type rule, sharing of common subexpressions, the
// typing and range of numbers, every error with its column and caret, the
// limits, and a property test that evaluates random i32 expressions both
// as written (a tree) and as parsed (the DAG) with bcastgen::ops.
#include <gtest/gtest.h>

#include <cstdint>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/ops.h"

namespace {

using bcastgen::DType;
using bcastgen::InvalidArgument;
using bcastgen::Op;
using bcastgen::gen::ExprDag;
using bcastgen::gen::ExprError;
using bcastgen::gen::ExprInput;
using bcastgen::gen::ExprKind;
using bcastgen::gen::ExprNode;
using bcastgen::gen::parse_expr;

const std::vector<ExprInput> kInputs = {{"x", DType::F32}, {"y", DType::F32},   {"scale", DType::F32},
                                        {"shift", DType::F32}, {"d", DType::F64}, {"i", DType::I32},
                                        {"j", DType::I32},   {"u", DType::U8},    {"keep", DType::Bool},
                                        {"b", DType::Bool},  {"n", DType::I64},   {"w", DType::U64}};

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// The DAG as one nested call, "add(x, multiply(y, 2))", and its dtype.
std::string form(const ExprDag& dag, std::size_t i, const std::vector<ExprInput>& inputs = kInputs) {
  const ExprNode& n = dag.nodes[i];
  std::string args;
  for (std::size_t a : n.args) args += (args.empty() ? "" : ", ") + form(dag, a, inputs);
  switch (n.kind) {
    case ExprKind::Input: return inputs[n.input].name;
    case ExprKind::Literal: return n.literal.text;
    case ExprKind::Binary: return std::string(bcastgen::op_name(n.op)) + "(" + args + ")";
    case ExprKind::Unary: return std::string(unary_name(n.unary)) + "(" + args + ")";
    case ExprKind::Where: return "where(" + args + ")";
    case ExprKind::Cast: return "cast(" + args + ", " + bcastgen::dtype_name(n.dtype) + ")";
    case ExprKind::Expand: return "expand(" + args + ", " + bcastgen::format_shape(n.target) + ")";
    case ExprKind::Reduce:
      return std::string(bcastgen::reduce_name(n.reduce)) + "(" + args + ", " + bcastgen::format_shape(n.axes) + ")";
  }
  return "?";
}

std::string form(const std::string& text, const std::vector<ExprInput>& inputs = kInputs) {
  const ExprDag dag = parse_expr(text, inputs);
  return form(dag, dag.root, inputs);
}

DType dtype_of(const std::string& text) {
  const ExprDag dag = parse_expr(text, kInputs);
  return dag.nodes[dag.root].dtype;
}

// Parses text that must fail with ExprError; returns the error.
ExprError error_of(const std::string& text, const std::vector<ExprInput>& inputs = kInputs) {
  try {
    parse_expr(text, inputs);
  } catch (const ExprError& e) {
    return e;
  }
  ADD_FAILURE() << "parse_expr accepted: " << text.substr(0, 200);
  return ExprError(text, 1, "accepted");
}

// The column and a part of the message of a bad expression.
void expect_error(const std::string& text, int column, const std::string& message) {
  const ExprError e = error_of(text);
  const std::string shown = text.substr(0, 200) + "\n" + std::string(e.what()).substr(0, 600);
  EXPECT_EQ(e.column(), column) << shown;
  EXPECT_TRUE(contains(e.message(), message)) << shown << "\nwanted: " << message;
}

// --- the examples -----------------------------------------------

TEST(ExprParse, BatchNormRelu) {
  const ExprDag dag = parse_expr("max(x * scale + shift, 0)", kInputs);
  EXPECT_EQ(to_string(dag, kInputs),
            "t0 = x : f32\n"
            "t1 = scale : f32\n"
            "t2 = multiply(t0, t1) : f32\n"
            "t3 = shift : f32\n"
            "t4 = add(t2, t3) : f32\n"
            "t5 = 0 : f32\n"
            "t6 = maximum(t4, t5) : f32\n"
            "root t6\n");
  EXPECT_EQ(dag.root, 6u);
  const std::vector<bool> used = {true, false, true, true, false, false, false, false, false, false, false, false};
  EXPECT_EQ(dag.input_used, used);
}

TEST(ExprParse, MaskedAttention) {
  const std::vector<ExprInput> inputs = {{"s", DType::F32}, {"keep", DType::Bool}};
  const ExprDag dag = parse_expr("where(keep, s * 0.125, -10000.0)", inputs);
  EXPECT_EQ(to_string(dag, inputs),
            "t0 = keep : bool\n"
            "t1 = s : f32\n"
            "t2 = 0.125 : f32\n"
            "t3 = multiply(t1, t2) : f32\n"
            "t4 = -10000.0 : f32\n"
            "t5 = where(t0, t3, t4) : f32\n"
            "root t5\n");
  EXPECT_EQ(dag.nodes[4].literal.f, -10000.0);
  EXPECT_EQ(dag.nodes[4].column, 24);
  EXPECT_EQ(dag.input_used, (std::vector<bool>{true, true}));
}

// --- grammar ---------------------------------------------------------------

TEST(ExprGrammar, InfixOperators) {
  EXPECT_EQ(form("x + y"), "add(x, y)");
  EXPECT_EQ(form("x - y"), "subtract(x, y)");
  EXPECT_EQ(form("x * y"), "multiply(x, y)");
  EXPECT_EQ(form("x / y"), "divide(x, y)");
  EXPECT_EQ(form("x % y"), "floor_mod(x, y)");  // NumPy's %
  EXPECT_EQ(form("i << j"), "bitwise_left_shift(i, j)");
  EXPECT_EQ(form("i >> j"), "bitwise_right_shift(i, j)");
  EXPECT_EQ(form("x < y"), "less(x, y)");
  EXPECT_EQ(form("x <= y"), "less_equal(x, y)");
  EXPECT_EQ(form("x > y"), "greater(x, y)");
  EXPECT_EQ(form("x >= y"), "greater_equal(x, y)");
  EXPECT_EQ(form("x == y"), "equal(x, y)");
  EXPECT_EQ(form("x != y"), "not_equal(x, y)");
  EXPECT_EQ(form("i & j"), "bitwise_and(i, j)");
  EXPECT_EQ(form("i | j"), "bitwise_or(i, j)");
  EXPECT_EQ(form("i ^ j"), "bitwise_xor(i, j)");
  EXPECT_EQ(form("keep && b"), "logical_and(keep, b)");
  EXPECT_EQ(form("keep || b"), "logical_or(keep, b)");
  EXPECT_EQ(form("keep & b"), "bitwise_and(keep, b)");  // bitwise ops take bool
}

TEST(ExprGrammar, PrefixOperators) {
  EXPECT_EQ(form("-x"), "neg(x)");
  EXPECT_EQ(form("!keep"), "logical_not(keep)");
  EXPECT_EQ(form("~i"), "bitwise_not(i)");
  EXPECT_EQ(form("~keep"), "bitwise_not(keep)");
  EXPECT_EQ(form("- -x"), "neg(neg(x))");
  EXPECT_EQ(form("--x"), "neg(neg(x))");
  EXPECT_EQ(form("!!keep"), "logical_not(logical_not(keep))");
  EXPECT_EQ(form("-~i"), "neg(bitwise_not(i))");
  EXPECT_EQ(form("-(x + y)"), "neg(add(x, y))");
}

// Each level binds tighter than the next, as in C.
TEST(ExprGrammar, Precedence) {
  EXPECT_EQ(form("-x * y"), "multiply(neg(x), y)");
  EXPECT_EQ(form("x + y * 2"), "add(x, multiply(y, 2))");
  EXPECT_EQ(form("x * y + 2"), "add(multiply(x, y), 2)");
  EXPECT_EQ(form("x - y / 2"), "subtract(x, divide(y, 2))");
  EXPECT_EQ(form("x + y % 2"), "add(x, floor_mod(y, 2))");
  EXPECT_EQ(form("i << j + 1"), "bitwise_left_shift(i, add(j, 1))");
  EXPECT_EQ(form("i + 1 >> j"), "bitwise_right_shift(add(i, 1), j)");
  EXPECT_EQ(form("i < j << 1"), "less(i, bitwise_left_shift(j, 1))");
  EXPECT_EQ(form("x < y == keep"), "equal(less(x, y), keep)");
  EXPECT_EQ(form("keep != x >= y"), "not_equal(keep, greater_equal(x, y))");
  EXPECT_EQ(form("keep & x == y"), "bitwise_and(keep, equal(x, y))");
  EXPECT_EQ(form("i ^ j & 3"), "bitwise_xor(i, bitwise_and(j, 3))");
  EXPECT_EQ(form("i | j ^ 3"), "bitwise_or(i, bitwise_xor(j, 3))");
  EXPECT_EQ(form("keep && b | keep"), "logical_and(keep, bitwise_or(b, keep))");
  EXPECT_EQ(form("keep || b && keep"), "logical_or(keep, logical_and(b, keep))");
  EXPECT_EQ(form("keep && b || keep"), "logical_or(logical_and(keep, b), keep)");
  EXPECT_EQ(form("!keep && b"), "logical_and(logical_not(keep), b)");
  EXPECT_EQ(form("x * y < 2 == keep && b || !keep"),
            "logical_or(logical_and(equal(less(multiply(x, y), 2), keep), b), logical_not(keep))");
  EXPECT_EQ(form("(x + y) * 2"), "multiply(add(x, y), 2)");
  EXPECT_EQ(form("((x))"), "x");
}

TEST(ExprGrammar, LeftAssociative) {
  EXPECT_EQ(form("x - y - 2"), "subtract(subtract(x, y), 2)");
  EXPECT_EQ(form("x / y / 2"), "divide(divide(x, y), 2)");
  EXPECT_EQ(form("x - y + 2"), "add(subtract(x, y), 2)");
  EXPECT_EQ(form("x * y / 2 % 3"), "floor_mod(divide(multiply(x, y), 2), 3)");
  EXPECT_EQ(form("i << 1 >> 2"), "bitwise_right_shift(bitwise_left_shift(i, 1), 2)");
  EXPECT_EQ(form("x - (y - 2)"), "subtract(x, subtract(y, 2))");
}

// Every binary op by its name, on a dtype it accepts.
TEST(ExprGrammar, EveryBinaryOpByName) {
  for (Op op : bcastgen::kAllOps) {
    if (op == Op::Broadcast) continue;
    const char* a = bcastgen::op_supports(op, DType::F32) ? "x" : bcastgen::op_supports(op, DType::I32) ? "i" : "keep";
    const std::string name = bcastgen::op_name(op);
    const std::string text = name + "(" + a + ", " + a + ")";
    EXPECT_EQ(form(text), text);
    EXPECT_EQ(dtype_of(text), bcastgen::result_dtype(op, parse_expr(a, kInputs).nodes[0].dtype)) << text;
  }
  EXPECT_EQ(form("max(x, y)"), "maximum(x, y)");
  EXPECT_EQ(form("min(x, y)"), "minimum(x, y)");
  EXPECT_EQ(form("pow(x, 2)"), "power(x, 2)");
  EXPECT_EQ(form("remainder(x, 2)"), "floor_mod(x, 2)");
}

TEST(ExprGrammar, UnaryFunctions) {
  EXPECT_EQ(form("neg(x)"), "neg(x)");
  EXPECT_EQ(form("abs(i)"), "abs(i)");
  EXPECT_EQ(form("sqrt(d)"), "sqrt(d)");
  EXPECT_EQ(form("square(u)"), "square(u)");
  EXPECT_EQ(form("reciprocal(x)"), "reciprocal(x)");
  EXPECT_EQ(form("logical_not(keep)"), "logical_not(keep)");
  EXPECT_EQ(form("bitwise_not(w)"), "bitwise_not(w)");
  EXPECT_EQ(dtype_of("sqrt(d)"), DType::F64);
}

TEST(ExprGrammar, ClampWhereCast) {
  EXPECT_EQ(form("clamp(x, 0, 6)"), "minimum(maximum(x, 0), 6)");
  EXPECT_EQ(form("where(keep, x, y)"), "where(keep, x, y)");
  EXPECT_EQ(form("where(x > y, x, 0)"), "where(greater(x, y), x, 0)");
  EXPECT_EQ(form("cast(i, f32) + x"), "add(cast(i, f32), x)");
  EXPECT_EQ(form("cast(x, f32)"), "x");  // a cast to x's own type is x
  EXPECT_EQ(dtype_of("cast(x, u8)"), DType::U8);
  EXPECT_EQ(form("cast(x < y, i32) + i"), "add(cast(less(x, y), i32), i)");
  EXPECT_EQ(form("min(max(x + shift, 0), 6)"), "minimum(maximum(add(x, shift), 0), 6)");
}

// expand(x, [dims]): x broadcast with a target shape (ONNX's Expand); the
// node keeps x's dtype, and only equal targets share a node.
TEST(ExprGrammar, Expand) {
  EXPECT_EQ(form("expand(x, [2, 3]) * y"), "multiply(expand(x, [2,3]), y)");
  EXPECT_EQ(form("expand(x + 1, [])"), "expand(add(x, 1), [])");
  EXPECT_EQ(dtype_of("expand(i, [4, 1])"), DType::I32);
  EXPECT_EQ(form("where(expand(keep, [7]), x, 0)"), "where(expand(keep, [7]), x, 0)");
  const ExprDag shared = parse_expr("expand(x, [2, 3]) + expand(x, [2,3]) + expand(x, [3])", kInputs);
  std::size_t expands = 0;
  for (const ExprNode& n : shared.nodes) expands += n.kind == ExprKind::Expand;
  EXPECT_EQ(expands, 2u);
  expect_error("expand(x, 3)", 11, "expand's second argument must be a shape [d0, d1, ...], found '3'");
  expect_error("expand(x, [2, -1])", 15, "a dimension of expand's shape must be a non-negative integer, found '-'");
  expect_error("expand(x, [2.5])", 12, "a dimension of expand's shape must be a non-negative integer, found '2.5'");
  expect_error("expand(x, [99999999999999999999])", 12, "must be a non-negative integer");
  expect_error("expand(x, [2 3])", 14, "expected ',' or ']' in expand's shape, found '3'");
  expect_error("expand(x, [2", 13, "expected ',' or ']' in expand's shape, found the end of the expression");
  expect_error("expand(x, [2,", 14, "a dimension of expand's shape must be a non-negative integer, found the end");
  expect_error("expand(x)", 1, "expand takes 2 arguments (x, [d0, d1, ...]), got 1");
  expect_error("x + [2]", 5, "expected an operand, found '['");
}

TEST(ExprGrammar, SpacesAndNumberForms) {
  EXPECT_EQ(form(" \tx\n+\r\ny "), "add(x, y)");
  EXPECT_EQ(form("x+y*2"), "add(x, multiply(y, 2))");
  EXPECT_EQ(form("x + 1."), "add(x, 1.)");
  EXPECT_EQ(form("x + .5"), "add(x, .5)");
  EXPECT_EQ(form("x + 1e-5"), "add(x, 1e-5)");
  EXPECT_EQ(form("x + 2.5E+3"), "add(x, 2.5E+3)");
}

TEST(ExprGrammar, BoolLiterals) {
  EXPECT_EQ(form("keep && true"), "logical_and(keep, true)");
  EXPECT_EQ(form("where(x > y, false, keep)"), "where(greater(x, y), false, keep)");
  EXPECT_EQ(dtype_of("true"), DType::Bool);
}

TEST(ExprGrammar, PrintedFormOfEveryKind) {
  const ExprDag dag = parse_expr("where(keep, cast(i, f32), -x) + sqrt(x) * 2", kInputs);
  EXPECT_EQ(to_string(dag, kInputs),
            "t0 = keep : bool\n"
            "t1 = i : i32\n"
            "t2 = cast(t1, f32) : f32\n"
            "t3 = x : f32\n"
            "t4 = neg(t3) : f32\n"
            "t5 = where(t0, t2, t4) : f32\n"
            "t6 = sqrt(t3) : f32\n"
            "t7 = 2 : f32\n"
            "t8 = multiply(t6, t7) : f32\n"
            "t9 = add(t5, t8) : f32\n"
            "root t9\n");
}

// --- type rules --------------------------------------------------------------

TEST(ExprTypes, BinaryOperandsHaveOneType) {
  expect_error("x + d", 3, "the operands of '+' (add) have different types: f32 and f64 (convert one with cast");
  expect_error("max(x, i)", 1, "the operands of max (maximum) have different types: f32 and i32");
  expect_error("maximum(i, n)", 1, "the operands of maximum have different types: i32 and i64");
  expect_error("i < n", 3, "the operands of '<' (less) have different types: i32 and i64");
  expect_error("keep || x", 6, "the operands of '||' (logical_or) have different types: bool and f32");
  expect_error("clamp(x, 0, d)", 1, "the operands of clamp (minimum) have different types: f32 and f64");
  EXPECT_EQ(form("cast(x, f64) + d"), "add(cast(x, f64), d)");
}

TEST(ExprTypes, OpsTakeTheDTypesTheyAccept) {
  expect_error("x & y", 3,
               "'&' (bitwise_and) does not accept f32 (accepts: i8, u8, i16, u16, i32, u32, i64, u64, bool)");
  expect_error("keep + b", 6, "'+' (add) does not accept bool (accepts: f32, f64, i8");
  expect_error("copysign(i, j)", 1, "copysign does not accept i32 (accepts: f32, f64, f16, bf16)");
  expect_error("keep << b", 6, "'<<' (bitwise_left_shift) does not accept bool");
  expect_error("x && y", 3, "'&&' (logical_and) does not accept f32 (accepts: bool)");
  expect_error("logical_xor(i, j)", 1, "logical_xor does not accept i32 (accepts: bool)");
  expect_error("pow(keep, b)", 1, "pow (power) does not accept bool");
  EXPECT_EQ(dtype_of("keep ^ b"), DType::Bool);
  EXPECT_EQ(dtype_of("w >> 3"), DType::U64);
}

TEST(ExprTypes, ComparisonsGiveBool) {
  EXPECT_EQ(dtype_of("x < y"), DType::Bool);
  EXPECT_EQ(dtype_of("u >= 3"), DType::Bool);
  EXPECT_EQ(dtype_of("keep == b"), DType::Bool);
  EXPECT_EQ(dtype_of("greater(d, 1)"), DType::Bool);
  EXPECT_EQ(dtype_of("(x < y) != (i < j)"), DType::Bool);
  expect_error("x < y < 1", 9, "number 1 where bool is expected");  // (x < y) < 1, as in C
}

TEST(ExprTypes, UnaryOps) {
  EXPECT_EQ(dtype_of("-u"), DType::U8);  // wraps, as NumPy's negative
  EXPECT_EQ(dtype_of("abs(n)"), DType::I64);
  EXPECT_EQ(dtype_of("square(d)"), DType::F64);
  EXPECT_EQ(dtype_of("reciprocal(d)"), DType::F64);
  EXPECT_EQ(dtype_of("~keep"), DType::Bool);
  expect_error("sqrt(i)", 1, "sqrt does not accept i32 (accepts: f32, f64, f16, bf16)");
  expect_error("reciprocal(u)", 1, "reciprocal does not accept u8 (accepts: f32, f64, f16, bf16)");
  expect_error("-keep", 1, "'-' (neg) does not accept bool (accepts: f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16)");
  expect_error("abs(keep)", 1, "abs does not accept bool");
  expect_error("square(keep)", 1, "square does not accept bool");
  expect_error("~x", 1, "'~' (bitwise_not) does not accept f32 (accepts: i8, u8, i16, u16, i32, u32, i64, u64, bool)");
  expect_error("!x", 1, "'!' (logical_not) does not accept f32 (accepts: bool)");
  expect_error("logical_not(i)", 1, "logical_not does not accept i32 (accepts: bool)");
}

TEST(ExprTypes, Where) {
  EXPECT_EQ(dtype_of("where(keep, i, j)"), DType::I32);
  EXPECT_EQ(dtype_of("where(x < y, keep, b)"), DType::Bool);
  expect_error("where(x, x, y)", 1, "where's condition must be bool, not f32");
  expect_error("where(keep, x, d)", 1, "where's branches have different types: f32 and f64");
}

TEST(ExprTypes, CastConvertsAnyDTypeToAny) {
  for (DType from : bcastgen::kAllDTypes) {
    for (DType to : bcastgen::kAllDTypes) {
      const std::vector<ExprInput> inputs = {{"v", from}};
      const ExprDag dag = parse_expr(std::string("cast(v, ") + bcastgen::dtype_name(to) + ")", inputs);
      EXPECT_EQ(dag.nodes[dag.root].dtype, to);
      EXPECT_EQ(dag.nodes.size(), from == to ? 1u : 2u);
    }
  }
}

// --- sharing -----------------------------------------------------------------

int count_of(const ExprDag& dag, ExprKind kind) {
  int c = 0;
  for (const ExprNode& n : dag.nodes) c += n.kind == kind;
  return c;
}

TEST(ExprShare, EachDistinctSubexpressionIsOneNode) {
  ExprDag dag = parse_expr("x*y + x*y", kInputs);
  EXPECT_EQ(to_string(dag, kInputs),
            "t0 = x : f32\nt1 = y : f32\nt2 = multiply(t0, t1) : f32\nt3 = add(t2, t2) : f32\nroot t3\n");
  EXPECT_EQ(parse_expr("(x + y) * (x + y) - (x + y)", kInputs).nodes.size(), 5u);
  EXPECT_EQ(count_of(parse_expr("where(keep, x * y, x * y)", kInputs), ExprKind::Binary), 1);
  EXPECT_EQ(count_of(parse_expr("x * 2 + y * 2", kInputs), ExprKind::Literal), 1);
  EXPECT_EQ(count_of(parse_expr("clamp(x, 0, 0.0)", kInputs), ExprKind::Literal), 1);  // equal values
  EXPECT_EQ(count_of(parse_expr("sqrt(x) + sqrt(x)", kInputs), ExprKind::Unary), 1);
  EXPECT_EQ(count_of(parse_expr("cast(i, f32) * cast(i, f32)", kInputs), ExprKind::Cast), 1);
}

TEST(ExprShare, OnlyEqualNodesAreShared) {
  EXPECT_EQ(count_of(parse_expr("x*y + y*x", kInputs), ExprKind::Binary), 3);  // no commutativity
  EXPECT_EQ(count_of(parse_expr("-0.0 * x + 0.0 * x", kInputs), ExprKind::Literal), 2);
  EXPECT_EQ(count_of(parse_expr("cast(i + 1, f32) + 1", kInputs), ExprKind::Literal), 2);  // i32 1, f32 1
  EXPECT_EQ(count_of(parse_expr("x - y + (x + y)", kInputs), ExprKind::Binary), 3);
  EXPECT_EQ(count_of(parse_expr("cast(i, f64) + cast(cast(i, f32), f64)", kInputs), ExprKind::Cast), 3);
}

// --- numbers -----------------------------------------------------------------

// The literal node of a one-literal expression.
ExprNode literal_of(const std::string& text) {
  const ExprDag dag = parse_expr(text, kInputs);
  for (const ExprNode& n : dag.nodes) {
    if (n.kind == ExprKind::Literal) return n;
  }
  ADD_FAILURE() << "no literal in " << text;
  return {};
}

TEST(ExprLiterals, TypedByTheirContext) {
  EXPECT_EQ(literal_of("x + 1").dtype, DType::F32);
  EXPECT_EQ(literal_of("1 + i").dtype, DType::I32);
  EXPECT_EQ(literal_of("u < 200").dtype, DType::U8);
  EXPECT_EQ(literal_of("where(keep, 1, n)").dtype, DType::I64);
  EXPECT_EQ(literal_of("where(keep, w, 1)").dtype, DType::U64);
  EXPECT_EQ(literal_of("cast(5, u8) + u").dtype, DType::U8);
  EXPECT_EQ(literal_of("d * (2 + 2)").dtype, DType::F64);
  EXPECT_EQ(form("x * (1 + 2)"), "multiply(x, add(1, 2))");  // nothing is folded
  EXPECT_EQ(literal_of("d + -(3)").literal.text, "-3");
  EXPECT_EQ(literal_of("cast(2, f64) + 1").literal.f, 2);
}

TEST(ExprLiterals, Values) {
  EXPECT_EQ(literal_of("i + -2147483648").literal.i, INT32_MIN);
  EXPECT_EQ(literal_of("n + -9223372036854775808").literal.i, INT64_MIN);
  EXPECT_EQ(literal_of("n + 9223372036854775807").literal.i, INT64_MAX);
  EXPECT_EQ(literal_of("w + 18446744073709551615").literal.u, UINT64_MAX);
  EXPECT_EQ(literal_of("u + 255").literal.u, 255u);
  EXPECT_EQ(literal_of("cast(x, i8) + -128").literal.i, -128);
  EXPECT_EQ(literal_of("u + -0").literal.u, 0u);
  EXPECT_EQ(literal_of("x + 0.1").literal.f, static_cast<double>(0.1f));  // rounded to f32
  EXPECT_EQ(literal_of("d + 0.1").literal.f, 0.1);
  EXPECT_EQ(literal_of("d + 1e-320").literal.f, 1e-320);  // subnormal
  EXPECT_GT(literal_of("x + 1e-45").literal.f, 0);
  EXPECT_EQ(literal_of("x + 3.4028234e38").literal.f, static_cast<double>(3.4028234e38f));
  EXPECT_TRUE(std::signbit(literal_of("x * -0.0").literal.f));
  EXPECT_EQ(literal_of("x + --5").literal.text, "5");
  EXPECT_EQ(literal_of("i + - 5").literal.i, -5);
  EXPECT_TRUE(literal_of("keep && true").literal.b);
  EXPECT_FALSE(literal_of("keep && false").literal.b);
}

TEST(ExprLiterals, OutOfRange) {
  expect_error("u + 256", 5, "number 256 is out of range for u8 (0 to 255)");
  expect_error("u + -1", 5, "number -1 is out of range for u8 (0 to 255)");
  expect_error("u + - 1", 5, "number -1 is out of range for u8");
  expect_error("i + 2147483648", 5, "number 2147483648 is out of range for i32 (-2147483648 to 2147483647)");
  expect_error("cast(x, i8) + -129", 15, "number -129 is out of range for i8 (-128 to 127)");
  expect_error("n + 9223372036854775808", 5, "out of range for i64");
  expect_error("w + 18446744073709551616", 5, "out of range for u64 (0 to 18446744073709551615)");
  expect_error("w + 99999999999999999999999999", 5, "out of range for u64");
  expect_error("cast(300, u8)", 6, "number 300 is out of range for u8");
  expect_error("i + 1.5", 5, "number 1.5 is a float literal where i32 is expected");
  expect_error("i + 2.0", 5, "number 2.0 is a float literal where i32 is expected");
  expect_error("i + 1e3", 5, "number 1e3 is a float literal where i32 is expected");
  expect_error("x + 1e40", 5, "number 1e40 is out of range for f32 (magnitudes up to 3.40282347e+38");
  expect_error("x + -1e40", 5, "number -1e40 is out of range for f32");
  expect_error("x + 1e-50", 5, "number 1e-50 is out of range for f32");
  expect_error("d + 1e400", 5, "number 1e400 is out of range for f64 (magnitudes up to 1.7976931348623157e+308");
  expect_error("d + 1e-400", 5, "number 1e-400 is out of range for f64");
  expect_error("keep && 1", 9, "number 1 where bool is expected (bool literals are true and false)");
  expect_error("where(0, x, y)", 7, "number 0 where bool is expected");
  EXPECT_EQ(literal_of("d + 1e40").literal.f, 1e40);
  EXPECT_EQ(literal_of("x + 0e-999").literal.f, 0);
}

TEST(ExprLiterals, NeedAContext) {
  expect_error("1", 1,
               "cannot infer the result type: the result comes from numbers only (give one a type: cast(1, f32))");
  expect_error("1 + 2", 3, "cannot infer the result type");
  expect_error("where(keep, 1, 2)", 1, "cannot infer the result type");
  expect_error("where(1 < 2, x, y)", 9, "cannot infer the operand type of '<' (less): both sides are numbers only");
  expect_error("cast(1 == 2, f32)", 8, "cannot infer the operand type of '==' (equal)");
  EXPECT_EQ(dtype_of("cast(1, f32)"), DType::F32);
  EXPECT_EQ(dtype_of("cast(1, f32) < 2"), DType::Bool);
}

// --- errors ------------------------------------------------------------------

TEST(ExprErrors, WhatHasTheMessageTheTextAndACaret) {
  const ExprError e = error_of("max(x * scale + y2, 0)");
  EXPECT_EQ(e.column(), 17);
  EXPECT_EQ(std::string(e.what()),
            "column 17: unknown input 'y2' (inputs: x, y, scale, shift, d, i, j, u, keep, b, n, w)\n"
            "  max(x * scale + y2, 0)\n"
            "                  ^");
  const ExprError end = error_of("x +");
  EXPECT_EQ(std::string(end.what()), "column 4: expected an operand, found the end of the expression\n  x +\n     ^");
  static_assert(std::is_base_of_v<InvalidArgument, ExprError>);
}

TEST(ExprErrors, CaretOnTheLineOfTheColumnAlignedUnderTabs) {
  EXPECT_EQ(bcastgen::gen::expr_caret("x +\n\ty $", 8), "  \ty $\n  \t  ^");
  EXPECT_EQ(bcastgen::gen::expr_caret("x\x01y", 3), "  x?y\n    ^");
  EXPECT_EQ(bcastgen::gen::expr_caret("", 1), "  \n  ^");
  const std::string long_line = "x" + std::string(200, ' ') + "$" + std::string(200, ' ');
  EXPECT_EQ(bcastgen::gen::expr_caret(long_line, 202),
            "  ..." + std::string(60, ' ') + "$" + std::string(39, ' ') + "...\n     " + std::string(60, ' ') + "^");
  EXPECT_EQ(bcastgen::gen::expr_caret("x + y", 99), "  x + y\n       ^");  // past the end: at the end
  const ExprError e = error_of("x +\n  y $");
  EXPECT_EQ(e.column(), 9);
  EXPECT_TRUE(contains(e.what(), "\n    y $\n      ^")) << e.what();
}

TEST(ExprErrors, Syntax) {
  expect_error("", 1, "empty expression");
  expect_error("  ", 3, "empty expression");
  expect_error("x +", 4, "expected an operand, found the end of the expression");
  expect_error("x + * y", 5, "expected an operand, found '*'");
  expect_error("x + ,", 5, "expected an operand, found ','");
  expect_error("()", 2, "expected an operand, found ')'");
  expect_error("(x + y", 7, "expected ')' to close the '(' at column 1, found the end of the expression");
  expect_error("((x + y) * 2", 13, "expected ')' to close the '(' at column 1");
  expect_error("x + y)", 6, "unexpected ')' after a complete expression");
  expect_error("x y", 3, "unexpected 'y' after a complete expression");
  expect_error("x ! y", 3, "unexpected '!' after a complete expression");
  expect_error("x = y", 3, "unexpected '=' (comparison is '==')");
  expect_error("x + $", 5, "unexpected character '$'");
  expect_error(std::string("x + \x01", 5), 5, "unexpected character '\\x01'");
  expect_error(std::string("x + \0", 5), 5, "unexpected character '\\x00'");
  expect_error("x + .", 5, "unexpected character '.'");
  expect_error("x + 1e", 5, "malformed number '1e' (numbers are written 12, 1.5, .5, 1e-5 or 2.5E+3)");
  expect_error("x + 1e+", 5, "malformed number '1e'");
  expect_error("x + 1.2.3", 5, "malformed number '1.2.3'");
  expect_error("x + 2x", 5, "malformed number '2x'");
  expect_error("x + 0x1f", 5, "malformed number '0x1f'");
  expect_error("max(x y)", 7, "expected ',' or ')' in the arguments of max, found 'y'");
  expect_error("max(x, y", 9, "expected ',' or ')' in the arguments of max, found the end of the expression");
  expect_error("max(x,)", 7, "expected an operand, found ')'");
  expect_error("cast(x, f33)", 9,
               "cast's second argument must be a dtype (f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, bool, f16, bf16), found "
               "'f33'");
  expect_error("cast(x, 1)", 9, "cast's second argument must be a dtype");
  expect_error("cast(x, )", 9, "cast's second argument must be a dtype");
}

TEST(ExprErrors, UnknownNames) {
  expect_error("x + z", 5, "unknown input 'z' (inputs: x, y, scale, shift, d, i, j, u, keep, b, n, w)");
  try {
    parse_expr("z", {});
    ADD_FAILURE();
  } catch (const ExprError& e) {
    EXPECT_EQ(e.message(), "unknown input 'z' (no inputs are declared)");
  }
  const ExprError e = error_of("foo(x)");
  EXPECT_EQ(e.column(), 1);
  EXPECT_TRUE(contains(e.message(), "unknown function 'foo' (functions: abs, acos, acosh, add, asin, asinh, atan, atan2,")) << e.message();
  for (const char* f : {"max, maximum, mean, min, minimum", "pow, power", "softmax", "sum", "clamp", "cast", "where", "remainder", "logaddexp",
                        "neg", "sqrt", "square", "reciprocal", "logical_not", "bitwise_not"}) {
    EXPECT_TRUE(contains(e.message(), f)) << f;
  }
  EXPECT_FALSE(contains(e.message(), "broadcast"));
  expect_error("x + broadcast(x, y)", 5, "unknown function 'broadcast'");
  expect_error("max + x", 1, "'max' is a function: call it as max(...)");
  expect_error("x + f32", 5, "'f32' is a dtype: dtypes appear only in cast(x, f32)");
  expect_error("True", 1, "unknown input 'True'");
}

TEST(ExprErrors, Arity) {
  expect_error("max(x)", 1, "max takes 2 arguments (a, b), got 1");
  expect_error("x + add(x, y, x)", 5, "add takes 2 arguments (a, b), got 3");
  expect_error("min()", 1, "min takes 2 arguments (a, b), got 0");
  expect_error("sqrt(x, y)", 1, "sqrt takes 1 argument (x), got 2");
  expect_error("neg()", 1, "neg takes 1 argument (x), got 0");
  expect_error("clamp(x, 0)", 1, "clamp takes 3 arguments (x, lo, hi), got 2");
  expect_error("where(keep, x)", 1, "where takes 3 arguments (cond, x, y), got 2");
  expect_error("cast(x)", 1, "cast takes 2 arguments (x, dtype), got 1");
  expect_error("x + cast(x, f32, 1)", 5, "cast takes 2 arguments (x, dtype), got 3");
}

// --- limits ------------------------------------------------------------------

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int k = 0; k < n; ++k) r += s;
  return r;
}

TEST(ExprLimits, NestingDepth) {
  const int max = bcastgen::gen::kMaxExprDepth;
  EXPECT_EQ(form(repeat("(", max) + "x" + repeat(")", max)), "x");
  expect_error(repeat("(", max + 1) + "x" + repeat(")", max + 1), max + 1,
               "expression nested more than 200 levels deep (parentheses and calls)");
  expect_error(repeat("abs(", max + 1) + "x" + repeat(")", max + 1), 4 * max + 4, "nested more than 200 levels");
  // A naive recursive parser would overflow its stack here.
  expect_error(repeat("(", 100000), max + 1, "nested more than 200 levels");
  expect_error(repeat("max(x, ", 100000), 7 * max + 4, "nested more than 200 levels");
}

TEST(ExprLimits, Nodes) {
  const std::size_t max = bcastgen::gen::kMaxExprNodes;
  EXPECT_EQ(parse_expr("x" + repeat(" + x", static_cast<int>(max) - 1), kInputs).nodes.size(), max);
  expect_error("x" + repeat(" + x", static_cast<int>(max)), 4 * static_cast<int>(max) - 1,
               "the expression has more than 1024 nodes (after sharing common subexpressions)");
  expect_error(repeat("-", 100000) + "x", 100000 - static_cast<int>(max) + 1, "more than 1024 nodes");
  expect_error(repeat("!", 100000) + "keep", 100000 - static_cast<int>(max) + 1, "more than 1024 nodes");
  // Long chains need no recursion, and shared nodes do not count twice.
  EXPECT_EQ(parse_expr(repeat("x * y + ", 100) + "x * y", kInputs).nodes.size(), 103u);
  EXPECT_EQ(form(repeat("-", 100001) + "5 + x"), "add(-5, x)");
}

TEST(ExprLimits, Length) {
  const int max = static_cast<int>(bcastgen::gen::kMaxExprLength);
  EXPECT_EQ(form(std::string(max - 1, ' ') + "x"), "x");
  expect_error(std::string(max, ' ') + "x", max + 1, "the expression is longer than 1048576 bytes");
}

TEST(ExprLimits, Inputs) {
  std::vector<ExprInput> inputs;
  for (std::size_t k = 0; k < bcastgen::gen::kMaxExprInputs; ++k) {
    inputs.push_back({"v" + std::to_string(k), DType::F32});
  }
  EXPECT_EQ(form("v0 + v15", inputs), "add(v0, v15)");
  inputs.push_back({"v16", DType::F32});
  EXPECT_THROW(
      {
        try {
          parse_expr("v0", inputs);
        } catch (const ExprError&) {
          ADD_FAILURE() << "a declaration error is no ExprError";
        }
      },
      InvalidArgument);
  for (const char* bad : {"", "1x", "a-b", "true", "false", "x y"}) {
    EXPECT_THROW(parse_expr("x", {{bad, DType::F32}, {"x", DType::F32}}), InvalidArgument) << bad;
  }
  EXPECT_THROW(parse_expr("x", {{"x", DType::F32}, {"x", DType::I32}}), InvalidArgument);
}

// Unused inputs are the caller's choice: the parser reports them only.
TEST(ExprInputs, UsedInputsAreReported) {
  const ExprDag dag = parse_expr("y * 2", {{"x", DType::F32}, {"y", DType::F32}, {"z", DType::F32}});
  EXPECT_EQ(dag.input_used, (std::vector<bool>{false, true, false}));
}

// --- property: random i32 expressions, evaluated as written and as parsed ---

// Writes random expressions over i and j with as few parentheses as C
// precedence allows, and evaluates each as a tree with bcastgen::ops.
class RandomExpr {
 public:
  RandomExpr(std::uint32_t seed, std::int32_t i, std::int32_t j) : rng_(seed), i_(i), j_(j) {}

  struct Result {
    std::string text;
    int precedence;  // of its outermost operator; 12 for a primary
    std::int32_t value;
    bool typed = true;     // reads an input (numbers only take their type from the context)
    bool inferable = true;  // no comparison of two numbers-only sides inside
  };

  Result number(int depth) {
    const int pick = roll(depth <= 0 ? 4 : 9);
    if (pick == 0) return {"i", 12, i_};
    if (pick == 1) return {"j", 12, j_};
    if (pick == 2) return {"2147483647", 12, INT32_MAX, false};
    if (pick == 3) {
      const int v = roll(20);
      return {std::to_string(v), 12, v, false};
    }
    if (pick == 4) {  // prefix
      Result x = number(depth - 1);
      const bool neg = roll(2) == 0;
      return {std::string(neg ? "-" : "~") + wrap(x, x.precedence < 11), 11,
              neg ? bcastgen::ops::subtract(0, x.value) : bcastgen::ops::bitwise_xor(x.value, -1), x.typed,
              x.inferable};
    }
    if (pick == 5) {  // call
      Result a = number(depth - 1), b = number(depth - 1);
      if (roll(3) == 0) {
        Result c = number(depth - 1);
        return {"clamp(" + a.text + ", " + b.text + ", " + c.text + ")", 12,
                bcastgen::ops::minimum(bcastgen::ops::maximum(a.value, b.value), c.value),
                a.typed || b.typed || c.typed, a.inferable && b.inferable && c.inferable};
      }
      const bool max = roll(2) == 0;
      return {std::string(max ? "max(" : "min(") + a.text + ", " + b.text + ")", 12,
              max ? bcastgen::ops::maximum(a.value, b.value) : bcastgen::ops::minimum(a.value, b.value),
              a.typed || b.typed, a.inferable && b.inferable};
    }
    if (pick == 6) {
      Result c = boolean(depth - 1), a = number(depth - 1), b = number(depth - 1);
      return {"where(" + c.text + ", " + a.text + ", " + b.text + ")", 12, c.value ? a.value : b.value,
              a.typed || b.typed, c.inferable && a.inferable && b.inferable};
    }
    static const std::pair<const char*, Op> kOps[] = {
        {"+", Op::Add},        {"-", Op::Subtract},    {"*", Op::Multiply},          {"/", Op::Divide},
        {"%", Op::FloorMod},   {"&", Op::BitwiseAnd},  {"|", Op::BitwiseOr},         {"^", Op::BitwiseXor},
        {"<<", Op::BitwiseLeftShift}, {">>", Op::BitwiseRightShift}};
    const auto& [symbol, op] = kOps[roll(static_cast<int>(std::size(kOps)))];
    return binary(symbol, op, number(depth - 1), number(depth - 1));
  }

  Result boolean(int depth) {
    const int pick = roll(depth <= 0 ? 1 : 4);
    if (pick == 0) {
      static const std::pair<const char*, Op> kCmp[] = {{"<", Op::Less},     {"<=", Op::LessEqual},
                                                        {">", Op::Greater},  {">=", Op::GreaterEqual},
                                                        {"==", Op::Equal},   {"!=", Op::NotEqual}};
      const auto& [symbol, op] = kCmp[roll(6)];
      return binary(symbol, op, number(depth - 1), number(depth - 1));
    }
    if (pick == 1) {
      Result x = boolean(depth - 1);
      return {"!" + wrap(x, x.precedence < 11), 11, !x.value, true, x.inferable};
    }
    return binary(pick == 2 ? "&&" : "||", pick == 2 ? Op::LogicalAnd : Op::LogicalOr, boolean(depth - 1),
                  boolean(depth - 1));
  }

 private:
  int roll(int n) { return static_cast<int>(rng_() % static_cast<std::uint32_t>(n)); }
  static std::string wrap(const Result& r, bool parens) { return parens ? "(" + r.text + ")" : r.text; }
  static int precedence(Op op) {
    switch (op) {
      case Op::LogicalOr: return 1;
      case Op::LogicalAnd: return 2;
      case Op::BitwiseOr: return 3;
      case Op::BitwiseXor: return 4;
      case Op::BitwiseAnd: return 5;
      case Op::Equal: case Op::NotEqual: return 6;
      case Op::Less: case Op::LessEqual: case Op::Greater: case Op::GreaterEqual: return 7;
      case Op::BitwiseLeftShift: case Op::BitwiseRightShift: return 8;
      case Op::Add: case Op::Subtract: return 9;
      default: return 10;
    }
  }
  // Left operands need parentheses below the operator's precedence, right
  // ones also at it (left associativity).
  static Result binary(const char* symbol, Op op, const Result& a, const Result& b) {
    const int p = precedence(op);
    const bool logical = op == Op::LogicalAnd || op == Op::LogicalOr;
    std::int32_t value = 0;
    if (bcastgen::op_kind(op) == bcastgen::OpKind::Comparison) {
      bool r = false;
      bcastgen::ops::apply_binary(op, a.value, b.value, &r);
      value = r;
    } else if (logical) {
      value = op == Op::LogicalAnd ? (a.value && b.value) : (a.value || b.value);
    } else {
      bcastgen::ops::apply_binary(op, a.value, b.value, &value);
    }
    const bool comparison = bcastgen::op_kind(op) == bcastgen::OpKind::Comparison;
    return {wrap(a, a.precedence < p) + " " + symbol + " " + wrap(b, b.precedence <= p), p, value,
            a.typed || b.typed || comparison || logical,
            a.inferable && b.inferable && (!comparison || a.typed || b.typed)};
  }

  std::mt19937 rng_;
  std::int32_t i_, j_;
};

// The DAG evaluated node by node (bool as 0/1).
std::int32_t evaluate(const ExprDag& dag, std::int32_t i, std::int32_t j) {
  std::vector<std::int32_t> v(dag.nodes.size());
  for (std::size_t k = 0; k < dag.nodes.size(); ++k) {
    const ExprNode& n = dag.nodes[k];
    auto arg = [&](std::size_t a) { return v[n.args[a]]; };
    switch (n.kind) {
      case ExprKind::Input: v[k] = n.input == 0 ? i : j; break;
      case ExprKind::Literal:
        v[k] = n.dtype == DType::Bool ? n.literal.b : static_cast<std::int32_t>(n.literal.i);
        break;
      case ExprKind::Unary:
        if (n.unary == bcastgen::gen::UnaryOp::LogicalNot) v[k] = !arg(0);
        else if (n.unary == bcastgen::gen::UnaryOp::Neg) v[k] = bcastgen::ops::subtract(0, arg(0));
        else v[k] = bcastgen::ops::bitwise_xor(arg(0), -1);
        break;
      case ExprKind::Where: v[k] = arg(0) ? arg(1) : arg(2); break;
      case ExprKind::Binary:
        if (n.dtype == DType::Bool && dag.nodes[n.args[0]].dtype == DType::Bool) {
          bool r = false;
          bcastgen::ops::apply_binary<bool>(n.op, arg(0), arg(1), &r);
          v[k] = r;
        } else if (n.dtype == DType::Bool) {
          bool r = false;
          bcastgen::ops::apply_binary(n.op, arg(0), arg(1), &r);
          v[k] = r;
        } else {
          bcastgen::ops::apply_binary(n.op, arg(0), arg(1), &v[k]);
        }
        break;
      case ExprKind::Cast: ADD_FAILURE() << "no cast expected"; break;
      case ExprKind::Expand: v[k] = arg(0); break;
      case ExprKind::Reduce: ADD_FAILURE() << "no reduction expected"; break;
    }
  }
  return v[dag.root];
}

TEST(ExprProperty, RandomExpressionsEvaluateAsWritten) {
  const std::vector<ExprInput> inputs = {{"i", DType::I32}, {"j", DType::I32}};
  std::mt19937 values(7);
  const std::int32_t interesting[] = {0, 1, -1, 2, 7, -13, 31, 32, INT32_MIN, INT32_MAX};
  for (std::uint32_t seed = 0; seed < 2000; ++seed) {
    const std::int32_t i = seed % 3 ? static_cast<std::int32_t>(values()) : interesting[seed % 10];
    const std::int32_t j = seed % 5 ? static_cast<std::int32_t>(values()) : interesting[(seed / 10) % 10];
    RandomExpr gen(seed, i, j);
    const RandomExpr::Result r = gen.number(4);
    ExprDag dag;
    try {
      dag = parse_expr(r.text, inputs);
    } catch (const ExprError& e) {
      EXPECT_TRUE(!(r.typed && r.inferable) && contains(e.message(), "cannot infer")) << r.text << "\n" << e.what();
      continue;
    }
    EXPECT_TRUE(r.typed && r.inferable) << "accepted, with no type to infer: " << r.text;
    for (std::size_t k = 0; k < dag.nodes.size(); ++k) {
      for (std::size_t a : dag.nodes[k].args) ASSERT_LT(a, k) << r.text;  // topological
      for (std::size_t m = 0; m < k; ++m) {
        const ExprNode &p = dag.nodes[k], &q = dag.nodes[m];
        const bool equal = p.kind == q.kind && p.op == q.op && p.unary == q.unary && p.dtype == q.dtype &&
                           p.args == q.args && p.input == q.input && p.literal.i == q.literal.i &&
                           p.literal.b == q.literal.b;
        EXPECT_FALSE(equal) << "t" << k << " repeats t" << m << " in " << r.text;
      }
    }
    EXPECT_EQ(dag.root, dag.nodes.size() - 1) << r.text;
    EXPECT_EQ(evaluate(dag, i, j), r.value) << r.text << "\ni = " << i << ", j = " << j << "\n"
                                            << to_string(dag, inputs);
  }
}

}  // namespace
