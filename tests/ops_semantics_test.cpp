// Scalar op semantics (bcastgen/ops.h) on hand-checked edge cases.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "bcastgen/ops.h"

namespace bg = bcastgen;
namespace ops = bcastgen::ops;
using std::int16_t;
using std::int32_t;
using std::int64_t;
using std::int8_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

namespace {

template <class T>
constexpr T kMin = std::numeric_limits<T>::min();
template <class T>
constexpr T kMax = std::numeric_limits<T>::max();

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const float kNaNf = std::numeric_limits<float>::quiet_NaN();

// Exact float equality including the sign of zero.
::testing::AssertionResult SameDouble(double got, double want) {
  if (std::isnan(want) ? std::isnan(got) : (got == want && std::signbit(got) == std::signbit(want))) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << got << (std::signbit(got) ? " (negative)" : "") << ", want "
                                       << want << (std::signbit(want) ? " (negative)" : "");
}

}  // namespace

TEST(OpsSemantics, IntegerAddSubtractWrap) {
  EXPECT_EQ(ops::add<int8_t>(127, 1), -128);
  EXPECT_EQ(ops::add<int8_t>(-128, -1), 127);
  EXPECT_EQ(ops::subtract<int8_t>(-128, 1), 127);
  EXPECT_EQ(ops::subtract<uint8_t>(0, 1), 255);
  EXPECT_EQ(ops::add<uint8_t>(200, 100), 44);
  EXPECT_EQ(ops::add<int16_t>(32767, 1), -32768);
  EXPECT_EQ(ops::add<uint16_t>(65535, 2), 1);
  EXPECT_EQ(ops::add<int32_t>(kMax<int32_t>, 1), kMin<int32_t>);
  EXPECT_EQ(ops::subtract<int32_t>(kMin<int32_t>, 1), kMax<int32_t>);
  EXPECT_EQ(ops::add<int64_t>(kMax<int64_t>, 1), kMin<int64_t>);
  EXPECT_EQ(ops::subtract<int64_t>(kMin<int64_t>, 1), kMax<int64_t>);
  EXPECT_EQ(ops::add<uint64_t>(kMax<uint64_t>, 1), 0u);
  EXPECT_EQ(ops::subtract<uint32_t>(0, 1), 4294967295u);
  EXPECT_EQ(ops::add<int32_t>(-5, 3), -2);
}

TEST(OpsSemantics, IntegerMultiplyWraps) {
  // 65535 * 65535 = 4294836225 = 65535 * 65536 + 1
  EXPECT_EQ(ops::multiply<uint16_t>(65535, 65535), 1);
  EXPECT_EQ(ops::multiply<int16_t>(200, 200), -25536);  // 40000 - 65536
  EXPECT_EQ(ops::multiply<int8_t>(16, 16), 0);
  EXPECT_EQ(ops::multiply<int8_t>(-128, -1), -128);
  EXPECT_EQ(ops::multiply<uint8_t>(16, 17), 16);  // 272 - 256
  EXPECT_EQ(ops::multiply<int32_t>(kMax<int32_t>, 2), -2);
  EXPECT_EQ(ops::multiply<int32_t>(65536, 65536), 0);
  EXPECT_EQ(ops::multiply<uint32_t>(65536, 65537), 65536u);
  EXPECT_EQ(ops::multiply<int64_t>(kMin<int64_t>, -1), kMin<int64_t>);
  EXPECT_EQ(ops::multiply<int64_t>(int64_t{1} << 32, int64_t{1} << 32), 0);
  EXPECT_EQ(ops::multiply<uint64_t>(kMax<uint64_t>, kMax<uint64_t>), 1u);
  EXPECT_EQ(ops::multiply<int32_t>(-7, 6), -42);
}

