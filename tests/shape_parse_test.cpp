// The command-line shape syntax: "[2,3,4]", "2,3,4", "2x3x4", "[]".
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "bcastgen/gen/shape_parse.h"

namespace bcastgen::gen {
namespace {

// Parses `text`, expecting InvalidArgument, and returns its message.
std::string parse_error(const std::string& text) {
  try {
    const Shape s = parse_shape(text);
    ADD_FAILURE() << "'" << text << "' parsed as " << format_shape(s);
  } catch (const InvalidArgument& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "'" << text << "' threw the wrong type: " << e.what();
  }
  return "";
}

void expect_error_at(const std::string& text, int column, const std::string& what) {
  const std::string msg = parse_error(text);
  EXPECT_NE(msg.find("column " + std::to_string(column)), std::string::npos)
      << "'" << text << "': expected column " << column << " in: " << msg;
  EXPECT_NE(msg.find(what), std::string::npos) << "'" << text << "': expected '" << what << "' in: " << msg;
  EXPECT_NE(msg.find("'" + text + "'"), std::string::npos) << "message should quote the text: " << msg;
}

TEST(ShapeParse, Bracketed) { EXPECT_EQ(parse_shape("[2,3,4]"), (Shape{2, 3, 4})); }

TEST(ShapeParse, CommaSeparated) { EXPECT_EQ(parse_shape("2,3,4"), (Shape{2, 3, 4})); }

TEST(ShapeParse, XSeparated) {
  EXPECT_EQ(parse_shape("2x3x4"), (Shape{2, 3, 4}));
  EXPECT_EQ(parse_shape("8x1x6x1"), (Shape{8, 1, 6, 1}));
  EXPECT_EQ(parse_shape("[7x1x5]"), (Shape{7, 1, 5}));
}

TEST(ShapeParse, EmptyBracketsAreAScalar) {
  EXPECT_EQ(parse_shape("[]"), Shape{});
  EXPECT_EQ(parse_shape("[ ]"), Shape{});
  EXPECT_EQ(parse_shape("  []  "), Shape{});
}

TEST(ShapeParse, Spaces) {
  EXPECT_EQ(parse_shape(" [ 2 , 3 , 4 ] "), (Shape{2, 3, 4}));
  EXPECT_EQ(parse_shape("2, 3,4"), (Shape{2, 3, 4}));
  EXPECT_EQ(parse_shape("2 x 3 x 4"), (Shape{2, 3, 4}));
  EXPECT_EQ(parse_shape("\t5\t"), (Shape{5}));
}

TEST(ShapeParse, SingleDim) {
  EXPECT_EQ(parse_shape("[5]"), (Shape{5}));
  EXPECT_EQ(parse_shape("5"), (Shape{5}));
  EXPECT_EQ(parse_shape("0"), (Shape{0}));
  EXPECT_EQ(parse_shape("[1]"), (Shape{1}));
}

TEST(ShapeParse, MultiDigitAndZeroDims) {
  EXPECT_EQ(parse_shape("[15,0,1024]"), (Shape{15, 0, 1024}));
  EXPECT_EQ(parse_shape("007"), (Shape{7}));
}

TEST(ShapeParse, LargestDim) {
  EXPECT_EQ(parse_shape("9223372036854775807"), (Shape{INT64_MAX}));
  EXPECT_EQ(parse_shape("[1,9223372036854775807]"), (Shape{1, INT64_MAX}));
}

TEST(ShapeParse, ErrorEmpty) { expect_error_at("", 1, "empty shape"); }

TEST(ShapeParse, ErrorOnlySpaces) { expect_error_at("   ", 4, "empty shape"); }

TEST(ShapeParse, ErrorDoubleComma) { expect_error_at("2,,3", 3, "expected a dim"); }

TEST(ShapeParse, ErrorNegativeDim) {
  expect_error_at("2,-3", 3, "negative dim");
  expect_error_at("[-1]", 2, "negative dim");
}

TEST(ShapeParse, ErrorUnclosedBracket) { expect_error_at("[2,3", 5, "expected ']'"); }

TEST(ShapeParse, ErrorUnopenedBracket) { expect_error_at("2,3]", 4, "unexpected ']'"); }

TEST(ShapeParse, ErrorMixedSeparators) {
  expect_error_at("2x3,4", 4, "mixed separators");
  expect_error_at("2,3x4", 4, "mixed separators");
}

TEST(ShapeParse, ErrorNotANumber) {
  expect_error_at("abc", 1, "expected a dim");
  expect_error_at("[2,a]", 4, "expected a dim");
}

TEST(ShapeParse, ErrorTrailingSeparator) {
  expect_error_at("2,3,", 5, "expected a dim");
  expect_error_at("[2,]", 4, "expected a dim");
}

TEST(ShapeParse, ErrorSpaceSeparated) { expect_error_at("2 3", 3, "unexpected '3'"); }

TEST(ShapeParse, ErrorTrailingGarbage) { expect_error_at("[2,3]x", 6, "unexpected 'x'"); }

TEST(ShapeParse, ErrorDimTooLargeForInt64) {
  // INT64_MAX + 1: the 19th digit overflows.
  expect_error_at("9223372036854775808", 19, "dim too large");
  expect_error_at("[2,99999999999999999999]", 22, "dim too large");
}

}  // namespace
}  // namespace bcastgen::gen
