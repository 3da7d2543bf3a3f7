// ExprBuilder and print_expr (bcastgen/gen/expr_builder.h): the builder
// gives the parser's DAG for the same expression, refuses what the type
// rules refuse with the origin of the node, and print_expr's text parses
// back to the same DAG, for the test specs' expressions and random DAGs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/expr_builder.h"
#include "bcastgen/gen/spec.h"

namespace {

using bcastgen::DType;
using bcastgen::Op;
using bcastgen::UnaryOp;
using bcastgen::gen::ExprBuilder;
using bcastgen::gen::ExprBuildError;
using bcastgen::gen::ExprDag;
using bcastgen::gen::ExprInput;
using bcastgen::gen::ExprKind;
using bcastgen::gen::ExprNode;
using bcastgen::gen::parse_expr;
using bcastgen::gen::print_expr;

// The value of node i as a tree, with literals by their bits in their
// dtype: equal for equal DAGs whatever their node order.
std::string canon(const ExprDag& d, std::size_t i, std::map<std::size_t, std::string>& memo) {
  if (auto it = memo.find(i); it != memo.end()) return it->second;
  const ExprNode& n = d.nodes[i];
  std::ostringstream s;
  s << static_cast<int>(n.kind) << ':' << bcastgen::dtype_name(n.dtype);
  switch (n.kind) {
    case ExprKind::Input: s << ":in" << n.input; break;
    case ExprKind::Literal: {
      std::uint64_t bits = 0;
      if (bcastgen::dtype_info(n.dtype).is_float) std::memcpy(&bits, &n.literal.f, 8);
      else if (n.dtype == DType::Bool) bits = n.literal.b;
      else if (bcastgen::dtype_info(n.dtype).is_signed) bits = static_cast<std::uint64_t>(n.literal.i);
      else bits = n.literal.u;
      s << ":lit" << bits;
      break;
    }
    case ExprKind::Binary: s << ':' << bcastgen::op_name(n.op); break;
    case ExprKind::Unary: s << ':' << bcastgen::unary_name(n.unary); break;
    case ExprKind::Expand: s << ':' << bcastgen::format_shape(n.target); break;
    default: break;
  }
  s << '(';
  for (std::size_t a : n.args) s << canon(d, a, memo) << ',';
  s << ')';
  return memo[i] = s.str();
}

// Distinct nodes reachable from the root: equal when both DAGs share alike.
std::size_t reachable(const ExprDag& d) {
  std::set<std::size_t> seen;
  std::vector<std::size_t> todo{d.root};
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    if (!seen.insert(i).second) continue;
    for (std::size_t a : d.nodes[i].args) todo.push_back(a);
  }
  return seen.size();
}

void expect_same_dag(const ExprDag& a, const ExprDag& b, const std::string& what) {
  std::map<std::size_t, std::string> ma, mb;
  EXPECT_EQ(canon(a, a.root, ma), canon(b, b.root, mb)) << what;
  EXPECT_EQ(reachable(a), reachable(b)) << what;
}

void expect_round_trip(const ExprDag& dag, const std::vector<ExprInput>& inputs, const std::string& what) {
  const std::string text = print_expr(dag, inputs);
  ExprDag back;
  try {
    back = parse_expr(text, inputs);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": printed '" << text << "', which does not parse: " << e.what();
    return;
  }
  expect_same_dag(dag, back, what + " printed as '" + text + "'");
}

const std::vector<ExprInput> kXyz = {{"x", DType::F32}, {"y", DType::F32}, {"i", DType::I32}, {"keep", DType::Bool}};

// --- The builder gives the parser's DAG ---------------------------------------

