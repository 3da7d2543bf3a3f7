// Property tests of the rule engine against independent brute-force
// definitions written here from the seed specifications, on >= 10,000 random
// shape pairs drawn from a fixed seed; plus explicit high-rank cases and the
// Broadcast op's modes (broadcast_to).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bcastgen/rules.h"

namespace bcastgen {
namespace {

constexpr std::uint64_t kSeed = 0x6263617374676e31ULL;  // "bcastgn1"
constexpr int kPairs = 12000;

// ---------------------------------------------------------------------------
// Brute-force references.

// The outcome a reference predicts: either a result or the first (leftmost)
// offending output axis with its two dims (axis -1: not about one axis).
struct Expected {
  bool ok = false;
  Shape out, a_aligned, b_aligned;
  std::int64_t axis = -1, dim_a = 0, dim_b = 0;
};

// Numpy, written per output axis counted from the right: collect the dims of
// the operands that have that axis, the result is the single value among the
// non-1 dims (1 if there is none), and two different non-1 dims conflict.
Expected brute_numpy(const Shape& a, const Shape& b) {
  Expected e;
  const std::size_t n = a.size() > b.size() ? a.size() : b.size();
  e.out.assign(n, 1);
  e.a_aligned.assign(n, 1);
  e.b_aligned.assign(n, 1);
  std::optional<std::size_t> first_bad;
  for (std::size_t k = 0; k < n; ++k) {  // k-th axis from the right
    const std::size_t i = n - 1 - k;
    std::vector<std::int64_t> present;
    if (k < a.size()) {
      e.a_aligned[i] = a[a.size() - 1 - k];
      present.push_back(e.a_aligned[i]);
    }
    if (k < b.size()) {
      e.b_aligned[i] = b[b.size() - 1 - k];
      present.push_back(e.b_aligned[i]);
    }
    std::vector<std::int64_t> non_one;
    for (auto d : present) {
      if (d != 1 && std::find(non_one.begin(), non_one.end(), d) == non_one.end()) non_one.push_back(d);
    }
    if (non_one.size() > 1) {
      first_bad = i;  // walking right to left, the last one found is the leftmost
    } else {
      e.out[i] = non_one.empty() ? 1 : non_one[0];
    }
  }
  if (first_bad) {
    e.axis = static_cast<std::int64_t>(*first_bad);
    e.dim_a = e.a_aligned[*first_bad];
    e.dim_b = e.b_aligned[*first_bad];
    return e;
  }
  e.ok = true;
  return e;
}

// OpenVINO's PDPD (seed 000, "PDPD broadcast" 1-5): rank(B) <= rank(A);
// axis -1 means rank(A) - rank(B) of B as given; B's trailing 1s are dropped;
// what is left is laid onto A from `axis`, each dim equal to A's or 1.
Expected brute_pdpd(const Shape& a, const Shape& b, std::int64_t axis) {
  Expected e;
  const auto ra = static_cast<std::int64_t>(a.size()), rb = static_cast<std::int64_t>(b.size());
  if (rb > ra) return e;
  const std::int64_t start = axis == -1 ? ra - rb : axis;
  Shape core = b;
  while (!core.empty() && core.back() == 1) core.pop_back();
  if (start + static_cast<std::int64_t>(core.size()) > ra) return e;
  e.b_aligned.assign(a.size(), 1);
  for (std::size_t j = 0; j < core.size(); ++j) {
    const auto k = static_cast<std::size_t>(start) + j;
    if (core[j] != 1 && core[j] != a[k]) {
      e.axis = static_cast<std::int64_t>(k);
      e.dim_a = a[k];
      e.dim_b = core[j];
      return e;
    }
    e.b_aligned[k] = core[j];
  }
  e.ok = true;
  e.out = a;
  e.a_aligned = a;
  return e;
}

// Strides by definition: 0 where the operand's aligned dim differs from the
// output's, else the product of the operand's aligned dims to its right.
Shape brute_strides(const Shape& aligned, const Shape& out) {
  Shape s(out.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (aligned[i] != out[i]) continue;
    std::int64_t p = 1;
    for (std::size_t j = i + 1; j < aligned.size(); ++j) p *= aligned[j];
    s[i] = p;
  }
  return s;
}

// ---------------------------------------------------------------------------
// Running the code under test.

struct Outcome {
  bool ok = false;
  BroadcastResult r;
  std::int64_t axis = -99, dim_a = 0, dim_b = 0;
  std::string rule, message;
};

template <typename F>
Outcome run(F f) {
  Outcome o;
  try {
    o.r = f();
    o.ok = true;
  } catch (const BroadcastError& e) {
    o.axis = e.axis();
    o.dim_a = e.dim_a();
    o.dim_b = e.dim_b();
    o.rule = e.rule();
    o.message = e.what();
  } catch (const std::exception& e) {
    o.axis = -100;
    o.message = std::string("unexpected exception: ") + e.what();
  }
  return o;
}

std::string describe(const Shape& a, const Shape& b, std::int64_t axis = -1) {
  return "A " + format_shape(a) + " B " + format_shape(b) + " axis " + std::to_string(axis);
}

// Checks a successful outcome's strides and alignment against the definition.
void check_strides(const BroadcastResult& r, const std::string& what) {
  ASSERT_EQ(r.a_aligned.size(), r.out.size()) << what;
  ASSERT_EQ(r.b_aligned.size(), r.out.size()) << what;
  EXPECT_EQ(r.a_strides, brute_strides(r.a_aligned, r.out)) << what;
  EXPECT_EQ(r.b_strides, brute_strides(r.b_aligned, r.out)) << what;
}

// ---------------------------------------------------------------------------
// Random shapes.

class ShapeGen {
 public:
  explicit ShapeGen(std::uint64_t seed) : rng_(seed) {}

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::int64_t dim() {
    static const std::int64_t kSmall[] = {0, 1, 2, 3, 5};
    static const std::int64_t kLarge[] = {4, 7, 16, 64, 1000, 65536};
    if (chance(0.04)) return kLarge[uniform(0, 5)];
    // 0 is rarer than the others: it kills most pairs it appears in.
    static const int kWeights[] = {1, 8, 6, 5, 4};
    return kSmall[std::discrete_distribution<int>(std::begin(kWeights), std::end(kWeights))(rng_)];
  }