TEST(OpsSemantics, SquaredDifference) {
  // int8: 127 - (-128) wraps to -1, squared 1.
  EXPECT_EQ(ops::squared_difference<int8_t>(127, -128), 1);
  EXPECT_EQ(ops::squared_difference<int8_t>(3, 10), 49);
  EXPECT_EQ(ops::squared_difference<int8_t>(20, 8), -112);  // 144 - 256
  EXPECT_EQ(ops::squared_difference<uint8_t>(0, 255), 1);    // 0 - 255 wraps to 1
  EXPECT_EQ(ops::squared_difference<uint16_t>(300, 0), 24464);  // 90000 - 65536
  EXPECT_EQ(ops::squared_difference<uint16_t>(0, 65535), 1);
  EXPECT_EQ(ops::squared_difference<int64_t>(kMin<int64_t>, 0), 0);  // 2^126 mod 2^64
  EXPECT_EQ(ops::squared_difference<int32_t>(-3, 4), 49);
  EXPECT_DOUBLE_EQ(ops::squared_difference<double>(1.5, -2.0), 12.25);
  EXPECT_FLOAT_EQ(ops::squared_difference<float>(-1.0f, 2.0f), 9.0f);
  EXPECT_TRUE(std::isnan(ops::squared_difference<double>(kInf, kInf)));
}

TEST(OpsSemantics, IntegerDivideFloors) {
  EXPECT_EQ(ops::divide<int32_t>(-7, 2), -4);
  EXPECT_EQ(ops::divide<int32_t>(7, -2), -4);
  EXPECT_EQ(ops::divide<int32_t>(-7, -2), 3);
  EXPECT_EQ(ops::divide<int32_t>(7, 2), 3);
  EXPECT_EQ(ops::divide<int32_t>(6, -3), -2);  // exact: no adjustment
  EXPECT_EQ(ops::divide<int32_t>(-1, 3), -1);
  EXPECT_EQ(ops::divide<int8_t>(-128, 3), -43);  // -42.67 floors to -43
  EXPECT_EQ(ops::divide<int64_t>(kMin<int64_t>, 2), kMin<int64_t> / 2);
  EXPECT_EQ(ops::divide<uint8_t>(200, 7), 28);
  EXPECT_EQ(ops::divide<uint64_t>(kMax<uint64_t>, 2), kMax<uint64_t> >> 1);
}

TEST(OpsSemantics, IntegerDivideOverflowAndByZero) {
  EXPECT_EQ(ops::divide<int32_t>(kMin<int32_t>, -1), kMin<int32_t>);
  EXPECT_EQ(ops::divide<int64_t>(kMin<int64_t>, -1), kMin<int64_t>);
  EXPECT_EQ(ops::divide<int8_t>(-128, -1), -128);
  EXPECT_EQ(ops::divide<int16_t>(-32768, -1), -32768);
  EXPECT_EQ(ops::divide<int32_t>(5, -1), -5);
  EXPECT_EQ(ops::divide<int32_t>(7, 0), 0);
  EXPECT_EQ(ops::divide<int32_t>(-7, 0), 0);
  EXPECT_EQ(ops::divide<int64_t>(kMin<int64_t>, 0), 0);
  EXPECT_EQ(ops::divide<int8_t>(0, 0), 0);
  EXPECT_EQ(ops::divide<uint32_t>(9, 0), 0u);
  EXPECT_EQ(ops::divide<uint64_t>(kMax<uint64_t>, 0), 0u);
}

TEST(OpsSemantics, FloatDivideIsIeee) {
  EXPECT_TRUE(SameDouble(ops::divide<double>(1.0, 0.0), kInf));
  EXPECT_TRUE(SameDouble(ops::divide<double>(-1.0, 0.0), -kInf));
  EXPECT_TRUE(SameDouble(ops::divide<double>(1.0, -0.0), -kInf));
  EXPECT_TRUE(SameDouble(ops::divide<double>(0.0, 0.0), kNaN));
  EXPECT_TRUE(SameDouble(ops::divide<double>(-7.0, 2.0), -3.5));  // not floored
  EXPECT_EQ(ops::divide<float>(1.0f, 3.0f), 1.0f / 3.0f);
}