TEST(ExprBuilder, BuildsTheParsersDag) {
  ExprBuilder b(kXyz);
  const auto x = b.input("x", "x"), y = b.input("y");
  const auto xy = b.binary(Op::Multiply, x, y, "mul");
  // x * y twice is one node, as the parser shares it.
  const auto again = b.binary(Op::Multiply, x, y, "mul again");
  EXPECT_EQ(xy, again);
  EXPECT_EQ(b.origin(xy), "mul");
  const auto sum = b.binary(Op::Add, xy, b.binary(Op::Divide, again, b.literal(2.5, DType::F32)));
  const auto relu = b.binary(Op::Maximum, sum, b.literal(0.0, DType::F32), "relu");
  const auto masked = b.where(b.input("keep"), relu, b.literal(-10000.0, DType::F32), "mask");
  const auto root = b.binary(Op::Add, masked, b.cast(b.input("i"), DType::F32, "cast i"));
  expect_same_dag(b.finish(root), parse_expr("where(keep, max(x * y + x * y / 2.5, 0), -10000.0) + cast(i, f32)", kXyz),
                  "builder vs parser");
  EXPECT_EQ(b.dtype(root), DType::F32);
  EXPECT_EQ(b.cast(x, DType::F32), x);  // a cast to x's own type is x
  const ExprDag dag = b.finish(root);
  EXPECT_EQ(dag.input_used, (std::vector<bool>{true, true, true, true}));
}

// Broadcast as a node: expand(x, target), as the parser builds and prints it.
TEST(ExprBuilder, ExpandIsANode) {
  ExprBuilder b(kXyz);
  const auto x = b.input("x");
  const auto wide = b.expand(x, {4, 1, 3}, "Expand_0");
  EXPECT_EQ(b.expand(x, {4, 1, 3}), wide);  // equal targets share the node
  EXPECT_NE(b.expand(x, {3}), wide);
  EXPECT_EQ(b.dtype(b.expand(b.input("keep"), {2})), DType::Bool);
  const ExprDag d = b.finish(b.binary(Op::Multiply, wide, b.input("y")));
  EXPECT_EQ(print_expr(d, kXyz), "multiply(expand(x, [4, 1, 3]), y)");
  expect_same_dag(d, parse_expr("expand(x, [4, 1, 3]) * y", kXyz), "builder vs parser");
  expect_round_trip(d, kXyz, "expand");
  try {
    b.expand(x, {2, -1}, "Expand_7");
    ADD_FAILURE() << "a negative dim was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("Expand_7"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("negative dimension"), std::string::npos) << e.what();
  }
}

TEST(ExprBuilder, InputsCanBeDeclaredWhileBuilding) {
  // As the ONNX frontend does: an input per tensor, declared on first read.
  ExprBuilder b({});
  EXPECT_EQ(b.add_input({"x", DType::F32}), 0u);
  const auto x = b.input("x");
  EXPECT_EQ(b.add_input({"n", DType::I32}), 1u);
  const auto sum = b.binary(Op::Add, x, b.cast(b.input("n"), DType::F32));
  EXPECT_EQ(b.node_at(sum).kind, ExprKind::Binary);
  EXPECT_EQ(b.node_at(b.literal(2.5, DType::F32)).literal.f, 2.5);
  const std::vector<ExprInput> ins = {{"x", DType::F32}, {"n", DType::I32}};
  const ExprDag d = b.finish(sum);
  EXPECT_EQ(d.input_used, std::vector<bool>({true, true}));
  expect_same_dag(d, parse_expr("x + cast(n, f32)", ins), "added inputs vs parser");
  EXPECT_THROW(b.add_input({"x", DType::F64}), ExprBuildError);  // declared twice
  for (std::size_t k = 2; k < bcastgen::gen::kMaxExprInputs; ++k) b.add_input({"i" + std::to_string(k), DType::F32});
  EXPECT_THROW(b.add_input({"one_too_many", DType::F32}), ExprBuildError);
}

