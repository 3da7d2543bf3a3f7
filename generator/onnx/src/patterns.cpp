#include "patterns.h"

#include <cmath>
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

// 1 + erf(x / sqrt(2)) (or x * 1/sqrt(2)), either operand order: x, or nullopt.
std::optional<Value> one_plus_erf(const gen::ExprBuilder& b, Value v) {
  const ExprNode& add = b.node_at(v);
  if (!is_op(add, Op::Add)) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const ExprNode& erf = b.node_at(add.args[static_cast<std::size_t>(k)]);
    if (!literal_near(b, add.args[static_cast<std::size_t>(1 - k)], 1.0) || erf.kind != ExprKind::Unary ||
        erf.unary != UnaryOp::Erf) {
      continue;
    }
    const ExprNode& s = b.node_at(erf.args[0]);
    if (is_op(s, Op::Divide) && literal_near(b, s.args[1], std::sqrt(2.0))) return s.args[0];
    if (is_op(s, Op::Multiply)) {
      for (int j = 0; j < 2; ++j) {
        if (literal_near(b, s.args[static_cast<std::size_t>(j)], std::sqrt(0.5))) return s.args[static_cast<std::size_t>(1 - j)];
      }
    }
  }
  return std::nullopt;
}

}  // namespace

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
      if (one_plus_erf(b, f[static_cast<std::size_t>(h)]) == x) return fb.unary(UnaryOp::Gelu, x, origin);
    }
  }
  return std::nullopt;
}

}  // namespace bcastgen::onnx_import
