// Grouping a graph's elementwise nodes into fused kernels.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model.h"

namespace bcastgen::onnx_import {

// Who reads each tensor: node indices, one entry per read (a node inside an
// If/Loop/Scan body counts as a read by the node that holds the body).
std::map<std::string, std::vector<int>> tensor_readers(const onnx::GraphProto& graph);

struct PartitionInput {
  std::vector<bool> candidate;                    // per node: mapped alone, so fusible
  std::vector<std::set<std::string>> reshaped;    // per node: tensors it reads with another shape
};

// Maximal groups with one output each: a group grows from its root (its
// last node) over producers whose every read is inside the group, and that
// are not graph outputs. So a value also read outside ends a kernel (it is
// stored once, never recomputed), and every group is convex: only the root's
// value leaves it, and nothing downstream of the root can feed the group.
// At most `max_params` distinct tensors from outside per group (the
// expression's input limit). Groups and their members are in graph order.
std::vector<std::vector<int>> partition(const Model& model, const PartitionInput& in,
                                        const std::map<std::string, std::vector<int>>& readers,
                                        std::size_t max_params);

}  // namespace bcastgen::onnx_import