TEST(ExprBuilder, ComparisonsGiveBoolAndLiteralsKeepTheirBits) {
  ExprBuilder b(kXyz);
  const auto gt = b.binary(Op::Greater, b.input("i"), b.literal_int(-5, DType::I32));
  EXPECT_EQ(b.dtype(gt), DType::Bool);
  // The tests among the functions give bool too (ONNX's IsNaN and IsInf were
  // refused as "the operand is bool, expected f32" while the builder gave them x's type).
  const auto x = b.input("x");
  for (UnaryOp test : {UnaryOp::Isnan, UnaryOp::Isinf, UnaryOp::Signbit}) EXPECT_EQ(b.dtype(b.unary(test, x)), DType::Bool);
  const auto zeroed = b.where(b.unary(UnaryOp::Isnan, x), b.literal(0.0, DType::F32), x);
  expect_same_dag(b.finish(zeroed), parse_expr("where(isnan(x), 0.0, x)", kXyz), "isnan builder vs parser");
  EXPECT_NE(b.literal(0.0, DType::F32), b.literal(-0.0, DType::F32));  // -0 is not 0
  EXPECT_EQ(b.literal(0.1, DType::F32), b.literal(static_cast<double>(0.1f), DType::F32));  // rounded to f32
  ExprBuilder u({{"u", DType::U64}});
  const auto big = u.literal(18446744073709549568.0, DType::U64);  // 2^64 - 2048, above INT64_MAX
  const ExprDag d = u.finish(u.binary(Op::Add, u.input("u"), big));
  EXPECT_EQ(d.nodes[big].literal.u, 18446744073709549568ull);
  expect_round_trip(d, {{"u", DType::U64}}, "u64 literal above INT64_MAX");
}

// --- Errors name the origin -----------------------------------------------------

template <class F>
void expect_refused(F f, const std::string& origin, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected an error at " << origin << " with: " << words;
  } catch (const ExprBuildError& e) {
    EXPECT_EQ(e.origin(), origin) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(origin.empty() ? "(no origin)" : origin, 0), 0u) << e.what();
  }
}

TEST(ExprBuilder, RefusesWhatTheTypeRulesRefuseAndNamesTheOrigin) {
  ExprBuilder b(kXyz);
  const auto x = b.input("x"), i = b.input("i");
  expect_refused([&] { b.binary(Op::Add, x, i, "Add_3"); }, "Add_3", "the second operand is i32, expected f32");
  expect_refused([&] { b.binary(Op::BitwiseAnd, x, x, "And_1"); }, "And_1", "bitwise_and does not accept f32");
  expect_refused([&] { b.where(x, x, x, "Where_2"); }, "Where_2", "the condition is f32, expected bool");
  expect_refused([&] { b.unary(UnaryOp::Sqrt, i, "Sqrt_9"); }, "Sqrt_9", "sqrt does not support dtype i32");
  expect_refused([&] { b.input("z", "graph input z"); }, "graph input z", "no input named 'z'");
  expect_refused([&] { b.literal_int(300, DType::I8, "c"); }, "c", "300 is out of range for i8 (-128 to 127)");
  expect_refused([&] { b.literal_int(-129, DType::I8, "c"); }, "c", "-129 is out of range for i8");
  expect_refused([&] { b.literal_int(-1, DType::U8, "c"); }, "c", "-1 is out of range for u8 (0 to 255)");
  expect_refused([&] { b.literal_int(65536, DType::U16, "c"); }, "c", "65536 is out of range for u16");
  expect_refused([&] { b.literal(1.5, DType::I32, "c2"); }, "c2", "1.5 is not an integer literal of i32");
  expect_refused([&] { b.literal(1e39, DType::F32, "c3"); }, "c3", "out of range for f32");
  expect_refused([&] { b.literal(HUGE_VAL, DType::F32, "c4"); }, "c4", "not finite");
  expect_refused([&] { b.binary(Op::Broadcast, x, x, "b"); }, "b", "broadcast is not an expression op");
  expect_refused([&] { b.binary(Op::Add, x, 999, "Add_7"); }, "Add_7", "operand 999 is not a node");
  // The ends of the ranges are literals (the parser's int_range).
  EXPECT_NO_THROW(b.literal_int(-128, DType::I8));
  EXPECT_NO_THROW(b.literal_int(255, DType::U8));
  EXPECT_NO_THROW(b.literal_int(INT64_MIN, DType::I64));
  EXPECT_NO_THROW(b.literal_int(INT64_MAX, DType::U64));
  // A refused node leaves the builder as it was.
  const std::size_t before = b.size();
  EXPECT_THROW(b.binary(Op::Add, x, i), ExprBuildError);
  EXPECT_EQ(b.size(), before);
  expect_refused([&] { ExprBuilder({{"a", DType::F32}, {"a", DType::I32}}); }, "", "input 'a' is declared twice");
}

