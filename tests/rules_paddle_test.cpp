// Rule `paddle`: PaddlePaddle's own elementwise broadcasting (seed 004, the
// "Broadcasting" user guide; phi's ElementwiseRawInferMeta and
// GetBroadcastDimsArrays), beside OpenVINO's reading of it, `pdpd`.
//   - every example of seed 004 with its stated result, valid and invalid;
//   - the axis range: -1 or [0, rank difference], else InvalidArgument;
//   - properties on random pairs: with the default axis it is numpy; where
//     pdpd accepts (axis within the rank difference) it is pdpd; and it
//     matches a brute-force placement written here from the guide.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>

#include "bcastgen/rules.h"
#include "rule_expect.h"

namespace bcastgen {
namespace {

BroadcastResult paddle_ok(const Shape& a, const Shape& b, std::int64_t axis) { return ok(Rule::Paddle, a, b, axis); }

BroadcastError paddle_rejected(const Shape& a, const Shape& b, std::int64_t axis) {
  return rejected(Rule::Paddle, a, b, axis);
}

// --- seed 004, the numpy-style examples (axis -1) ---------------------------

TEST(PaddleSeed004, SameShapes) { EXPECT_EQ(paddle_ok({2, 3, 4}, {2, 3, 4}, -1).out, (Shape{2, 3, 4})); }

TEST(PaddleSeed004, Broadcastable_2x3x1x5_and_3x4x1) {
  const auto r = paddle_ok({2, 3, 1, 5}, {3, 4, 1}, -1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(r.a_strides, (Shape{15, 5, 0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 4, 1, 0}));
}

TEST(PaddleSeed004, NotBroadcastable_2x3x4_and_2x3x6) {
  const BroadcastError e = paddle_rejected({2, 3, 4}, {2, 3, 6}, -1);
  EXPECT_EQ(e.axis(), 2);
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 6);
  EXPECT_EQ(e.rule(), "paddle");
}

TEST(PaddleSeed004, ResultSize_2x1x4_and_3x1) {
  EXPECT_EQ(paddle_ok({2, 1, 4}, {3, 1}, -1).out, (Shape{2, 3, 4}));  // "z'shape: [2,3,4]"
}

TEST(PaddleSeed004, ResultSize_2x1x4_and_3x2_Mismatch) {
  const BroadcastError e = paddle_rejected({2, 1, 4}, {3, 2}, -1);  // "Broadcast dimension mismatch"
  EXPECT_EQ(e.axis(), 2);
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 2);
}

// --- seed 004, the axis examples --------------------------------------------

TEST(PaddleSeed004, Axis_2x1x4_and_3x1_Axis1) {
  // y (3,1) at axis 1, its trailing 1 dropped: [1,3,1]; x's 1 grows to 3.
  const auto r = paddle_ok({2, 1, 4}, {3, 1}, 1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4}));  // "z'shape [2, 3, 4]"
  EXPECT_EQ(r.a_aligned, (Shape{2, 1, 4}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1}));
  EXPECT_EQ(r.a_strides, (Shape{4, 0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0}));
  // OpenVINO's pdpd, which only broadcasts B, rejects the same pair.
  EXPECT_THROW(broadcast_shapes(Rule::Pdpd, {2, 1, 4}, {3, 1}, 1), BroadcastError);
}

TEST(PaddleSeed004, Axis_2x3x4x5_and_4x5_Axis1_Mismatch) {
  // "comparation between dimentions starts at axis": y at 1 puts 4 against 3.
  const BroadcastError e = paddle_rejected({2, 3, 4, 5}, {4, 5}, 1);
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 4);
  const std::string msg = e.what();
  EXPECT_NE(msg.find("axis 1"), std::string::npos) << msg;
}

TEST(PaddleSeed004, Axis_2x3x4x5_and_3_Axis1) {
  const auto r = paddle_ok({2, 3, 4, 5}, {3}, 1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4, 5}));  // "z'shape [2, 3, 4, 5]"
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0, 0}));
}

// --- the rule's own choices --------------------------------------------------

TEST(PaddleRule, LowerRankOperandMayBeA) {
  // x is the lower-rank one: it is placed at axis 1 of y.
  const auto r = paddle_ok({3, 1}, {2, 1, 4}, 1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4}));
  EXPECT_EQ(r.a_aligned, (Shape{1, 3, 1}));
  EXPECT_EQ(r.b_aligned, (Shape{2, 1, 4}));
}

