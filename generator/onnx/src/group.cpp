// build_group: each member node through map_node, its operands resolved to
// the group's own values, literals, or parameters.
#include "group.h"

#include <fmt/format.h>

#include <set>

#include "bcastgen/gen/spec.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"
#include "fold.h"
#include "patterns.h"

namespace bcastgen::onnx_import {

namespace {

// NumPy's broadcast of two shapes; NotCovered when they do not broadcast.
Shape broadcast2(const Shape& a, const Shape& b) {
  try {
    return broadcast_shapes(Rule::Numpy, a, b).out;
  } catch (const Error& e) {
    throw NotCovered{e.what()};
  }
}

// A Reduce* node with keepdims=0 whose value (the reduced axes kept, size 1)
// has `kept` and ONNX `dropped`: the same shape without those 1s.
bool drops_reduced_axes(const onnx::NodeProto& node, const Shape& kept, const Shape& dropped) {
  if (node.op_type().rfind("Reduce", 0) != 0) return false;
  bool keepdims = true;
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == "keepdims") keepdims = a.i() != 0;
  }
  if (keepdims) return false;
  std::size_t j = 0;
  for (std::int64_t d : kept) {
    if (j < dropped.size() && dropped[j] == d) {
      ++j;
    } else if (d != 1) {
      return false;
    }
  }
  return j == dropped.size();
}

// A shape a kernel cannot have: more elements than a spec allows.
void check_size(const std::string& tensor, const Shape& s) {
  const std::int64_t limit = gen::Spec{}.max_elements;
  bool fits = false;
  try {
    fits = checked_numel(s) <= limit;
  } catch (const OverflowError&) {
  }
  if (!fits) throw NotCovered{fmt::format("'{}' {} has more than {} elements", tensor, format_shape(s), limit)};
}

class Group : public NodeOperands {
 public:
  explicit Group(const Model& model) : model_(model) {}

  void add_node(int index) {
    node_ = &model_.graph().node(index);
    const std::string& out = node_->output(0);
    const std::optional<TensorType> t = model_.type(out);
    if (!t || !t->shape) throw NotCovered{unknown_shape_reason(model_, out)};
    check_size(out, *t->shape);
    Value v = map_node(*node_, model_.opset(), *this, folder_);
    if (const std::optional<Value> gelu = recognize_gelu(folder_, v, node_->name())) v = *gelu;
    if (const std::optional<Value> silu = recognize_silu(folder_, v, node_->name())) v = *silu;
    if (const std::optional<Value> mish = recognize_mish(folder_, v, node_->name())) v = *mish;
    if (const std::optional<Value> hs = recognize_hardswish(folder_, v, node_->name())) v = *hs;
    const Shape s = shape_of(v);
    if (s != *t->shape && drops_reduced_axes(*node_, s, *t->shape)) {
      squeezed_.insert(out);  // the same elements in the same order: the kernel's output as it is
    } else if (s != *t->shape) {
      if (broadcast2(s, *t->shape) != *t->shape) {
        throw NotCovered{fmt::format("computes shape {} where ONNX infers {}", format_shape(s), format_shape(*t->shape))};
      }
      v = builder_.expand(v, *t->shape, node_->name());  // a constant operand gave the shape
      shapes_[v] = *t->shape;
    }
    if (builder_.dtype(v) != t->dtype) {
      throw NotCovered{fmt::format("computes {} where ONNX infers {}", dtype_info(builder_.dtype(v)).name,
                                   dtype_info(t->dtype).name)};
    }
    produced_[out] = v;
    last_ = out;
  }