// --- print_expr -------------------------------------------------------------------

TEST(PrintExpr, LiteralsAreTypedWhereTheirContextIsNot) {
  ExprBuilder b(kXyz);
  // 1 + 2 in f32 has no typed operand: the printer must spell one type.
  const auto three = b.binary(Op::Add, b.literal(1.0, DType::F32), b.literal(2.0, DType::F32));
  const ExprDag d = b.finish(b.binary(Op::Multiply, b.input("x"), three));
  EXPECT_EQ(print_expr(d, kXyz), "multiply(x, add(cast(1, f32), cast(2, f32)))");
  expect_round_trip(d, kXyz, "literal-only subexpression");
  const ExprDag relu = parse_expr("max(x, 0)", kXyz);
  EXPECT_EQ(print_expr(relu, kXyz), "maximum(x, 0)");
}

// Every expression of the test specs and of the golden spec.
TEST(PrintExpr, TheTestSpecsRoundTrip) {
  int checked = 0;
  for (const char* file : {"tests/kernels/fused.yaml", "tests/golden/golden.yaml", "examples/demo.yaml"}) {
    std::ifstream in(std::string(BCASTGEN_SOURCE_DIR) + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    const bcastgen::gen::Spec spec = bcastgen::gen::parse_spec(text.str(), file);
    for (const auto& k : spec.kernels) {
      std::vector<ExprInput> inputs;
      for (const auto& i : k.inputs) inputs.push_back({i.name, i.dtype});
      expect_round_trip(k.expr, inputs, std::string(file) + " " + k.name);
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

// Random DAGs from the builder, over every dtype: printed and parsed back.
TEST(PrintExpr, RandomBuilderDagsRoundTrip) {
  std::mt19937_64 rng(20261125);
  const std::vector<DType> dtypes = {DType::F32, DType::F64, DType::I8, DType::U8, DType::I16, DType::U16,
                                     DType::I32, DType::U32, DType::I64, DType::U64, DType::Bool};
  int built = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<ExprInput> inputs;
    const int n_inputs = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < n_inputs; ++k) inputs.push_back({"in" + std::to_string(k), dtypes[rng() % dtypes.size()]});
    ExprBuilder b(inputs);
    std::vector<ExprBuilder::Value> values;
    for (const auto& in : inputs) values.push_back(b.input(in.name));
    for (int step = 0; step < 12; ++step) {
      const auto pick = [&] { return values[rng() % values.size()]; };
      try {
        switch (rng() % 6) {
          case 0: {
            const DType t = b.dtype(pick());
            if (t == DType::Bool) values.push_back(b.literal_bool(rng() & 1));
            else if (bcastgen::dtype_info(t).is_float) values.push_back(b.literal(static_cast<double>(rng() % 2001) / 8.0 - 125, t));
            else values.push_back(b.literal_int(static_cast<std::int64_t>(rng() % 100), t));
            break;
          }
          case 1:
          case 2: {
            const auto a = pick();
            const auto c = pick();
            values.push_back(b.binary(static_cast<Op>(rng() % static_cast<int>(Op::Broadcast)), a, c));
            break;
          }
          case 3: values.push_back(b.unary(static_cast<UnaryOp>(rng() % std::size(bcastgen::kUnaryInfo)), pick())); break;
          case 4: values.push_back(b.cast(pick(), dtypes[rng() % dtypes.size()])); break;
          case 5: values.push_back(b.where(pick(), pick(), pick())); break;
        }
      } catch (const ExprBuildError&) {
        // Ill-typed tries are refused; the builder is unchanged.
      }
    }
    const ExprDag d = b.finish(values.back());
    expect_round_trip(d, inputs, "random DAG " + std::to_string(trial));
    built += static_cast<int>(b.size());
  }
  EXPECT_GT(built, 2000);
}

}  // namespace
