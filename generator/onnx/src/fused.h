// What import_model found: each node's fate, the fused groups and the
// kernels they share. The spec, the map and the report are written from it
// (outputs.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "group.h"
#include "model.h"

namespace bcastgen::onnx_import {

enum class Status { Candidate, Folded, NotCovered };

struct NodeState {
  Status status = Status::NotCovered;
  std::string reason;  // Folded and NotCovered
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