  // Ranks 0..20, with every rank well represented.
  int rank() { return uniform(0, 20); }

  Shape shape(int rank) {
    Shape s(static_cast<std::size_t>(rank));
    for (auto& d : s) d = dim();
    return s;
  }

  // A random pair: independent, or derived from one base shape (compatible
  // by construction), sometimes with one dim then spoiled.
  std::pair<Shape, Shape> pair() {
    const int kind = uniform(0, 9);
    if (kind < 3) return {shape(rank()), shape(rank())};
    const Shape base = shape(rank());
    Shape a = derive(base), b = derive(base);
    if (kind == 9) spoil(chance(0.5) ? a : b);
    if (chance(0.5)) std::swap(a, b);
    return {a, b};
  }

  // A suffix of `base` with some dims replaced by 1.
  Shape derive(const Shape& base) {
    const int len = uniform(0, static_cast<int>(base.size()));
    Shape s(base.end() - len, base.end());
    for (auto& d : s) {
      if (chance(0.3)) d = 1;
    }
    return s;
  }

  void spoil(Shape& s) {
    if (s.empty()) return;
    auto& d = s[static_cast<std::size_t>(uniform(0, static_cast<int>(s.size()) - 1))];
    d = d == 7 ? 11 : 7;
  }

  // A pdpd case: A, and B mostly cut out of A (so that it fits), and an axis.
  struct PdpdCase {
    Shape a, b;
    std::int64_t axis;
  };
  PdpdCase pdpd_case() {
    PdpdCase c;
    c.a = shape(rank());
    const int ra = static_cast<int>(c.a.size());
    if (chance(0.3) || ra == 0) {
      c.b = shape(uniform(0, std::min(ra + 1, 20)));
      c.axis = chance(0.5) ? -1 : uniform(0, ra + 1);
      return c;
    }
    const int start = uniform(0, ra), len = uniform(0, ra - start);
    c.b.assign(c.a.begin() + start, c.a.begin() + start + len);
    for (auto& d : c.b) {
      if (chance(0.25)) d = 1;
    }
    const int trailing = uniform(0, 2);
    for (int i = 0; i < trailing; ++i) c.b.push_back(1);
    if (chance(0.15)) spoil(c.b);
    const int rb = static_cast<int>(c.b.size());
    // Use the default axis when it means the same start, sometimes anyway.
    if (rb <= ra && ra - rb == start && chance(0.5)) {
      c.axis = -1;
    } else if (chance(0.1)) {
      c.axis = -1;
    } else {
      c.axis = chance(0.9) ? start : uniform(0, ra + 1);
    }
    return c;
  }

