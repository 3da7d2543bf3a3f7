// One fused group of ONNX nodes as one expression kernel.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bcastgen/gen/expr_builder.h"
#include "model.h"
#include "node_map.h"

namespace bcastgen::onnx_import {

// A kernel parameter: an ONNX tensor computed outside the group, read with
// `shape` (its own, or BatchNormalization's [C] as [C,1,1]).
struct Param {
  std::string name;    // x0, x1, ... in order of first use
  std::string tensor;  // the ONNX tensor
  Shape shape;
  DType dtype = DType::F32;
  InputLayout layout;  // read through a Transpose, Reshape, Slice, ... (empty: as it is)
};

struct GroupKernel {
  std::vector<Param> params;
  std::vector<gen::ExprInput> inputs;  // the params as the expression's inputs
  ExprDag expr;                        // as parse_expr reads `text` back
  std::string text;                    // print_expr
  std::string output;                  // the ONNX tensor of the root
  Shape shape;
  DType dtype = DType::F32;
  bool is_literal = false;             // the nodes computed a constant (folded)
  std::set<std::string> reshaped;      // tensors read with another shape or through a layout
};

// Maps `members` (node indices, in graph order; the last one's output is the
// result) into one expression. Throws NotCovered.
GroupKernel build_group(const Model& model, const std::vector<int>& members);

}  // namespace bcastgen::onnx_import
