// bcastgen::reference and bcastgen::fallback (reference.h) and coalesce()
// (coalesce.h): hand-computed results, and the two implementations agree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bcastgen/coalesce.h"
#include "bcastgen/reference.h"

namespace bg = bcastgen;
using bg::DType;
using bg::Op;
using bg::Rule;
using bg::Shape;

namespace {

using BinaryFn = void (*)(Op, DType, Rule, std::int64_t, const void*, const Shape&, const void*, const Shape&, void*);
using BroadcastFn = void (*)(DType, bg::BroadcastMode, const void*, const Shape&, const Shape&, std::int64_t,
                             const std::vector<std::int64_t>&, void*);

struct Impl {
  const char* name;
  BinaryFn binary;
  BroadcastFn broadcast_to;
};
const Impl kImpls[] = {{"reference", &bg::reference::binary, &bg::reference::broadcast_to},
                       {"fallback", &bg::fallback::binary, &bg::fallback::broadcast_to}};

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

// Runs impl on typed inputs; R is the output element type.
template <class R, class T>
std::vector<R> run(const Impl& impl, Op op, Rule rule, std::int64_t axis, const std::vector<T>& a, const Shape& as,
                   const std::vector<T>& b, const Shape& bs) {
  const Shape out_shape = bg::broadcast_shapes(rule, as, bs, axis).out;
  std::vector<R> out(static_cast<std::size_t>(numel(out_shape)));
  impl.binary(op, bg::dtype_of_v<T>, rule, axis, a.data(), as, b.data(), bs, out.data());
  return out;
}

// std::vector<bool> has no data(): bool buffers are vectors of this.
struct Bool {
  bool v;
};
static_assert(sizeof(Bool) == 1);

template <class T>
std::vector<T> iota(std::int64_t n, T scale = T(1), T start = T(0)) {
  std::vector<T> v;
  for (std::int64_t i = 0; i < n; ++i) v.push_back(static_cast<T>(start + static_cast<T>(i) * scale));
  return v;
}

}  // namespace

TEST(Reference, SeedExample) {
  // [8,1,6,1] + [7,1,5] -> [8,7,6,5]
  const Shape as{8, 1, 6, 1}, bs{7, 1, 5};
  EXPECT_EQ(bg::broadcast_shapes(Rule::Numpy, as, bs).out, (Shape{8, 7, 6, 5}));
  const auto a = iota<float>(48);
  const auto b = iota<float>(35, 100.0f);
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    const auto out = run<float>(impl, Op::Add, Rule::Numpy, -1, a, as, b, bs);
    ASSERT_EQ(out.size(), 8u * 7 * 6 * 5);
    int bad = 0;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 7; ++j)
        for (int k = 0; k < 6; ++k)
          for (int l = 0; l < 5; ++l) {
            const float want = static_cast<float>(i * 6 + k) + 100.0f * static_cast<float>(j * 5 + l);
            if (out[static_cast<std::size_t>(((i * 7 + j) * 6 + k) * 5 + l)] != want) ++bad;
          }
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out.back(), 47.0f + 3400.0f);  // a[7,0,5,0] + b[6,0,4]
  }
}

