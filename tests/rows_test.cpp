// Reductions (issue 75): the expression language's sum, mean, max, min,
// softmax and log_softmax; the reference's values against sums written out
// here in long double; the spec's errors for kernels that are not row
// kernels; and the fixed order of summation (row_reduce.h) against its
// stated error bound on rows with heavy cancellation. The generated row
// kernels are checked on every ISA by generated_kernels_test (rows.yaml).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/expr_builder.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/reference.h"
#include "bcastgen/row_reduce.h"

namespace bg = bcastgen;
using bg::DType;
using bg::ExprKind;
using bg::ReduceOp;
using bg::Shape;

namespace {

bg::ExprDag parse(const std::string& text, const std::vector<bg::gen::ExprInput>& inputs = {{"x", DType::F32}}) {
  return bg::gen::parse_expr(text, inputs);
}

std::string parse_error(const std::string& text, const std::vector<bg::gen::ExprInput>& inputs = {{"x", DType::F32}}) {
  try {
    parse(text, inputs);
  } catch (const bg::gen::ExprError& e) {
    return e.what();
  }
  return "";
}

TEST(RowsParse, ReductionsAreNodesWithAxes) {
  const bg::ExprDag d = parse("x - mean(x, [-1])");
  const bg::ExprNode& mean = d.nodes[1];
  EXPECT_EQ(mean.kind, ExprKind::Reduce);
  EXPECT_EQ(mean.reduce, ReduceOp::Mean);
  EXPECT_EQ(mean.axes, (std::vector<std::int64_t>{-1}));
  EXPECT_EQ(parse("sum(x, 1)").nodes[1].axes, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(parse("softmax(x, -1)").nodes[1].reduce, ReduceOp::Softmax);
  EXPECT_EQ(parse("log_softmax(x, [0, 1])").nodes[1].reduce, ReduceOp::LogSoftmax);
  // max and min over axes are reductions; with two values, the binary ops.
  EXPECT_EQ(parse("max(x, [-1])").nodes[1].reduce, ReduceOp::Max);
  EXPECT_EQ(parse("min(x, [0, -1])").nodes[1].reduce, ReduceOp::Min);
  EXPECT_EQ(parse("max(x, 0)").nodes.back().kind, ExprKind::Binary);
  EXPECT_EQ(parse("max(x, -1)").nodes.back().kind, ExprKind::Binary);  // a number, not axes
  // One node per distinct reduction: the same axes share, others do not.
  EXPECT_EQ(parse("sum(x, [-1]) + sum(x, [-1])").nodes.size(), 3u);
  EXPECT_EQ(parse("sum(x, [-1]) + sum(x, [0])").nodes.size(), 4u);
  EXPECT_EQ(parse("sum(x, [-1]) + mean(x, [-1])").nodes.size(), 4u);
}

TEST(RowsParse, PrintsAndReadsBack) {
  const std::vector<bg::gen::ExprInput> in = {{"x", DType::F32}, {"g", DType::F32}};
  const bg::ExprDag d = parse("softmax(x * 0.5, -1) * g + max(x, [0, -1])", in);
  const std::string text = bg::gen::print_expr(d, in);
  EXPECT_EQ(bg::gen::to_string(parse(text, in), in), bg::gen::to_string(d, in)) << text;
  EXPECT_NE(bg::gen::to_string(d, in).find("softmax(t2, [-1])"), std::string::npos) << bg::gen::to_string(d, in);
}

TEST(RowsParse, BadReductionsSayWhy) {
  EXPECT_NE(parse_error("sum(x)").find("sum takes (x, axes)"), std::string::npos) << parse_error("sum(x)");
  EXPECT_NE(parse_error("sum(x, [])").find("at least one axis"), std::string::npos);
  EXPECT_NE(parse_error("mean(x, [1, 1])").find("names an axis twice"), std::string::npos);
  EXPECT_NE(parse_error("sum(x, [1.5])").find("must be an integer"), std::string::npos);
  EXPECT_NE(parse_error("softmax(x, -1, 2)").find("expected ')'"), std::string::npos);
  const std::string ints = parse_error("sum(i, [-1])", {{"i", DType::I32}});
  EXPECT_NE(ints.find("does not accept i32"), std::string::npos) << ints;
  // Through the builder: the runtime's typing rule.
  bg::gen::ExprBuilder b({{"i", DType::I32}});
  EXPECT_THROW(b.reduce(ReduceOp::Sum, b.input("i"), {-1}), bg::InvalidArgument);
}

// --- the reference ----------------------------------------------------------

std::vector<float> evaluate(const std::string& text, const std::vector<std::pair<Shape, std::vector<float>>>& inputs,
                            const std::vector<std::string>& names, Shape* out_shape = nullptr) {
  std::vector<bg::gen::ExprInput> decl;
  std::vector<bg::ExprOperand> ops;
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    decl.push_back({names[i], DType::F32});
    ops.push_back({inputs[i].second.data(), inputs[i].first, DType::F32});
    shapes.push_back(inputs[i].first);
  }
  const bg::ExprDag d = parse(text, decl);
  const Shape out = bg::expr_out_shape(d, bg::Rule::Numpy, shapes, -1, names);
  if (out_shape) *out_shape = out;
  std::vector<float> result(static_cast<std::size_t>(bg::checked_numel(out)));
  bg::reference::evaluate(d, ops, bg::Rule::Numpy, -1, result.data(), names);
  return result;
}

TEST(RowsReference, EachReductionAgainstLongDouble) {
  const Shape s = {3, 5};
  std::vector<float> x(15);
  for (int i = 0; i < 15; ++i) x[i] = static_cast<float>((i * 7 % 11) - 5) / 3.0f;
  auto row = [&](int r, int j) { return static_cast<long double>(x[static_cast<std::size_t>(r * 5 + j)]); };
  Shape out;
  const std::vector<float> sum = evaluate("sum(x, [-1])", {{s, x}}, {"x"}, &out);
  EXPECT_EQ(out, (Shape{3, 1}));
  const std::vector<float> mean = evaluate("mean(x, -1)", {{s, x}}, {"x"});
  const std::vector<float> mx = evaluate("max(x, [1])", {{s, x}}, {"x"});
  const std::vector<float> mn = evaluate("min(x, [-1])", {{s, x}}, {"x"});
  const std::vector<float> sm = evaluate("softmax(x, -1)", {{s, x}}, {"x"}, &out);
  EXPECT_EQ(out, s);
  const std::vector<float> lsm = evaluate("log_softmax(x, -1)", {{s, x}}, {"x"});
  for (int r = 0; r < 3; ++r) {
    long double total = 0, m = -INFINITY, lo = INFINITY;
    for (int j = 0; j < 5; ++j) {
      total += row(r, j);
      m = std::max(m, row(r, j));
      lo = std::min(lo, row(r, j));
    }
    EXPECT_EQ(sum[static_cast<std::size_t>(r)], static_cast<float>(total));
    EXPECT_EQ(mean[static_cast<std::size_t>(r)], static_cast<float>(total / 5));
    EXPECT_EQ(mx[static_cast<std::size_t>(r)], static_cast<float>(m));
    EXPECT_EQ(mn[static_cast<std::size_t>(r)], static_cast<float>(lo));
    long double z = 0;
    for (int j = 0; j < 5; ++j) z += std::exp(row(r, j) - m);
    for (int j = 0; j < 5; ++j) {
      const std::size_t e = static_cast<std::size_t>(r * 5 + j);
      EXPECT_EQ(sm[e], static_cast<float>(std::exp(row(r, j) - m) / z));
      EXPECT_EQ(lsm[e], static_cast<float>(row(r, j) - m - std::log(z)));
    }
  }
  // Over the outer axis (the reference takes any axes) and over both.
  const std::vector<float> cols = evaluate("sum(x, [0])", {{s, x}}, {"x"}, &out);
  EXPECT_EQ(out, (Shape{1, 5}));
  EXPECT_EQ(cols[2], static_cast<float>(row(0, 2) + row(1, 2) + row(2, 2)));
  const std::vector<float> all = evaluate("max(x, [0, 1])", {{s, x}}, {"x"}, &out);
  EXPECT_EQ(out, (Shape{1, 1}));
  EXPECT_EQ(all[0], *std::max_element(x.begin(), x.end()));
}

TEST(RowsReference, BroadcastsBackAndFollowsNumPyOnBroadcastOperands) {
  const std::vector<float> x = {1, 2, 3, 4, 10, 20, 30, 40};
  const std::vector<float> d = evaluate("x - mean(x, [-1])", {{{2, 4}, x}}, {"x"});
  EXPECT_EQ(d, (std::vector<float>{-1.5f, -0.5f, 0.5f, 1.5f, -15, -5, 5, 15}));
  // y is [2, 1]: NumPy sums it over its own extent 1 (y itself), not over x's 4.
  const std::vector<float> y = {5, 7};
  const std::vector<float> r = evaluate("x + sum(y, [-1])", {{{2, 4}, x}, {{2, 1}, y}}, {"x", "y"});
  EXPECT_EQ(r, (std::vector<float>{6, 7, 8, 9, 17, 27, 37, 47}));
}

TEST(RowsReference, NaNAndInfinityPropagate) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, nan, 3, 4, 1, inf, 3, 4, 1, 2, 3, -inf};
  const std::vector<float> s = evaluate("sum(x, -1)", {{{3, 4}, x}}, {"x"});
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_EQ(s[1], inf);
  EXPECT_EQ(s[2], -inf);
  const std::vector<float> m = evaluate("max(x, [-1])", {{{3, 4}, x}}, {"x"});
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_EQ(m[1], inf);
  const std::vector<float> sm = evaluate("softmax(x, -1)", {{{3, 4}, x}}, {"x"});
  EXPECT_TRUE(std::isnan(sm[0]));
  EXPECT_TRUE(std::isnan(sm[5]));  // inf - inf
  EXPECT_EQ(sm[11], 0.0f);         // exp(-inf - max)
}

