// The rule engine's errors: exact message text, the typed fields of
// BroadcastError, which malformed inputs are InvalidArgument rather than a
// rule failure, overflow, and zero-size shapes.
#include <gtest/gtest.h>

#include <string>

#include "bcastgen/rules.h"

namespace bcastgen {
namespace {

// Substring check without gmock (the test harness links gtest only).
#define EXPECT_CONTAINS(haystack, needle)                                            \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)                 \
      << "'" << std::string(haystack) << "' does not contain '" << (needle) << "'"

// Runs `f`, expecting a BroadcastError, and returns it.
template <typename F>
BroadcastError catch_broadcast(F f) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const BroadcastError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
  return BroadcastError("none", "", -99, -99, -99);
}

TEST(RulesErrors, NumpyMessageExactText) {
  // seed 000 "Numpy examples": mismatch on the leftmost axis.
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Numpy, {3, 1, 5}, {4, 4, 5}); });
  EXPECT_STREQ(e.what(), "numpy: A [3,1,5] and B [4,4,5] do not broadcast: axis 0 has 3 vs 4");
}

TEST(RulesErrors, BroadcastErrorFields) {
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Numpy, {3, 1, 5}, {4, 4, 5}); });
  EXPECT_EQ(e.rule(), "numpy");
  EXPECT_EQ(e.axis(), 0);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 4);

  // The axis is the output's, after right-alignment: [6] aligns to axis 2.
  const BroadcastError f = catch_broadcast([] { broadcast_shapes(Rule::Numpy, {6}, {2, 3, 5}); });
  EXPECT_EQ(f.axis(), 2);
  EXPECT_EQ(f.dim_a(), 6);
  EXPECT_EQ(f.dim_b(), 5);
  EXPECT_STREQ(f.what(), "numpy: A [6] and B [2,3,5] do not broadcast: axis 2 has 6 vs 5");
}

TEST(RulesErrors, BroadcastErrorIsABcastgenErrorNotInvalidArgument) {
  try {
    broadcast_shapes(Rule::Numpy, {3}, {4});
    FAIL() << "no exception";
  } catch (const InvalidArgument&) {
    FAIL() << "a rule failure must not be an InvalidArgument";
  } catch (const Error& e) {
    EXPECT_NE(dynamic_cast<const BroadcastError*>(&e), nullptr);
  }
}

TEST(RulesErrors, BidirectionalNamesInputAndTarget) {
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Bidirectional, {2, 3}, {4, 3}); });
  EXPECT_EQ(e.rule(), "bidirectional");
  EXPECT_STREQ(e.what(), "bidirectional: input [2,3] and target [4,3] do not broadcast: axis 0 has 2 vs 4");
}

TEST(RulesErrors, PdpdAxisBelowMinusOneIsInvalidArgument) {
  for (std::int64_t axis : {-2, -3, -100}) {
    try {
      broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {4, 5}, axis);
      ADD_FAILURE() << "axis " << axis << " accepted";
    } catch (const BroadcastError& e) {
      ADD_FAILURE() << "axis " << axis << " is malformed input, not a rule failure: " << e.what();
    } catch (const InvalidArgument& e) {
      EXPECT_CONTAINS(e.what(), "axis " + std::to_string(axis));
    }
  }
  // -1 is the default and valid.
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {4, 5}, -1).out, (Shape{2, 3, 4, 5}));
}

TEST(RulesErrors, PdpdRankOfBAboveRankOfAIsBroadcastError) {
  // seed 000, "PDPD broadcast" 1: B has rank smaller or equal to A's.
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {3, 4}, {2, 3, 4}); });
  EXPECT_EQ(e.rule(), "pdpd");
  EXPECT_EQ(e.axis(), -1);  // not about one axis
  EXPECT_CONTAINS(e.what(), "rank 3 > rank 2");
  // Even all-1 extra leading dims do not help: only B broadcasts.
  catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {3, 4}, {1, 3, 4}); });
}