TEST(OpsSemantics, ModVersusFloorModIntegers) {
  EXPECT_EQ(ops::mod<int32_t>(-7, 3), -1);
  EXPECT_EQ(ops::floor_mod<int32_t>(-7, 3), 2);
  EXPECT_EQ(ops::mod<int32_t>(7, -3), 1);
  EXPECT_EQ(ops::floor_mod<int32_t>(7, -3), -2);
  EXPECT_EQ(ops::mod<int32_t>(-7, -3), -1);
  EXPECT_EQ(ops::floor_mod<int32_t>(-7, -3), -1);
  EXPECT_EQ(ops::mod<int32_t>(7, 3), 1);
  EXPECT_EQ(ops::floor_mod<int32_t>(7, 3), 1);
  EXPECT_EQ(ops::floor_mod<int32_t>(-6, 3), 0);
  EXPECT_EQ(ops::floor_mod<int8_t>(-128, 127), 126);  // -128 = -2*127 + 126
  EXPECT_EQ(ops::mod<int8_t>(-128, 127), -1);
  EXPECT_EQ(ops::floor_mod<int64_t>(kMin<int64_t>, 3), 1);  // -2^63 = 3q + 1
  EXPECT_EQ(ops::mod<uint8_t>(250, 7), 5);
  EXPECT_EQ(ops::floor_mod<uint32_t>(kMax<uint32_t>, 10), 5u);
}

TEST(OpsSemantics, IntegerModByZeroAndMinusOne) {
  EXPECT_EQ(ops::mod<int32_t>(7, 0), 0);
  EXPECT_EQ(ops::floor_mod<int32_t>(-7, 0), 0);
  EXPECT_EQ(ops::mod<uint16_t>(7, 0), 0);
  EXPECT_EQ(ops::floor_mod<uint64_t>(7, 0), 0u);
  EXPECT_EQ(ops::mod<int32_t>(kMin<int32_t>, -1), 0);
  EXPECT_EQ(ops::floor_mod<int32_t>(kMin<int32_t>, -1), 0);
  EXPECT_EQ(ops::mod<int64_t>(kMin<int64_t>, -1), 0);
  EXPECT_EQ(ops::floor_mod<int64_t>(kMin<int64_t>, -1), 0);
  EXPECT_EQ(ops::floor_mod<int8_t>(5, -1), 0);
}

TEST(OpsSemantics, ModVersusFloorModFloats) {
  EXPECT_TRUE(SameDouble(ops::mod<double>(-7.5, 2.0), -1.5));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(-7.5, 2.0), 0.5));
  EXPECT_TRUE(SameDouble(ops::mod<double>(7.5, -2.0), 1.5));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(7.5, -2.0), -0.5));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(-7.0, 3.0), 2.0));
  EXPECT_TRUE(SameDouble(ops::mod<double>(-7.0, 3.0), -1.0));
  // Zero results take the sign of the divisor in floor_mod, of the dividend in mod.
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(-4.0, 2.0), 0.0));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(4.0, -2.0), -0.0));
  EXPECT_TRUE(SameDouble(ops::mod<double>(-4.0, 2.0), -0.0));
  // By zero: NaN, as NumPy.
  EXPECT_TRUE(std::isnan(ops::mod<double>(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(ops::floor_mod<double>(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(ops::floor_mod<double>(1.0, -0.0)));
  EXPECT_TRUE(std::isnan(ops::floor_mod<float>(1.0f, 0.0f)));
  // Infinities (np.remainder(-1, inf) == inf, np.remainder(5, inf) == 5).
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(-1.0, kInf), kInf));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(1.0, -kInf), -kInf));
  EXPECT_TRUE(SameDouble(ops::floor_mod<double>(5.0, kInf), 5.0));
  EXPECT_TRUE(std::isnan(ops::floor_mod<double>(kInf, 3.0)));
  EXPECT_EQ(ops::floor_mod<float>(-7.5f, 2.0f), 0.5f);
}