 private:
  std::mt19937_64 rng_;
};

// Keeps element counts (and every stride) far from int64 overflow, so that
// the properties are about the rules; overflow has its own tests.
bool small_enough(const Shape& a, const Shape& b) {
  const std::size_t n = std::max(a.size(), b.size());
  long double p = 1;
  for (std::size_t k = 0; k < n; ++k) {
    std::int64_t d = 1;
    if (k < a.size()) d = std::max(d, a[a.size() - 1 - k]);
    if (k < b.size()) d = std::max(d, b[b.size() - 1 - k]);
    p *= static_cast<long double>(d);
  }
  return p < 1e17L;
}

// ---------------------------------------------------------------------------

TEST(RulesProperties, NumpyMatchesBruteForceSymmetricAndBidirectionalAgrees) {
  ShapeGen gen(kSeed);
  int tested = 0, compatible = 0, high_rank = 0, scalar = 0, failures = 0;
  while (tested < kPairs) {
    // Named, not structured bindings: C++17 lambdas cannot capture those (clang refuses).
    const std::pair<Shape, Shape> shapes = gen.pair();
    const Shape& a = shapes.first;
    const Shape& b = shapes.second;
    if (!small_enough(a, b)) continue;
    ++tested;
    if (a.size() >= 16 || b.size() >= 16) ++high_rank;
    if (a.empty() || b.empty()) ++scalar;
    const std::string what = describe(a, b);
    const Expected want = brute_numpy(a, b);
    const Outcome got = run([&] { return broadcast_shapes(Rule::Numpy, a, b); });

    // numpy vs the brute force: success/failure, shape, the first bad axis.
    ASSERT_EQ(got.ok, want.ok) << what << ": " << got.message;
    if (want.ok) {
      ++compatible;
      ASSERT_EQ(got.r.out, want.out) << what;
      ASSERT_EQ(got.r.a_aligned, want.a_aligned) << what;
      ASSERT_EQ(got.r.b_aligned, want.b_aligned) << what;
      check_strides(got.r, what);
    } else {
      ASSERT_EQ(got.rule, "numpy") << what;
      ASSERT_EQ(got.axis, want.axis) << what << ": " << got.message;
      ASSERT_EQ(got.dim_a, want.dim_a) << what;
      ASSERT_EQ(got.dim_b, want.dim_b) << what;
    }

    // Symmetry: swapping A and B gives the same result with strides swapped.
    const Outcome swapped = run([&] { return broadcast_shapes(Rule::Numpy, b, a); });
    ASSERT_EQ(swapped.ok, got.ok) << what;
    if (got.ok) {
      ASSERT_EQ(swapped.r.out, got.r.out) << what;
      ASSERT_EQ(swapped.r.a_strides, got.r.b_strides) << what;
      ASSERT_EQ(swapped.r.b_strides, got.r.a_strides) << what;
      ASSERT_EQ(swapped.r.a_aligned, got.r.b_aligned) << what;
    } else {
      ASSERT_EQ(swapped.axis, got.axis) << what;
      ASSERT_EQ(swapped.dim_a, got.dim_b) << what;
      ASSERT_EQ(swapped.dim_b, got.dim_a) << what;
    }

    // bidirectional(A, T) == numpy(A, T), as a rule and as the op's mode.
    for (const Outcome& bidir : {run([&] { return broadcast_shapes(Rule::Bidirectional, a, b); }),
                                 run([&] { return broadcast_to(BroadcastMode::Bidirectional, a, b); })}) {
      ASSERT_EQ(bidir.ok, want.ok) << what << ": " << bidir.message;
      if (want.ok) {
        ASSERT_EQ(bidir.r.out, want.out) << what;
        check_strides(bidir.r, what);
      } else {
        ASSERT_EQ(bidir.rule, "bidirectional") << what;
        ASSERT_EQ(bidir.axis, want.axis) << what;
      }
    }

    // Rule none: accepts exactly the equal shapes.
    const Outcome none = run([&] { return broadcast_shapes(Rule::None, a, b); });
    ASSERT_EQ(none.ok, a == b) << what << ": " << none.message;
    if (!none.ok) ++failures;
  }
  // The generator must exercise both outcomes and high ranks.
  EXPECT_GE(compatible, kPairs / 3) << "too few compatible pairs";
  EXPECT_GE(kPairs - compatible, kPairs / 10) << "too few incompatible pairs";
  EXPECT_GE(high_rank, kPairs / 20) << "too few pairs of rank >= 16";
  EXPECT_GE(scalar, 100) << "too few scalar operands";
  EXPECT_GT(failures, 0);
}

TEST(RulesProperties, PdpdMatchesBruteForceAndIsAlwaysA) {
  ShapeGen gen(kSeed ^ 0x9e3779b97f4a7c15ULL);
  int tested = 0, accepted = 0, default_axis = 0;
  while (tested < kPairs) {
    const auto c = gen.pdpd_case();
    if (!small_enough(c.a, c.b)) continue;
    ++tested;
    if (c.axis == -1) ++default_axis;
    const std::string what = describe(c.a, c.b, c.axis);
    const Expected want = brute_pdpd(c.a, c.b, c.axis);
    const Outcome got = run([&] { return broadcast_shapes(Rule::Pdpd, c.a, c.b, c.axis); });
    ASSERT_EQ(got.ok, want.ok) << what << ": " << got.message;
    if (got.ok) {
      ++accepted;
      ASSERT_EQ(got.r.out, c.a) << what;  // only B broadcasts: the result is A
      ASSERT_EQ(got.r.a_aligned, c.a) << what;
      ASSERT_EQ(got.r.b_aligned, want.b_aligned) << what;
      ASSERT_EQ(got.r.a_strides, brute_strides(c.a, c.a)) << what;  // A is never stretched
      check_strides(got.r, what);
    } else {
      ASSERT_EQ(got.rule, "pdpd") << what;
      ASSERT_EQ(got.axis == -1, want.axis == -1) << what << ": " << got.message;
      if (want.axis != -1) {
        ASSERT_EQ(got.axis, want.axis) << what;
        ASSERT_EQ(got.dim_a, want.dim_a) << what;
        ASSERT_EQ(got.dim_b, want.dim_b) << what;
      }
    }

    // As the Broadcast op's pdpd mode, the input is B and the target A.
    const Outcome to = run([&] { return broadcast_to(BroadcastMode::Pdpd, c.b, c.a, c.axis); });
    ASSERT_EQ(to.ok, want.ok) << what << ": " << to.message;
    if (to.ok) {
      ASSERT_EQ(to.r.out, c.a) << what;
      ASSERT_EQ(to.r.a_aligned, want.b_aligned) << what;
      ASSERT_EQ(to.r.b_aligned, c.a) << what;
      check_strides(to.r, what);
    }
  }
  EXPECT_GE(accepted, kPairs / 3);
  EXPECT_GE(kPairs - accepted, kPairs / 10);
  EXPECT_GE(default_axis, kPairs / 10);
}

TEST(RulesProperties, BroadcastToNumpyIsUnidirectional) {
  // numpy mode accepts exactly the pairs where numpy(input, target) gives the target.
  ShapeGen gen(kSeed + 7);
  int tested = 0, accepted = 0;
  while (tested < kPairs / 4) {
    const std::pair<Shape, Shape> shapes = gen.pair();
    const Shape& input = shapes.first;
    const Shape& target = shapes.second;
    if (!small_enough(input, target)) continue;
    ++tested;
    const std::string what = describe(input, target);
    const Expected both = brute_numpy(input, target);
    const bool want = input.size() <= target.size() && both.ok && both.out == target;
    const Outcome got = run([&] { return broadcast_to(BroadcastMode::Numpy, input, target); });
    ASSERT_EQ(got.ok, want) << what << ": " << got.message;
    if (got.ok) {
      ++accepted;
      ASSERT_EQ(got.r.out, target) << what;
      ASSERT_EQ(got.r.a_aligned, both.a_aligned) << what;
      check_strides(got.r, what);
    }
  }
  EXPECT_GE(accepted, tested / 10);
}

// ---------------------------------------------------------------------------
// Explicit high ranks.

TEST(RulesHighRank, Rank16Alternating) {
  // A = [1,2]*8, B = [3,1]*8 -> out [3,2]*8.
  Shape a, b, out;
  for (int i = 0; i < 8; ++i) {
    a.insert(a.end(), {1, 2});
    b.insert(b.end(), {3, 1});
    out.insert(out.end(), {3, 2});
  }
  const auto r = broadcast_shapes(Rule::Numpy, a, b);
  ASSERT_EQ(r.out, out);
  // A's 2 at axis 2j+1 has 7-j twos to its right; B's 3 at axis 2j has 7-j threes.
  Shape as(16, 0), bs(16, 0);
  std::int64_t p2 = 1, p3 = 1;
  for (int j = 7; j >= 0; --j) {
    as[static_cast<std::size_t>(2 * j + 1)] = p2;
    bs[static_cast<std::size_t>(2 * j)] = p3;
    p2 *= 2;
    p3 *= 3;
  }
  EXPECT_EQ(as[15], 1);
  EXPECT_EQ(as[1], 128);
  EXPECT_EQ(bs[0], 2187);
  EXPECT_EQ(r.a_strides, as);
  EXPECT_EQ(r.b_strides, bs);
}

TEST(RulesHighRank, Rank16MismatchOnLastAxis) {
  const Shape a(16, 2);
  Shape b(16, 2);
  b[15] = 3;
  try {
    broadcast_shapes(Rule::Numpy, a, b);
    FAIL() << "accepted";
  } catch (const BroadcastError& e) {
    EXPECT_EQ(e.axis(), 15);
    EXPECT_EQ(e.dim_a(), 2);
    EXPECT_EQ(e.dim_b(), 3);
  }
}

TEST(RulesHighRank, Rank16Pdpd) {
  Shape a(16, 2);
  a[10] = 3;
  const auto r = broadcast_shapes(Rule::Pdpd, a, {3, 2, 1}, 10);
  EXPECT_EQ(r.out, a);
  Shape bs(16, 0);
  bs[10] = 2;
  bs[11] = 1;
  EXPECT_EQ(r.b_strides, bs);
  EXPECT_EQ(r.a_strides[0], 3 * 16384);  // 2^14 * 3 to its right
}

TEST(RulesHighRank, Rank24AgainstRank20) {
  // A = [1]*23 + [7], B = [2]*19 + [1] -> out [1,1,1,1] + [2]*19 + [7].
  Shape a(24, 1), b(20, 2);
  a[23] = 7;
  b[19] = 1;
  Shape out(24, 2);
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = 1;
  out[23] = 7;
  const auto r = broadcast_shapes(Rule::Numpy, a, b);
  ASSERT_EQ(r.out, out);
  Shape as(24, 0), bs(24, 0);
  for (int i = 0; i < 4; ++i) {
    as[static_cast<std::size_t>(i)] = 7;        // 1 meets 1: not stretched
    bs[static_cast<std::size_t>(i)] = 1 << 19;  // B's padding 1s, 2^19 to the right
  }
  for (int i = 4; i < 23; ++i) bs[static_cast<std::size_t>(i)] = std::int64_t{1} << (22 - i);
  as[23] = 1;
  EXPECT_EQ(r.a_strides, as);
  EXPECT_EQ(r.b_strides, bs);
  EXPECT_EQ(broadcast_shapes(Rule::Bidirectional, a, b).out, out);
}

TEST(RulesHighRank, Rank24Mismatch) {
  Shape a(24, 1), b(24, 1);
  a[3] = 4;
  b[3] = 5;
  a[20] = 6;
  b[20] = 8;
  try {
    broadcast_shapes(Rule::Numpy, a, b);
    FAIL() << "accepted";
  } catch (const BroadcastError& e) {
    EXPECT_EQ(e.axis(), 3);  // the leftmost of the two
  }
}

// ---------------------------------------------------------------------------
// The Broadcast op's modes.

TEST(BroadcastTo, NumpyModeIsUnidirectional) {
  const auto r = broadcast_to(BroadcastMode::Numpy, {3, 1}, {3, 4});
  EXPECT_EQ(r.out, (Shape{3, 4}));
  EXPECT_EQ(r.a_strides, (Shape{1, 0}));
  EXPECT_EQ(r.b_strides, (Shape{4, 1}));
  // The reverse direction would need the target to grow.
  EXPECT_THROW(broadcast_to(BroadcastMode::Numpy, {3, 4}, {3, 1}), BroadcastError);
  // Bidirectional accepts it, giving [3,4] != target.
  EXPECT_EQ(broadcast_to(BroadcastMode::Bidirectional, {3, 4}, {3, 1}).out, (Shape{3, 4}));
  // Input rank above target rank.
  EXPECT_THROW(broadcast_to(BroadcastMode::Numpy, {2, 3}, {3}), BroadcastError);
  EXPECT_THROW(broadcast_to(BroadcastMode::Numpy, {1, 3}, {3}), BroadcastError);
  // Scalar input; prepended axes.
  const auto s = broadcast_to(BroadcastMode::Numpy, {}, {2, 3});
  EXPECT_EQ(s.out, (Shape{2, 3}));
  EXPECT_EQ(s.a_strides, (Shape{0, 0}));
  const auto p = broadcast_to(BroadcastMode::Numpy, {4, 1}, {2, 4, 5});
  EXPECT_EQ(p.a_aligned, (Shape{1, 4, 1}));
  EXPECT_EQ(p.a_strides, (Shape{0, 1, 0}));
}

TEST(BroadcastTo, ExplicitValid) {
  // OpenVINO Broadcast-3, explicit mode: input [16] onto target axis 1.
  const auto r = broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {1});
  EXPECT_EQ(r.out, (Shape{1, 16, 50, 50}));
  EXPECT_EQ(r.a_aligned, (Shape{1, 16, 1, 1}));
  EXPECT_EQ(r.a_strides, (Shape{16, 1, 0, 0}));
  EXPECT_EQ(r.b_strides, (Shape{40000, 2500, 50, 1}));