TEST(Reference, Scalars) {
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    // [] - []
    auto r = run<std::int32_t>(impl, Op::Subtract, Rule::Numpy, -1, std::vector<std::int32_t>{5}, {},
                               std::vector<std::int32_t>{7}, {});
    EXPECT_EQ(r, (std::vector<std::int32_t>{-2}));
    // [] - [3]: the scalar is the minuend
    r = run<std::int32_t>(impl, Op::Subtract, Rule::Numpy, -1, std::vector<std::int32_t>{10}, {},
                          std::vector<std::int32_t>{1, 2, 3}, {3});
    EXPECT_EQ(r, (std::vector<std::int32_t>{9, 8, 7}));
    // [2,2] - []
    r = run<std::int32_t>(impl, Op::Subtract, Rule::Numpy, -1, std::vector<std::int32_t>{1, 2, 3, 4}, {2, 2},
                          std::vector<std::int32_t>{10}, {});
    EXPECT_EQ(r, (std::vector<std::int32_t>{-9, -8, -7, -6}));
    // [1,1] < [1]: one element of rank 2
    const auto c = run<Bool>(impl, Op::Less, Rule::Numpy, -1, std::vector<double>{1.0}, {1, 1},
                             std::vector<double>{2.0}, {1});
    ASSERT_EQ(c.size(), 1u);
    EXPECT_TRUE(c[0].v);
    // rule none on scalars
    r = run<std::int32_t>(impl, Op::Multiply, Rule::None, -1, std::vector<std::int32_t>{6}, {},
                          std::vector<std::int32_t>{7}, {});
    EXPECT_EQ(r, (std::vector<std::int32_t>{42}));
  }
}

TEST(Reference, ZeroSizeOutputsWriteNothing) {
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    const std::vector<float> b{1, 2, 3};
    float sentinel[4] = {-1, -1, -1, -1};
    impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, nullptr, {0, 3}, b.data(), {1, 3}, sentinel);
    impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, nullptr, {0, 3}, b.data(), {1, 3}, nullptr);
    impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, b.data(), {3}, nullptr, {2, 0, 3}, sentinel);
    impl.binary(Op::Equal, DType::F32, Rule::Numpy, -1, nullptr, {0}, b.data(), {}, sentinel);
    impl.binary(Op::Add, DType::F32, Rule::Pdpd, 1, nullptr, {2, 0, 4}, nullptr, {0}, sentinel);
    for (float v : sentinel) EXPECT_EQ(v, -1.0f);
    // 0 does not broadcast with 3.
    EXPECT_THROW(impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, nullptr, {0}, b.data(), {3}, sentinel),
                 bg::BroadcastError);
    // A null pointer for a non-empty output is rejected.
    EXPECT_THROW(impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, nullptr, {3}, b.data(), {3}, sentinel),
                 bg::InvalidArgument);
  }
}

TEST(Reference, Rank17) {
  // a: 2 on even axes, 1 on odd; b the other way round; out: 17 axes of 2.
  Shape as(17), bs(17);
  for (int k = 0; k < 17; ++k) {
    as[static_cast<std::size_t>(k)] = k % 2 == 0 ? 2 : 1;
    bs[static_cast<std::size_t>(k)] = k % 2 == 0 ? 1 : 2;
  }
  const auto a = iota<std::int64_t>(512);
  const auto b = iota<std::int64_t>(256, 1000);
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    const auto out = run<std::int64_t>(impl, Op::Add, Rule::Numpy, -1, a, as, b, bs);
    ASSERT_EQ(out.size(), std::size_t{1} << 17);
    int bad = 0;
    for (std::int64_t i = 0; i < (std::int64_t{1} << 17); ++i) {
      std::int64_t ia = 0, ib = 0;  // axis k is bit 16-k of i
      for (int k = 0; k < 17; ++k) {
        const std::int64_t bit = (i >> (16 - k)) & 1;
        if (k % 2 == 0) ia = ia * 2 + bit; else ib = ib * 2 + bit;
      }
      if (out[static_cast<std::size_t>(i)] != ia + 1000 * ib) ++bad;
    }
    EXPECT_EQ(bad, 0);
    // Same-shape rank 17, rule none: elementwise.
    const Shape full(17, 2);
    const auto x = iota<std::int32_t>(1 << 17), y = iota<std::int32_t>(1 << 17, 3);
    const auto z = run<std::int32_t>(impl, Op::Subtract, Rule::None, -1, x, full, y, full);
    bad = 0;
    for (std::size_t i = 0; i < z.size(); ++i) bad += z[i] != -2 * static_cast<std::int32_t>(i);
    EXPECT_EQ(bad, 0);
  }
}

