// Input layouts (issue 74): resolve_layout against NumPy's rules written
// out by hand (a transpose permutes, a slice clamps as Python does, a
// reshape without a copy only merges contiguous dims), the expression
// language's transpose/reshape/slice (parsed, printed back, refused with the
// column), the reference evaluator reading through them against index
// arithmetic done here, and the plan's strided reads and tiles.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/expr_builder.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/layout.h"
#include "bcastgen/reference.h"

namespace {

namespace bg = bcastgen;
using bg::DType;
using bg::InputLayout;
using bg::LayoutKind;
using bg::LayoutStep;
using bg::Shape;
using bg::StridedLayout;

LayoutStep transpose(std::vector<std::int64_t> perm) { return {LayoutKind::Transpose, std::move(perm)}; }
LayoutStep reshape(std::vector<std::int64_t> dims) { return {LayoutKind::Reshape, std::move(dims)}; }
LayoutStep slice(std::int64_t axis, std::int64_t start, std::int64_t stop, std::int64_t step = 1) {
  return {LayoutKind::Slice, {}, axis, start, stop, step};
}

StridedLayout resolve(const Shape& s, const InputLayout& l) { return bg::resolve_layout(s, l, "x"); }

std::string error_of(const Shape& s, const InputLayout& l) {
  try {
    resolve(s, l);
  } catch (const bg::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(ResolveLayout, TransposePermutesShapeAndStrides) {
  const StridedLayout t = resolve({2, 3, 4}, {transpose({0, 2, 1})});
  EXPECT_EQ(t.shape, (Shape{2, 4, 3}));
  EXPECT_EQ(t.strides, (Shape{12, 1, 4}));
  EXPECT_EQ(t.offset, 0);
}

TEST(ResolveLayout, SliceClampsAsPythonDoes) {
  // x[:, 1:69:2] of [4, 70]: 34 elements from 1.
  StridedLayout s = resolve({4, 70}, {slice(-1, 1, 69, 2)});
  EXPECT_EQ(s.shape, (Shape{4, 34}));
  EXPECT_EQ(s.strides, (Shape{70, 2}));
  EXPECT_EQ(s.offset, 1);
  // x[-1:-100:-1] of 50: all 50, reversed from 49.
  s = resolve({50}, {slice(0, -1, -100, -1)});
  EXPECT_EQ(s.shape, Shape{50});
  EXPECT_EQ(s.strides, Shape{-1});
  EXPECT_EQ(s.offset, 49);
  // Past the end on both sides: x[10:1000] of 8 is empty; x[-1000:3] is 3.
  EXPECT_EQ(resolve({8}, {slice(0, 10, 1000)}).shape, Shape{0});
  EXPECT_EQ(resolve({8}, {slice(0, -1000, 3)}).shape, Shape{3});
  // ONNX's "to the end" (INT64_MAX) and a step of 3: 0, 3, 6.
  s = resolve({8}, {slice(0, 0, INT64_MAX, 3)});
  EXPECT_EQ(s.shape, Shape{3});
  EXPECT_EQ(s.strides, Shape{3});
  // A reversed step down to the start: x[::-2] of 7 (stop INT64_MIN) is 6, 4, 2, 0.
  s = resolve({7}, {slice(0, -1, INT64_MIN, -2)});
  EXPECT_EQ(s.shape, Shape{4});
  EXPECT_EQ(s.offset, 6);
  EXPECT_EQ(s.strides, Shape{-2});
}

TEST(ResolveLayout, ReshapeWithoutACopy) {
  StridedLayout r = resolve({4, 6, 10}, {reshape({4, 6, 2, 5})});
  EXPECT_EQ(r.strides, (Shape{60, 10, 5, 1}));
  r = resolve({2, 12, 5}, {reshape({2, -1, 5})});  // -1 is the dim the count leaves
  EXPECT_EQ(r.shape, (Shape{2, 12, 5}));
  // A transposed [6, 4, 5] splits its middle dim freely...
  r = resolve({4, 6, 5}, {transpose({1, 0, 2}), reshape({6, 2, 2, 5})});
  EXPECT_EQ(r.strides, (Shape{5, 60, 30, 1}));
  // ...but merging dims that are not contiguous needs a copy (NumPy copies).
  EXPECT_NE(error_of({4, 6, 5}, {transpose({1, 0, 2}), reshape({6, 20})}).find("needs a copy"), std::string::npos);
  // A slice with a step keeps its stride through a split.
  r = resolve({12}, {slice(0, 0, 12, 2), reshape({2, 3})});
  EXPECT_EQ(r.strides, (Shape{6, 2}));
}

TEST(ResolveLayout, RefusesWithTheStepAndTheShape) {
  EXPECT_NE(error_of({2, 3}, {transpose({0, 0})}).find("transpose's perm [0, 0] is not a permutation"),
            std::string::npos);
  EXPECT_NE(error_of({2, 3}, {transpose({0})}).find("not a permutation of the 2 axes"), std::string::npos);
  EXPECT_NE(error_of({2, 3}, {reshape({7})}).find("reshape cannot make [2,3] (6 elements) into [7]"),
            std::string::npos);
  EXPECT_NE(error_of({2, 3}, {slice(2, 0, 1)}).find("slice's axis 2 is out of range"), std::string::npos);
  EXPECT_NE(error_of({2, 3}, {slice(0, 0, 1, 0)}).find("step is 0"), std::string::npos);
}

// --- The expression language ---------------------------------------------

const std::vector<bg::gen::ExprInput> kInputs = {{"x", DType::F32}, {"g", DType::F32}, {"y", DType::F32}};

TEST(LayoutExpr, ParsesIntoTheInputsLayoutAndPrintsBack) {
  const std::string text = "slice(transpose(x, [0, 2, 1]), axis=-1, start=0, stop=32, step=2) * g";
  const bg::ExprDag d = bg::gen::parse_expr(text, kInputs);
  ASSERT_EQ(d.layouts.size(), 1u);
  ASSERT_EQ(d.layouts[0].size(), 2u);
  EXPECT_EQ(d.layouts[0][0], transpose({0, 2, 1}));
  EXPECT_EQ(d.layouts[0][1], slice(-1, 0, 32, 2));
  EXPECT_TRUE(bg::input_layout(d, 1).empty());
  const std::string printed = bg::gen::print_expr(d, kInputs);
  EXPECT_EQ(printed, "multiply(slice(transpose(x, [0, 2, 1]), axis=-1, start=0, stop=32, step=2), g)");
  EXPECT_EQ(bg::gen::parse_expr(printed, kInputs).layouts, d.layouts);
  // Positional slice arguments, and the same input at two uses with one layout.
  const bg::ExprDag p = bg::gen::parse_expr("slice(x, 1, 0, 4) + slice(x, 1, 0, 4) * 2", kInputs);
  EXPECT_EQ(p.layouts[0], (InputLayout{slice(1, 0, 4)}));
}

std::string parse_error(const std::string& text) {
  try {
    bg::gen::parse_expr(text, kInputs);
  } catch (const bg::gen::ExprError& e) {
    return e.what();
  }
  return "";
}

TEST(LayoutExpr, RefusesWhatIsNoInPlaceRead) {
  EXPECT_NE(parse_error("transpose(x + g, [1, 0])").find("reads an input in place"), std::string::npos);
  EXPECT_NE(parse_error("transpose(x, [1, 0]) + x").find("two different layouts"), std::string::npos);
  EXPECT_NE(parse_error("slice(x, axis=0, stop=1, start=0)").find("slice's argument 3 is start="),
            std::string::npos);
  EXPECT_NE(parse_error("slice(x, 0, 1)").find("slice takes (x, axis=a, start=s, stop=e[, step=k])"),
            std::string::npos);
  EXPECT_NE(parse_error("slice(x, 0, 0, 4, 0)").find("step must not be 0"), std::string::npos);
  EXPECT_NE(parse_error("reshape(x, 4)").find("reshape's second argument is a list"), std::string::npos);
  EXPECT_NE(parse_error("x = g").find("'=' (comparison is '==')"), std::string::npos);
}

TEST(LayoutExpr, BuilderSetsTheLayoutThePrinterWrites) {
  bg::gen::ExprBuilder b(kInputs);
  b.set_layout("x", {transpose({1, 0})});
  const bg::ExprDag d = b.finish(b.binary(bg::Op::Add, b.input("x"), b.input("g")));
  EXPECT_EQ(bg::gen::print_expr(d, kInputs), "add(transpose(x, [1, 0]), g)");
}

// --- The reference reads through layouts ----------------------------------

TEST(LayoutReference, MatchesIndexArithmetic) {
  // out[i, j, k] = x[i, k', j] * g[j] with k' = 1 + 2k (a transpose, then a
  // stepped slice of the last axis).
  const Shape xs{2, 9, 5};
  std::vector<float> x(90), g(5);
  std::iota(x.begin(), x.end(), 1.0f);
  std::iota(g.begin(), g.end(), -2.0f);
  const bg::ExprDag d =
      bg::gen::parse_expr("slice(transpose(x, [0, 2, 1]), axis=2, start=1, stop=9, step=2) * g2", {{"x", DType::F32},
                                                                                                    {"g2", DType::F32}});
  std::vector<float> out(2 * 5 * 4, 0.0f);
  bg::reference::evaluate(d, {{x.data(), xs, DType::F32}, {g.data(), {5, 1}, DType::F32}}, bg::Rule::Numpy, -1,
                          out.data());
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 5; ++j) {
      for (int k = 0; k < 4; ++k) {
        const float want = x[static_cast<std::size_t>(i * 45 + (1 + 2 * k) * 5 + j)] * g[static_cast<std::size_t>(j)];
        EXPECT_EQ(out[static_cast<std::size_t>(i * 20 + j * 4 + k)], want) << i << " " << j << " " << k;
      }
    }
  }
}

// --- The plan ---------------------------------------------------------------

bg::gen::KernelPlan plan_of(const std::string& expr, std::vector<bg::gen::InputSpec> inputs, bg::Isa isa) {
  bg::gen::KernelSpec k;
  k.name = "k";
  k.inputs = std::move(inputs);
  std::vector<bg::gen::ExprInput> names;
  for (const auto& in : k.inputs) names.push_back({in.name, in.dtype});
  k.expr = bg::gen::parse_expr(expr, names);
  k.expr_text = expr;
  bg::gen::PlanOptions opt;
  opt.isas = {isa};
  return bg::gen::plan_kernel(k, opt);
}

TEST(LayoutPlan, TransposedRowsAreStridedAndTiled) {
  const auto p = plan_of("transpose(x, [0, 2, 1]) * g + b",
                         {{"x", {8, 512, 768}, DType::F32, {}}, {"g", {512}, DType::F32, {}},
                          {"b", {512}, DType::F32, {}}},
                         bg::Isa::Avx512);
  ASSERT_EQ(p.loops.size(), 3u);
  EXPECT_EQ(p.loops[2].in[0], 768);  // along the row, x moves by a row of its own
  EXPECT_EQ(p.classes[0], bg::gen::Access::Strided);
  const bg::gen::IsaPlan& ip = p.isas[0];
  ASSERT_TRUE(ip.vector);
  EXPECT_EQ(ip.row, 16);  // one line's worth of output per row of a tile
  ASSERT_EQ(ip.outer.size(), 4u);
  // [batch, tiles of 768 / 16, chunks of the row 512 / 16, the tile's rows]:
  // the tiles outside, so that the output is written along its rows.
  EXPECT_EQ(ip.outer[1].extent, 48);
  EXPECT_EQ(ip.outer[1].in[0], 16);       // the next tile: x's next cache line
  EXPECT_EQ(ip.outer[1].out, 16 * 512);   // 16 output rows further
  EXPECT_EQ(ip.outer[2].extent, 32);
  EXPECT_EQ(ip.outer[2].in[0], 16 * 768);  // the next chunk: 16 rows of x further
  EXPECT_EQ(ip.outer[2].out, 16);
  EXPECT_EQ(ip.outer[3].extent, 16);  // the tile's rows: x's 16 elements of one cache line
  // x's tile is transposed into a buffer of 16 x 16 that the tile's rows read
  // contiguously, the tile 2 chunks ahead prefetched (or the next column's).
  ASSERT_EQ(ip.tiles.size(), 1u);
  EXPECT_EQ(ip.tiles[0].input, 0u);
  EXPECT_EQ(ip.tiles[0].stride, 768);
  EXPECT_EQ(ip.tiles[0].near, 2 * 16 * 768);
  EXPECT_EQ(ip.tiles[0].wrap, (2 - 32) * 16 * 768 + 16);
  EXPECT_EQ(ip.outer[3].in[0], 16);
  EXPECT_EQ(ip.access[0], bg::gen::Access::Stream);
  EXPECT_NE(ip.why.find("tiles of 16 rows x 16 elements"), std::string::npos) << ip.why;
  EXPECT_NE(ip.why.find("transposed in registers"), std::string::npos) << ip.why;
  // Rows of 40 make no whole tiles: the lanes are gathered.
  const auto gathered = plan_of("transpose(x, [0, 2, 1]) + 1", {{"x", {2, 40, 32}, DType::F32, {}}}, bg::Isa::Avx512);
  EXPECT_TRUE(gathered.isas[0].tiles.empty());
  EXPECT_EQ(gathered.isas[0].access[0], bg::gen::Access::Strided);
}

TEST(LayoutPlan, OffsetsAndScalarLoopsWhereNoStridedLoadExists) {
  const auto p = plan_of("slice(x, axis=1, start=-1, stop=-100, step=-1) + 1",
                         {{"x", {4, 40}, DType::I32, {}}}, bg::Isa::Avx512);
  EXPECT_EQ(p.offsets[0], 39);
  EXPECT_EQ(p.loops.back().in[0], -1);
  EXPECT_FALSE(p.isas[0].vector);
  EXPECT_NE(p.isas[0].why.find("read with stride -1 along the row, and the vocabulary has no strided load of i32"),
            std::string::npos)
      << p.isas[0].why;
}

}  // namespace
