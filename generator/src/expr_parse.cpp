// The expression parser: tokens to an untyped syntax tree. Binary operators
// are parsed with an operator stack (one loop, whatever the chain's length),
// prefix operators with a loop; only parentheses and call arguments recurse,
// and those are counted against kMaxExprDepth, so no input can overflow the
// stack.
#include <algorithm>
#include <optional>

#include "expr_ast.h"

namespace bcastgen::gen::expr_detail {
namespace {

struct BinarySymbol {
  std::string_view symbol;
  Op op;
  int precedence;  // higher binds tighter, as in C
};

constexpr BinarySymbol kBinarySymbols[] = {
    {"||", Op::LogicalOr, 1},          {"&&", Op::LogicalAnd, 2},  {"|", Op::BitwiseOr, 3},
    {"^", Op::BitwiseXor, 4},          {"&", Op::BitwiseAnd, 5},   {"==", Op::Equal, 6},
    {"!=", Op::NotEqual, 6},           {"<", Op::Less, 7},         {"<=", Op::LessEqual, 7},
    {">", Op::Greater, 7},             {">=", Op::GreaterEqual, 7}, {"<<", Op::BitwiseLeftShift, 8},
    {">>", Op::BitwiseRightShift, 8},  {"+", Op::Add, 9},          {"-", Op::Subtract, 9},
    {"*", Op::Multiply, 10},           {"/", Op::Divide, 10},      {"%", Op::FloorMod, 10},
};

constexpr std::pair<std::string_view, UnaryOp> kPrefixSymbols[] = {
    {"-", UnaryOp::Neg}, {"!", UnaryOp::LogicalNot}, {"~", UnaryOp::BitwiseNot}};

// What a call's name means.
struct Function {
  enum Kind { Binary, Unary, Clamp, Where, Cast, Expand, Layout, Reduce } kind;
  Op op = Op::Add;
  UnaryOp unary = UnaryOp::Neg;
  LayoutKind layout = LayoutKind::Transpose;
  ReduceOp reduce = ReduceOp::Sum;
};

std::optional<Function> find_function(std::string_view name) {
  Op op;
  if (parse_op(name, &op) && op != Op::Broadcast) return Function{Function::Binary, op};
  if (name == "max") return Function{Function::Binary, Op::Maximum};
  if (name == "min") return Function{Function::Binary, Op::Minimum};
  for (const UnaryInfo& u : kUnaryInfo) {
    if (name == u.name) return Function{Function::Unary, Op::Add, u.op};
  }
  if (name == "clamp") return Function{Function::Clamp};
  if (name == "where") return Function{Function::Where};
  if (name == "cast") return Function{Function::Cast};
  if (name == "expand") return Function{Function::Expand};
  for (const LayoutInfo& l : kLayoutInfo) {
    if (name == l.name) return Function{Function::Layout, Op::Add, UnaryOp::Neg, l.kind};
  }
  // (max and min over axes are the binary calls above with a list: call().)
  for (const ReduceInfo& r : kReduceInfo) {
    if (name == r.name) return Function{Function::Reduce, Op::Add, UnaryOp::Neg, LayoutKind::Transpose, r.op};
  }
  return std::nullopt;
}

std::string function_names() {
  std::vector<std::string> names = {"max", "min", "clamp", "where", "cast", "expand"};
  for (const LayoutInfo& l : kLayoutInfo) names.push_back(l.name);
  for (Op op : kAllOps) {
    if (op != Op::Broadcast) names.push_back(op_name(op));
  }
  for (const OpAlias& a : kOpAliases) names.push_back(a.name);
  for (const UnaryInfo& u : kUnaryInfo) names.push_back(u.name);
  for (const ReduceInfo& r : kReduceInfo) names.push_back(r.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string describe(const Token& t) {
  if (t.kind == Tok::End) return "the end of the expression";
  if (t.kind == Tok::Equals) return "'=' (comparison is '==')";
  if (t.text.size() > 24) return "'" + std::string(t.text.substr(0, 24)) + "...'";
  return "'" + std::string(t.text) + "'";
}

AstNode node(AstKind kind, int column, std::string name) {
  AstNode n;
  n.kind = kind;
  n.column = column;
  n.name = std::move(name);
  return n;
}

class Parser {
 public:
  Parser(std::string_view text, const std::vector<Token>& tokens, const std::vector<ExprInput>& inputs)
      : text_(text), tokens_(tokens), inputs_(inputs) {}

  Ast parse() {
    if (peek().kind == Tok::End) fail(peek(), "empty expression");
    ast_.root = expression();
    if (peek().kind != Tok::End) fail(peek(), "unexpected " + describe(peek()) + " after a complete expression");
    return std::move(ast_);
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  [[noreturn]] void fail(const Token& at, const std::string& message) const {
    throw ExprError(text_, at.column, message);
  }
  [[noreturn]] void fail(int column, const std::string& message) const { throw ExprError(text_, column, message); }

  std::size_t add(AstNode n) {
    ast_.nodes.push_back(std::move(n));
    return ast_.nodes.size() - 1;
  }
  std::size_t add_binary(Op op, std::size_t a, std::size_t b, int column, std::string_view name) {
    AstNode n = node(AstKind::Binary, column, std::string(name));
    n.op = op;
    n.args = {a, b};
    return add(std::move(n));
  }

  static const BinarySymbol* binary_symbol(const Token& t) {
    if (t.kind != Tok::Symbol) return nullptr;
    for (const BinarySymbol& b : kBinarySymbols) {
      if (b.symbol == t.text) return &b;
    }
    return nullptr;
  }

  // Operands and operators on two stacks; an operator is applied when one
  // of lower or equal precedence follows (left associativity).
  std::size_t expression() {
    std::vector<std::size_t> operands{unary()};
    std::vector<std::pair<const BinarySymbol*, int>> ops;  // symbol, column
    auto reduce = [&] {
      const std::size_t b = operands.back();
      operands.pop_back();
      operands.back() = add_binary(ops.back().first->op, operands.back(), b, ops.back().second,
                                   ops.back().first->symbol);
      ops.pop_back();
    };
    while (const BinarySymbol* sym = binary_symbol(peek())) {
      while (!ops.empty() && ops.back().first->precedence >= sym->precedence) reduce();
      ops.emplace_back(sym, next().column);
      operands.push_back(unary());
    }
    while (!ops.empty()) reduce();
    return operands.back();
  }

  std::size_t unary() {
    std::vector<std::pair<UnaryOp, const Token*>> prefix;
    for (;;) {
      const Token& t = peek();
      const auto* p = std::find_if(std::begin(kPrefixSymbols), std::end(kPrefixSymbols),
                                   [&](const auto& s) { return t.kind == Tok::Symbol && s.first == t.text; });
      if (p == std::end(kPrefixSymbols)) break;
      prefix.emplace_back(p->second, &next());
    }
    std::size_t x = primary();
    for (auto it = prefix.rbegin(); it != prefix.rend(); ++it) {
      AstNode& operand = ast_.nodes[x];
      if (it->first == UnaryOp::Neg && operand.kind == AstKind::Number) {
        // "-5" is one literal, so that -128 is an i8 and -1 is no u8.
        operand.text = operand.text[0] == '-' ? operand.text.substr(1) : "-" + operand.text;
        operand.column = it->second->column;
        continue;
      }
      AstNode n = node(AstKind::Unary, it->second->column, std::string(it->second->text));
      n.unary = it->first;
      n.args = {x};
      x = add(std::move(n));
    }
    return x;
  }

  std::size_t primary() {
    const Token& t = next();
    if (t.kind == Tok::Number) {
      AstNode n = node(AstKind::Number, t.column, std::string(t.text));
      n.text = std::string(t.text);
      return add(std::move(n));
    }
    if (t.kind == Tok::LParen) {
      enter(t);
      const std::size_t x = expression();
      if (peek().kind != Tok::RParen) {
        fail(peek(), "expected ')' to close the '(' at column " + std::to_string(t.column) + ", found " +
                         describe(peek()));
      }
      next();
      --depth_;
      return x;
    }
    if (t.kind != Tok::Ident) fail(t, "expected an operand, found " + describe(t));
    if (peek().kind == Tok::LParen) return call(t);
    return name(t);
  }

  void enter(const Token& paren) {
    if (++depth_ > kMaxExprDepth) {
      fail(paren, "expression nested more than " + std::to_string(kMaxExprDepth) +
                      " levels deep (parentheses and calls)");
    }
  }

  std::size_t name(const Token& t) {
    if (t.text == "true" || t.text == "false") {
      AstNode n = node(AstKind::Bool, t.column, std::string(t.text));
      n.value = t.text == "true";
      return add(std::move(n));
    }
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      if (inputs_[i].name == t.text) {
        AstNode n = node(AstKind::Input, t.column, std::string(t.text));
        n.input = i;
        return add(std::move(n));
      }
    }
    const std::string name(t.text);
    DType dtype;
    if (find_function(t.text)) fail(t, "'" + name + "' is a function: call it as " + name + "(...)");
    if (parse_dtype(t.text, &dtype)) fail(t, "'" + name + "' is a dtype: dtypes appear only in cast(x, " + name + ")");
    std::string names;
    for (const ExprInput& in : inputs_) names += (names.empty() ? "" : ", ") + in.name;
    fail(t, "unknown input '" + name + "' (" + (names.empty() ? "no inputs are declared" : "inputs: " + names) + ")");
  }

  std::size_t call(const Token& fn) {
    const std::optional<Function> f = find_function(fn.text);
    const std::string name(fn.text);
    if (!f) fail(fn, "unknown function '" + name + "' (functions: " + function_names() + ")");
    enter(next());
    if (f->kind == Function::Layout) return layout_call(fn, f->layout);
    if (f->kind == Function::Reduce) return reduce_call(fn, f->reduce);
    std::vector<std::size_t> args;
    DType target = DType::Bool;
    Shape shape;
    std::size_t count = 0;
    if (peek().kind != Tok::RParen) {
      for (;; ++count) {
        if (f->kind == Function::Cast && count == 1) {
          target = dtype_argument();
        } else if (f->kind == Function::Binary && count == 1 && peek().kind == Tok::LBracket &&
                   (f->op == Op::Maximum || f->op == Op::Minimum)) {
          // max(x, [axes]), min(x, [axes]): the reductions.
          return reduce_rest(fn, f->op == Op::Maximum ? ReduceOp::Max : ReduceOp::Min, args[0]);
        } else if (f->kind == Function::Expand && count == 1) {
          shape = shape_argument();
        } else {
          args.push_back(expression());
        }
        if (peek().kind != Tok::Comma) break;
        next();
      }
      ++count;
    }
    if (peek().kind != Tok::RParen) {
      fail(peek(), "expected ',' or ')' in the arguments of " + name + ", found " + describe(peek()));
    }
    check_arity(fn, *f, count);
    next();
    --depth_;
    switch (f->kind) {
      case Function::Binary: return add_binary(f->op, args[0], args[1], fn.column, name);
      case Function::Clamp: {  // minimum(maximum(x, lo), hi), as NumPy's clip
        const std::size_t lower = add_binary(Op::Maximum, args[0], args[1], fn.column, name);
        return add_binary(Op::Minimum, lower, args[2], fn.column, name);
      }
      case Function::Unary: {
        AstNode n = node(AstKind::Unary, fn.column, name);
        n.unary = f->unary;
        n.args = std::move(args);
        return add(std::move(n));
      }
      case Function::Where:
      case Function::Cast: {
        AstNode n = node(f->kind == Function::Where ? AstKind::Where : AstKind::Cast, fn.column, name);
        n.dtype = target;
        n.args = std::move(args);
        return add(std::move(n));
      }
      case Function::Expand: {
        AstNode n = node(AstKind::Expand, fn.column, name);
        n.target = std::move(shape);
        n.args = std::move(args);
        return add(std::move(n));
      }
      case Function::Layout:
      case Function::Reduce: break;  // layout_call and reduce_call, above
    }
    fail(fn, "unknown function '" + name + "'");
  }

  // transpose(x, [perm]), reshape(x, [dims]) or slice(x, axis=a, start=s,
  // stop=e[, step=k]) (the names optional, in that order): x is an input,
  // or another of these around one; the step joins the input's layout.
  std::size_t layout_call(const Token& fn, LayoutKind kind) {
    const LayoutInfo& info = layout_info(kind);
    const std::size_t x = expression();
    if (ast_.nodes[x].kind != AstKind::Input) {
      fail(fn, std::string(info.name) + " reads an input in place: its first argument must be an input, or " +
                   "transpose, reshape or slice of one (the value of an expression has no layout)");
    }
    LayoutStep step;
    step.kind = kind;
    if (kind == LayoutKind::Slice) {
      static constexpr const char* kNames[] = {"axis", "start", "stop", "step"};
      std::int64_t* fields[] = {&step.axis, &step.start, &step.stop, &step.step};
      std::size_t count = 0;
      while (peek().kind == Tok::Comma && count < 4) {
        next();
        if (peek().kind == Tok::Ident && tokens_[pos_ + 1].kind == Tok::Equals) {
          if (peek().text != kNames[count]) {
            fail(peek(), "slice's argument " + std::to_string(count + 2) + " is " + kNames[count] + "=, found " +
                             describe(peek()) + " (slice(x, axis=a, start=s, stop=e, step=k))");
          }
          next();
          next();
        }
        *fields[count] = int_argument("slice's " + std::string(kNames[count]));
        ++count;
      }
      if (count < 3) fail(peek(), "slice takes (x, axis=a, start=s, stop=e[, step=k]), found " + describe(peek()));
      if (step.step == 0) fail(fn, "slice's step must not be 0");
    } else {
      if (peek().kind != Tok::Comma) {
        fail(peek(), std::string(info.name) + " takes " + info.params + ", found " + describe(peek()));
      }
      next();
      step.dims = dims_argument(info);
    }
    if (peek().kind != Tok::RParen) {
      fail(peek(), "expected ')' after the arguments of " + std::string(info.name) + ", found " + describe(peek()));
    }
    next();
    --depth_;
    ast_.nodes[x].layout.push_back(std::move(step));
    return x;
  }

  // sum(x, axes), mean, max, min, softmax, log_softmax: axes an integer
  // or a list [a0, a1, ...] of the operand's axes (negative from the end).
  std::size_t reduce_call(const Token& fn, ReduceOp op) {
    const std::size_t x = expression();
    if (peek().kind != Tok::Comma) {
      fail(peek(), std::string(reduce_name(op)) + " takes (x, axes): axes an integer or a list [a0, a1, ...], found " +
                       describe(peek()));
    }
    next();
    return reduce_rest(fn, op, x);
  }

  // The axes and closing parenthesis of a reduction of x (after its comma).
  std::size_t reduce_rest(const Token& fn, ReduceOp op, std::size_t x) {
    const std::string what = std::string(reduce_name(op)) + "'s axis";
    std::vector<std::int64_t> axes;
    if (peek().kind == Tok::LBracket) {
      next();
      while (peek().kind != Tok::RBracket) {
        if (axes.size() >= kMaxLayoutDims) fail(peek(), what + "es: at most " + std::to_string(kMaxLayoutDims));
        axes.push_back(int_argument(what));
        if (peek().kind == Tok::Comma) {
          next();
        } else if (peek().kind != Tok::RBracket) {
          fail(peek(), "expected ',' or ']' in " + what + "es, found " + describe(peek()));
        }
      }
      next();
      if (axes.empty()) fail(fn, std::string(reduce_name(op)) + " needs at least one axis");
    } else {
      axes.push_back(int_argument(what));
    }
    std::vector<std::int64_t> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      fail(fn, std::string(reduce_name(op)) + " names an axis twice");
    }
    if (peek().kind != Tok::RParen) {
      fail(peek(), "expected ')' after the arguments of " + std::string(fn.text) + ", found " + describe(peek()));
    }
    next();
    --depth_;
    AstNode n = node(AstKind::Reduce, fn.column, std::string(fn.text));
    n.reduce = op;
    n.axes = std::move(axes);
    n.args = {x};
    return add(std::move(n));
  }

  // An integer argument: digits with an optional minus sign.
  std::int64_t int_argument(const std::string& what) {
    const bool negative = peek().kind == Tok::Symbol && peek().text == "-";
    if (negative) next();
    const Token& t = next();
    std::int64_t v = 0;
    const bool digits = t.kind == Tok::Number && t.text.find_first_not_of("0123456789") == std::string_view::npos;
    for (std::size_t i = 0; digits && i < t.text.size(); ++i) {
      const int d = t.text[i] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v)) {
        fail(t, what + " is out of the range of int64");
      }
    }
    if (!digits) fail(t, what + " must be an integer, found " + describe(t));
    if (!negative && v == INT64_MIN) fail(t, what + " is out of the range of int64");
    return negative ? v : -v;
  }