// --- the spec's row kernels -----------------------------------------------

std::string spec_error(const std::string& kernel) {
  try {
    bg::gen::parse_spec("kernels:\n" + kernel, "rows.yaml");
  } catch (const bg::gen::SpecError& e) {
    return e.what();
  }
  return "";
}

TEST(RowsSpec, RowKernelsAreChecked) {
  EXPECT_EQ(spec_error("  - {name: k, inputs: {x: [4, 8]}, expr: 'x - mean(x, [-1])'}\n"), "");
  EXPECT_EQ(spec_error("  - {name: k, inputs: {x: [4, 8]}, expr: 'sum(x, [-1])'}\n"), "");
  const std::string outer = spec_error("  - {name: k, inputs: {x: [4, 8]}, expr: 'x - mean(x, [0])'}\n");
  EXPECT_NE(outer.find("reductions over outer axes are not supported"), std::string::npos) << outer;
  const std::string two = spec_error("  - {name: k, inputs: {x: [2, 4, 8]}, expr: 'sum(x, [-1]) + sum(x, [-2, -1])'}\n");
  EXPECT_NE(two.find("reduces one set of axes"), std::string::npos) << two;
  const std::string bcast = spec_error("  - {name: k, inputs: {x: [4, 8], y: [4, 1]}, expr: 'x + sum(y, [-1])'}\n");
  EXPECT_NE(bcast.find("spans the axes it reduces"), std::string::npos) << bcast;
  const std::string strided =
      spec_error("  - {name: k, inputs: {x: [8, 4]}, expr: 'softmax(transpose(x, [1, 0]), -1)'}\n");
  EXPECT_NE(strided.find("contiguously along the row or as one value per row"), std::string::npos) << strided;
  const std::string rule =
      spec_error("  - {name: k, rule: none, inputs: {x: [4, 8]}, expr: 'sum(x, [-1])'}\n");
  EXPECT_NE(rule.find("rule numpy"), std::string::npos) << rule;
  const std::string empty = spec_error("  - {name: k, inputs: {x: [4, 0]}, expr: 'sum(x, [-1])'}\n");
  EXPECT_NE(empty.find("empty axis"), std::string::npos) << empty;
  const std::string axis = spec_error("  - {name: k, inputs: {x: [4, 8]}, expr: 'sum(x, [2])'}\n");
  EXPECT_NE(axis.find("outside its operand of rank 2"), std::string::npos) << axis;
}