TEST(Reference, PdpdAxis) {
  const Shape as{2, 3, 4, 5};
  const auto a = iota<std::int32_t>(120);
  struct PdpdCase {
    Shape b;
    std::int64_t axis;
    // index of b for out index (i, j, k, l)
    int (*b_index)(int i, int j, int k, int l);
  };
  const PdpdCase cases[] = {
      {{3, 4}, 1, [](int, int j, int k, int) { return j * 4 + k; }},
      {{3, 1}, 1, [](int, int j, int, int) { return j; }},   // trailing 1 dropped
      {{1, 4}, 1, [](int, int, int k, int) { return k; }},   // b's 1 broadcasts on axis 1
      {{4, 5}, -1, [](int, int, int k, int l) { return k * 5 + l; }},
      {{5}, 3, [](int, int, int, int l) { return l; }},
      {{2}, 0, [](int i, int, int, int) { return i; }},
      {{2, 3, 4, 5}, 0, [](int i, int j, int k, int l) { return ((i * 3 + j) * 4 + k) * 5 + l; }},
      {{1}, -1, [](int, int, int, int) { return 0; }},
      {{}, -1, [](int, int, int, int) { return 0; }},
  };
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    for (const PdpdCase& c : cases) {
      SCOPED_TRACE(bg::format_shape(c.b) + " axis " + std::to_string(c.axis));
      const auto b = iota<std::int32_t>(numel(c.b), 1000, 1000);
      const auto out = run<std::int32_t>(impl, Op::Add, Rule::Pdpd, c.axis, a, as, b, c.b);
      ASSERT_EQ(out.size(), 120u);
      int bad = 0;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 4; ++k)
            for (int l = 0; l < 5; ++l) {
              const int flat = ((i * 3 + j) * 4 + k) * 5 + l;
              bad += out[static_cast<std::size_t>(flat)] != flat + 1000 + 1000 * c.b_index(i, j, k, l);
            }
      EXPECT_EQ(bad, 0);
    }
    const auto b = iota<std::int32_t>(12);
    EXPECT_THROW((run<std::int32_t>(impl, Op::Add, Rule::Pdpd, 2, a, as, b, {3, 4})), bg::BroadcastError);
    EXPECT_THROW((run<std::int32_t>(impl, Op::Add, Rule::Pdpd, -2, a, as, b, {3, 4})), bg::InvalidArgument);
  }
}

namespace {

// [2,3] op [3] for one dtype: out[i][j] = op(a[i*3+j], b[j]), checked with
// ops::call directly.
template <class T, Op kOp>
void check_row_broadcast(const std::vector<T>& a, const std::vector<T>& b) {
  using R = bg::ops::result_t<kOp, T>;
  // Raw buffers: std::vector<bool> has no data().
  std::vector<unsigned char> ra(a.size() * sizeof(T)), rb(b.size() * sizeof(T));
  for (std::size_t i = 0; i < a.size(); ++i) {
    const T v = a[i];
    std::memcpy(ra.data() + i * sizeof(T), &v, sizeof(T));
  }
  for (std::size_t i = 0; i < b.size(); ++i) {
    const T v = b[i];
    std::memcpy(rb.data() + i * sizeof(T), &v, sizeof(T));
  }
  std::vector<unsigned char> out(6 * sizeof(R), 0xCD);
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(std::string(impl.name) + " " + bg::op_name(kOp) + " " + bg::dtype_name(bg::dtype_of_v<T>));
    impl.binary(kOp, bg::dtype_of_v<T>, Rule::Numpy, -1, ra.data(), {2, 3}, rb.data(), {3}, out.data());
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j) {
        R got;
        std::memcpy(&got, out.data() + static_cast<std::size_t>(i * 3 + j) * sizeof(R), sizeof(R));
        const R want = bg::ops::call<kOp, T>(a[static_cast<std::size_t>(i * 3 + j)], b[static_cast<std::size_t>(j)]);
        EXPECT_EQ(got, want) << "at [" << i << "," << j << "]";
      }
    }
  }
}

}  // namespace