  // transpose's perm or reshape's dims: [d0, d1, ...] of integers.
  std::vector<std::int64_t> dims_argument(const LayoutInfo& info) {
    const Token& open = next();
    if (open.kind != Tok::LBracket) {
      fail(open, std::string(info.name) + "'s second argument is a list [d0, d1, ...], found " + describe(open));
    }
    std::vector<std::int64_t> dims;
    while (peek().kind != Tok::RBracket) {
      if (dims.size() >= kMaxLayoutDims) {
        fail(peek(), std::string(info.name) + " takes at most " + std::to_string(kMaxLayoutDims) + " dims");
      }
      dims.push_back(int_argument("a dim of " + std::string(info.name)));
      if (peek().kind == Tok::Comma) {
        next();
      } else if (peek().kind != Tok::RBracket) {
        fail(peek(), "expected ',' or ']' in " + std::string(info.name) + "'s list, found " + describe(peek()));
      }
    }
    next();
    return dims;
  }

  DType dtype_argument() {
    const Token& t = next();
    DType dtype;
    if (t.kind != Tok::Ident || !parse_dtype(t.text, &dtype)) {
      std::string names;
      for (DType d : kAllDTypes) names += (names.empty() ? "" : ", ") + std::string(dtype_name(d));
      fail(t, "cast's second argument must be a dtype (" + names + "), found " + describe(t));
    }
    return dtype;
  }

