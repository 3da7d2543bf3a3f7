// Every example of the five rule specifications in /work/shared/seeds/ as a
// test case, valid and invalid. Each test names its source:
//   seed 000  OpenVINO "Broadcast Rules For Elementwise Operations" (with PDPD
//             examples incl. the (8,1,6,1)/(7,1,5) failure, and bidirectional)
//   seed 001  the same document, an earlier revision (PDPD "Shape(5,)")
//   seed 002  Array API standard, "Broadcasting"
//   seed 003  OpenVINO broadcast rules, the numpy/bidirectional-only revision
//   seed 004  PaddlePaddle user guide, "Broadcasting"
// Expected shapes and strides are written out by hand from the documents.
#include <gtest/gtest.h>

#include <string>

#include "bcastgen/rules.h"
#include "rule_expect.h"

namespace bcastgen {
namespace {

// ---------------------------------------------------------------------------
// seed 000/001/003, "Numpy examples" (003: "Examples"). The three revisions
// list the same eleven cases.

TEST(SeedNumpy, Seed000_NumpyExamples_ScalarScalar) {
  const auto r = ok(Rule::Numpy, {}, {});
  EXPECT_EQ(r.out, Shape{});
  EXPECT_EQ(r.a_strides, Shape{});
  EXPECT_EQ(r.b_strides, Shape{});
}

TEST(SeedNumpy, Seed000_NumpyExamples_2x3_and_1) {
  const auto r = ok(Rule::Numpy, {2, 3}, {1});
  EXPECT_EQ(r.out, (Shape{2, 3}));
  EXPECT_EQ(r.a_strides, (Shape{3, 1}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 0}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_3_and_2x3) {
  const auto r = ok(Rule::Numpy, {3}, {2, 3});
  EXPECT_EQ(r.out, (Shape{2, 3}));
  EXPECT_EQ(r.a_aligned, (Shape{1, 3}));
  EXPECT_EQ(r.a_strides, (Shape{0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{3, 1}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_2x3x5_and_scalar) {
  const auto r = ok(Rule::Numpy, {2, 3, 5}, {});
  EXPECT_EQ(r.out, (Shape{2, 3, 5}));
  EXPECT_EQ(r.a_strides, (Shape{15, 5, 1}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 0, 0}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_2x1x5_and_1x4x5) {
  const auto r = ok(Rule::Numpy, {2, 1, 5}, {1, 4, 5});
  EXPECT_EQ(r.out, (Shape{2, 4, 5}));
  EXPECT_EQ(r.a_strides, (Shape{5, 0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 5, 1}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_6x5_and_2x1x5) {
  EXPECT_EQ(ok(Rule::Numpy, {6, 5}, {2, 1, 5}).out, (Shape{2, 6, 5}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_2x1x5_and_4x1) {
  const auto r = ok(Rule::Numpy, {2, 1, 5}, {4, 1});
  EXPECT_EQ(r.out, (Shape{2, 4, 5}));
  EXPECT_EQ(r.a_strides, (Shape{5, 0, 1}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 4, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_3x2x1x4_and_5x4) {
  EXPECT_EQ(ok(Rule::Numpy, {3, 2, 1, 4}, {5, 4}).out, (Shape{3, 2, 5, 4}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_1x5x3_and_5x2x1x3) {
  const auto r = ok(Rule::Numpy, {1, 5, 3}, {5, 2, 1, 3});
  EXPECT_EQ(r.out, (Shape{5, 2, 5, 3}));
  EXPECT_EQ(r.a_aligned, (Shape{1, 1, 5, 3}));
  EXPECT_EQ(r.a_strides, (Shape{0, 0, 3, 1}));
  EXPECT_EQ(r.b_strides, (Shape{6, 3, 0, 1}));
}

TEST(SeedNumpy, Seed000_NumpyExamples_3_and_2_Mismatch) {
  const BroadcastError e = rejected(Rule::Numpy, {3}, {2});
  EXPECT_EQ(e.axis(), 0);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 2);
}

TEST(SeedNumpy, Seed000_NumpyExamples_3x1x5_and_4x4x5_MismatchOnLeftmostAxis) {
  const BroadcastError e = rejected(Rule::Numpy, {3, 1, 5}, {4, 4, 5});
  EXPECT_EQ(e.axis(), 0);  // "dimensions mismatch on the leftmost axis"
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 4);
}

// seed 000, Rules > "Numpy broadcast" 5: both rank 0 gives a scalar; and rule
// None (no examples in the seeds): dimensions must match.
TEST(SeedNone, Seed000_Rules_NoneNeedsEqualShapes) {
  const auto r = ok(Rule::None, {2, 3}, {2, 3});
  EXPECT_EQ(r.out, (Shape{2, 3}));
  EXPECT_EQ(r.a_strides, (Shape{3, 1}));
  EXPECT_EQ(r.b_strides, (Shape{3, 1}));
  rejected(Rule::None, {2, 3}, {1, 3});
  rejected(Rule::None, {2, 3}, {3});
}

// ---------------------------------------------------------------------------
// seed 000 "PDPD examples" (and seed 001 "PDPD examples").

const Shape kA2345 = {2, 3, 4, 5};
const Shape kA2345Strides = {60, 20, 5, 1};

TEST(SeedPdpd, Seed000_PdpdExamples_B3x4_Axis1) {
  const auto r = ok(Rule::Pdpd, kA2345, {3, 4}, 1);
  EXPECT_EQ(r.out, kA2345);
  EXPECT_EQ(r.a_strides, kA2345Strides);
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 4, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 4, 1, 0}));
}

TEST(SeedPdpd, Seed000_PdpdExamples_B3x1_Axis1_TrailingOneIgnored) {
  const auto r = ok(Rule::Pdpd, kA2345, {3, 1}, 1);
  EXPECT_EQ(r.out, kA2345);
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0, 0}));
}

TEST(SeedPdpd, Seed000_PdpdExamples_B4x5_DefaultAxisEqualsAxis2) {
  const auto dflt = ok(Rule::Pdpd, kA2345, {4, 5});  // axis=-1 (default)
  const auto explicit_minus1 = ok(Rule::Pdpd, kA2345, {4, 5}, -1);
  const auto axis2 = ok(Rule::Pdpd, kA2345, {4, 5}, 2);
  for (const auto* r : {&dflt, &explicit_minus1, &axis2}) {
    EXPECT_EQ(r->out, kA2345);
    EXPECT_EQ(r->a_strides, kA2345Strides);
    EXPECT_EQ(r->b_aligned, (Shape{1, 1, 4, 5}));
    EXPECT_EQ(r->b_strides, (Shape{0, 0, 5, 1}));
  }
}

TEST(SeedPdpd, Seed000_PdpdExamples_B1x3_Axis0) {
  const auto r = ok(Rule::Pdpd, kA2345, {1, 3}, 0);
  EXPECT_EQ(r.out, kA2345);
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0, 0}));
}

TEST(SeedPdpd, Seed000_PdpdExamples_ScalarB) {
  const auto r = ok(Rule::Pdpd, kA2345, {});
  EXPECT_EQ(r.out, kA2345);
  EXPECT_EQ(r.b_aligned, (Shape{1, 1, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 0, 0, 0}));
}

// seed 000: "B: Shape(5) with axis=-1(default) or axis = 3"; seed 001: "B: Shape(5,)".
TEST(SeedPdpd, Seed000_Seed001_PdpdExamples_B5_DefaultAxisEqualsAxis3) {
  for (std::int64_t axis : {-1, 3}) {
    const auto r = ok(Rule::Pdpd, kA2345, {5}, axis);
    EXPECT_EQ(r.out, kA2345) << "axis " << axis;
    EXPECT_EQ(r.b_aligned, (Shape{1, 1, 1, 5})) << "axis " << axis;
    EXPECT_EQ(r.b_strides, (Shape{0, 0, 0, 1})) << "axis " << axis;
  }
}

// "only B to A broadcast is supported for PDPD": B's 7 meets A's 1 at axis 1.
TEST(SeedPdpd, Seed000_PdpdExamples_8x1x6x1_and_7x1x5_Axis1_Rejected) {
  const BroadcastError e = rejected(Rule::Pdpd, {8, 1, 6, 1}, {7, 1, 5}, 1);
  EXPECT_EQ(e.rule(), "pdpd");
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 1);
  EXPECT_EQ(e.dim_b(), 7);
  EXPECT_NE(std::string(e.what()).find("PaddlePaddle"), std::string::npos) << e.what();
  // Under numpy the same pair broadcasts (seed 002's first example).
  EXPECT_EQ(ok(Rule::Numpy, {8, 1, 6, 1}, {7, 1, 5}).out, (Shape{8, 7, 6, 5}));
}

// ---------------------------------------------------------------------------
// seed 000/001 "Bidirectional examples": A is the input, B the target shape.
// Checked both as Rule::Bidirectional and as the Broadcast op's mode.

struct BidirCase {
  Shape input, target, out;
};

const BidirCase kBidirCases[] = {
    {{5}, {1}, {5}},
    {{2, 3}, {3}, {2, 3}},
    {{3, 1}, {3, 4}, {3, 4}},
    {{3, 4}, {}, {3, 4}},
    {{3, 1}, {2, 1, 6}, {2, 3, 6}},
};

TEST(SeedBidirectional, Seed000_BidirectionalExamples_Rule) {
  for (const auto& c : kBidirCases) {
    EXPECT_EQ(ok(Rule::Bidirectional, c.input, c.target).out, c.out)
        << format_shape(c.input) << " to " << format_shape(c.target);
  }
}

TEST(SeedBidirectional, Seed000_BidirectionalExamples_BroadcastToMode) {
  for (const auto& c : kBidirCases) {
    try {
      EXPECT_EQ(broadcast_to(BroadcastMode::Bidirectional, c.input, c.target).out, c.out)
          << format_shape(c.input) << " to " << format_shape(c.target);
    } catch (const std::exception& e) {
      ADD_FAILURE() << format_shape(c.input) << " to " << format_shape(c.target) << " threw " << e.what();
    }
  }
}

// Rules 4: "Output shape may not be equal to target_shape if target_shape
// contains dimensions of size 1 / its rank is smaller than the input's".
TEST(SeedBidirectional, Seed000_BidirectionalRules_OutputMayDifferFromTarget) {
  const auto ones = broadcast_to(BroadcastMode::Bidirectional, {5}, {1});
  EXPECT_EQ(ones.out, (Shape{5}));
  const auto lower_rank = broadcast_to(BroadcastMode::Bidirectional, {3, 4}, {});
  EXPECT_EQ(lower_rank.out, (Shape{3, 4}));
}

TEST(SeedBidirectional, Seed000_BidirectionalExamples_Strides_3x1_to_2x1x6) {
  for (const auto& r : {broadcast_shapes(Rule::Bidirectional, {3, 1}, {2, 1, 6}),
                        broadcast_to(BroadcastMode::Bidirectional, {3, 1}, {2, 1, 6})}) {
    EXPECT_EQ(r.out, (Shape{2, 3, 6}));
    EXPECT_EQ(r.a_aligned, (Shape{1, 3, 1}));
    EXPECT_EQ(r.a_strides, (Shape{0, 1, 0}));
    EXPECT_EQ(r.b_aligned, (Shape{2, 1, 6}));
    EXPECT_EQ(r.b_strides, (Shape{6, 0, 1}));
  }
}

TEST(SeedBidirectional, Seed000_BidirectionalExamples_Strides_3x1_to_3x4) {
  const auto r = broadcast_to(BroadcastMode::Bidirectional, {3, 1}, {3, 4});
  EXPECT_EQ(r.a_strides, (Shape{1, 0}));
  EXPECT_EQ(r.b_strides, (Shape{4, 1}));
}

TEST(SeedBidirectional, Seed003_BidirectionalRules_MismatchRejected) {
  // seed 003, "Bidirectional broadcast" 3: same value or one of them is 1.
  const BroadcastError e = rejected(Rule::Bidirectional, {2, 3}, {4, 3});
  EXPECT_EQ(e.rule(), "bidirectional");
  EXPECT_EQ(e.axis(), 0);
  EXPECT_THROW(broadcast_to(BroadcastMode::Bidirectional, {2, 3}, {4, 3}), BroadcastError);
}

// ---------------------------------------------------------------------------
// seed 002, Array API "Broadcasting > Examples": compatible arrays.

TEST(SeedArrayApi, Seed002_Examples_8x1x6x1_and_7x1x5) {
  const auto r = ok(Rule::Numpy, {8, 1, 6, 1}, {7, 1, 5});
  EXPECT_EQ(r.out, (Shape{8, 7, 6, 5}));
  EXPECT_EQ(r.a_aligned, (Shape{8, 1, 6, 1}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 7, 1, 5}));
  EXPECT_EQ(r.a_strides, (Shape{6, 0, 1, 0}));
  EXPECT_EQ(r.b_strides, (Shape{0, 5, 0, 1}));
}

TEST(SeedArrayApi, Seed002_Examples_5x4_and_1) {
  const auto r = ok(Rule::Numpy, {5, 4}, {1});
  EXPECT_EQ(r.out, (Shape{5, 4}));
  EXPECT_EQ(r.b_strides, (Shape{0, 0}));
}

TEST(SeedArrayApi, Seed002_Examples_5x4_and_4) {
  const auto r = ok(Rule::Numpy, {5, 4}, {4});
  EXPECT_EQ(r.out, (Shape{5, 4}));
  EXPECT_EQ(r.a_strides, (Shape{4, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1}));
}

TEST(SeedArrayApi, Seed002_Examples_15x3x5_and_15x1x5) {
  const auto r = ok(Rule::Numpy, {15, 3, 5}, {15, 1, 5});
  EXPECT_EQ(r.out, (Shape{15, 3, 5}));
  EXPECT_EQ(r.a_strides, (Shape{15, 5, 1}));
  EXPECT_EQ(r.b_strides, (Shape{5, 0, 1}));
}

TEST(SeedArrayApi, Seed002_Examples_15x3x5_and_3x5) {
  const auto r = ok(Rule::Numpy, {15, 3, 5}, {3, 5});
  EXPECT_EQ(r.out, (Shape{15, 3, 5}));
  EXPECT_EQ(r.b_strides, (Shape{0, 5, 1}));
}

TEST(SeedArrayApi, Seed002_Examples_15x3x5_and_3x1) {
  const auto r = ok(Rule::Numpy, {15, 3, 5}, {3, 1});
  EXPECT_EQ(r.out, (Shape{15, 3, 5}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0}));
}

// seed 002, "Broadcasting > Examples": shapes that do not broadcast.
TEST(SeedArrayApi, Seed002_Examples_Invalid_3_and_4) {
  const BroadcastError e = rejected(Rule::Numpy, {3}, {4});
  EXPECT_EQ(e.axis(), 0);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 4);
}

