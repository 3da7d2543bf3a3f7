// Values known when the model is read, computed by the frontend: Constant
// and ConstantOfShape nodes, and the integer subgraphs that exports use to
// compute shapes (Shape -> Gather -> Unsqueeze -> Concat -> Reshape). Once
// every graph input has a static shape, these are constants; folding them
// and inferring shapes again makes every downstream shape static.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <onnx/onnx_pb.h>

#include "model.h"

namespace bcastgen::onnx_import {

// The most elements a folded value may have that is not uniform: shapes,
// indices and positions are short; larger tensors stay the model's work.
inline constexpr std::int64_t kMaxFoldedElements = 4096;

// The value of `node`'s single output, where it is known now: a Constant,
// a ConstantOfShape of a known shape, Shape or Size of a static shape, or an
// op of the shape set (fold.cpp, kFoldOps) whose inputs are all known and
// whose result is integer or bool (or uniform), with at most
// kMaxFoldedElements elements. nullopt otherwise. Throws ImportError for a
// value that makes the model invalid (a negative dimension, an index out
// of range), naming the node and the tensor.
std::optional<Constant> fold_node(const Model& model, const onnx::NodeProto& node);

// Checks the shape inputs and attributes a node gives its output shape by,
// where they are known: a Reshape, Expand, ConstantOfShape or Tile shape
// with a negative dimension, a Transpose whose perm is no permutation of
// its input's axes. Throws ImportError naming the node.
void check_shape_inputs(const Model& model, const onnx::NodeProto& node);

// Folds every node it can, in graph order, and infers shapes again with the
// folded values as Constant nodes, until nothing more folds. Returns the
// folded values by node index; each is also the model's constant.
std::map<int, Constant> fold_shapes(Model& model);

// Why `tensor`'s shape is not static after folding: the first node up its
// chain whose inputs have static shapes but whose output has none, and the
// input its shape depends on ("the shape of 'y' depends on the data of 'n'
// (input 1 of Reshape 'r')"); for messages of the nodes left out.
std::string unknown_shape_reason(const Model& model, const std::string& tensor);

// "i64 [3] = [2, 16, 64]" or "f32 [] = 0.125", "f32 [2, 16, 16] = all 0"
// for messages and the map.
std::string describe(const Constant& c);

}  // namespace bcastgen::onnx_import