TEST(Reference, EveryDtypeRowBroadcast) {
  check_row_broadcast<float, Op::Add>({1, 2, 3, 4, 5, 6}, {10, 20, 30});
  check_row_broadcast<double, Op::Divide>({1, 2, 3, 4, 5, 6}, {2, 0, -4});
  check_row_broadcast<std::int8_t, Op::Add>({127, 2, -128, 4, 5, 6}, {1, 20, -1});
  check_row_broadcast<std::uint8_t, Op::Multiply>({16, 2, 3, 4, 5, 255}, {16, 128, 255});
  check_row_broadcast<std::int16_t, Op::FloorMod>({-7, 7, -7, 7, 0, 5}, {3, -3, 0});
  check_row_broadcast<std::uint16_t, Op::Subtract>({0, 2, 3, 4, 5, 6}, {1, 1, 10});
  check_row_broadcast<std::int32_t, Op::Divide>({-7, 7, std::numeric_limits<std::int32_t>::min(), 8, 9, 10},
                                                {2, -2, -1});
  check_row_broadcast<std::uint32_t, Op::Maximum>({1, 2, 3, 4, 5, 6}, {3, 3, 3});
  check_row_broadcast<std::int64_t, Op::Power>({2, 3, -1, 0, 5, 6}, {10, 0, -3});
  check_row_broadcast<std::uint64_t, Op::BitwiseXor>({1, 2, 3, 4, 5, 6}, {7, 7, 0});
  // Comparisons on every dtype, including bool.
  check_row_broadcast<float, Op::Less>({1, 2, 3, 4, 5, std::nanf("")}, {2, 2, 2});
  check_row_broadcast<double, Op::Equal>({1, 2, 3, 4, 5, 6}, {1, 5, 6});
  check_row_broadcast<std::int8_t, Op::GreaterEqual>({-1, 2, 3, 4, 5, 6}, {0, 3, 3});
  check_row_broadcast<std::uint8_t, Op::NotEqual>({1, 2, 3, 4, 5, 6}, {1, 5, 3});
  check_row_broadcast<std::int16_t, Op::LessEqual>({1, 2, 3, 4, 5, 6}, {2, 2, 2});
  check_row_broadcast<std::uint16_t, Op::Greater>({1, 2, 3, 4, 5, 6}, {2, 2, 2});
  check_row_broadcast<std::int32_t, Op::Equal>({1, 2, 3, 4, 5, 6}, {4, 5, 6});
  check_row_broadcast<std::uint32_t, Op::Less>({1, 2, 3, 4, 5, 6}, {4, 4, 4});
  check_row_broadcast<std::int64_t, Op::NotEqual>({1, 2, 3, 4, 5, 6}, {1, 1, 1});
  check_row_broadcast<std::uint64_t, Op::Greater>({1, 2, 3, 4, 5, 6}, {0, 9, 3});
  check_row_broadcast<bool, Op::Equal>({true, false, true, false, false, true}, {true, true, false});
  check_row_broadcast<bool, Op::LogicalXor>({true, false, true, false, false, true}, {true, true, false});
  check_row_broadcast<bool, Op::BitwiseAnd>({true, false, true, false, false, true}, {true, true, false});
  check_row_broadcast<bool, Op::LogicalOr>({true, false, true, false, false, true}, {false, false, false});
}