TEST(OpsSemantics, MaximumMinimumPropagateNaN) {
  EXPECT_TRUE(std::isnan(ops::maximum<double>(kNaN, 1.0)));
  EXPECT_TRUE(std::isnan(ops::maximum<double>(1.0, kNaN)));
  EXPECT_TRUE(std::isnan(ops::minimum<double>(kNaN, 1.0)));
  EXPECT_TRUE(std::isnan(ops::minimum<double>(1.0, kNaN)));
  EXPECT_TRUE(std::isnan(ops::maximum<float>(kNaNf, -kInf)));
  EXPECT_TRUE(std::isnan(ops::minimum<float>(kInf, kNaNf)));
  EXPECT_TRUE(std::isnan(ops::maximum<double>(kNaN, kNaN)));
  EXPECT_TRUE(SameDouble(ops::maximum<double>(-1.0, 2.0), 2.0));
  EXPECT_TRUE(SameDouble(ops::minimum<double>(-1.0, 2.0), -1.0));
  EXPECT_TRUE(SameDouble(ops::maximum<double>(-kInf, -1e300), -1e300));
  // Equal operands (+0 vs -0): the second one, as NumPy and x86 max/min.
  EXPECT_TRUE(SameDouble(ops::maximum<double>(-0.0, 0.0), 0.0));
  EXPECT_TRUE(SameDouble(ops::maximum<double>(0.0, -0.0), -0.0));
  EXPECT_TRUE(SameDouble(ops::minimum<double>(-0.0, 0.0), 0.0));
  EXPECT_TRUE(SameDouble(ops::minimum<double>(0.0, -0.0), -0.0));
  EXPECT_EQ(ops::maximum<int8_t>(-128, 127), 127);
  EXPECT_EQ(ops::minimum<int8_t>(-128, 127), -128);
  EXPECT_EQ(ops::maximum<uint64_t>(kMax<uint64_t>, 0), kMax<uint64_t>);
  EXPECT_EQ(ops::minimum<int64_t>(kMin<int64_t>, kMax<int64_t>), kMin<int64_t>);
}

TEST(OpsSemantics, IntegerPowerNonNegativeExponent) {
  EXPECT_EQ(ops::power<int32_t>(2, 10), 1024);
  EXPECT_EQ(ops::power<int32_t>(0, 0), 1);
  EXPECT_EQ(ops::power<int32_t>(5, 0), 1);
  EXPECT_EQ(ops::power<int32_t>(0, 5), 0);
  EXPECT_EQ(ops::power<int32_t>(-2, 3), -8);
  EXPECT_EQ(ops::power<int32_t>(-3, 4), 81);
  EXPECT_EQ(ops::power<int8_t>(2, 7), -128);
  EXPECT_EQ(ops::power<int8_t>(3, 5), -13);  // 243 - 256
  EXPECT_EQ(ops::power<uint8_t>(2, 8), 0);
  EXPECT_EQ(ops::power<uint8_t>(3, 5), 243);
  EXPECT_EQ(ops::power<uint16_t>(255, 2), 65025);
  EXPECT_EQ(ops::power<uint16_t>(256, 2), 0);
  EXPECT_EQ(ops::power<int32_t>(2, 31), kMin<int32_t>);
  EXPECT_EQ(ops::power<int32_t>(2, 32), 0);
  // 3^40 = 12157665459056928801, wrapped to int64.
  EXPECT_EQ(ops::power<uint64_t>(3, 40), 12157665459056928801ull);
  EXPECT_EQ(ops::power<int64_t>(3, 40), -6289078614652622815ll);
  EXPECT_EQ(ops::power<int64_t>(-1, kMax<int64_t>), -1);  // odd, huge exponent
  EXPECT_EQ(ops::power<uint32_t>(1, kMax<uint32_t>), 1u);
}

