// N-input broadcasting (rules.h, broadcast_inputs) and the expression
// reference (reference.h, reference::evaluate), each against an
// independent oracle:
// - broadcast_inputs: folding broadcast_shapes over the inputs, offsets
//   recomputed from the multi-index, every order of the inputs, and
//   broadcast_shapes itself for two inputs under every rule;
// - evaluate on random DAGs of binary ops: a chain of reference::binary
//   calls that materializes every node (at the broadcast of its operands'
//   shapes), then reference::broadcast_to to the output shape;
// - evaluate on hand-written expressions (parsed by gen::parse_expr) with
//   unary ops, casts, where, clamp and literals: NumPy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/reference.h"
#include "numpy_oracle.h"

namespace bg = bcastgen;
using bg::DType;
using bg::ExprDag;
using bg::ExprKind;
using bg::ExprNode;
using bg::ExprOperand;
using bg::Op;
using bg::Rule;
using bg::Shape;
using bg::test::Rng;

namespace {

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// Input shapes that broadcast under numpy: each a suffix of a random shape
// of rank <= max_rank (dims 1..5, rarely 0), with some dims set to 1; with
// `one_full`, one input is that whole shape.
std::vector<Shape> random_shapes(Rng& rng, std::size_t n, std::size_t max_rank, bool one_full = false) {
  Shape full(rng.below(max_rank + 1));
  for (std::int64_t& d : full) d = rng.below(80) == 0 ? 0 : static_cast<std::int64_t>(1 + rng.below(5));
  const std::size_t full_one = one_full ? rng.below(n) : n;
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == full_one) {
      shapes.push_back(full);
      continue;
    }
    Shape s(full.end() - static_cast<std::ptrdiff_t>(rng.below(full.size() + 1)), full.end());
    for (std::int64_t& d : s) {
      if (rng.below(3) == 0) d = 1;
    }
    shapes.push_back(s);
  }
  return shapes;
}

// The oracle of an N-way numpy broadcast: broadcast_shapes folded left.
Shape fold_numpy(const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& s : shapes) out = bg::broadcast_shapes(Rule::Numpy, out, s).out;
  return out;
}

// Checks r.strides[i] against the offsets recomputed from the multi-index:
// input i's element at output index idx is at the row-major position of
// idx's last rank(i) coordinates, each 0 where the input's dim is 1.
void expect_offsets(const bg::BroadcastInputs& r, const std::vector<Shape>& shapes) {
  ASSERT_EQ(r.strides.size(), shapes.size());
  const std::size_t rank = r.out.size();
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t e = 0; e < numel(r.out); ++e) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& s = shapes[i];
      ASSERT_EQ(r.strides[i].size(), rank);
      std::int64_t got = 0, want = 0;
      for (std::size_t k = 0; k < rank; ++k) got += idx[k] * r.strides[i][k];
      for (std::size_t k = 0; k < s.size(); ++k) {
        const std::int64_t coord = s[k] == 1 ? 0 : idx[rank - s.size() + k];
        want = want * s[k] + coord;
      }
      ASSERT_EQ(got, want) << "input " << i << " " << bg::format_shape(s) << " at output element " << e;
    }
    for (std::size_t k = rank; k-- > 0;) {
      if (++idx[k] < r.out[k]) break;
      idx[k] = 0;
    }
  }
}

// ---------------------------------------------------------------------------
// Random DAGs of binary ops, and their oracle
// ---------------------------------------------------------------------------

template <class T>
void fill_random(Rng& rng, std::size_t n, std::string* bytes) {
  bytes->assign(n * sizeof(T), '\0');
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    if constexpr (std::is_same_v<T, bool>) {
      v = rng.below(2) != 0;
    } else if constexpr (bg::is_half_v<T>) {
      const double special[] = {0.0, -0.0, NAN, INFINITY, 1.0, -1.0};
      v = bg::ops::cast<T>(rng.below(8) == 0 ? special[rng.below(6)] : rng.unit() * 20.0 - 10.0);
    } else if constexpr (std::is_floating_point_v<T>) {
      const T special[] = {T(0), T(-0.0), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                           T(1), T(-1)};
      v = rng.below(8) == 0 ? special[rng.below(6)] : static_cast<T>(rng.unit() * 20.0 - 10.0);
    } else {
      v = rng.below(2) ? static_cast<T>(static_cast<std::int64_t>(rng.below(21)) - 10) : bg::ops::cast<T>(rng.next());
    }
    std::memcpy(&(*bytes)[i * sizeof(T)], &v, sizeof(T));
  }
}