TEST(Reference, HandValuesPerDtype) {
  // A few literal results, independent of ops::call.
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    EXPECT_EQ((run<std::int8_t>(impl, Op::Add, Rule::Numpy, -1, std::vector<std::int8_t>{127, -128}, {2},
                                std::vector<std::int8_t>{1}, {1})),
              (std::vector<std::int8_t>{-128, -127}));
    EXPECT_EQ((run<std::int32_t>(impl, Op::Divide, Rule::Numpy, -1, std::vector<std::int32_t>{-7, 7, 5}, {3},
                                 std::vector<std::int32_t>{2, -2, 0}, {3})),
              (std::vector<std::int32_t>{-4, -4, 0}));
    EXPECT_EQ((run<std::int16_t>(impl, Op::FloorMod, Rule::Numpy, -1, std::vector<std::int16_t>{-7, 7}, {2, 1},
                                 std::vector<std::int16_t>{3, -3}, {2})),
              (std::vector<std::int16_t>{2, -1, 1, -2}));
    EXPECT_EQ((run<std::uint16_t>(impl, Op::Multiply, Rule::Numpy, -1, std::vector<std::uint16_t>{65535}, {},
                                  std::vector<std::uint16_t>{65535, 2}, {2})),
              (std::vector<std::uint16_t>{1, 65534}));
    const auto mx = run<double>(impl, Op::Maximum, Rule::Numpy, -1, std::vector<double>{std::nan(""), 1.0}, {2, 1},
                                std::vector<double>{0.0, 2.0}, {2});
    ASSERT_EQ(mx.size(), 4u);
    EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
    EXPECT_EQ(mx[2], 1.0);
    EXPECT_EQ(mx[3], 2.0);
  }
}

namespace {

struct Lcg {
  std::uint64_t s;
  std::uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 17;
  }
};

template <class T>
void fill_random(std::vector<unsigned char>* buf, std::int64_t n, Lcg& rng) {
  buf->resize(static_cast<std::size_t>(n) * sizeof(T));
  for (std::int64_t i = 0; i < n; ++i) {
    T v;
    if constexpr (std::is_same_v<T, bool>) {
      v = rng.next() % 2 != 0;
    } else if constexpr (bg::is_half_v<T>) {
      const std::uint64_t k = rng.next() % 16;
      v = bg::ops::cast<T>(k == 0 ? NAN : static_cast<double>(rng.next() % 200) / 8.0 - 12.0);
    } else if constexpr (std::is_floating_point_v<T>) {
      const std::uint64_t k = rng.next() % 16;
      v = k == 0 ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(static_cast<double>(rng.next() % 200) / 8.0 - 12.0);
    } else {
      v = rng.next() % 3 == 0 ? static_cast<T>(rng.next() % 7) - static_cast<T>(3) : static_cast<T>(rng.next());
    }
    std::memcpy(buf->data() + static_cast<std::size_t>(i) * sizeof(T), &v, sizeof(T));
  }
}

}  // namespace

// The fallback (coalesced loops, stride specializations) gives the same bytes
// as the naive reference for every op and dtype on many random shape pairs.
TEST(Reference, FallbackMatchesReferenceOnRandomShapes) {
  Lcg rng{42};
  const std::int64_t dims[] = {1, 2, 3, 5, 8};
  int runs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t rank = static_cast<std::size_t>(rng.next() % 6);
    Shape out(rank), as, bs;
    for (auto& d : out) d = dims[rng.next() % 5];
    // Each operand: a suffix of out's axes, each dim kept or set to 1.
    const std::size_t ra = rank - (rank ? rng.next() % (rank + 1) : 0);
    const std::size_t rb = trial % 3 == 0 ? rank : rank - (rank ? rng.next() % (rank + 1) : 0);
    for (std::size_t i = rank - ra; i < rank; ++i) as.push_back(rng.next() % 3 == 0 ? 1 : out[i]);
    for (std::size_t i = rank - rb; i < rank; ++i) bs.push_back(rng.next() % 3 == 0 ? 1 : out[i]);
    const Shape real_out = bg::broadcast_shapes(Rule::Numpy, as, bs).out;
    const std::int64_t n = numel(real_out);
    for (DType t : bg::kAllDTypes) {
      for (Op op : bg::kAllOps) {
        if (op == Op::Broadcast || !bg::op_supports(op, t)) continue;
        std::vector<unsigned char> a, b;
        bg::visit_dtype(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          fill_random<T>(&a, numel(as), rng);
          fill_random<T>(&b, numel(bs), rng);
        });
        const std::size_t out_bytes = static_cast<std::size_t>(n * bg::dtype_size(bg::result_dtype(op, t)));
        std::vector<unsigned char> r1(out_bytes, 0x11), r2(out_bytes, 0x22);
        bg::reference::binary(op, t, Rule::Numpy, -1, a.data(), as, b.data(), bs, r1.data());
        bg::fallback::binary(op, t, Rule::Numpy, -1, a.data(), as, b.data(), bs, r2.data());
        EXPECT_EQ(r1, r2) << bg::op_name(op) << " " << bg::dtype_name(t) << " " << bg::format_shape(as) << " vs "
                          << bg::format_shape(bs);
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 40 * 280);  // 40 shape pairs x every supported (op, dtype), f16 and bf16 23 each
}