TEST(OpsSemantics, IntegerPowerNegativeExponentRule) {
  EXPECT_EQ(ops::power<int32_t>(1, -5), 1);
  EXPECT_EQ(ops::power<int32_t>(-1, -3), -1);
  EXPECT_EQ(ops::power<int32_t>(-1, -4), 1);
  EXPECT_EQ(ops::power<int8_t>(-1, -128), 1);
  EXPECT_EQ(ops::power<int8_t>(-1, -127), -1);
  EXPECT_EQ(ops::power<int32_t>(2, -1), 0);
  EXPECT_EQ(ops::power<int32_t>(-2, -1), 0);
  EXPECT_EQ(ops::power<int32_t>(0, -1), 0);  // no trap
  EXPECT_EQ(ops::power<int64_t>(kMin<int64_t>, -1), 0);
  EXPECT_EQ(ops::power<int64_t>(1, kMin<int64_t>), 1);
  EXPECT_EQ(ops::power<int64_t>(-1, kMin<int64_t>), 1);  // even
}

TEST(OpsSemantics, FloatPower) {
  EXPECT_DOUBLE_EQ(ops::power<double>(2.0, 0.5), std::sqrt(2.0));
  EXPECT_TRUE(SameDouble(ops::power<double>(2.0, -2.0), 0.25));
  EXPECT_TRUE(SameDouble(ops::power<double>(0.0, 0.0), 1.0));
  EXPECT_TRUE(SameDouble(ops::power<double>(kNaN, 0.0), 1.0));
  EXPECT_TRUE(SameDouble(ops::power<double>(0.0, -1.0), kInf));
  EXPECT_TRUE(std::isnan(ops::power<double>(-8.0, 1.0 / 3.0)));
  EXPECT_EQ(ops::power<float>(3.0f, 2.0f), 9.0f);
}

TEST(OpsSemantics, ComparisonsWithNaN) {
  EXPECT_FALSE(ops::equal<double>(kNaN, kNaN));
  EXPECT_TRUE(ops::not_equal<double>(kNaN, kNaN));
  EXPECT_FALSE(ops::less<double>(kNaN, 1.0));
  EXPECT_FALSE(ops::less<double>(1.0, kNaN));
  EXPECT_FALSE(ops::less_equal<double>(kNaN, 1.0));
  EXPECT_FALSE(ops::greater<float>(kNaNf, 1.0f));
  EXPECT_FALSE(ops::greater_equal<float>(1.0f, kNaNf));
  EXPECT_TRUE(ops::not_equal<float>(kNaNf, 1.0f));
  EXPECT_TRUE(ops::equal<double>(-0.0, 0.0));
  EXPECT_FALSE(ops::less<double>(-0.0, 0.0));
  EXPECT_TRUE(ops::less_equal<double>(-kInf, kInf));
}

TEST(OpsSemantics, ComparisonsIntegersAndBool) {
  EXPECT_TRUE(ops::less<int8_t>(-128, 127));
  EXPECT_FALSE(ops::less<uint8_t>(255, 0));
  EXPECT_TRUE(ops::greater<uint64_t>(kMax<uint64_t>, 0));
  EXPECT_TRUE(ops::greater_equal<int64_t>(kMin<int64_t>, kMin<int64_t>));
  EXPECT_FALSE(ops::greater<int64_t>(kMin<int64_t>, kMin<int64_t>));
  EXPECT_TRUE(ops::less<bool>(false, true));
  EXPECT_FALSE(ops::less<bool>(true, true));
  EXPECT_TRUE(ops::equal<bool>(true, true));
  EXPECT_TRUE(ops::not_equal<int32_t>(1, 2));
}

TEST(OpsSemantics, LogicalOps) {
  EXPECT_TRUE(ops::logical_and<bool>(true, true));
  EXPECT_FALSE(ops::logical_and<bool>(true, false));
  EXPECT_TRUE(ops::logical_or<bool>(false, true));
  EXPECT_FALSE(ops::logical_or<bool>(false, false));
  EXPECT_TRUE(ops::logical_xor<bool>(true, false));
  EXPECT_FALSE(ops::logical_xor<bool>(true, true));
  // Nonzero counts as true.
  EXPECT_TRUE(ops::logical_and<int32_t>(2, 4));
  EXPECT_FALSE(ops::logical_xor<int32_t>(2, 4));
  EXPECT_TRUE(ops::logical_or<double>(0.0, 0.5));
  EXPECT_TRUE(ops::logical_and<double>(kNaN, 1.0));
}

