// Exported forms of functions bcastgen computes directly: PyTorch exports
// GELU before opset 20 as x * 0.5 * (1 + erf(x / sqrt(2))), five nodes, and
// its tanh approximation as x * 0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715
// x^3))), nine; SiLU as x * Sigmoid(x), Mish before opset 18 as
// x * Tanh(Softplus(x)); paddle2onnx writes HardSwish as
// x * Clip(x + 3, 0, 6) / 6.
#pragma once

#include <optional>

#include "node_map.h"

namespace bcastgen::onnx_import {

// If `v` is a GELU spelled out (the factors x, 0.5 and 1 + erf(x / c) in
// any order and grouping, c = sqrt(2) to 1e-6, or x * c' with c' =
// 1/sqrt(2)), gelu(x); with 1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)) (x^3
// as Pow or two Muls), gelu_tanh(x); else nullopt. Both functions are within
// 2 ulp of the exact value everywhere; the spelled-out chains lose all
// relative accuracy for large negative x (the erf form below x = -4 or so),
// so the function is the better answer, not only the faster.
std::optional<Value> recognize_gelu(FoldingBuilder& b, Value v, const std::string& origin);

// If `v` is x * sigmoid(x) (either order; PyTorch exports SiLU and swish so,
// as Sigmoid and Mul), silu(x); else nullopt. One node, within silu's bound.
std::optional<Value> recognize_silu(FoldingBuilder& b, Value v, const std::string& origin);

// If `v` is x * min(max(x + 3, 0), 6) / 6 (the product in either order and
// grouping: (x * r) / 6, x * (r / 6), with / 6 or * 1/6), hardswish(x); else
// nullopt. The function is ONNX's HardSwish definition, x * max(0, min(1,
// x * alpha + 1/2)), bit for bit; the chain rounds otherwise (within an
// ulp, and both are 0 from x = -3 down).
std::optional<Value> recognize_hardswish(FoldingBuilder& b, Value v, const std::string& origin);

// If `v` is x * tanh(softplus(x)) (either order), mish(x); else nullopt:
// one node within 1 ulp where the chain rounds three times.
std::optional<Value> recognize_mish(FoldingBuilder& b, Value v, const std::string& origin);

}  // namespace bcastgen::onnx_import