TEST(Reference, InPlaceOutputAliasingAnInput) {
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    std::vector<float> a = iota<float>(20);
    const std::vector<float> b = iota<float>(5, 100.0f);
    impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, a.data(), {4, 5}, b.data(), {5}, a.data());
    for (int i = 0; i < 20; ++i) EXPECT_EQ(a[static_cast<std::size_t>(i)], static_cast<float>(i + 100 * (i % 5)));
  }
}

TEST(Reference, RejectsBadOpsAndDtypes) {
  const float x[1] = {1};
  float o[1];
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    EXPECT_THROW(impl.binary(Op::Broadcast, DType::F32, Rule::Numpy, -1, x, {}, x, {}, o), bg::InvalidArgument);
    EXPECT_THROW(impl.binary(Op::Add, DType::Bool, Rule::Numpy, -1, x, {}, x, {}, o), bg::InvalidArgument);
    EXPECT_THROW(impl.binary(Op::LogicalAnd, DType::F32, Rule::Numpy, -1, x, {}, x, {}, o), bg::InvalidArgument);
    EXPECT_THROW(impl.binary(Op::BitwiseOr, DType::F64, Rule::Numpy, -1, x, {}, x, {}, o), bg::InvalidArgument);
    EXPECT_THROW(impl.binary(Op::Add, DType::F32, Rule::None, -1, x, {1}, x, {}, o), bg::BroadcastError);
    EXPECT_THROW(impl.binary(Op::Add, DType::F32, Rule::Numpy, -1, x, {2, 3}, x, {2}, o), bg::BroadcastError);
  }
}

// --- coalesce ----------------------------------------------------------------

namespace {

bg::CoalescedLoops coalesce_numpy(const Shape& a, const Shape& b) {
  return bg::coalesce(bg::broadcast_shapes(Rule::Numpy, a, b));
}

void expect_loops(const bg::CoalescedLoops& c, const Shape& extents, const Shape& as, const Shape& bs,
                  const Shape& os) {
  EXPECT_EQ(c.extents, extents);
  EXPECT_EQ(c.a_strides, as);
  EXPECT_EQ(c.b_strides, bs);
  EXPECT_EQ(c.out_strides, os);
}

}  // namespace

TEST(Coalesce, BiasAdd) {
  // [1,64,56,56] + [1,64,1,1]: the two spatial axes merge, the batch 1 drops.
  expect_loops(coalesce_numpy({1, 64, 56, 56}, {1, 64, 1, 1}), {64, 3136}, {3136, 1}, {1, 0}, {3136, 1});
}

TEST(Coalesce, SeedExampleDoesNotMerge) {
  // a aligned [8,1,6,1], b aligned [1,7,1,5]: broadcasting alternates.
  expect_loops(coalesce_numpy({8, 1, 6, 1}, {7, 1, 5}), {8, 7, 6, 5}, {6, 0, 1, 0}, {0, 5, 0, 1},
               {210, 30, 5, 1});
}

TEST(Coalesce, SameShapesBecomeOneLoop) {
  expect_loops(coalesce_numpy({2, 3, 4}, {2, 3, 4}), {24}, {1}, {1}, {1});
  expect_loops(coalesce_numpy(Shape(17, 2), Shape(17, 2)), {131072}, {1}, {1}, {1});
}