  GroupKernel finish() {
    GroupKernel k;
    const Value root = produced_.at(last_);
    const ExprDag dag = builder_.finish(root);
    std::vector<gen::ExprInput> all;
    for (const Param& p : params_) all.push_back({p.name, p.dtype});
    // The parameters the root reads (a layout op composed into the next one
    // leaves its own unread).
    std::vector<bool> read(params_.size(), false);
    std::vector<bool> seen(dag.nodes.size(), false);
    for (std::vector<std::size_t> stack{dag.root}; !stack.empty();) {
      const std::size_t i = stack.back();
      stack.pop_back();
      if (seen[i]) continue;
      seen[i] = true;
      if (dag.nodes[i].kind == ExprKind::Input) read[dag.nodes[i].input] = true;
      stack.insert(stack.end(), dag.nodes[i].args.begin(), dag.nodes[i].args.end());
    }
    for (std::size_t i = 0; i < params_.size(); ++i) {  // renamed x0, x1, ... in order of first use
      if (!read[i]) continue;
      Param q = params_[i];
      q.name = fmt::format("x{}", k.params.size());
      all[i].name = q.name;
      k.inputs.push_back({q.name, q.dtype});
      k.params.push_back(std::move(q));
    }
    k.output = last_;
    k.shape = shape_of(root);
    k.dtype = builder_.dtype(root);
    const ExprNode& r = builder_.node_at(root);  // a literal, or one expanded to the node's shape
    k.is_literal = r.kind == ExprKind::Literal || (r.kind == ExprKind::Expand && folder_.is_literal(r.args[0]));
    k.text = gen::print_expr(dag, all);
    k.expr = gen::parse_expr(k.text, k.inputs);
    k.reshaped = reshaped_;
    if (has_reductions(k.expr)) check_row_kernel(k);
    return k;
  }

  Value value(int k, const std::optional<Shape>& as) override {
    const std::string& name = node_->input(k);
    if (const auto it = produced_.find(name); it != produced_.end()) {
      if (as && *as != shape_of(it->second)) throw NotCovered{"reads '" + name + "', computed in the group, reshaped"};
      if (squeezed_.count(name) != 0) {
        throw NotCovered{"reads '" + name + "', a reduction with keepdims=0, in the same group: its shape drops the "
                         "reduced axes, which a kernel's reductions keep (size 1); it is a kernel's output instead"};
      }
      return it->second;
    }
    if (const Constant* c = model_.constant(name); c != nullptr && c->uniform) {
      if (const std::optional<Value> v = folder_.literal(*c, name)) {  // else (inf, NaN) a parameter
        shapes_[*v] = {};
        return *v;
      }
    }
    const std::optional<TensorType> t = model_.type(name);
    if (!t || !t->shape) throw NotCovered{unknown_shape_reason(model_, name)};
    Shape shape = *t->shape;
    check_size(name, shape);
    if (as && *as != shape) {
      reshaped_.insert(name);
      shape = *as;
    }
    return param(name, shape, t->dtype, {}, shape);
  }

  Value read_through(int k, const InputLayout& layout) override {
    const std::string& name = node_->input(k);
    if (const auto it = produced_.find(name); it != produced_.end()) return compose(name, it->second, layout);
    if (const Constant* c = model_.constant(name); c != nullptr && c->uniform) return value(k, std::nullopt);  // the same literal
    const std::optional<TensorType> t = model_.type(name);
    if (!t || !t->shape) throw NotCovered{unknown_shape_reason(model_, name)};
    check_size(name, *t->shape);
    Shape seen;
    try {
      seen = resolve_layout(*t->shape, layout, "'" + name + "'").shape;
    } catch (const InvalidArgument& e) {
      throw NotCovered{e.what()};
    }
    reshaped_.insert(name);  // its producer cannot join: the kernel reads it from memory
    return param(name, *t->shape, t->dtype, layout, seen);
  }