TEST(OpsSemantics, BitwiseOps) {
  EXPECT_EQ(ops::bitwise_and<int8_t>(-1, 0x0F), 15);
  EXPECT_EQ(ops::bitwise_or<int8_t>(-128, 1), -127);
  EXPECT_EQ(ops::bitwise_xor<uint8_t>(0xF0, 0xFF), 0x0F);
  EXPECT_EQ(ops::bitwise_xor<int64_t>(kMin<int64_t>, -1), kMax<int64_t>);
  EXPECT_EQ(ops::bitwise_and<uint64_t>(kMax<uint64_t>, 0x8000000000000001ull), 0x8000000000000001ull);
  EXPECT_EQ(ops::bitwise_or<uint16_t>(0x0F00, 0x00F0), 0x0FF0);
  EXPECT_FALSE(ops::bitwise_and<bool>(true, false));
  EXPECT_TRUE(ops::bitwise_and<bool>(true, true));
  EXPECT_TRUE(ops::bitwise_or<bool>(true, false));
  EXPECT_FALSE(ops::bitwise_xor<bool>(true, true));
}

TEST(OpsSemantics, OpDefinedForMatchesOpSupports) {
  int checked = 0;
  for (bg::DType t : bg::kAllDTypes) {
    bg::visit_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      EXPECT_EQ(bg::dtype_of_v<T>, t);
      for (bg::Op op : bg::kAllOps) {
        if (op == bg::Op::Broadcast) {
          EXPECT_FALSE(ops::op_defined_for<T>(op));
          continue;
        }
        EXPECT_EQ(ops::op_defined_for<T>(op), bg::op_supports(op, t)) << bg::op_name(op) << " " << bg::dtype_name(t);
        ++checked;
      }
    });
  }
  EXPECT_EQ(checked, 31 * 13);  // every op but broadcast, on every dtype
  static_assert(ops::op_defined_for<float>(bg::Op::Add));
  static_assert(!ops::op_defined_for<bool>(bg::Op::Add));
  static_assert(!ops::op_defined_for<float>(bg::Op::BitwiseAnd));
  static_assert(std::is_same_v<ops::result_t<bg::Op::Less, float>, bool>);
  static_assert(std::is_same_v<ops::result_t<bg::Op::Add, std::int16_t>, std::int16_t>);
}