// --- the plan: rows from DRAM ----------------------------------------------

// From the footprint of rows from DRAM (the CPU kind's stream_reading_bytes,
// 24 MiB for every kind), the vector output pass prefetches the next step's
// rows, of both rows of a pair, and the last step its own; below it, no
// prefetch. generated_kernels_test runs such a kernel (rows_dram.yaml).
TEST(RowsPlan, PrefetchesTheNextRowsFromDramOnly) {
  const auto generate = [](int rows) {
    bg::gen::GenerateOptions o;
    o.stem = "k";
    o.source_name = "rows.yaml";
    return bg::gen::generate(bg::gen::parse_spec("isa: [avx2, scalar]\nkernels:\n  - {name: k, inputs: {x: [" +
                                                     std::to_string(rows) +
                                                     ", 768], g: [768]}, expr: 'x / sqrt(mean(x * x, [-1])) * g'}\n",
                                                 "rows.yaml"),
                             o);
  };
  const bg::gen::GeneratedFiles dram = generate(4098);  // 4098 * 768 * 4 bytes in and out: 25.2 MB
  ASSERT_TRUE(dram.plans.at(0).rows.has_value());
  EXPECT_TRUE(dram.plans[0].rows->prefetch_next);
  const std::string& code = dram.files.at("k.cpp");
  EXPECT_NE(code.find("i0 + 1 < 2049 ? "), std::string::npos) << code;  // 2049 steps of two rows
  EXPECT_NE(code.find("__builtin_prefetch(next0 + j);"), std::string::npos) << code;
  EXPECT_NE(code.find("__builtin_prefetch(next0_b + j + 16);"), std::string::npos) << code;  // 64-byte lines of f32
  const bg::gen::GeneratedFiles l3 = generate(2048);  // 12.6 MB: from the L3
  EXPECT_FALSE(l3.plans.at(0).rows->prefetch_next);
  EXPECT_EQ(l3.files.at("k.cpp").find("__builtin_prefetch"), std::string::npos);
}