TEST(RulesErrors, PdpdAxisThatDoesNotFitIsBroadcastError) {
  // B [4,5] at axis 3 would need axes 3 and 4 of a rank-4 A.
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {4, 5}, 3); });
  EXPECT_EQ(e.rule(), "pdpd");
  // errors.h: axis is -1 "when the failure is not about one axis (a rank or a placement)".
  EXPECT_EQ(e.axis(), -1);
  EXPECT_STREQ(e.what(),
               "pdpd (axis 3): A [2,3,4,5] and B [4,5] do not broadcast: B placed at axis 3 needs 2 axes but A "
               "has rank 4");
  // Far outside A, with a scalar B too.
  catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {5}, 7); });
  catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {2, 3}, {}, 3); });
  // A scalar B fits at axis == rank(A): it places nothing.
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 3}, {}, 2).out, (Shape{2, 3}));
  // Trailing 1s of B do not need room: [5,1] at axis 3 is [5] at axis 3.
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {5, 1}, 3).b_strides, (Shape{0, 0, 0, 1}));
}

TEST(RulesErrors, PdpdDimMismatchFields) {
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {3, 5}, 1); });
  EXPECT_EQ(e.axis(), 2);
  EXPECT_EQ(e.dim_a(), 4);
  EXPECT_EQ(e.dim_b(), 5);
  EXPECT_STREQ(e.what(), "pdpd (axis 1): A [2,3,4,5] and B [3,5] do not broadcast: axis 2 has 4 vs 5");
}

TEST(RulesErrors, NoneRuleDifferentRanks) {
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::None, {2, 3}, {3}); });
  EXPECT_EQ(e.rule(), "none");
  EXPECT_EQ(e.axis(), -1);
  EXPECT_EQ(e.dim_a(), 2);  // the ranks
  EXPECT_EQ(e.dim_b(), 1);
  EXPECT_CONTAINS(e.what(), "ranks differ, 2 vs 1");
  // Even a numpy-compatible pair with equal element counts is rejected.
  catch_broadcast([] { broadcast_shapes(Rule::None, {1, 3}, {3}); });
  catch_broadcast([] { broadcast_shapes(Rule::None, {}, {1}); });
}

TEST(RulesErrors, NoneRuleDifferentDims) {
  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::None, {2, 3, 4}, {2, 1, 4}); });
  EXPECT_EQ(e.rule(), "none");
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 3);
  EXPECT_EQ(e.dim_b(), 1);
  EXPECT_STREQ(e.what(),
               "none: A [2,3,4] and B [2,1,4] do not broadcast: axis 1 has 3 vs 1 (rule none needs equal shapes)");
  EXPECT_EQ(broadcast_shapes(Rule::None, {}, {}).out, Shape{});
}

TEST(RulesErrors, NegativeDimsAreInvalidArgument) {
  for (Rule rule : {Rule::None, Rule::Numpy, Rule::Pdpd, Rule::Bidirectional}) {
    for (const auto& [a, b] : {std::pair<Shape, Shape>{{2, -3}, {3}}, {{2, 3}, {-1}}, {{-1}, {-1}}}) {
      try {
        broadcast_shapes(rule, a, b);
        ADD_FAILURE() << rule_name(rule) << " accepted a negative dim";
      } catch (const BroadcastError& e) {
        ADD_FAILURE() << rule_name(rule) << ": a negative dim is malformed input: " << e.what();
      } catch (const InvalidArgument& e) {
        EXPECT_CONTAINS(e.what(), "negative dim");
      }
    }
  }
  try {
    broadcast_shapes(Rule::Numpy, {2, -3}, {3});
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "shape A [2,-3] has negative dim -3 at position 1");
  }
  for (BroadcastMode mode :
       {BroadcastMode::Numpy, BroadcastMode::Explicit, BroadcastMode::Bidirectional, BroadcastMode::Pdpd}) {
    EXPECT_THROW(broadcast_to(mode, {-2}, {3}, -1, {0}), InvalidArgument) << mode_name(mode);
    EXPECT_THROW(broadcast_to(mode, {3}, {-3}, -1, {0}), InvalidArgument) << mode_name(mode);
  }
}