TEST(SeedArrayApi, Seed002_Examples_Invalid_2x1_and_8x4x3) {
  // "second dimension does not match": aligned [1,2,1] vs [8,4,3], axis 1.
  const BroadcastError e = rejected(Rule::Numpy, {2, 1}, {8, 4, 3});
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 2);
  EXPECT_EQ(e.dim_b(), 4);
}

TEST(SeedArrayApi, Seed002_Examples_Invalid_15x3x5_and_15x3) {
  // "singleton dimensions can only be prepended, not appended": aligned
  // [15,3,5] vs [1,15,3]; the leftmost offending axis is 1 (3 vs 15).
  const BroadcastError e = rejected(Rule::Numpy, {15, 3, 5}, {15, 3});
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 15);
}

// ---------------------------------------------------------------------------
// seed 004, PaddlePaddle "Broadcasting": the numpy-style examples.

TEST(SeedPaddle, Seed004_Broadcastable_SameShapes) {
  const auto r = ok(Rule::Numpy, {2, 3, 4}, {2, 3, 4});
  EXPECT_EQ(r.out, (Shape{2, 3, 4}));
  EXPECT_EQ(r.a_strides, (Shape{12, 4, 1}));
  EXPECT_EQ(r.b_strides, (Shape{12, 4, 1}));
}