  // expand's target: [d0, d1, ...], dims written as non-negative integers.
  Shape shape_argument() {
    const Token& open = next();
    if (open.kind != Tok::LBracket) {
      fail(open, "expand's second argument must be a shape [d0, d1, ...], found " + describe(open));
    }
    Shape shape;
    while (peek().kind != Tok::RBracket) {
      const Token& t = next();
      std::int64_t d = 0;
      const bool digits = t.kind == Tok::Number && t.text.find_first_not_of("0123456789") == std::string_view::npos;
      for (std::size_t i = 0; digits && i < t.text.size(); ++i) {
        if (__builtin_mul_overflow(d, 10, &d) || __builtin_add_overflow(d, t.text[i] - '0', &d)) d = -1;
        if (d < 0) break;
      }
      if (!digits || d < 0) {
        fail(t, "a dimension of expand's shape must be a non-negative integer, found " + describe(t));
      }
      shape.push_back(d);
      if (peek().kind == Tok::Comma) {
        next();
      } else if (peek().kind != Tok::RBracket) {
        fail(peek(), "expected ',' or ']' in expand's shape, found " + describe(peek()));
      }
    }
    next();
    return shape;
  }

  void check_arity(const Token& fn, const Function& f, std::size_t count) const {
    static constexpr const char* kParams[] = {"(a, b)",       "(x)",        "(x, lo, hi)",
                                              "(cond, x, y)", "(x, dtype)", "(x, [d0, d1, ...])"};
    static constexpr std::size_t kCounts[] = {2, 1, 3, 3, 2, 2};
    if (count == kCounts[f.kind]) return;
    fail(fn, std::string(fn.text) + " takes " + std::to_string(kCounts[f.kind]) + " argument" +
                 (kCounts[f.kind] == 1 ? "" : "s") + " " + kParams[f.kind] + ", got " + std::to_string(count));
  }

  std::string_view text_;
  const std::vector<Token>& tokens_;
  const std::vector<ExprInput>& inputs_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  Ast ast_;
};

}  // namespace

Ast parse_ast(std::string_view text, const std::vector<Token>& tokens, const std::vector<ExprInput>& inputs) {
  return Parser(text, tokens, inputs).parse();
}

}  // namespace bcastgen::gen::expr_detail