TEST(OpsSemantics, ApplyBinaryDispatchesAndWritesResultType) {
  std::int16_t r16 = 0;
  ops::apply_binary<std::int16_t>(bg::Op::Divide, -7, 2, &r16);
  EXPECT_EQ(r16, -4);
  ops::apply_binary<std::int16_t>(bg::Op::FloorMod, 7, -3, &r16);
  EXPECT_EQ(r16, -2);
  // Comparisons write one bool byte, not a T.
  unsigned char buf[8] = {0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA};
  ops::apply_binary<double>(bg::Op::Less, 1.0, 2.0, buf);
  EXPECT_EQ(buf[0], 1);
  EXPECT_EQ(buf[1], 0xAA);
  double rd = 0;
  ops::apply_binary<double>(bg::Op::Maximum, kNaN, 1.0, &rd);
  EXPECT_TRUE(std::isnan(rd));
  bool rb = false;
  ops::apply_binary<bool>(bg::Op::LogicalXor, true, false, &rb);
  EXPECT_TRUE(rb);
  EXPECT_THROW(ops::apply_binary<bool>(bg::Op::Add, true, true, &rb), bg::InvalidArgument);
  EXPECT_THROW(ops::apply_binary<float>(bg::Op::BitwiseOr, 1.0f, 2.0f, &rd), bg::InvalidArgument);
  EXPECT_THROW(ops::apply_binary<float>(bg::Op::Broadcast, 1.0f, 2.0f, &rd), bg::InvalidArgument);
  EXPECT_THROW(ops::apply_binary<std::int32_t>(bg::Op::LogicalAnd, 1, 2, &rd), bg::InvalidArgument);
  // Every supported (op, dtype): result_t is the type of result_dtype.
  int checked = 0;
  for (bg::DType t : bg::kAllDTypes) {
    for (bg::Op op : bg::kAllOps) {
      if (op == bg::Op::Broadcast || !bg::op_supports(op, t)) continue;
      bg::visit_dtype(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        bg::visit_binary_op(op, [&](auto op_c) {
          constexpr bg::Op kOp = decltype(op_c)::value;
          EXPECT_EQ(kOp, op);
          using R = ops::result_t<kOp, T>;
          EXPECT_EQ(bg::dtype_of_v<R>, bg::result_dtype(op, t))
              << bg::op_name(op) << " " << bg::dtype_name(t);
          ++checked;
        });
      });
    }
  }
  // 11 arithmetic x 12 + 6 float-only x 4 + 6 comparisons x 13 + 3 logical
  // + 3 bitwise x 9 + 2 shifts x 8
  EXPECT_EQ(checked, 280);
}

// --- the Array API functions added for issue 13 ------------------------------

TEST(OpsSemantics, ShiftsOutsideTheWidthAreDefined) {
  EXPECT_EQ(ops::bitwise_left_shift<std::int8_t>(-1, 3), -8);  // wraps in the type
  EXPECT_EQ(ops::bitwise_left_shift<std::int8_t>(64, 1), -128);
  EXPECT_EQ(ops::bitwise_left_shift<std::int32_t>(1, 31), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(ops::bitwise_left_shift<std::int32_t>(1, 32), 0);
  EXPECT_EQ(ops::bitwise_left_shift<std::int32_t>(1, -1), 0);  // negative: as NumPy, a huge count
  EXPECT_EQ(ops::bitwise_left_shift<std::uint64_t>(1, 63), 1ull << 63);
  EXPECT_EQ(ops::bitwise_left_shift<std::uint64_t>(1, 64), 0u);
  EXPECT_EQ(ops::bitwise_right_shift<std::int16_t>(-32768, 15), -1);  // arithmetic
  EXPECT_EQ(ops::bitwise_right_shift<std::int16_t>(-5, 1), -3);
  EXPECT_EQ(ops::bitwise_right_shift<std::int16_t>(-5, 16), -1);
  EXPECT_EQ(ops::bitwise_right_shift<std::int16_t>(5, 16), 0);
  EXPECT_EQ(ops::bitwise_right_shift<std::int64_t>(-7, -2), -1);
  EXPECT_EQ(ops::bitwise_right_shift<std::uint8_t>(200, 7), 1);
  EXPECT_EQ(ops::bitwise_right_shift<std::uint8_t>(200, 8), 0);
}

TEST(OpsSemantics, FloorDivideFloatsFollowPythonAndTheStandard) {
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(1.0, 0.1), 9.0));  // as Python's 1.0 // 0.1
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(-7.5, 2.0), -4.0));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(7.5, -2.0), -4.0));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(-0.5, 2.0), -1.0));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(0.0, -3.0), -0.0));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(1.0, 0.0), kInf));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(-1.0, 0.0), -kInf));
  EXPECT_TRUE(std::isnan(ops::floor_divide<double>(0.0, 0.0)));
  EXPECT_TRUE(std::isnan(ops::floor_divide<double>(kInf, kInf)));
  // The standard's special cases where NumPy differs:
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(kInf, 2.0), kInf));     // NumPy: NaN
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(kInf, -2.0), -kInf));   // NumPy: NaN
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(3.0, -kInf), -0.0));    // NumPy: -1
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(-3.0, kInf), -0.0));    // NumPy: -1
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(3.0, kInf), 0.0));
  EXPECT_TRUE(SameDouble(ops::floor_divide<double>(-3.0, -kInf), 0.0));
  EXPECT_EQ(ops::floor_divide<std::int32_t>(-7, 2), -4);  // integers: divide's
  EXPECT_EQ(ops::floor_divide<std::int32_t>(7, 0), 0);
}

