// The three texts of `bcastgen onnx` besides the generated code: the spec
// as YAML, the map from kernels to the graph, and the report.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bcastgen/gen/expr_builder.h"
#include "fused.h"

namespace bcastgen::onnx_import {

namespace {

using nlohmann::ordered_json;

std::string yaml_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

// A folded value: its type and shape, and one element (uniform) or all.
ordered_json value_json(const Constant& c) {
  ordered_json v{{"dtype", dtype_info(c.dtype).name}, {"shape", c.shape}};
  auto element = [&](std::size_t k) -> ordered_json {
    if (c.dtype == DType::Bool) return c.integer(k) != 0;
    if (dtype_info(c.dtype).is_float) return c.number(k);
    return c.integer(k);
  };
  if (c.uniform) {
    v["uniform"] = element(0);
  } else {
    v["values"] = ordered_json::array();
    for (std::size_t k = 0; k < c.stored(); ++k) v["values"].push_back(element(k));
  }
  return v;
}

}  // namespace

std::string spec_yaml(const Fused& f, const std::string& model_name, const std::string& ns, bool fast) {
  const std::string stem = std::filesystem::path(model_name).stem().string();
  std::ostringstream yaml;
  yaml << "# bcastgen onnx: the fused elementwise kernels of " << model_name << "\n"
       << "# (which nodes each computes: " << stem << ".onnx-map.json)\n"
       << "namespace: " << ns << "\n"
       << (fast ? "accuracy: fast\n" : "") << "kernels:\n";
  for (const Kernel& kernel : f.kernels) {
    const GroupKernel& k = kernel.k;
    std::vector<std::string> ins;
    for (const Param& p : k.params) {
      ins.push_back(p.dtype == DType::F32 ? fmt::format("{}: [{}]", p.name, fmt::join(p.shape, ", "))
                                          : fmt::format("{}: {{shape: [{}], dtype: {}}}", p.name,
                                                        fmt::join(p.shape, ", "), dtype_info(p.dtype).name));
    }
    yaml << "  - name: " << kernel.name << "\n    inputs: {" << fmt::format("{}", fmt::join(ins, ", ")) << "}\n"
         << "    expr: " << yaml_quote(k.text) << "\n";
  }
  return yaml.str();
}

std::string map_json(const Model& model, const Fused& f, const std::string& model_name) {
  const auto& graph = model.graph();
  ordered_json map;
  map["model"] = model_name;
  map["kernels"] = ordered_json::array();
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    const GroupKernel& k = f.built[g];  // this group's own tensors
    ordered_json e;
    e["name"] = f.kernels[f.kernel_of[g]].name;
    e["expr"] = k.text;
    e["inputs"] = ordered_json::array();
    for (const Param& p : k.params) {
      ordered_json in{{"param", p.name}, {"onnx", p.tensor}, {"shape", p.shape}, {"dtype", dtype_info(p.dtype).name},
                      {"initializer", model.constant(p.tensor) != nullptr}};
      const std::optional<TensorType> t = model.type(p.tensor);
      if (t && t->shape && *t->shape != p.shape) in["onnx_shape"] = *t->shape;
      // Read through layout ops (their nodes are among the kernel's): how the
      // expression reads the tensor, whose shape `shape` still gives.
      if (!p.layout.empty()) in["read_as"] = gen::layout_text(p.name, p.layout);
      e["inputs"].push_back(in);
    }
    e["output"] = {{"onnx", k.output}, {"shape", k.shape}, {"dtype", dtype_info(k.dtype).name}};
    // A reduction with keepdims=0: the kernel's shape keeps the reduced axes (size 1).
    if (const std::optional<TensorType> t = model.type(k.output); t && t->shape && *t->shape != k.shape) {
      e["output"]["onnx_shape"] = *t->shape;
    }
    e["nodes"] = ordered_json::array();
    for (int i : f.groups[g]) {
      e["nodes"].push_back({{"index", i}, {"name", graph.node(i).name()}, {"op_type", graph.node(i).op_type()}});
    }
    map["kernels"].push_back(e);
  }
  map["not_covered"] = ordered_json::array();
  for (int i = 0; i < graph.node_size(); ++i) {
    const NodeState& s = f.state[static_cast<std::size_t>(i)];
    if (s.status == Status::Candidate) continue;
    ordered_json e{{"index", i}, {"name", graph.node(i).name()}, {"op_type", graph.node(i).op_type()},
                   {"reason", s.reason}};
    if (!s.how.empty()) e["how"] = s.how;
    if (s.value) e["value"] = value_json(*s.value);
    map["not_covered"].push_back(e);
  }
  return map.dump(1, ' ', false, ordered_json::error_handler_t::replace) + "\n";  // names need not be UTF-8
}

// Per op type, nodes fused and the kernels they are in, nodes folded;
// then what was left and why.
std::string report(const Model& model, const Fused& f, const std::string& model_name) {
  const auto& graph = model.graph();
  const int n = graph.node_size();
  struct Row {
    int fused = 0, folded = 0, left = 0;
    std::set<std::size_t> kernels;
  };
  std::map<std::string, Row> rows;
  std::map<std::pair<std::string, std::string>, int> reasons;
  for (std::size_t g = 0; g < f.groups.size(); ++g) {
    for (int i : f.groups[g]) {
      Row& r = rows[graph.node(i).op_type()];
      ++r.fused;
      r.kernels.insert(f.kernel_of[g]);
    }
  }
  std::size_t folded = 0, left = 0;
  for (int i = 0; i < n; ++i) {
    const NodeState& s = f.state[static_cast<std::size_t>(i)];
    Row& r = rows[graph.node(i).op_type()];
    if (s.status == Status::Folded) {
      ++r.folded;
      ++folded;
    } else if (s.status == Status::NotCovered) {
      ++r.left;
      ++left;
      ++reasons[{graph.node(i).op_type(), s.reason}];
    }
  }
  std::size_t fused = 0;
  for (const auto& g : f.groups) fused += g.size();
  std::ostringstream rep;
  rep << fmt::format("{}: {} nodes: {} fused into {} kernels ({} distinct), {} folded, {} not covered\n",
                     model_name, n, fused, f.groups.size(), f.kernels.size(), folded, left);
  rep << fmt::format("{:<20} {:>6} {:>8} {:>7} {:>12}\n", "op_type", "fused", "kernels", "folded", "not_covered");
  for (const auto& [op, r] : rows) {
    rep << fmt::format("{:<20} {:>6} {:>8} {:>7} {:>12}\n", op, r.fused, r.kernels.size(), r.folded, r.left);
  }
  if (!reasons.empty()) rep << "not covered:\n";
  for (const auto& [key, count] : reasons) rep << fmt::format("  {} x{}: {}\n", key.first, count, key.second);
  return rep.str();
}

}  // namespace bcastgen::onnx_import