std::string random_bytes(Rng& rng, DType t, std::int64_t n) {
  std::string bytes;
  bg::visit_dtype(t, [&](auto tag) { fill_random<typename decltype(tag)::type>(rng, static_cast<std::size_t>(n), &bytes); });
  return bytes;
}

struct RandomExpr {
  ExprDag dag;
  std::vector<Shape> shapes;
  std::vector<DType> dtypes;
  std::vector<std::string> data;  // raw bytes per input
};

// 1-5 inputs of one dtype, then 1-8 binary ops on random earlier nodes of
// one dtype (comparisons of numbers make bool nodes, which bool ops then
// combine); the root is the last node.
RandomExpr random_expr(Rng& rng, Rule rule) {
  RandomExpr x;
  const DType t = bg::kAllDTypes[rng.below(std::size(bg::kAllDTypes))];
  const std::size_t n_in = 1 + rng.below(5);
  x.shapes = random_shapes(rng, n_in, 6, rng.below(2) == 0);
  if (rule == Rule::None) x.shapes.assign(n_in, fold_numpy(x.shapes));
  for (std::size_t i = 0; i < n_in; ++i) {
    ExprNode in;
    in.dtype = t;
    in.input = i;
    x.dag.nodes.push_back(in);
    x.dtypes.push_back(t);
    x.data.push_back(random_bytes(rng, t, numel(x.shapes[i])));
  }
  x.dag.input_used.assign(n_in, true);
  const std::size_t n_ops = 1 + rng.below(8);
  for (std::size_t k = 0; k < n_ops; ++k) {
    const std::size_t a = rng.below(x.dag.nodes.size());
    const DType at = x.dag.nodes[a].dtype;
    std::vector<Op> ops;
    for (Op op : bg::kAllOps) {
      if (op != Op::Broadcast && bg::op_supports(op, at)) ops.push_back(op);
    }
    std::vector<std::size_t> same;
    for (std::size_t j = 0; j < x.dag.nodes.size(); ++j) {
      if (x.dag.nodes[j].dtype == at) same.push_back(j);
    }
    ExprNode n;
    n.kind = ExprKind::Binary;
    n.op = ops[rng.below(ops.size())];
    n.dtype = bg::result_dtype(n.op, at);
    n.args = {a, same[rng.below(same.size())]};
    if (rng.below(2)) std::swap(n.args[0], n.args[1]);
    x.dag.nodes.push_back(n);
  }
  x.dag.root = x.dag.nodes.size() - 1;
  return x;
}

// The oracle: every node materialized by reference::binary at the
// broadcast of its operands' shapes, the root then broadcast to the
// output shape by reference::broadcast_to.
std::string chain_of_binary(const RandomExpr& x, Rule rule, const Shape& out_shape) {
  std::vector<std::string> val(x.dag.nodes.size());
  std::vector<Shape> shape(x.dag.nodes.size());
  for (std::size_t k = 0; k < x.dag.nodes.size(); ++k) {
    const ExprNode& n = x.dag.nodes[k];
    if (n.kind == ExprKind::Input) {
      val[k] = x.data[n.input];
      shape[k] = x.shapes[n.input];
      continue;
    }
    const std::size_t a = n.args[0], b = n.args[1];
    shape[k] = bg::broadcast_shapes(rule, shape[a], shape[b]).out;
    val[k].assign(static_cast<std::size_t>(numel(shape[k]) * bg::dtype_size(n.dtype)), '\0');
    bg::reference::binary(n.op, x.dag.nodes[a].dtype, rule, -1, val[a].data(), shape[a], val[b].data(), shape[b],
                          val[k].data());
  }
  const DType rt = x.dag.nodes[x.dag.root].dtype;
  std::string out(static_cast<std::size_t>(numel(out_shape) * bg::dtype_size(rt)), '\0');
  bg::reference::broadcast_to(rt, bg::BroadcastMode::Numpy, val[x.dag.root].data(), shape[x.dag.root], out_shape,
                              -1, {}, out.data());
  return out;
}

