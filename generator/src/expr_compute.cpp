// The `compute: f32` option: a DAG whose 16-bit float intermediates are
// kept in f32 and rounded once, at the output (oneDNN's post-ops, XLA).
#include <vector>

#include "bcastgen/gen/expr.h"

namespace bcastgen::gen {
namespace {

ExprNode cast_node(std::size_t operand, DType to) {
  ExprNode c;
  c.kind = ExprKind::Cast;
  c.dtype = to;
  c.args = {operand};
  return c;
}

}  // namespace

ExprDag reachable(const ExprDag& dag) {
  std::vector<bool> keep(dag.nodes.size(), false);
  keep[dag.root] = true;
  for (std::size_t i = dag.nodes.size(); i-- > 0;) {
    if (dag.nodes[i].kind == ExprKind::Input) keep[i] = true;
    if (!keep[i]) continue;
    for (std::size_t a : dag.nodes[i].args) keep[a] = true;
  }
  ExprDag out;
  out.input_used = dag.input_used;
  out.layouts = dag.layouts;
  std::vector<std::size_t> index(dag.nodes.size());
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    if (!keep[i]) continue;
    ExprNode n = dag.nodes[i];
    for (std::size_t& a : n.args) a = index[a];
    index[i] = out.nodes.size();
    out.nodes.push_back(std::move(n));
  }
  out.root = index[dag.root];
  return out;
}

ExprDag compute_in_f32(const ExprDag& dag) {
  ExprDag out;
  out.input_used = dag.input_used;
  out.layouts = dag.layouts;
  // For node i: own[i], the rewritten node itself; value[i], the node its
  // users read (an f16 input's or cast's f32 value).
  std::vector<std::size_t> own(dag.nodes.size()), value(dag.nodes.size());
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    ExprNode n = dag.nodes[i];
    for (std::size_t& a : n.args) a = value[a];
    const bool half = is_half(n.dtype);
    switch (n.kind) {
      case ExprKind::Input:
      case ExprKind::Cast:  // an explicit cast to f16 or bf16 still rounds
        break;
      case ExprKind::Expand: n.dtype = out.nodes[n.args[0]].dtype; break;
      default:  // literals (the value of the type, exact in f32) and operations
        if (half) n.dtype = DType::F32;
        break;
    }
    own[i] = value[i] = out.nodes.size();
    out.nodes.push_back(n);
    if (half && (n.kind == ExprKind::Input || n.kind == ExprKind::Cast)) {
      value[i] = out.nodes.size();
      out.nodes.push_back(cast_node(own[i], DType::F32));  // exact
    }
  }
  const DType root_dtype = dag.nodes[dag.root].dtype;
  out.root = own[dag.root];
  if (out.nodes[out.root].dtype != root_dtype) {  // one rounding, at the store
    out.nodes.push_back(cast_node(out.root, root_dtype));
    out.root = out.nodes.size() - 1;
  }
  return reachable(out);
}

}  // namespace bcastgen::gen