TEST(Coalesce, ScalarOperand) {
  expect_loops(coalesce_numpy({2, 3, 4}, {}), {24}, {1}, {0}, {1});
  expect_loops(coalesce_numpy({}, {2, 3, 4}), {24}, {0}, {1}, {1});
}

TEST(Coalesce, BroadcastRunsMerge) {
  // [6,1,1] + [6,4,5]: a broadcasts on both inner axes, which merge (strides 0).
  expect_loops(coalesce_numpy({6, 1, 1}, {6, 4, 5}), {6, 20}, {1, 0}, {20, 1}, {20, 1});
  // [4,1,3] + [4,5,3]: nothing merges.
  expect_loops(coalesce_numpy({4, 1, 3}, {4, 5, 3}), {4, 5, 3}, {3, 0, 1}, {15, 3, 1}, {15, 3, 1});
  // [3,1,1,7] + [1,5,2,1]: out [3,5,2,7]; b's [5,2] merge into 10.
  expect_loops(coalesce_numpy({3, 1, 1, 7}, {1, 5, 2, 1}), {3, 10, 7}, {7, 0, 1}, {0, 1, 0}, {70, 7, 1});
}

TEST(Coalesce, OnesDropAndEdgeCases) {
  expect_loops(coalesce_numpy({5, 1, 1}, {1, 1}), {5}, {1}, {0}, {1});
  expect_loops(coalesce_numpy({1, 1}, {1}), {}, {}, {}, {});  // one element
  expect_loops(coalesce_numpy({}, {}), {}, {}, {}, {});
  expect_loops(coalesce_numpy({3, 0, 2}, {1}), {0}, {0}, {0}, {0});  // no elements
  expect_loops(coalesce_numpy({1, 8, 1, 3}, {8, 1, 3}), {24}, {1}, {1}, {1});
}

TEST(Coalesce, Rank17AlternatingDoesNotMerge) {
  Shape as(17), bs(17);
  for (std::size_t k = 0; k < 17; ++k) {
    as[k] = k % 2 == 0 ? 2 : 1;
    bs[k] = k % 2 == 0 ? 1 : 2;
  }
  const bg::CoalescedLoops c = coalesce_numpy(as, bs);
  EXPECT_EQ(c.extents, Shape(17, 2));
  EXPECT_EQ(c.out_strides.front(), 65536);
  EXPECT_EQ(c.a_strides[0], 256);
  EXPECT_EQ(c.a_strides[1], 0);
  EXPECT_EQ(c.b_strides[0], 0);
  EXPECT_EQ(c.b_strides[15], 1);
}

TEST(Coalesce, PdpdAndBroadcastTo) {
  // pdpd [2,3,4,5] with [3,4] at axis 1: b aligned [1,3,4,1].
  expect_loops(bg::coalesce(bg::broadcast_shapes(Rule::Pdpd, {2, 3, 4, 5}, {3, 4}, 1)), {2, 12, 5}, {60, 5, 1},
               {0, 1, 0}, {60, 5, 1});
  // Broadcast op, numpy mode: [3] to [2,3].
  expect_loops(bg::coalesce(bg::broadcast_to(bg::BroadcastMode::Numpy, {3}, {2, 3})), {2, 3}, {0, 1}, {3, 1},
               {3, 1});
}

// --- broadcast_to ----------------------------------------------------------------

namespace {

template <class T>
std::vector<T> run_to(const Impl& impl, bg::BroadcastMode mode, const std::vector<T>& in, const Shape& in_shape,
                      const Shape& target, std::int64_t axis = -1, const std::vector<std::int64_t>& mapping = {}) {
  const Shape out_shape = bg::broadcast_to(mode, in_shape, target, axis, mapping).out;
  std::vector<T> out(static_cast<std::size_t>(numel(out_shape)));
  impl.broadcast_to(bg::dtype_of_v<T>, mode, in.data(), in_shape, target, axis, mapping, out.data());
  return out;
}

}  // namespace