  const auto r2 = broadcast_to(BroadcastMode::Explicit, {50, 50}, {2, 50, 50, 16}, -1, {1, 2});
  EXPECT_EQ(r2.out, (Shape{2, 50, 50, 16}));
  EXPECT_EQ(r2.a_strides, (Shape{0, 50, 1, 0}));

  // A 1 in the input stretches; a scalar input needs an empty mapping.
  const auto r3 = broadcast_to(BroadcastMode::Explicit, {1, 5}, {4, 3, 5}, -1, {0, 2});
  EXPECT_EQ(r3.a_aligned, (Shape{1, 1, 5}));
  EXPECT_EQ(r3.a_strides, (Shape{0, 0, 1}));
  EXPECT_EQ(broadcast_to(BroadcastMode::Explicit, {}, {2, 3}, -1, {}).a_strides, (Shape{0, 0}));
}

TEST(BroadcastTo, ExplicitMappingNotIncreasingIsInvalidArgument) {
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {50, 50}, {2, 50, 50, 16}, -1, {2, 1}), InvalidArgument);
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {50, 50}, {2, 50, 50, 16}, -1, {1, 1}), InvalidArgument);
}

TEST(BroadcastTo, ExplicitMappingOutOfRangeIsInvalidArgument) {
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {4}), InvalidArgument);
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {-1}), InvalidArgument);
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {1}, {}, -1, {0}), InvalidArgument);
}

