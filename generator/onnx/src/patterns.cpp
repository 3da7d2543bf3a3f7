#include "patterns.h"

#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

namespace bcastgen::onnx_import {

namespace {

bool literal_near(const gen::ExprBuilder& b, Value v, double want) {
  const ExprNode& n = b.node_at(v);
  return n.kind == ExprKind::Literal && dtype_info(n.dtype).is_float && std::fabs(n.literal.f - want) <= 1e-6;
}

bool is_op(const ExprNode& n, Op op) { return n.kind == ExprKind::Binary && n.op == op; }

// The factors of a product of up to three terms, through nested multiplies.
void factors(const gen::ExprBuilder& b, Value v, int depth, std::vector<Value>* out) {
  const ExprNode& n = b.node_at(v);
  if (depth < 2 && is_op(n, Op::Multiply)) {
    for (std::size_t a : n.args) factors(b, a, depth + 1, out);
  } else {
    out->push_back(v);
  }
}

Value arg(const ExprNode& n, int k) { return n.args[static_cast<std::size_t>(k)]; }

// The other operand of `v` = op(a, literal `lit`), the literal on either
// side (op commutative), or nullopt.
std::optional<Value> beside_literal(const gen::ExprBuilder& b, Value v, Op op, double lit) {
  const ExprNode& n = b.node_at(v);
  if (!is_op(n, op)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    if (literal_near(b, arg(n, k), lit)) return arg(n, 1 - k);
  }
  return std::nullopt;
}

// x / c or x * (1/c), either order: x, or nullopt (erf's argument x /
// sqrt(2), hardswish's product / 6).
std::optional<Value> divided_by(const gen::ExprBuilder& b, Value v, double c) {
  const ExprNode& n = b.node_at(v);
  if (is_op(n, Op::Divide) && literal_near(b, arg(n, 1), c)) return arg(n, 0);
  return beside_literal(b, v, Op::Multiply, 1.0 / c);
}

// x^3 as power(x, 3) or a product of three x.
bool is_cube_of(const gen::ExprBuilder& b, Value v, Value x) {
  const ExprNode& n = b.node_at(v);
  if (is_op(n, Op::Power)) return arg(n, 0) == x && literal_near(b, arg(n, 1), 3.0);
  std::vector<Value> f;
  factors(b, v, 0, &f);
  return f.size() == 3 && f[0] == x && f[1] == x && f[2] == x;
}

// tanh's argument sqrt(2/pi) * (x + 0.044715 * x^3), any operand order: x, or nullopt.
std::optional<Value> tanh_gelu_argument(const gen::ExprBuilder& b, Value v) {
  const std::optional<Value> sum = beside_literal(b, v, Op::Multiply, std::sqrt(2.0 / M_PI));
  if (!sum || !is_op(b.node_at(*sum), Op::Add)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const Value x = arg(b.node_at(*sum), k);
    const std::optional<Value> cube = beside_literal(b, arg(b.node_at(*sum), 1 - k), Op::Multiply, 0.044715);
    if (cube && is_cube_of(b, *cube, x)) return x;
  }
  return std::nullopt;
}

// 1 + erf(x / sqrt(2)) or 1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)), either
// operand order: x and the GELU it is half of, or nullopt.
std::optional<std::pair<Value, UnaryOp>> one_plus_gelu_term(const gen::ExprBuilder& b, Value v) {
  const std::optional<Value> term = beside_literal(b, v, Op::Add, 1.0);
  if (!term) return std::nullopt;
  const ExprNode& f = b.node_at(*term);
  if (f.kind != ExprKind::Unary) return std::nullopt;
  if (f.unary == UnaryOp::Erf) {
    if (const auto x = divided_by(b, arg(f, 0), std::sqrt(2.0))) return std::pair{*x, UnaryOp::Gelu};
  } else if (f.unary == UnaryOp::Tanh) {
    if (const auto x = tanh_gelu_argument(b, arg(f, 0))) return std::pair{*x, UnaryOp::GeluTanh};
  }
  return std::nullopt;
}

// min(max(x + 3, 0), 6), each op's operands in either order (Clip(x + 3,
// 0, 6) as the frontend maps it): x, or nullopt.
std::optional<Value> relu6_of_x_plus_3(const gen::ExprBuilder& b, Value v) {
  const std::optional<Value> below6 = beside_literal(b, v, Op::Minimum, 6);
  const std::optional<Value> above0 = below6 ? beside_literal(b, *below6, Op::Maximum, 0) : std::nullopt;
  return above0 ? beside_literal(b, *above0, Op::Add, 3) : std::nullopt;
}

// Whether `v` is x * u1(u2(...(x))) (either order) for the unary functions
// `chain`, outermost first: x, or nullopt. SiLU is x * sigmoid(x), Mish
// x * tanh(softplus(x)).
std::optional<Value> x_times_unary_chain(const gen::ExprBuilder& b, Value v, std::initializer_list<UnaryOp> chain) {
  const ExprNode& n = b.node_at(v);
  if (!dtype_info(b.dtype(v)).is_float || !is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    Value u = arg(n, k);
    bool matches = true;
    for (UnaryOp op : chain) {
      const ExprNode& un = b.node_at(u);
      matches = matches && un.kind == ExprKind::Unary && un.unary == op;
      if (!matches) break;
      u = arg(un, 0);
    }
    if (matches && u == arg(n, 1 - k)) return u;
  }
  return std::nullopt;
}

// Whether `v` is x * r (either order) with r = relu6(x + 3): x, or nullopt.
std::optional<Value> x_times_relu6(const gen::ExprBuilder& b, Value v) {
  const ExprNode& n = b.node_at(v);
  if (!is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const std::optional<Value> x = relu6_of_x_plus_3(b, arg(n, k));
    if (x && *x == arg(n, 1 - k)) return x;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Value> recognize_hardswish(FoldingBuilder& fb, Value v, const std::string& origin) {
  const gen::ExprBuilder& b = fb.raw();
  if (!dtype_info(b.dtype(v)).is_float) return std::nullopt;
  // (x * r) / 6
  if (const std::optional<Value> product = divided_by(b, v, 6)) {
    if (const std::optional<Value> x = x_times_relu6(b, *product)) return fb.unary(UnaryOp::Hardswish, *x, origin);
  }
  // x * (r / 6)
  const ExprNode& n = b.node_at(v);
  if (!is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const std::optional<Value> r = divided_by(b, arg(n, k), 6);
    const std::optional<Value> x = r ? relu6_of_x_plus_3(b, *r) : std::nullopt;
    if (x && *x == arg(n, 1 - k)) return fb.unary(UnaryOp::Hardswish, *x, origin);
  }
  return std::nullopt;
}

std::optional<Value> recognize_mish(FoldingBuilder& fb, Value v, const std::string& origin) {
  const std::optional<Value> x = x_times_unary_chain(fb.raw(), v, {UnaryOp::Tanh, UnaryOp::Softplus});
  return x ? std::optional<Value>(fb.unary(UnaryOp::Mish, *x, origin)) : std::nullopt;
}

std::optional<Value> recognize_gelu(FoldingBuilder& fb, Value v, const std::string& origin) {
  const gen::ExprBuilder& b = fb.raw();
  if (!dtype_info(b.dtype(v)).is_float || !is_op(b.node_at(v), Op::Multiply)) return std::nullopt;
  std::vector<Value> f;
  factors(b, v, 0, &f);
  if (f.size() != 3) return std::nullopt;
  for (int half = 0; half < 3; ++half) {
    if (!literal_near(b, f[static_cast<std::size_t>(half)], 0.5)) continue;
    for (int h = 0; h < 3; ++h) {
      if (h == half) continue;
      const Value x = f[static_cast<std::size_t>(3 - half - h)];
      const auto term = one_plus_gelu_term(b, f[static_cast<std::size_t>(h)]);
      if (term && term->first == x) return fb.unary(term->second, x, origin);
    }
  }
  return std::nullopt;
}

std::optional<Value> recognize_silu(FoldingBuilder& fb, Value v, const std::string& origin) {
  const std::optional<Value> x = x_times_unary_chain(fb.raw(), v, {UnaryOp::Sigmoid});
  return x ? std::optional<Value>(fb.unary(UnaryOp::Silu, *x, origin)) : std::nullopt;
}

}  // namespace bcastgen::onnx_import