TEST(ReferenceBroadcastTo, AllModes) {
  using M = bg::BroadcastMode;
  for (const Impl& impl : kImpls) {
    SCOPED_TRACE(impl.name);
    // numpy: [3] -> [2,3]
    EXPECT_EQ(run_to<float>(impl, M::Numpy, {1, 2, 3}, {3}, {2, 3}), (std::vector<float>{1, 2, 3, 1, 2, 3}));
    // numpy: [2,1] -> [2,3]
    EXPECT_EQ(run_to<std::int16_t>(impl, M::Numpy, {4, 5}, {2, 1}, {2, 3}),
              (std::vector<std::int16_t>{4, 4, 4, 5, 5, 5}));
    // explicit: [3] -> [3,2] with axes_mapping {0}
    EXPECT_EQ(run_to<double>(impl, M::Explicit, {1, 2, 3}, {3}, {3, 2}, -1, {0}),
              (std::vector<double>{1, 1, 2, 2, 3, 3}));
    // explicit: [2,3] -> [2,2,3] with axes_mapping {0,2}
    EXPECT_EQ(run_to<std::uint8_t>(impl, M::Explicit, {1, 2, 3, 4, 5, 6}, {2, 3}, {2, 2, 3}, -1, {0, 2}),
              (std::vector<std::uint8_t>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
    // bidirectional: [3,1] with target [2,1,4] -> [2,3,4], out[i,j,k] = in[j]
    {
      const auto out = run_to<std::int64_t>(impl, M::Bidirectional, {7, 8, 9}, {3, 1}, {2, 1, 4});
      ASSERT_EQ(out.size(), 24u);
      for (std::size_t i = 0; i < 24; ++i) EXPECT_EQ(out[i], 7 + static_cast<std::int64_t>((i / 4) % 3));
    }
    // pdpd: [3] into [2,3,4] at axis 1, out[i,j,k] = in[j]
    {
      const auto out = run_to<std::int32_t>(impl, M::Pdpd, {7, 8, 9}, {3}, {2, 3, 4}, 1);
      ASSERT_EQ(out.size(), 24u);
      for (std::size_t i = 0; i < 24; ++i) EXPECT_EQ(out[i], 7 + static_cast<std::int32_t>((i / 4) % 3));
    }
    // pdpd default axis: [4] into [2,3,4], out[i,j,k] = in[k]
    EXPECT_EQ(run_to<std::uint32_t>(impl, M::Pdpd, {1, 2, 3, 4}, {4}, {2, 3, 4}),
              (std::vector<std::uint32_t>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}));
    // scalar input, bool
    {
      std::vector<Bool> in{{true}}, out(4, Bool{false});
      impl.broadcast_to(DType::Bool, M::Numpy, in.data(), {}, {2, 2}, -1, {}, out.data());
      for (const Bool& v : out) EXPECT_TRUE(v.v);
    }
    // same shape: a copy
    EXPECT_EQ(run_to<std::uint64_t>(impl, M::Numpy, {1, 2, 3, 4}, {2, 2}, {2, 2}),
              (std::vector<std::uint64_t>{1, 2, 3, 4}));
    // zero-size target: nothing written, null pointers allowed
    impl.broadcast_to(DType::F32, M::Numpy, nullptr, {3}, {0, 3}, -1, {}, nullptr);
    // errors from the rule engine
    float o[8];
    const float in3[3] = {1, 2, 3};
    EXPECT_THROW(impl.broadcast_to(DType::F32, M::Numpy, in3, {3}, {2, 4}, -1, {}, o), bg::BroadcastError);
    EXPECT_THROW(impl.broadcast_to(DType::F32, M::Explicit, in3, {3}, {3, 2}, -1, {}, o), bg::InvalidArgument);
  }
}
