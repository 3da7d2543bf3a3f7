// Internals of the expression front end (gen/expr.h): tokens, the untyped
// syntax tree, and the three steps parse_expr runs: lex, parse, type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bcastgen/gen/expr.h"

namespace bcastgen::gen::expr_detail {

enum class Tok { End, Number, Ident, LParen, RParen, LBracket, RBracket, Comma, Symbol, Equals };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // a view into the expression text ("" for End)
  int column = 0;         // 1-based
};

// Splits the text into tokens ending with one End (at column size + 1).
// Throws ExprError on a character or number that no token starts with.
std::vector<Token> lex(std::string_view text);

// What makes two typed DAG nodes equal, so that they are shared: kind, op
// or function, dtype, operands, the input or the literal's bits in its
// dtype (-0.0 is not 0.0), and an Expand's target. The parser and
// ExprBuilder both intern by it.
using NodeKey = std::tuple<ExprKind, int, DType, std::vector<std::size_t>, std::uint64_t, Shape>;
NodeKey node_key(const ExprNode& e);

enum class AstKind { Input, Number, Bool, Binary, Unary, Where, Cast, Expand, Reduce };

// One node of the syntax tree. Nodes are stored children first, so a
// parent's index is larger than its children's and every pass over the
// tree is a loop, not a recursion.
struct AstNode {
  AstKind kind = AstKind::Input;
  int column = 0;
  std::string name;              // as written, for messages: "+", "max", "clamp", "where"
  Op op = Op::Add;               // Binary
  UnaryOp unary = UnaryOp::Neg;  // Unary
  DType dtype = DType::Bool;     // Cast: the target
  Shape target;                  // Expand: the target shape
  ReduceOp reduce = ReduceOp::Sum;  // Reduce
  std::vector<std::int64_t> axes;   // Reduce: as written
  std::size_t input = 0;         // Input
  InputLayout layout;            // Input: the layout calls around it (transpose, reshape, slice), inner first
  bool value = false;            // Bool
  std::string text;              // Number: the spelling, with a folded minus sign
  std::vector<std::size_t> args;
};

struct Ast {
  std::vector<AstNode> nodes;
  std::size_t root = 0;  // the last node
};

// Parses the tokens (names resolved against the inputs); throws ExprError.
Ast parse_ast(std::string_view text, const std::vector<Token>& tokens, const std::vector<ExprInput>& inputs);

// Types the tree and builds the shared DAG; throws ExprError.
ExprDag build_dag(std::string_view text, const Ast& ast, const std::vector<ExprInput>& inputs);

// The largest magnitudes an integer dtype holds, for a positive and a
// negative literal, and its range as text ("-128 to 127"); zeros for the
// other dtypes. The parser and ExprBuilder check literals against it.
struct IntRange {
  std::uint64_t max_positive = 0, max_negative = 0;
  std::string text;
};
IntRange int_range(DType t);

// d (finite) rounded once to a float dtype, to nearest even: the value a
// literal of that dtype holds (an f16 literal is an f16 value). For f32, d
// must be at most FLT_MAX in magnitude; the 16-bit types give inf beyond range.
double round_to_float_dtype(double d, DType t);

// The value of a Number node in dtype t; throws ExprError when t cannot
// represent it (or is bool).
ExprLiteral type_number(std::string_view text, const AstNode& number, DType t);

// A byte as shown in a message: 'c', or '\xHH' when not printable.
std::string quote_char(char c);

}  // namespace bcastgen::gen::expr_detail
