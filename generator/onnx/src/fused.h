// What import_model found: each node's fate, the fused groups and the
// kernels they share. The spec, the map and the report are written from it
// (outputs.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "group.h"
#include "model.h"

namespace bcastgen::onnx_import {

enum class Status { Candidate, Folded, NotCovered };

// The reason of every folded node in the map: a compiler reading the map
// may drop these nodes, their values are known.
inline constexpr const char* kFolded = "folded";

struct NodeState {
  Status status = Status::NotCovered;
  std::string reason;             // Folded (kFolded) and NotCovered
  std::string how;                // Folded: how its value is known
  std::optional<Constant> value;  // Folded: the value, where the frontend computed it
};

struct Kernel {
  GroupKernel k;     // as first built (the groups that share it differ only in their tensors)
  std::string name;  // k0, k1, ...
};

struct Fused {
  std::vector<NodeState> state;           // per node
  std::vector<std::vector<int>> groups;   // node indices, in graph order
  std::vector<GroupKernel> built;         // per group
  std::vector<Kernel> kernels;            // distinct
  std::vector<std::size_t> kernel_of;     // per group
};

std::string spec_yaml(const Fused& f, const std::string& model_name, const std::string& ns, bool fast);
std::string map_json(const Model& model, const Fused& f, const std::string& model_name);
std::string report(const Model& model, const Fused& f, const std::string& model_name);

}  // namespace bcastgen::onnx_import