TEST(RulesErrors, ElementCountOverflowIsOverflowError) {
  // 2^62 * 4 = 2^64 elements.
  EXPECT_THROW(broadcast_shapes(Rule::Numpy, {4611686018427387904, 4}, {4}), OverflowError);
  EXPECT_THROW(broadcast_shapes(Rule::Numpy, {4611686018427387904, 1}, {4}), OverflowError);
  EXPECT_THROW(broadcast_shapes(Rule::Bidirectional, {4611686018427387904, 1}, {1, 2}), OverflowError);
  EXPECT_THROW(broadcast_shapes(Rule::Pdpd, {4611686018427387904, 4}, {4}), OverflowError);
  EXPECT_THROW(broadcast_shapes(Rule::None, {4611686018427387904, 4}, {4611686018427387904, 4}), OverflowError);
  // 2^61 * 4 = 2^63, one past INT64_MAX.
  EXPECT_THROW(broadcast_shapes(Rule::Numpy, {2305843009213693952, 1}, {4}), OverflowError);
  // OverflowError is-an InvalidArgument, not a rule failure.
  try {
    broadcast_shapes(Rule::Numpy, {4611686018427387904, 4}, {4});
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_CONTAINS(e.what(), "overflows");
  }
  // (2^61 - 1) * 4 = 2^63 - 4 still fits.
  const auto r = broadcast_shapes(Rule::Numpy, {2305843009213693951, 1}, {4});
  EXPECT_EQ(r.out, (Shape{2305843009213693951, 4}));
  EXPECT_EQ(r.a_strides, (Shape{1, 0}));
  EXPECT_EQ(r.b_strides, (Shape{0, 1}));
}

TEST(RulesErrors, ZeroSizeDims) {
  const auto r01 = broadcast_shapes(Rule::Numpy, {0}, {1});
  EXPECT_EQ(r01.out, Shape{0});
  EXPECT_EQ(r01.a_strides, Shape{1});
  EXPECT_EQ(r01.b_strides, Shape{0});  // B's 1 is stretched to 0
  EXPECT_EQ(broadcast_shapes(Rule::Numpy, {1}, {0}).out, Shape{0});
  EXPECT_EQ(broadcast_shapes(Rule::Numpy, {0}, {0}).out, Shape{0});
  EXPECT_EQ(broadcast_shapes(Rule::Numpy, {2, 0, 3}, {1, 3}).out, (Shape{2, 0, 3}));

  const BroadcastError e = catch_broadcast([] { broadcast_shapes(Rule::Numpy, {0}, {5}); });
  EXPECT_EQ(e.axis(), 0);
  EXPECT_EQ(e.dim_a(), 0);
  EXPECT_EQ(e.dim_b(), 5);
  catch_broadcast([] { broadcast_shapes(Rule::Numpy, {5}, {0}); });
  catch_broadcast([] { broadcast_shapes(Rule::Numpy, {0, 3}, {2, 3}); });

  // pdpd: B's 0 must meet A's 0; A's 0 takes B's 1.
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 0}, {0}).out, (Shape{2, 0}));
  EXPECT_EQ(broadcast_shapes(Rule::Pdpd, {2, 0}, {1}).out, (Shape{2, 0}));
  catch_broadcast([] { broadcast_shapes(Rule::Pdpd, {2, 1}, {0}); });
}

TEST(RulesErrors, ExplicitAxesMappingErrors) {
  try {
    broadcast_to(BroadcastMode::Explicit, {16, 50}, {1, 16, 50, 50}, -1, {2, 1});
    ADD_FAILURE() << "decreasing mapping accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_CONTAINS(e.what(), "strictly increasing");
  }
  try {
    broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {4});
    ADD_FAILURE() << "out-of-range mapping accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_CONTAINS(e.what(), "axes_mapping[0] = 4");
  }
  const BroadcastError e =
      catch_broadcast([] { broadcast_to(BroadcastMode::Explicit, {16}, {1, 15, 50, 50}, -1, {1}); });
  EXPECT_EQ(e.rule(), "explicit");
  EXPECT_EQ(e.axis(), 1);
  EXPECT_EQ(e.dim_a(), 16);
  EXPECT_EQ(e.dim_b(), 15);
}

TEST(RulesErrors, BroadcastToNumpyRankError) {
  const BroadcastError e = catch_broadcast([] { broadcast_to(BroadcastMode::Numpy, {2, 3}, {3}); });
  EXPECT_EQ(e.rule(), "numpy");
  EXPECT_EQ(e.axis(), -1);
  EXPECT_CONTAINS(e.what(), "input has rank 2 > target rank 1");
}

}  // namespace
}  // namespace bcastgen
