// The expression front end's entry point (parse_expr), its error type and
// the DAG printer; the steps are expr_lex, expr_parse and expr_dag.
#include "bcastgen/gen/expr.h"

#include <algorithm>

#include "bcastgen/gen/expr_builder.h"
#include "expr_ast.h"

namespace bcastgen::gen {
namespace {

std::string error_text(std::string_view text, int column, const std::string& message) {
  return "column " + std::to_string(column) + ": " + message + "\n" + expr_caret(text, column);
}

bool is_identifier(std::string_view s) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !letter(s[0])) return false;
  for (char c : s) {
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

void check_inputs(const std::vector<ExprInput>& inputs) {
  if (inputs.size() > kMaxExprInputs) {
    throw InvalidArgument("an expression takes at most " + std::to_string(kMaxExprInputs) + " inputs, got " +
                          std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& name = inputs[i].name;
    if (!is_identifier(name) || name == "true" || name == "false") {
      throw InvalidArgument("input name '" + name +
                            "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, not true or false)");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (inputs[j].name == name) throw InvalidArgument("input '" + name + "' is declared twice");
    }
  }
}

}  // namespace

ExprError::ExprError(std::string_view text, int column, const std::string& message)
    : InvalidArgument(error_text(text, column, message)), column_(column), message_(message) {}

std::string expr_caret(std::string_view text, int column) {
  constexpr std::size_t kBefore = 60, kWidth = 100;  // shown of a long line, around the column
  const std::size_t pos = column < 1 ? 0 : std::min(static_cast<std::size_t>(column - 1), text.size());
  std::size_t begin = pos == 0 ? 0 : text.rfind('\n', pos - 1) + 1;  // npos + 1 == 0
  std::size_t end = std::min(text.find('\n', begin), text.size());
  std::string line = "  ", caret = "  ";
  if (pos - begin > kBefore) {
    begin = pos - kBefore;
    line += "...";
    caret += "   ";
  }
  const bool cut = end - begin > kWidth;
  if (cut) end = begin + kWidth;
  for (std::size_t i = begin; i < end; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    // Tabs stay tabs so the caret lines up; other unprintable bytes are one '?'.
    line += c == '\t' || (c >= 0x20 && c < 0x7f) ? text[i] : '?';
    if (i < pos) caret += c == '\t' ? '\t' : ' ';
  }
  return line + (cut ? "..." : "") + "\n" + caret + "^";
}

std::string node_to_string(const ExprDag& dag, std::size_t i, const std::vector<std::string>& input_names) {
  auto t = [](std::size_t k) { return "t" + std::to_string(k); };
  const ExprNode& n = dag.nodes[i];
  std::string args;
  for (std::size_t a : n.args) args += (args.empty() ? "" : ", ") + t(a);
  std::string s = t(i) + " = ";
  switch (n.kind) {
    case ExprKind::Input:
      s += n.input < input_names.size() ? layout_text(input_names[n.input], input_layout(dag, n.input)) : "input?";
      break;
    case ExprKind::Literal: s += n.literal.text; break;
    case ExprKind::Binary: s += std::string(op_name(n.op)) + "(" + args + ")"; break;
    case ExprKind::Unary: s += std::string(unary_name(n.unary)) + "(" + args + ")"; break;
    case ExprKind::Where: s += "where(" + args + ")"; break;
    case ExprKind::Cast: s += "cast(" + args + ", " + dtype_name(n.dtype) + ")"; break;
    case ExprKind::Expand: s += "expand(" + args + ", " + format_shape(n.target) + ")"; break;
    case ExprKind::Reduce: s += std::string(reduce_name(n.reduce)) + "(" + args + ", " + format_shape(n.axes) + ")"; break;
  }
  return s + " : " + dtype_name(n.dtype);
}

std::string to_string(const ExprDag& dag, const std::vector<ExprInput>& inputs) {
  std::vector<std::string> names;
  for (const ExprInput& in : inputs) names.push_back(in.name);
  std::string s;
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) s += node_to_string(dag, i, names) + "\n";
  return s + "root t" + std::to_string(dag.root) + "\n";
}

ExprDag parse_expr(std::string_view text, const std::vector<ExprInput>& inputs) {
  check_inputs(inputs);
  if (text.size() > kMaxExprLength) {
    throw ExprError(text, static_cast<int>(kMaxExprLength + 1),
                    "the expression is longer than " + std::to_string(kMaxExprLength) + " bytes");
  }
  const std::vector<expr_detail::Token> tokens = expr_detail::lex(text);
  return expr_detail::build_dag(text, expr_detail::parse_ast(text, tokens, inputs), inputs);
}

}  // namespace bcastgen::gen
