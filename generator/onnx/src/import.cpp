// import_model: read, fold constants, map each node alone, partition, build
// each group, share identical kernels; then the texts (outputs.cpp).
#include "bcastgen/onnx/import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "bcastgen/reference.h"
#include "fold.h"
#include "fused.h"
#include "group.h"
#include "model.h"
#include "node_map.h"
#include "partition.h"

namespace bcastgen::onnx_import {

namespace {

// Unsqueeze, Squeeze, Reshape or Flatten of a constant (DenseNet's
// per-channel parameters are Unsqueezed): the same elements, the inferred shape.
bool reshapes_a_constant(const Model& model, const onnx::NodeProto& node) {
  static const std::set<std::string> kReshapes = {"Unsqueeze", "Squeeze", "Reshape", "Flatten"};
  if (!kReshapes.count(node.op_type()) || node.input_size() < 1 || node.output_size() != 1) return false;
  const Constant* c = model.constant(node.input(0));
  const std::optional<TensorType> t = model.type(node.output(0));
  if (c == nullptr || !t || !t->shape) return false;
  std::int64_t numel = 1;
  for (std::int64_t d : *t->shape) numel *= d;
  std::int64_t have = 1;
  for (std::int64_t d : c->shape) have *= d;
  return numel == have;
}

// The value a folded group computed (a literal, maybe expanded to the
// node's shape), as a uniform constant.
Constant folded_value(const GroupKernel& k) {
  Constant c;
  c.dtype = k.dtype;
  c.shape = k.shape;
  c.uniform = true;
  const ExprNode& root = k.expr.nodes[k.expr.root];
  ExprDag literal;  // the literal alone: no expand target widens it
  literal.nodes.push_back(root.kind == ExprKind::Expand ? k.expr.nodes[root.args[0]] : root);
  alignas(8) unsigned char out[8] = {};
  reference::evaluate(literal, {}, Rule::Numpy, -1, out);
  c.bytes.assign(out, out + dtype_info(k.dtype).size);
  return c;
}

std::string identifier(const std::string& stem) {
  std::string s;
  for (char ch : stem) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "m_" + s;
  return gen::namespace_problem(s).empty() ? s : "onnx_kernels";
}

// Each node alone, in graph order: a constant (evaluated now, so later
// nodes see it), a node the frontend maps (a candidate for fusion), or not
// covered, with the reason.
std::vector<NodeState> classify(Model& model, const std::map<std::string, std::vector<int>>& readers,
                                PartitionInput* part) {
  const auto& graph = model.graph();
  const int n = graph.node_size();
  auto is_read = [&](const std::string& t) { return readers.count(t) != 0 || model.is_graph_output(t); };
  std::vector<NodeState> state(static_cast<std::size_t>(n));
  part->candidate.assign(static_cast<std::size_t>(n), false);
  part->reshaped.resize(static_cast<std::size_t>(n));
  const std::map<int, Constant> folded = fold_shapes(model);
  for (int i = 0; i < n; ++i) {
    const auto& node = graph.node(i);
    NodeState& s = state[static_cast<std::size_t>(i)];
    const bool default_domain = node.domain().empty() || node.domain() == "ai.onnx";
    if (const auto f = folded.find(i); f != folded.end()) {
      s = {Status::Folded, kFolded, node.op_type() == "Constant" ? "a constant" : "computed when the model is read",
           f->second};
      continue;
    }
    if (default_domain && (node.op_type() == "Constant" || node.op_type() == "ConstantOfShape")) {
      s.reason = "a constant of a form the frontend does not evaluate";
      continue;
    }
    if (default_domain && reshapes_a_constant(model, node)) {
      Constant c = *model.constant(node.input(0));
      c.shape = *model.type(node.output(0))->shape;
      model.set_constant(node.output(0), std::move(c));
      s = {Status::Folded, kFolded, "reshapes a constant: read by the kernels as a parameter", std::nullopt};
      continue;
    }
    if (!maps_op_type(node.op_type()) || !default_domain) {
      s.reason = "not an elementwise operator bcastgen maps";
      continue;
    }
    if (node.output_size() == 0 || node.output(0).empty()) {
      s.reason = "no output";
      continue;
    }
    for (int k = 1; k < node.output_size() && s.reason.empty(); ++k) {
      if (!node.output(k).empty() && is_read(node.output(k))) s.reason = "its output " + std::to_string(k) + " is used";
    }
    if (!s.reason.empty()) continue;
    try {
      const GroupKernel alone = build_group(model, {i});
      if (alone.is_literal) {  // every operand a constant: the node is one too
        model.set_constant(node.output(0), folded_value(alone));
        s = {Status::Folded, kFolded, "computes a constant: a literal in the kernels that read it",
             model.constant(node.output(0)) ? std::optional<Constant>(*model.constant(node.output(0))) : std::nullopt};
        continue;
      }
      if (alone.params.empty()) throw NotCovered{"computes from constants a value that is no literal (inf or NaN)"};
      part->reshaped[static_cast<std::size_t>(i)] = alone.reshaped;  // a producer of these cannot join
      part->candidate[static_cast<std::size_t>(i)] = true;
      s.status = Status::Candidate;
    } catch (const NotCovered& e) {
      s.reason = e.reason;
    }
  }
  return state;
}

// The groups, each built once; identical ones share a kernel. A group whose
// chain of layout ops does not compose is built again without the layout ops
// that only feed layout ops; a group the expression cannot hold (a limit of
// the parser's) falls back to its nodes one by one, each of which was built
// alone by classify().
void build_kernels(const Model& model, const std::vector<std::vector<int>>& groups,
                   const std::map<std::string, std::vector<int>>& readers, Fused* f) {
  for (const std::vector<int>& g : groups) {
    const bool layout_only = std::all_of(g.begin(), g.end(), [&](int i) {
      return is_layout_op(model.graph().node(i).op_type());
    });
    if (layout_only) {  // a copy (or nothing): the model's runtime has it, maybe as a view
      for (int i : g) {
        f->state[static_cast<std::size_t>(i)] = {
            Status::NotCovered, "a layout op with no elementwise node to read it in place: a copy", "", std::nullopt};
      }
      continue;
    }
    try {
      f->built.push_back(build_group(model, g));
      f->groups.push_back(g);
      continue;
    } catch (const NotCovered&) {
    }
    // A chain of layout ops that does not compose (a reshape of a transposed
    // read that would need a copy): the group without the layout ops that
    // only feed layout ops, which are left as copies.
    std::vector<int> kept, copies;
    for (int i : g) {  // g is in graph order: its root, the last, stays
      bool feeds_layout_only = i != g.back() && is_layout_op(model.graph().node(i).op_type());
      if (const auto it = readers.find(model.graph().node(i).output(0)); it != readers.end()) {
        for (int r : it->second) {
          feeds_layout_only = feeds_layout_only && is_layout_op(model.graph().node(r).op_type());
        }
      }
      (feeds_layout_only ? copies : kept).push_back(i);
    }
    if (!copies.empty()) {
      try {
        f->built.push_back(build_group(model, kept));
        f->groups.push_back(kept);
        for (int i : copies) {
          f->state[static_cast<std::size_t>(i)] = {
              Status::NotCovered, "a layout op whose reader's layout it does not compose with: a copy", "",
              std::nullopt};
        }
        continue;
      } catch (const NotCovered&) {
      }
    }
    for (int i : g) {
      f->built.push_back(build_group(model, {i}));
      f->groups.push_back({i});
    }
  }
  std::map<std::string, std::size_t> by_key;
  for (const GroupKernel& k : f->built) {
    std::string key = k.text + "|" + dtype_info(k.dtype).name + fmt::format("{}", k.shape);
    for (const Param& p : k.params) key += fmt::format("|{}:{}", dtype_info(p.dtype).name, p.shape);
    const auto [it, fresh] = by_key.emplace(key, f->kernels.size());
    if (fresh) f->kernels.push_back({k, fmt::format("k{}", f->kernels.size())});
    f->kernel_of.push_back(it->second);
  }
}

}  // namespace

ImportedModel import_model(std::string_view bytes, const std::string& model_name, const ImportOptions& options) {
  Model model(bytes, options.input_shapes);
  const auto readers = tensor_readers(model.graph());
  Fused f;
  PartitionInput part;
  f.state = classify(model, readers, &part);
  build_kernels(model, partition(model, part, readers, gen::kMaxExprInputs), readers, &f);

  ImportedModel out;
  out.spec.ns = options.ns.empty() ? identifier(std::filesystem::path(model_name).stem().string()) : options.ns;
  out.spec.isas = gen::default_isas();
  for (const Kernel& k : f.kernels) {
    gen::KernelSpec ks;
    ks.name = k.name;
    for (const Param& p : k.k.params) ks.inputs.push_back({p.name, p.shape, p.dtype, {}});
    ks.expr = k.k.expr;
    if (options.fast) gen::use_fast_tier(ks.expr);
    ks.expr_text = k.k.text;
    out.spec.kernels.push_back(std::move(ks));
  }

  out.spec_yaml = spec_yaml(f, model_name, out.spec.ns, options.fast);
  out.map_json = map_json(model, f, model_name);
  out.report = report(model, f, model_name);
  out.outputs_folded = model.graph().output_size() > 0;
  for (const auto& o : model.graph().output()) {
    bool folded = false;
    for (int i = 0; i < model.graph().node_size(); ++i) {
      const auto& outs = model.graph().node(i).output();
      if (std::find(outs.begin(), outs.end(), o.name()) != outs.end()) {
        folded = f.state[static_cast<std::size_t>(i)].status == Status::Folded;
      }
    }
    out.outputs_folded = out.outputs_folded && folded;
  }
  return out;
}

}  // namespace bcastgen::onnx_import