std::vector<ExprOperand> operands(const std::vector<std::string>& data, const std::vector<Shape>& shapes,
                                  const std::vector<DType>& dtypes) {
  std::vector<ExprOperand> ops;
  for (std::size_t i = 0; i < data.size(); ++i) ops.push_back({data[i].data(), shapes[i], dtypes[i]});
  return ops;
}

std::string evaluate(const ExprDag& dag, const std::vector<ExprOperand>& in, Rule rule, std::int64_t axis = -1) {
  const Shape out_shape = bg::reference::expr_output_shape(in, rule, axis);
  std::string out(static_cast<std::size_t>(numel(out_shape) * bg::dtype_size(dag.nodes[dag.root].dtype)), '\0');
  bg::reference::evaluate(dag, in, rule, axis, out.data());
  return out;
}

std::string dag_text(const RandomExpr& x) {
  std::string s;
  for (std::size_t k = 0; k < x.dag.nodes.size(); ++k) {
    const ExprNode& n = x.dag.nodes[k];
    s += "  t" + std::to_string(k) + " = ";
    if (n.kind == ExprKind::Input) {
      s += "in" + std::to_string(n.input) + " " + bg::format_shape(x.shapes[n.input]);
    } else {
      s += std::string(bg::op_name(n.op)) + "(t" + std::to_string(n.args[0]) + ", t" + std::to_string(n.args[1]) + ")";
    }
    s += " : " + std::string(bg::dtype_name(n.dtype)) + "\n";
  }
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------
// broadcast_inputs
// ---------------------------------------------------------------------------

TEST(BroadcastInputs, NumpyEqualsFoldInEveryOrder) {
  Rng rng{14};
  for (int iter = 0; iter < 300; ++iter) {
    const std::vector<Shape> shapes = random_shapes(rng, 1 + rng.below(5), 5);
    const Shape want = fold_numpy(shapes);
    std::vector<std::size_t> perm(shapes.size());
    std::iota(perm.begin(), perm.end(), 0);
    for (int p = 0; p < 4; ++p) {
      std::vector<Shape> permuted;
      for (std::size_t i : perm) permuted.push_back(shapes[i]);
      for (Rule rule : {Rule::Numpy, Rule::Bidirectional}) {
        const bg::BroadcastInputs r = bg::broadcast_inputs(rule, permuted);
        ASSERT_EQ(r.out, want) << "iteration " << iter << ", order " << p;
        expect_offsets(r, permuted);
      }
      for (std::size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
    }
  }
}

TEST(BroadcastInputs, ConflictIsRejectedInEveryOrder) {
  Rng rng{15};
  int checked = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<Shape> shapes = random_shapes(rng, 1 + rng.below(4), 4);
    // Another input equal to the broadcast shape but for one dim > 1, grown by one.
    Shape bad = fold_numpy(shapes);
    std::vector<std::size_t> big;
    for (std::size_t k = 0; k < bad.size(); ++k) {
      if (bad[k] > 1) big.push_back(k);
    }
    if (big.empty()) continue;
    ++bad[big[rng.below(big.size())]];
    shapes.insert(shapes.begin() + static_cast<std::ptrdiff_t>(rng.below(shapes.size() + 1)), bad);
    EXPECT_THROW(fold_numpy(shapes), bg::BroadcastError);
    for (int p = 0; p < 3; ++p) {
      EXPECT_THROW(bg::broadcast_inputs(Rule::Numpy, shapes), bg::BroadcastError) << iter;
      std::swap(shapes[rng.below(shapes.size())], shapes[rng.below(shapes.size())]);
    }
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

TEST(BroadcastInputs, TwoInputsEqualBroadcastShapesUnderEveryRule) {
  Rng rng{16};
  for (int iter = 0; iter < 400; ++iter) {
    Shape a(rng.below(4)), b(rng.below(4));
    for (std::int64_t& d : a) d = static_cast<std::int64_t>(1 + rng.below(3));
    for (std::int64_t& d : b) d = static_cast<std::int64_t>(1 + rng.below(3));
    const std::int64_t axis = static_cast<std::int64_t>(rng.below(5)) - 1;
    for (Rule rule : bg::kAllRules) {
      SCOPED_TRACE(std::string(bg::rule_name(rule)) + " " + bg::format_shape(a) + " " + bg::format_shape(b) +
                   " axis " + std::to_string(axis));
      std::string want_error;
      bg::BroadcastResult want;
      try {
        want = bg::broadcast_shapes(rule, a, b, axis);
      } catch (const bg::Error& e) {
        want_error = e.what();
      }
      try {
        const bg::BroadcastInputs got = bg::broadcast_inputs(rule, {a, b}, axis);
        EXPECT_EQ(want_error, "");
        EXPECT_EQ(got.out, want.out);
        ASSERT_EQ(got.strides.size(), 2u);
        EXPECT_EQ(got.strides[0], want.a_strides);
        EXPECT_EQ(got.strides[1], want.b_strides);
      } catch (const bg::Error& e) {
        EXPECT_EQ(e.what(), want_error);
      }
    }
  }
}

TEST(BroadcastInputs, NoneNeedsEqualShapes) {
  const bg::BroadcastInputs r = bg::broadcast_inputs(Rule::None, {{2, 3}, {2, 3}, {2, 3}});
  EXPECT_EQ(r.out, (Shape{2, 3}));
  expect_offsets(r, {{2, 3}, {2, 3}, {2, 3}});
  try {
    bg::broadcast_inputs(Rule::None, {{2, 3}, {2, 3}, {1, 3}}, -1, {"x", "y", "z"});
    ADD_FAILURE() << "rule none accepted unequal shapes";
  } catch (const bg::BroadcastError& e) {
    EXPECT_TRUE(contains(e.what(), "none")) << e.what();
    EXPECT_TRUE(contains(e.what(), "z [1,3]")) << e.what();
  }
}

TEST(BroadcastInputs, OneAndZeroInputs) {
  const bg::BroadcastInputs one = bg::broadcast_inputs(Rule::Numpy, {{3, 1, 2}});
  EXPECT_EQ(one.out, (Shape{3, 1, 2}));
  expect_offsets(one, {{3, 1, 2}});
  EXPECT_EQ(bg::broadcast_inputs(Rule::Numpy, {}).out, Shape{});
}

TEST(BroadcastInputs, PdpdAndPaddleTakeExactlyTwo) {
  for (Rule rule : {Rule::Pdpd, Rule::Paddle}) {
    try {
      bg::broadcast_inputs(rule, {{2, 3}, {3}, {3}}, 1);
      ADD_FAILURE() << bg::rule_name(rule) << " accepted three inputs";
    } catch (const bg::InvalidArgument& e) {
      EXPECT_TRUE(contains(e.what(), "exactly two inputs, not 3")) << e.what();
      EXPECT_TRUE(contains(e.what(), bg::rule_name(rule))) << e.what();
    }
  }
}

TEST(BroadcastInputs, ErrorNamesTheInputsAndTheAxis) {
  try {
    bg::broadcast_inputs(Rule::Numpy, {{2, 3}, {3}, {1, 4}}, -1, {"x", "y", "z"});
    ADD_FAILURE() << "[2,3], [3], [1,4] broadcast";
  } catch (const bg::BroadcastError& e) {
    EXPECT_EQ(e.axis(), 1);
    EXPECT_TRUE(contains(e.what(), "x, y [2,3] and z [1,4]")) << e.what();
    EXPECT_TRUE(contains(e.what(), "axis 1 has 3 vs 4")) << e.what();
  }
  try {
    bg::broadcast_inputs(Rule::Numpy, {{5}, {2, 5}, {3, 1}});
    ADD_FAILURE() << "[5], [2,5], [3,1] broadcast";
  } catch (const bg::BroadcastError& e) {
    EXPECT_TRUE(contains(e.what(), "A, B [2,5] and C [3,1]")) << e.what();
    EXPECT_TRUE(contains(e.what(), "axis 0 has 2 vs 3")) << e.what();
  }
}

// ---------------------------------------------------------------------------
// reference::evaluate
// ---------------------------------------------------------------------------

TEST(ExprEvaluate, RandomDagsEqualChainsOfBinaryOps) {
  Rng rng{1414};
  int dags = 0;
  std::int64_t elements = 0, nodes = 0;
  for (Rule rule : {Rule::Numpy, Rule::Bidirectional, Rule::None}) {
    for (int iter = 0; iter < 200; ++iter) {
      const RandomExpr x = random_expr(rng, rule);
      const std::vector<ExprOperand> in = operands(x.data, x.shapes, x.dtypes);
      const Shape out_shape = bg::reference::expr_output_shape(in, rule);
      ASSERT_EQ(out_shape, fold_numpy(x.shapes));
      const std::string want = chain_of_binary(x, rule, out_shape);
      const std::string got = evaluate(x.dag, in, rule);
      ASSERT_EQ(got.size(), want.size());
      EXPECT_TRUE(got == want) << bg::rule_name(rule) << " iteration " << iter << ":\n" << dag_text(x);
      ++dags;
      elements += numel(out_shape);
      nodes += static_cast<std::int64_t>(x.dag.nodes.size());
    }
  }
  EXPECT_EQ(dags, 600);
  // Not vacuous: enough elements and nodes were compared.
  EXPECT_GT(elements, 600 * 40);
  EXPECT_GT(nodes, 600 * 6);
  std::printf("%d DAGs, %lld nodes, %lld output elements\n", dags, static_cast<long long>(nodes),
              static_cast<long long>(elements));
}

TEST(ExprEvaluate, BinaryDagEqualsReferenceBinaryUnderEveryRule) {
  Rng rng{7};
  const struct {
    Rule rule;
    std::int64_t axis;
    Shape a, b;
  } cases[] = {
      {Rule::Numpy, -1, {8, 1, 6, 1}, {7, 1, 5}}, {Rule::None, -1, {2, 3}, {2, 3}},
      {Rule::Pdpd, 1, {2, 3, 4, 5}, {3, 1}},      {Rule::Pdpd, -1, {2, 3, 4, 5}, {4, 5}},
      {Rule::Paddle, 1, {2, 3, 4}, {3}},          {Rule::Bidirectional, -1, {4, 1}, {1, 5}},
  };
  for (const auto& c : cases) {
    for (Op op : {Op::Subtract, Op::Less, Op::FloorMod}) {
      const ExprDag dag = bg::binary_dag(op, DType::I16);
      const std::vector<std::string> data = {random_bytes(rng, DType::I16, numel(c.a)),
                                             random_bytes(rng, DType::I16, numel(c.b))};
      const std::string got = evaluate(dag, operands(data, {c.a, c.b}, {DType::I16, DType::I16}), c.rule, c.axis);
      const bg::BroadcastResult r = bg::broadcast_shapes(c.rule, c.a, c.b, c.axis);
      std::string want(static_cast<std::size_t>(numel(r.out) * bg::dtype_size(bg::result_dtype(op, DType::I16))), '\0');
      bg::reference::binary(op, DType::I16, c.rule, c.axis, data[0].data(), c.a, data[1].data(), c.b, want.data());
      EXPECT_TRUE(got == want) << bg::rule_name(c.rule) << " " << bg::op_name(op);
    }
  }
}

TEST(ExprEvaluate, CopyDagUnusedInputsRankZeroAndEmptyOutputs) {
  // copy_dag: the input itself.
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  std::vector<float> out(6);
  bg::reference::evaluate(bg::copy_dag(DType::F32), {{x.data(), {2, 3}, DType::F32}}, Rule::Numpy, -1, out.data());
  EXPECT_EQ(out, x);

  // An unused input of another dtype still shapes the output.
  ExprDag dag = bg::gen::parse_expr("a * 2", {{"a", DType::F32}, {"unused", DType::I8}});
  ASSERT_EQ(dag.input_used, (std::vector<bool>{true, false}));
  const std::int8_t junk[2] = {0, 0};
  const std::vector<ExprOperand> in = {{x.data(), {3}, DType::F32}, {junk, {2, 1}, DType::I8}};
  EXPECT_EQ(bg::reference::expr_output_shape(in, Rule::Numpy), (Shape{2, 3}));
  bg::reference::evaluate(dag, in, Rule::Numpy, -1, out.data());
  EXPECT_EQ(out, (std::vector<float>{2, 4, 6, 2, 4, 6}));

  // No inputs: a rank-0 output of one element.
  double one = 0;
  bg::reference::evaluate(bg::gen::parse_expr("sqrt(cast(2, f64))", {}), {}, Rule::Numpy, -1, &one);
  EXPECT_EQ(one, std::sqrt(2.0));

  // An empty output writes nothing and accepts null pointers.
  bg::reference::evaluate(bg::binary_dag(Op::Add, DType::F32), {{nullptr, {0, 3}, DType::F32}, {x.data(), {3}, DType::F32}},
                          Rule::Numpy, -1, nullptr);
}

TEST(ExprEvaluate, OutputMayAliasAnInputOfItsShape) {
  const ExprDag dag = bg::gen::parse_expr("max(x * scale + shift, 0)",
                                          {{"x", DType::F32}, {"scale", DType::F32}, {"shift", DType::F32}});
  std::vector<float> x = {-3, -1, 0, 1, 2, 3}, scale = {2, -1, 0.5f}, shift = {1, 1, -1};
  std::vector<float> separate(6);
  const std::vector<ExprOperand> in = {
      {x.data(), {2, 3}, DType::F32}, {scale.data(), {3}, DType::F32}, {shift.data(), {3}, DType::F32}};
  bg::reference::evaluate(dag, in, Rule::Numpy, -1, separate.data());
  EXPECT_EQ(separate, (std::vector<float>{0, 2, 0, 3, 0, 0.5f}));
  bg::reference::evaluate(dag, in, Rule::Numpy, -1, x.data());  // in place
  EXPECT_EQ(x, separate);
}

TEST(ExprEvaluate, RejectsBadCalls) {
  const ExprDag dag = bg::gen::parse_expr("x + y", {{"x", DType::F32}, {"y", DType::F32}});
  const float f[3] = {1, 2, 3};
  const std::int32_t i[3] = {1, 2, 3};
  float out[3];
  auto message = [&](const std::vector<ExprOperand>& in, const std::vector<std::string>& names = {},
                     const ExprDag& d = ExprDag{}) -> std::string {
    try {
      bg::reference::evaluate(d.nodes.empty() ? dag : d, in, Rule::Numpy, -1, out, names);
    } catch (const bg::InvalidArgument& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_TRUE(contains(message({{f, {3}, DType::F32}}), "the expression has 2 inputs, 1 given"));
  const std::string dtype = message({{f, {3}, DType::F32}, {i, {3}, DType::I32}}, {"x", "y"});
  EXPECT_TRUE(contains(dtype, "input 'y' has dtype i32 but the expression reads it as f32")) << dtype;
  EXPECT_TRUE(contains(message({{i, {3}, DType::I32}, {f, {3}, DType::F32}}), "input 0 has dtype i32")) << dtype;
  const std::string null = message({{f, {3}, DType::F32}, {nullptr, {1}, DType::F32}}, {"x", "y"});
  EXPECT_TRUE(contains(null, "null data pointer for input 'y'")) << null;
  try {
    bg::reference::evaluate(dag, {{f, {3}, DType::F32}, {f, {3}, DType::F32}}, Rule::Numpy, -1, nullptr);
    ADD_FAILURE() << "a null output was accepted";
  } catch (const bg::InvalidArgument& e) {
    EXPECT_TRUE(contains(e.what(), "null output pointer")) << e.what();
  }
  EXPECT_THROW(bg::reference::evaluate(dag, {{f, {3}, DType::F32}, {f, {2}, DType::F32}}, Rule::Numpy, -1, out),
               bg::BroadcastError);

  // Malformed DAGs: an operand after its user, a Broadcast node, mixed operand types.
  const std::vector<ExprOperand> two = {{f, {3}, DType::F32}, {f, {3}, DType::F32}};
  ExprDag bad = dag;
  std::swap(bad.nodes.front(), bad.nodes.back());
  bad.root = 0;
  EXPECT_TRUE(contains(message(two, {}, bad), "does not precede it"));
  bad = bg::binary_dag(Op::Broadcast, DType::F32);
  EXPECT_TRUE(contains(message(two, {}, bad), "'broadcast' is not a binary elementwise op"));
  bad = bg::binary_dag(Op::Add, DType::F32);
  bad.nodes[1].dtype = DType::F64;
  EXPECT_TRUE(contains(message({{f, {3}, DType::F32}, {f, {3}, DType::F64}}, {}, bad),
                       "the second operand is f64, expected f32"));
  bad = bg::binary_dag(Op::Add, DType::F32);
  bad.nodes[2].kind = ExprKind::Unary;
  bad.nodes[2].args = {0};
  bad.nodes[2].unary = bg::UnaryOp::BitwiseNot;
  EXPECT_TRUE(contains(message(two, {}, bad), "bitwise_not does not support dtype f32"));
}

// ---------------------------------------------------------------------------
// Hand-written expressions against NumPy
// ---------------------------------------------------------------------------

namespace {

const char* kExprScript = R"PY(
import sys
import numpy as np

man, data, outp = sys.argv[1:4]
raw = open(data, 'rb').read()
lines = open(man).read().split('\n')
chunks = []
i = 0
with np.errstate(all='ignore'):
    while i < len(lines) and lines[i]:
        n_in, rdescr = lines[i].split()
        expr = lines[i + 1]
        env = {'np': np}
        for k in range(int(n_in)):
            name, descr, off, dims = lines[i + 2 + k].split()
            shape = () if dims == '-' else tuple(int(d) for d in dims.split(','))
            dt = np.dtype(descr)
            count = int(np.prod(shape, dtype=np.int64))
            env[name] = np.frombuffer(raw, dtype=dt, count=count, offset=int(off)).reshape(shape)
        r = np.asarray(eval(expr, env))
        if r.dtype != np.dtype(rdescr):
            sys.exit('%s: numpy gave %s, expected %s' % (expr, r.dtype, rdescr))
        chunks.append(np.ascontiguousarray(r).tobytes())
        i += 2 + int(n_in)
open(outp, 'wb').write(b''.join(chunks))
)PY";

struct NamedInput {
  std::string name;
  DType dtype;
  Shape shape;
};

struct HandCase {
  std::string expr, numpy;
  std::vector<NamedInput> inputs;
  Rule rule = Rule::Numpy;
};

}  // namespace

TEST(ExprEvaluate, HandWrittenExpressionsMatchNumpy) {
  const DType f32 = DType::F32, f64 = DType::F64, i32 = DType::I32, u8 = DType::U8, b = DType::Bool;
  const std::vector<HandCase> cases = {
      {"max(x * scale + shift, 0)", "np.maximum(x * scale + shift, np.float32(0))",
       {{"x", f32, {2, 3, 4, 5}}, {"scale", f32, {1, 3, 1, 1}}, {"shift", f32, {1, 3, 1, 1}}}},
      {"where(keep, s * 0.125, -10000.0)", "np.where(keep, s * np.float32(0.125), np.float32(-10000.0))",
       {{"s", f32, {2, 3, 4, 4}}, {"keep", b, {1, 1, 4, 4}}}},
      {"(x - mean) * rstd * gamma + beta", "(x - mean) * rstd * gamma + beta",
       {{"x", f32, {2, 4, 6}}, {"mean", f32, {2, 4, 1}}, {"rstd", f32, {2, 4, 1}}, {"gamma", f32, {6}},
        {"beta", f32, {6}}}},
      {"clamp(x + bias, 0, 6)", "np.minimum(np.maximum(x + bias, np.float32(0)), np.float32(6))",
       {{"x", f32, {1, 3, 3, 4}}, {"bias", f32, {4}}}},
      {"sqrt(abs(d)) + square(d) - reciprocal(d) + neg(e)",
       "np.sqrt(np.abs(d)) + np.square(d) - np.reciprocal(d) + np.negative(e)", {{"d", f64, {3, 4}}, {"e", f64, {4}}}},
      {"cast(x, i32) * j + (~j & 255)", "x.astype(np.int32) * j + (np.invert(j) & np.int32(255))",
       {{"x", f32, {2, 5}}, {"j", i32, {5}}}},
      {"!(a < b) && keep || cast(u, bool)",
       "np.logical_or(np.logical_and(np.logical_not(a < b), keep), u.astype(np.bool_))",
       {{"a", f32, {3, 1}}, {"b", f32, {4}}, {"keep", b, {3, 4}}, {"u", u8, {1, 4}}}},
      {"neg(u) + square(u) - cast(d, u8)", "np.negative(u) + np.square(u) - d.astype(np.uint8)",
       {{"u", u8, {6}}, {"d", f64, {2, 6}}}},
      {"i / j % 7 + abs(i)", "np.remainder(np.floor_divide(i, j), np.int32(7)) + np.abs(i)",
       {{"i", i32, {4, 1}}, {"j", i32, {3}}}},
      {"where(x > y, cast(x, f64), sqrt(cast(y, f64)))",
       "np.where(x > y, x.astype(np.float64), np.sqrt(y.astype(np.float64)))", {{"x", f32, {}}, {"y", f32, {2, 2}}}},
  };

  Rng rng{2026};
  std::string manifest, data, ours;
  for (const HandCase& c : cases) {
    std::vector<bg::gen::ExprInput> decl;
    std::vector<Shape> shapes;
    std::vector<DType> dtypes;
    std::vector<std::string> bytes;
    for (const NamedInput& in : c.inputs) {
      decl.push_back({in.name, in.dtype});
      shapes.push_back(in.shape);
      dtypes.push_back(in.dtype);
      bytes.push_back(random_bytes(rng, in.dtype, numel(in.shape)));
    }
    const ExprDag dag = bg::gen::parse_expr(c.expr, decl);
    ours += evaluate(dag, operands(bytes, shapes, dtypes), c.rule);
    manifest += std::to_string(c.inputs.size()) + " " + bg::dtype_info(dag.nodes[dag.root].dtype).npy_descr + "\n" +
                c.numpy + "\n";
    for (std::size_t k = 0; k < c.inputs.size(); ++k) {
      std::string dims;
      for (std::int64_t d : shapes[k]) dims += (dims.empty() ? "" : ",") + std::to_string(d);
      manifest += c.inputs[k].name + " " + bg::dtype_info(dtypes[k]).npy_descr + " " + std::to_string(data.size()) +
                  " " + (dims.empty() ? "-" : dims) + "\n";
      data += bytes[k];
    }
  }
  const std::string theirs = bg::test::run_numpy_script("expr_reference", kExprScript, manifest, data);
  ASSERT_EQ(theirs.size(), ours.size());
  // Per case, so that a failure names the expression.
  std::size_t off = 0;
  for (const HandCase& c : cases) {
    std::vector<bg::gen::ExprInput> decl;
    std::vector<Shape> shapes;
    for (const NamedInput& in : c.inputs) {
      decl.push_back({in.name, in.dtype});
      shapes.push_back(in.shape);
    }
    const ExprDag dag = bg::gen::parse_expr(c.expr, decl);
    const std::size_t n = static_cast<std::size_t>(numel(fold_numpy(shapes)) * bg::dtype_size(dag.nodes[dag.root].dtype));
    EXPECT_TRUE(ours.compare(off, n, theirs, off, n) == 0) << c.expr;
    off += n;
  }
  EXPECT_EQ(off, ours.size());
}