TEST(SeedPaddle, Seed004_Broadcastable_2x3x1x5_and_3x4x1) {
  const auto r = ok(Rule::Numpy, {2, 3, 1, 5}, {3, 4, 1});
  EXPECT_EQ(r.out, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(r.a_strides, (Shape{15, 5, 0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 4, 1, 0}));
}

TEST(SeedPaddle, Seed004_NotBroadcastable_2x3x4_and_2x3x6) {
  const BroadcastError e = rejected(Rule::Numpy, {2, 3, 4}, {2, 3, 6});
  EXPECT_EQ(e.axis(), 2);  // "in first step from tail, 4 is not equal to 6"
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 6);
}

TEST(SeedPaddle, Seed004_ResultSize_2x1x4_and_3x1) {
  const auto r = ok(Rule::Numpy, {2, 1, 4}, {3, 1});
  EXPECT_EQ(r.out, (Shape{2, 3, 4}));  // "z'shape: [2,3,4]"
  EXPECT_EQ(r.a_strides, (Shape{4, 0, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0}));
}

TEST(SeedPaddle, Seed004_ResultSize_2x1x4_and_3x2_Mismatch) {
  // "Broadcast dimension mismatch": aligned [2,1,4] vs [1,3,2].
  const BroadcastError e = rejected(Rule::Numpy, {2, 1, 4}, {3, 2});
  EXPECT_EQ(e.axis(), 2);
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 2);
}