TEST(PaddleRule, DefaultAxisIsTheRankDifferenceOnTheShapesAsGiven) {
  // -1 means 4 - 2 = 2, computed before [3,1]'s trailing 1 is dropped: [3]
  // lands on axis 2 (4 vs 3, rejected), not on axis 3.
  const BroadcastError e = paddle_rejected({2, 3, 4, 5}, {3, 1}, -1);
  EXPECT_EQ(e.axis(), 2);
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 3);
  EXPECT_EQ(paddle_ok({2, 3, 4, 5}, {4, 1}, -1).out, (Shape{2, 3, 4, 5}));
}

TEST(PaddleRule, EqualRanksIgnoreTheAxis) {
  EXPECT_EQ(paddle_ok({2, 1, 4}, {1, 3, 1}, 0).out, (Shape{2, 3, 4}));
  EXPECT_EQ(paddle_ok({2, 1, 4}, {1, 3, 1}, -1).out, (Shape{2, 3, 4}));
  EXPECT_THROW(broadcast_shapes(Rule::Paddle, {2, 1, 4}, {1, 3, 1}, 1), InvalidArgument);
}

TEST(PaddleRule, AxisOutsideTheRankDifferenceIsMalformed) {
  for (std::int64_t axis : {-2, 3, 7}) {
    try {
      broadcast_shapes(Rule::Paddle, {2, 3, 4, 5}, {4, 5}, axis);
      ADD_FAILURE() << "axis " << axis << " accepted";
    } catch (const InvalidArgument& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("axis " + std::to_string(axis)), std::string::npos) << msg;
      EXPECT_NE(msg.find("[0, 2]"), std::string::npos) << msg;
    }
  }
  // pdpd accepts [4,1] at axis 3 once its trailing 1 is dropped; paddle's
  // range is the rank difference (Paddle's InferMeta copies the operand
  // untrimmed at axis), so it refuses.
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {5, 1}, 3).out, (Shape{2, 3, 4, 5}));
  EXPECT_THROW(broadcast_shapes(Rule::Paddle, {2, 3, 4, 5}, {5, 1}, 3), InvalidArgument);
}

TEST(PaddleRule, ZeroSizeDimsBroadcastAsInNumpy) {
  EXPECT_EQ(paddle_ok({2, 0, 4}, {1, 4}, -1).out, (Shape{2, 0, 4}));
  EXPECT_EQ(paddle_ok({0}, {2, 3, 1}, 2).out, (Shape{2, 3, 0}));
  EXPECT_THROW(broadcast_shapes(Rule::Paddle, {2, 0, 4}, {3, 4}, -1), BroadcastError);
}

// --- properties --------------------------------------------------------------

