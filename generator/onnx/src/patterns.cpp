#include "patterns.h"

#include <cmath>
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

// erf's argument x / sqrt(2) (or x * 1/sqrt(2)): x, or nullopt.
std::optional<Value> over_sqrt2(const gen::ExprBuilder& b, Value v) {
  const ExprNode& s = b.node_at(v);
  if (is_op(s, Op::Divide) && literal_near(b, arg(s, 1), std::sqrt(2.0))) return arg(s, 0);
  for (int j = 0; is_op(s, Op::Multiply) && j < 2; ++j) {
    if (literal_near(b, arg(s, j), std::sqrt(0.5))) return arg(s, 1 - j);
  }
  return std::nullopt;
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
  const ExprNode& m = b.node_at(v);
  for (int j = 0; is_op(m, Op::Multiply) && j < 2; ++j) {
    if (!literal_near(b, arg(m, j), std::sqrt(2.0 / M_PI))) continue;
    const ExprNode& sum = b.node_at(arg(m, 1 - j));
    for (int k = 0; is_op(sum, Op::Add) && k < 2; ++k) {
      const Value x = arg(sum, k);
      const ExprNode& cubic = b.node_at(arg(sum, 1 - k));
      for (int c = 0; is_op(cubic, Op::Multiply) && c < 2; ++c) {
        if (literal_near(b, arg(cubic, c), 0.044715) && is_cube_of(b, arg(cubic, 1 - c), x)) return x;
      }
    }
  }
  return std::nullopt;
}

// 1 + erf(x / sqrt(2)) or 1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)), either
// operand order: x and the GELU it is half of, or nullopt.
std::optional<std::pair<Value, UnaryOp>> one_plus_gelu_term(const gen::ExprBuilder& b, Value v) {
  const ExprNode& add = b.node_at(v);
  for (int k = 0; is_op(add, Op::Add) && k < 2; ++k) {
    const ExprNode& f = b.node_at(arg(add, k));
    if (!literal_near(b, arg(add, 1 - k), 1.0) || f.kind != ExprKind::Unary) continue;
    if (f.unary == UnaryOp::Erf) {
      if (const auto x = over_sqrt2(b, arg(f, 0))) return std::pair{*x, UnaryOp::Gelu};
    } else if (f.unary == UnaryOp::Tanh) {
      if (const auto x = tanh_gelu_argument(b, arg(f, 0))) return std::pair{*x, UnaryOp::GeluTanh};
    }
  }
  return std::nullopt;
}

// min(max(x + 3, 0), 6), each op's operands in either order (Clip(x + 3,
// 0, 6) as the frontend maps it): x, or nullopt.
std::optional<Value> relu6_of_x_plus_3(const gen::ExprBuilder& b, Value v) {
  // The operand of `op`(a, literal `lit`), either order, or nullopt.
  auto with_literal = [&](Value w, Op op, double lit) -> std::optional<Value> {
    const ExprNode& n = b.node_at(w);
    if (!is_op(n, op)) return std::nullopt;
    for (int k = 0; k < 2; ++k) {
      if (literal_near(b, arg(n, k), lit)) return arg(n, 1 - k);
    }
    return std::nullopt;
  };
  const std::optional<Value> below6 = with_literal(v, Op::Minimum, 6);
  const std::optional<Value> above0 = below6 ? with_literal(*below6, Op::Maximum, 0) : std::nullopt;
  return above0 ? with_literal(*above0, Op::Add, 3) : std::nullopt;
}

// Whether `v` divides by 6 (x / 6 or x * 1/6): its dividend, or nullopt.
std::optional<Value> over6(const gen::ExprBuilder& b, Value v) {
  const ExprNode& n = b.node_at(v);
  if (is_op(n, Op::Divide) && literal_near(b, arg(n, 1), 6)) return arg(n, 0);
  if (is_op(n, Op::Multiply)) {
    for (int k = 0; k < 2; ++k) {
      if (literal_near(b, arg(n, k), 1.0 / 6.0)) return arg(n, 1 - k);
    }
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
  if (const std::optional<Value> product = over6(b, v)) {
    if (const std::optional<Value> x = x_times_relu6(b, *product)) return fb.unary(UnaryOp::Hardswish, *x, origin);
  }
  // x * (r / 6)
  const ExprNode& n = b.node_at(v);
  if (!is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const std::optional<Value> r = over6(b, arg(n, k));
    const std::optional<Value> x = r ? relu6_of_x_plus_3(b, *r) : std::nullopt;
    if (x && *x == arg(n, 1 - k)) return fb.unary(UnaryOp::Hardswish, *x, origin);
  }
  return std::nullopt;
}

std::optional<Value> recognize_mish(FoldingBuilder& fb, Value v, const std::string& origin) {
  const gen::ExprBuilder& b = fb.raw();
  const ExprNode& n = b.node_at(v);
  if (!dtype_info(b.dtype(v)).is_float || !is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const ExprNode& t = b.node_at(arg(n, k));
    if (t.kind != ExprKind::Unary || t.unary != UnaryOp::Tanh) continue;
    const ExprNode& sp = b.node_at(arg(t, 0));
    if (sp.kind == ExprKind::Unary && sp.unary == UnaryOp::Softplus && arg(sp, 0) == arg(n, 1 - k)) {
      return fb.unary(UnaryOp::Mish, arg(n, 1 - k), origin);
    }
  }
  return std::nullopt;
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
  const gen::ExprBuilder& b = fb.raw();
  const ExprNode& n = b.node_at(v);
  if (!dtype_info(b.dtype(v)).is_float || !is_op(n, Op::Multiply)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const ExprNode& s = b.node_at(arg(n, k));
    if (s.kind == ExprKind::Unary && s.unary == UnaryOp::Sigmoid && arg(s, 0) == arg(n, 1 - k)) {
      return fb.unary(UnaryOp::Silu, arg(n, 1 - k), origin);
    }
  }
  return std::nullopt;
}

}  // namespace bcastgen::onnx_import