// seed 004, the axis examples, under bcastgen's pdpd (OpenVINO's PDPD rule).

TEST(SeedPaddle, Seed004_Axis_2x1x4_and_3x1_Axis1_RejectedByOpenVinoPdpd) {
  // Paddle's runtime gives [2,3,4] by growing x's 1; OpenVINO's PDPD only
  // broadcasts B, and bcastgen follows OpenVINO.
  const BroadcastError e = rejected(Rule::Pdpd, {2, 1, 4}, {3, 1}, 1);
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 1);
  EXPECT_EQ(e.dim_b(), 3);
  const std::string msg = e.what();
  EXPECT_NE(msg.find("PaddlePaddle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("numpy"), std::string::npos) << msg;  // points at the rule that accepts it
  EXPECT_EQ(ok(Rule::Numpy, {2, 1, 4}, {3, 1}).out, (Shape{2, 3, 4}));
}

TEST(SeedPaddle, Seed004_Axis_2x3x4x5_and_4x5_Axis1_Rejected) {
  // "comparation between dimentions starts at axis": 3 vs 4 at axis 1.
  const BroadcastError e = rejected(Rule::Pdpd, {2, 3, 4, 5}, {4, 5}, 1);
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 4);
}

TEST(SeedPaddle, Seed004_Axis_2x3x4x5_and_3_Axis1) {
  const auto r = ok(Rule::Pdpd, {2, 3, 4, 5}, {3}, 1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(r.b_aligned, (Shape{1, 3, 1, 1}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1, 0, 0}));
  // Without the axis the default (rank(A) - rank(B) = 3) puts 3 against 5.
  rejected(Rule::Pdpd, {2, 3, 4, 5}, {3});
}

}  // namespace
}  // namespace bcastgen
