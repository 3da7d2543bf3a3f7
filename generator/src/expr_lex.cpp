// The expression lexer: numbers, identifiers, parentheses, commas and the
// C operator symbols (longest match first, so "<=" is one token).
#include <cstdio>

#include "expr_ast.h"

namespace bcastgen::gen::expr_detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

constexpr std::string_view kTwoCharSymbols[] = {"&&", "||", "<<", ">>", "<=", ">=", "==", "!="};
constexpr std::string_view kOneCharSymbols = "+-*/%<>&|^!~";

// The length of the number at `pos`: digits [. digits] [e [+-] digits], or
// .digits; 0 when malformed (an exponent without digits, a letter after it).
std::size_t number_length(std::string_view text, std::size_t pos) {
  std::size_t i = pos;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return i - start;
  };
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return 0;
  }
  if (i < text.size() && (is_ident_char(text[i]) || text[i] == '.')) return 0;
  return i - pos;
}

}  // namespace

std::string quote_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "'\\x%02x'", u);
  return buf;
}

std::vector<Token> lex(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t pos = 0;
  auto push = [&](Tok kind, std::size_t len) {
    tokens.push_back({kind, text.substr(pos, len), static_cast<int>(pos + 1)});
    pos += len;
  };
  while (pos < text.size()) {
    const char c = text[pos];
    if (is_space(c)) {
      ++pos;
    } else if (is_digit(c) || (c == '.' && pos + 1 < text.size() && is_digit(text[pos + 1]))) {
      const std::size_t len = number_length(text, pos);
      if (len == 0) {
        std::size_t end = pos;
        while (end < text.size() && (is_ident_char(text[end]) || text[end] == '.')) ++end;
        throw ExprError(text, static_cast<int>(pos + 1),
                        "malformed number '" + std::string(text.substr(pos, end - pos)) +
                            "' (numbers are written 12, 1.5, .5, 1e-5 or 2.5E+3)");
      }
      push(Tok::Number, len);
    } else if (is_ident_start(c)) {
      std::size_t len = 1;
      while (pos + len < text.size() && is_ident_char(text[pos + len])) ++len;
      push(Tok::Ident, len);
    } else if (c == '(' || c == ')' || c == ',' || c == '[' || c == ']') {
      push(c == '('   ? Tok::LParen
           : c == ')' ? Tok::RParen
           : c == '[' ? Tok::LBracket
           : c == ']' ? Tok::RBracket
                      : Tok::Comma,
           1);
    } else {
      bool two = false;
      for (std::string_view s : kTwoCharSymbols) two = two || text.substr(pos, 2) == s;
      if (two) {
        push(Tok::Symbol, 2);
      } else if (kOneCharSymbols.find(c) != std::string_view::npos) {
        push(Tok::Symbol, 1);
      } else if (c == '=') {
        push(Tok::Equals, 1);  // slice(x, axis=-1, ...); anywhere else the parser says '==' is comparison
      } else {
        throw ExprError(text, static_cast<int>(pos + 1), "unexpected character " + quote_char(c));
      }
    }
  }
  tokens.push_back({Tok::End, text.substr(text.size()), static_cast<int>(text.size() + 1)});
  return tokens;
}

}  // namespace bcastgen::gen::expr_detail