// --- the fixed order and its bound -----------------------------------------

// The sum of `x` in the order every variant follows: element j to partial
// j % 64, then the tree.
float row_order_sum(const std::vector<float>& x) {
  float p[bg::kRowPartials];
  std::fill(std::begin(p), std::end(p), bg::row_identity<ReduceOp::Sum, float>());
  for (std::size_t j = 0; j < x.size(); ++j) {
    p[j % bg::kRowPartials] = bg::row_combine<ReduceOp::Sum>(p[j % bg::kRowPartials], x[j]);
  }
  return bg::row_tree<ReduceOp::Sum>(p, bg::kRowPartials);
}

TEST(RowsOrder, SumWithinTheStatedBound) {
  std::mt19937_64 rng(75);
  for (std::size_t n : {1u, 7u, 63u, 64u, 65u, 768u, 4096u, 65536u}) {
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<float> x(n);
      for (std::size_t j = 0; j < n; ++j) {
        const double u = std::ldexp(static_cast<double>(rng() >> 11), -53) * 2 - 1;
        // 0: uniform; 1: heavy cancellation (big values and their negations,
        // plus small ones); 2: values of both signs over 2^40 of magnitudes.
        x[j] = kind == 0   ? static_cast<float>(u)
               : kind == 1 ? static_cast<float>(j % 2 ? -std::ldexp(1.0, 20) * (1 + u) : std::ldexp(1.0, 20) * (1 + u))
                           : static_cast<float>(std::ldexp(u, static_cast<int>(rng() % 41) - 20));
      }
      long double exact = 0, abs_sum = 0;  // long double: its own error is 2^-40 of the bound
      for (float v : x) {
        exact += v;
        abs_sum += std::fabs(v);
      }
      const long double k = static_cast<long double>((n + 63) / 64 + 5), u = std::ldexp(1.0L, -24);
      const long double bound = k * u / (1 - k * u) * abs_sum;
      const float got = row_order_sum(x);
      EXPECT_LE(std::fabs(static_cast<long double>(got) - exact), bound) << "n " << n << ", kind " << kind;
    }
  }
}

TEST(RowsOrder, IdentitiesLeaveEveryValue) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float v : {-0.0f, 0.0f, 1.5f, -inf, inf}) {
    EXPECT_EQ(std::signbit(bg::row_combine<ReduceOp::Sum>(bg::row_identity<ReduceOp::Sum, float>(), v)),
              std::signbit(v));
    EXPECT_EQ(bg::row_combine<ReduceOp::Max>(bg::row_identity<ReduceOp::Max, float>(), v), v);
    EXPECT_EQ(bg::row_combine<ReduceOp::Min>(bg::row_identity<ReduceOp::Min, float>(), v), v);
  }
  EXPECT_TRUE(std::isnan(bg::row_combine<ReduceOp::Max>(bg::row_identity<ReduceOp::Max, float>(), NAN)));
}

}  // namespace
