// Exported forms of functions bcastgen computes directly: PyTorch exports
// GELU before opset 20 as x * 0.5 * (1 + erf(x / sqrt(2))), five nodes.
#pragma once

#include <optional>

#include "node_map.h"

namespace bcastgen::onnx_import {

// If `v` is a GELU spelled with erf (the factors x, 0.5 and 1 + erf(x / c)
// in any order and grouping, c = sqrt(2) to f32 precision, or x * c' with
// c' = 1/sqrt(2)), gelu(x); else nullopt. gelu is within 2 ulp of the exact
// value everywhere; the five-node chain loses all relative accuracy below
// x = -4 or so, so the function is the better answer, not only the faster.
std::optional<Value> recognize_gelu(FoldingBuilder& b, Value v, const std::string& origin);

}  // namespace bcastgen::onnx_import