// Brute force from the guide: put the lower-rank shape, trailing 1s dropped,
// at `start` of a row of 1s as long as the higher rank; then per axis the
// result is the one non-1 dim (1 if none); two different non-1 dims fail.
std::optional<Shape> brute_paddle(const Shape& a, const Shape& b, std::int64_t axis) {
  const bool b_low = b.size() < a.size();
  const Shape& low = b_low ? b : a;
  const Shape& high = b_low ? a : b;
  const auto diff = static_cast<std::int64_t>(high.size() - low.size());
  const std::int64_t start = axis == -1 ? diff : axis;
  Shape trimmed = low;
  while (!trimmed.empty() && trimmed.back() == 1) trimmed.pop_back();
  Shape placed(high.size(), 1);
  for (std::size_t i = 0; i < trimmed.size(); ++i) placed[static_cast<std::size_t>(start) + i] = trimmed[i];
  Shape out(high.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t x = placed[i], y = high[i];
    if (x != 1 && y != 1 && x != y) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

struct Pair {
  Shape a, b;
  std::int64_t axis;
};

Pair random_pair(std::mt19937_64& rng) {
  auto pick = [&](std::uint64_t n) { return rng() % n; };
  const std::size_t high_rank = 1 + pick(6), low_rank = pick(high_rank + 1);
  Shape high(high_rank);
  for (auto& d : high) d = static_cast<std::int64_t>(1 + pick(4));
  const std::int64_t diff = static_cast<std::int64_t>(high_rank - low_rank);
  const std::int64_t axis = pick(3) == 0 ? -1 : static_cast<std::int64_t>(pick(static_cast<std::uint64_t>(diff) + 1));
  const std::int64_t start = axis == -1 ? diff : axis;
  Shape low(low_rank);
  for (std::size_t i = 0; i < low_rank; ++i) {
    const std::uint64_t r = pick(10);
    // mostly matching or 1, sometimes a mismatch or a dim that grows high's
    low[i] = r < 5 ? high[static_cast<std::size_t>(start) + i] : r < 8 ? 1 : static_cast<std::int64_t>(1 + pick(4));
  }
  if (pick(2)) return {high, low, axis};
  return {low, high, axis};
}

TEST(PaddleProperties, MatchesBruteForceOnRandomPairs) {
  std::mt19937_64 rng(0x70616464u);  // "padd"
  int accepted = 0;
  for (int n = 0; n < 12000; ++n) {
    const Pair p = random_pair(rng);
    const std::string what = format_shape(p.a) + " " + format_shape(p.b) + " axis " + std::to_string(p.axis);
    const auto want = brute_paddle(p.a, p.b, p.axis);
    try {
      const BroadcastResult r = broadcast_shapes(Rule::Paddle, p.a, p.b, p.axis);
      ASSERT_TRUE(want.has_value()) << what << " accepted as " << format_shape(r.out);
      ASSERT_EQ(r.out, *want) << what;
      for (std::size_t i = 0; i < r.out.size(); ++i) {
        ASSERT_EQ(r.a_strides[i] == 0 && r.out[i] > 1, r.a_aligned[i] == 1 && r.out[i] > 1) << what;
      }
      ++accepted;
    } catch (const BroadcastError& e) {
      ASSERT_FALSE(want.has_value()) << what << " rejected: " << e.what();
    }
  }
  EXPECT_GE(accepted, 3000);
  EXPECT_LE(accepted, 11000);
}

TEST(PaddleProperties, DefaultAxisAgreesWithNumpy) {
  std::mt19937_64 rng(0x6e756d70u);
  int both_ok = 0, both_rejected = 0;
  for (int n = 0; n < 12000; ++n) {
    Pair p = random_pair(rng);
    p.axis = -1;
    const std::string what = format_shape(p.a) + " " + format_shape(p.b);
    std::optional<BroadcastResult> np, pd;
    try { np = broadcast_shapes(Rule::Numpy, p.a, p.b); } catch (const BroadcastError&) {}
    try { pd = broadcast_shapes(Rule::Paddle, p.a, p.b, -1); } catch (const BroadcastError&) {}
    ASSERT_EQ(np.has_value(), pd.has_value()) << what;
    if (np) {
      ++both_ok;
      ASSERT_EQ(pd->out, np->out) << what;
      ASSERT_EQ(pd->a_strides, np->a_strides) << what;
      ASSERT_EQ(pd->b_strides, np->b_strides) << what;
    } else {
      ++both_rejected;
    }
  }
  EXPECT_GE(both_ok, 1000);
  EXPECT_GE(both_rejected, 1000);
}

TEST(PaddleProperties, AgreesWithPdpdWhereverPdpdAccepts) {
  // pdpd places B onto A; take pairs with rank(B) <= rank(A) and an axis
  // paddle allows (-1 or within the rank difference).
  std::mt19937_64 rng(0x70647064u);
  int compared = 0;
  for (int n = 0; n < 12000; ++n) {
    Pair p = random_pair(rng);
    if (p.a.size() < p.b.size()) std::swap(p.a, p.b);
    const std::string what = format_shape(p.a) + " " + format_shape(p.b) + " axis " + std::to_string(p.axis);
    BroadcastResult pdpd;
    try {
      pdpd = broadcast_shapes(Rule::Pdpd, p.a, p.b, p.axis);
    } catch (const BroadcastError&) {
      continue;
    }
    ++compared;
    const BroadcastResult r = paddle_ok(p.a, p.b, p.axis);
    ASSERT_EQ(r.out, pdpd.out) << what;
    ASSERT_EQ(r.a_strides, pdpd.a_strides) << what;
    ASSERT_EQ(r.b_strides, pdpd.b_strides) << what;
  }
  EXPECT_GE(compared, 2000);
}

}  // namespace
}  // namespace bcastgen