  // A layout op of a value another layout op of the group gave (Transpose
  // then Reshape): one parameter read through both, in order. The first
  // one's parameter is dropped by finish() if nothing else reads it.
  Value compose(const std::string& name, Value v, const InputLayout& layout) {
    const ExprNode& n = builder_.node_at(v);
    if (n.kind != ExprKind::Input) throw NotCovered{"reads '" + name + "', computed in the group, through a layout"};
    const Param p = params_.at(n.input);
    InputLayout steps = p.layout;
    steps.insert(steps.end(), layout.begin(), layout.end());
    Shape seen;
    try {
      seen = resolve_layout(p.shape, steps, "'" + p.tensor + "'").shape;
    } catch (const InvalidArgument& e) {
      throw NotCovered{e.what()};
    }
    return param(p.tensor, p.shape, p.dtype, steps, seen);
  }

  std::optional<TensorType> output_type() const override { return model_.type(node_->output(0)); }

  // A group with reductions must be a row kernel (the reductions over the
  // innermost axes of its domain): NotCovered saying why not.
  static void check_row_kernel(const GroupKernel& k) {
    gen::KernelSpec spec;
    spec.name = "group";
    for (const Param& p : k.params) spec.inputs.push_back({p.name, p.shape, p.dtype, {}});
    spec.expr = k.expr;
    spec.expr_text = k.text;
    try {
      gen::broadcast_kernel_inputs(spec);
    } catch (const Error& e) {
      std::string why = e.what();
      if (why.rfind("kernel 'group': ", 0) == 0) why = why.substr(16);
      throw NotCovered{why};
    }
  }

  const Constant* constant(int k) const override { return model_.constant(node_->input(k)); }
  std::optional<TensorType> type(int k) const override { return model_.type(node_->input(k)); }

 private:
  // The shape of a value: its parameters' and expand targets' broadcast.
  Shape shape_of(Value v) {
    if (const auto it = shapes_.find(v); it != shapes_.end()) return it->second;
    const ExprNode& n = builder_.node_at(v);
    Shape s = n.kind == ExprKind::Expand ? n.target : Shape{};
    for (std::size_t a : n.args) s = broadcast2(s, shape_of(a));
    if (n.kind == ExprKind::Reduce && !reduce_info(n.reduce).keeps_shape) {
      try {
        for (std::int64_t a : reduce_axes(n, s.size(), "")) s[static_cast<std::size_t>(a)] = 1;
      } catch (const InvalidArgument& e) {
        throw NotCovered{e.what()};
      }
    }
    shapes_[v] = s;
    return s;
  }

  // The parameter for `tensor` read with `shape` through `layout` (one per
  // such triple), whose value has shape `seen`.
  Value param(const std::string& tensor, const Shape& shape, DType dtype, const InputLayout& layout,
              const Shape& seen) {
    for (const Param& p : params_) {
      if (p.tensor == tensor && p.shape == shape && p.layout == layout) return builder_.input(p.name);
    }
    Param p{fmt::format("x{}", params_.size()), tensor, shape, dtype, layout};
    try {
      builder_.add_input({p.name, p.dtype});
      if (!layout.empty()) builder_.set_layout(p.name, layout);
    } catch (const gen::ExprBuildError& e) {
      throw NotCovered{e.message()};
    }
    params_.push_back(p);
    const Value v = builder_.input(p.name);
    shapes_[v] = seen;
    return v;
  }

  const Model& model_;
  const onnx::NodeProto* node_ = nullptr;
  gen::ExprBuilder builder_{{}};
  FoldingBuilder folder_{&builder_};
  std::vector<Param> params_;
  std::map<std::string, Value> produced_;
  std::map<Value, Shape> shapes_;
  std::set<std::string> reshaped_;
  std::set<std::string> squeezed_;  // Reduce* outputs with keepdims=0
  std::string last_;
};

}  // namespace

GroupKernel build_group(const Model& model, const std::vector<int>& members) {
  Group g(model);
  for (int index : members) g.add_node(index);
  try {
    return g.finish();
  } catch (const InvalidArgument& e) {  // the text would exceed the parser's limits
    throw NotCovered{e.what()};
  }
}

}  // namespace bcastgen::onnx_import
