#include "partition.h"

#include <algorithm>

#include "node_map.h"

namespace bcastgen::onnx_import {

namespace {

// Every tensor a subgraph reads, including those of nested subgraphs.
void subgraph_reads(const onnx::GraphProto& g, std::set<std::string>* names) {
  for (const auto& node : g.node()) {
    for (const auto& t : node.input()) names->insert(t);
    for (const auto& a : node.attribute()) {
      if (a.has_g()) subgraph_reads(a.g(), names);
      for (const auto& sub : a.graphs()) subgraph_reads(sub, names);
    }
  }
}

}  // namespace

std::map<std::string, std::vector<int>> tensor_readers(const onnx::GraphProto& graph) {
  std::map<std::string, std::vector<int>> readers;
  for (int i = 0; i < graph.node_size(); ++i) {
    const auto& node = graph.node(i);
    for (const auto& t : node.input()) {
      if (!t.empty()) readers[t].push_back(i);
    }
    std::set<std::string> inner;
    for (const auto& a : node.attribute()) {
      if (a.has_g()) subgraph_reads(a.g(), &inner);
      for (const auto& sub : a.graphs()) subgraph_reads(sub, &inner);
    }
    for (const auto& t : inner) readers[t].push_back(i);
  }
  return readers;
}

std::vector<std::vector<int>> partition(const Model& model, const PartitionInput& in,
                                        const std::map<std::string, std::vector<int>>& readers,
                                        std::size_t max_params) {
  const auto& graph = model.graph();
  const int n = graph.node_size();
  std::map<std::string, int> producer;
  for (int i = 0; i < n; ++i) {
    for (const auto& t : graph.node(i).output()) producer[t] = i;
  }
  std::vector<int> group_of(static_cast<std::size_t>(n), -1);
  std::vector<std::vector<int>> groups;

  // The tensors a group reads from outside, other than uniform constants
  // (those are literals): its parameters.
  auto outside_reads = [&](const std::vector<int>& members, int gid) {
    std::set<std::string> reads;
    for (int m : members) {
      for (const auto& t : graph.node(m).input()) {
        if (t.empty()) continue;
        const auto p = producer.find(t);
        if (p != producer.end() && group_of[static_cast<std::size_t>(p->second)] == gid) continue;
        const Constant* c = model.constant(t);
        if (c == nullptr || !c->uniform) reads.insert(t);
      }
    }
    return reads.size();
  };

  for (int root = n - 1; root >= 0; --root) {
    if (!in.candidate[static_cast<std::size_t>(root)] || group_of[static_cast<std::size_t>(root)] >= 0) continue;
    const int gid = static_cast<int>(groups.size());
    std::vector<int> members{root};
    group_of[static_cast<std::size_t>(root)] = gid;
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t k = 0; k < members.size(); ++k) {
        for (const auto& t : graph.node(members[k]).input()) {
          const auto p = producer.find(t);
          if (t.empty() || p == producer.end()) continue;
          const int pi = p->second;
          if (!in.candidate[static_cast<std::size_t>(pi)] || group_of[static_cast<std::size_t>(pi)] >= 0) continue;
          if (graph.node(pi).output(0) != t || model.is_graph_output(t)) continue;
          // A tensor a reader re-indexes must be in memory, so its producer
          // stays out; but a layout op feeding a layout op is re-indexing
          // too: the chain composes into one read (group.cpp).
          const bool chain = is_layout_op(graph.node(pi).op_type());
          bool inside = true;
          for (int r : readers.at(t)) {
            inside = inside && group_of[static_cast<std::size_t>(r)] == gid &&
                     (in.reshaped[static_cast<std::size_t>(r)].count(t) == 0 ||
                      (chain && is_layout_op(graph.node(r).op_type())));
          }
          if (!inside) continue;
          group_of[static_cast<std::size_t>(pi)] = gid;
          members.push_back(pi);
          if (outside_reads(members, gid) > max_params) {
            members.pop_back();
            group_of[static_cast<std::size_t>(pi)] = -1;
            continue;
          }
          grew = true;
        }
      }
    }
    std::sort(members.begin(), members.end());
    groups.push_back(members);
  }
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.back() < b.back(); });
  return groups;
}

}  // namespace bcastgen::onnx_import