TEST(BroadcastTo, ExplicitMappingWrongCountIsInvalidArgument) {
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {50, 50}, {2, 50, 50, 16}, -1, {1}), InvalidArgument);
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {}), InvalidArgument);
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {0, 1}), InvalidArgument);
}

TEST(BroadcastTo, ExplicitDimMismatchIsBroadcastError) {
  // Valid mapping, but input [16] lands on the target's 50.
  try {
    broadcast_to(BroadcastMode::Explicit, {16}, {1, 16, 50, 50}, -1, {2});
    FAIL() << "accepted";
  } catch (const InvalidArgument& e) {
    FAIL() << "a dim mismatch is a rule failure: " << e.what();
  } catch (const BroadcastError& e) {
    EXPECT_EQ(e.axis(), 2);
    EXPECT_EQ(e.dim_a(), 16);
    EXPECT_EQ(e.dim_b(), 50);
  }
  // The target does not grow either.
  EXPECT_THROW(broadcast_to(BroadcastMode::Explicit, {4}, {1, 1}, -1, {1}), BroadcastError);
}

TEST(BroadcastTo, PdpdMode) {
  // Input B onto target A, seed 000 "PDPD examples": (3,1) at axis 1.
  const auto r = broadcast_to(BroadcastMode::Pdpd, {3, 1}, {2, 3, 4, 5}, 1);
  EXPECT_EQ(r.out, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(r.a_aligned, (Shape{1, 3, 1, 1}));
  EXPECT_EQ(r.a_strides, (Shape{0, 1, 0, 0}));
  EXPECT_EQ(r.b_aligned, (Shape{2, 3, 4, 5}));
  EXPECT_EQ(r.b_strides, (Shape{60, 20, 5, 1}));
  // Default axis: (4,5) at rank 4 - 2 = 2.
  EXPECT_EQ(broadcast_to(BroadcastMode::Pdpd, {4, 5}, {2, 3, 4, 5}).a_strides, (Shape{0, 0, 5, 1}));
  // The target's 1 does not grow.
  try {
    broadcast_to(BroadcastMode::Pdpd, {7, 1, 5}, {8, 1, 6, 1}, 1);
    FAIL() << "accepted";
  } catch (const BroadcastError& e) {
    EXPECT_EQ(e.axis(), 1);
    EXPECT_NE(std::string(e.what()).find("target [8,1,6,1]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(broadcast_to(BroadcastMode::Pdpd, {2, 3, 4}, {3, 4}), BroadcastError);
  EXPECT_THROW(broadcast_to(BroadcastMode::Pdpd, {3}, {2, 3}, -2), InvalidArgument);
}

}  // namespace
}  // namespace bcastgen
