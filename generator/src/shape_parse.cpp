#include "bcastgen/gen/shape_parse.h"

#include <cctype>
#include <string>

namespace bcastgen::gen {
namespace {

// The text as shown in messages: bytes that are not printable ASCII (a NUL
// would cut the message short) as \xHH; columns still count input bytes.
std::string printable(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      s += c;
    } else {
      s += "\\x";
      s += kHex[u >> 4];
      s += kHex[u & 15];
    }
  }
  return s;
}

[[noreturn]] void fail(std::string_view text, std::size_t pos, const std::string& what) {
  throw InvalidArgument("bad shape '" + printable(text) + "': " + what + " at column " + std::to_string(pos + 1));
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

}  // namespace

Shape parse_shape(std::string_view text) {
  std::size_t pos = 0;
  auto skip_spaces = [&] {
    while (pos < text.size() && is_space(text[pos])) ++pos;
  };
  skip_spaces();
  const bool bracketed = pos < text.size() && text[pos] == '[';
  if (bracketed) ++pos;
  skip_spaces();
  Shape shape;
  const bool empty = bracketed ? (pos < text.size() && text[pos] == ']') : pos == text.size();
  if (empty) {
    if (!bracketed) fail(text, pos, "empty shape (write [] for a scalar)");
  } else {
    char separator = 0;  // ',' or 'x', fixed by the first one seen
    for (;;) {
      skip_spaces();
      if (pos < text.size() && text[pos] == '-') fail(text, pos, "negative dim");
      if (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos]))) {
        fail(text, pos, "expected a dim");
      }
      std::int64_t dim = 0;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        const int digit = text[pos] - '0';
        if (dim > (INT64_MAX - digit) / 10) fail(text, pos, "dim too large");
        dim = dim * 10 + digit;
        ++pos;
      }
      shape.push_back(dim);
      skip_spaces();
      if (pos < text.size() && (text[pos] == ',' || text[pos] == 'x' || text[pos] == 'X')) {
        const char sep = text[pos] == 'X' ? 'x' : text[pos];
        if (separator && sep != separator) fail(text, pos, "mixed separators");
        separator = sep;
        ++pos;
        continue;
      }
      break;
    }
  }
  if (bracketed) {
    if (pos >= text.size() || text[pos] != ']') fail(text, pos, "expected ']'");
    ++pos;
  }
  skip_spaces();
  if (pos != text.size()) fail(text, pos, "unexpected '" + printable(text.substr(pos, 1)) + "'");
  return shape;
}

}  // namespace bcastgen::gen