TEST(OpsSemantics, NextafterCopysignLogaddexp) {
  EXPECT_TRUE(SameDouble(ops::nextafter<double>(0.0, -1.0), -std::numeric_limits<double>::denorm_min()));
  EXPECT_TRUE(SameDouble(ops::nextafter<double>(1.0, 2.0), 1.0 + std::numeric_limits<double>::epsilon()));
  EXPECT_TRUE(SameDouble(ops::nextafter<double>(0.0, -0.0), -0.0));  // equal: the second
  EXPECT_EQ(ops::nextafter<float>(std::numeric_limits<float>::max(), INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(ops::nextafter<double>(kNaN, 1.0)));
  EXPECT_TRUE(SameDouble(ops::copysign<double>(3.0, -0.0), -3.0));
  EXPECT_TRUE(SameDouble(ops::copysign<double>(-3.0, kNaN), 3.0));
  EXPECT_TRUE(SameDouble(ops::logaddexp<double>(kInf, kInf), kInf));  // no inf - inf
  EXPECT_TRUE(SameDouble(ops::logaddexp<double>(-kInf, -kInf), -kInf));
  EXPECT_TRUE(SameDouble(ops::logaddexp<double>(0.0, 0.0), std::log(2.0)));
  EXPECT_NEAR(ops::logaddexp<double>(1000.0, 0.0), 1000.0, 1e-12);  // no overflow
  EXPECT_TRUE(std::isnan(ops::logaddexp<double>(kNaN, 0.0)));
  EXPECT_TRUE(SameDouble(ops::hypot<double>(3.0, 4.0), 5.0));
  EXPECT_TRUE(SameDouble(ops::atan2<double>(0.0, -1.0), std::acos(-1.0)));
}

TEST(OpsSemantics, PowerOfZeroAndHeaviside) {
  // x^0 is 1 for a signaling NaN too (NumPy; glibc's pow gives NaN), so that a
  // NaN quieted on its way (a 16-bit lane run lane by lane) gives the same.
  float snan;
  const std::uint32_t snan_bits = 0x7fa00000u;
  std::memcpy(&snan, &snan_bits, 4);
  EXPECT_EQ(ops::power<float>(snan, -0.0f), 1.0f);
  EXPECT_EQ(ops::power<float>(kNaNf, 0.0f), 1.0f);
  EXPECT_EQ(ops::power(bcastgen::bf16{0x7fa8}, bcastgen::bf16{0x8000}).bits, 0x3f80);
  // heaviside: numpy.heaviside's table, either zero taking the second operand.
  EXPECT_TRUE(SameDouble(ops::heaviside<double>(-kInf, 0.5), 0.0));
  EXPECT_TRUE(SameDouble(ops::heaviside<double>(-0.0, 0.5), 0.5));
  EXPECT_TRUE(SameDouble(ops::heaviside<double>(0.0, kNaN), kNaN));
  EXPECT_TRUE(SameDouble(ops::heaviside<double>(1e-300, 0.5), 1.0));
  EXPECT_TRUE(std::isnan(ops::heaviside<double>(kNaN, 0.5)));
}

TEST(OpsSemantics, ArrayApiAliases) {
  bg::Op op = bg::Op::Add;
  EXPECT_TRUE(bg::parse_op("pow", &op));
  EXPECT_EQ(op, bg::Op::Power);
  EXPECT_TRUE(bg::parse_op("remainder", &op));
  EXPECT_EQ(op, bg::Op::FloorMod);
  EXPECT_FALSE(bg::parse_op("plus", &op));
}
