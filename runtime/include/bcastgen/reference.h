// bcastgen runtime: untyped entry points that run any op on any shapes.
//
//   bcastgen::reference  the test oracle: naive and obviously correct, one
//                        output element at a time, offsets recomputed from
//                        the multi-index, op dispatched per element.
//   bcastgen::fallback   a good generic runtime loop for shapes that were not
//                        generated (and a benchmark peer): coalesced loops,
//                        dtype/op dispatched once outside the loops, a tight
//                        inner loop over the last coalesced axis.
//
// reference::evaluate runs a kernel's expression DAG (expr.h) over N
// inputs, each node per element with the scalar functions of ops.h.
//
// Both take dense row-major operands of the given shapes and write a dense
// row-major output of the broadcast shape (BroadcastResult::out). Element
// types: `a`, `b` and `input` hold `dtype` elements; `out` holds
// result_dtype(op, dtype) elements (bool for comparisons). Pointers may be
// null when the output has no elements. The output may alias an input only
// exactly and only if that input has the output's shape and element type.
//
// Throws InvalidArgument for Op::Broadcast, for a dtype the op does not
// support, or a null pointer with a non-empty output; BroadcastError /
// InvalidArgument / OverflowError from the rule engine (rules.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "bcastgen/coalesce.h"
#include "bcastgen/errors.h"
#include "bcastgen/expr.h"
#include "bcastgen/no_contract.h"
#include "bcastgen/ops.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"

BCASTGEN_NO_CONTRACT_BEGIN  // bcastgen/no_contract.h: each operation rounded on its own

namespace bcastgen {

namespace detail {

inline void check_binary_op(const char* who, Op op, DType dtype) {
  if (op == Op::Broadcast) {
    throw InvalidArgument(std::string(who) + ": op 'broadcast' is not a binary elementwise op (use broadcast_to)");
  }
  if (!op_supports(op, dtype)) {
    throw InvalidArgument(std::string(who) + ": op '" + op_name(op) + "' does not support dtype " +
                          dtype_name(dtype) + " (supported: " + supported_dtypes_text(op) + ")");
  }
}

inline void check_pointers(const char* who, std::int64_t numel, std::initializer_list<const void*> ptrs) {
  if (numel == 0) return;
  for (const void* p : ptrs) {
    if (p == nullptr) throw InvalidArgument(std::string(who) + ": null data pointer for a non-empty operation");
  }
}

}  // namespace detail

// One input of an expression: dense row-major `dtype` elements of `shape`.
struct ExprOperand {
  const void* data = nullptr;
  Shape shape;
  DType dtype = DType::F32;
};

namespace detail {

// One node's value at one element: the bytes of one element of its dtype.
struct ExprValue {
  unsigned char bytes[8] = {};
  template <class T>
  T get() const {
    T v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
  }
  template <class T>
  void set(T v) {
    std::memcpy(bytes, &v, sizeof v);
  }
};

inline std::string expr_input_label(std::size_t i, const std::vector<std::string>& names) {
  if (i < names.size()) return "input '" + names[i] + "'";
  return "input " + std::to_string(i);
}

// Checks node k of `dag`: its arity, that its operands precede it, and the
// type rules of its kind (the one place they are written: the reference,
// the generator's spec check and ExprBuilder all call it). `who` starts
// every message; inputs are checked against `dtypes`.
inline void check_expr_node(const ExprDag& dag, std::size_t k, const std::vector<DType>& dtypes,
                            const std::vector<std::string>& names, const std::string& who) {
  const ExprNode& n = dag.nodes[k];
  const std::string at = who + "node " + std::to_string(k) + ": ";
  std::size_t arity = 0;
  switch (n.kind) {
    case ExprKind::Input:
    case ExprKind::Literal: arity = 0; break;
    case ExprKind::Unary:
    case ExprKind::Cast:
    case ExprKind::Expand:
    case ExprKind::Reduce: arity = 1; break;
    case ExprKind::Binary: arity = 2; break;
    case ExprKind::Where: arity = 3; break;
    default: throw InvalidArgument(at + "unknown kind " + std::to_string(static_cast<int>(n.kind)));
  }
  if (n.args.size() != arity) {
    throw InvalidArgument(at + "has " + std::to_string(n.args.size()) + " operands, needs " +
                          std::to_string(arity));
  }
  for (std::size_t a : n.args) {
    if (a >= k) throw InvalidArgument(at + "operand " + std::to_string(a) + " does not precede it");
  }
  auto arg_dtype = [&](std::size_t j) { return dag.nodes[n.args[j]].dtype; };
  auto mismatch = [&](const char* what, DType got, DType want) {
    return InvalidArgument(at + what + " is " + dtype_name(got) + ", expected " + dtype_name(want));
  };
  if (n.kind == ExprKind::Input) {
    if (n.input >= dtypes.size()) {
      throw InvalidArgument(at + "reads input " + std::to_string(n.input) + " of " + std::to_string(dtypes.size()));
    }
    if (dtypes[n.input] != n.dtype) {
      throw InvalidArgument(who + expr_input_label(n.input, names) + " has dtype " + dtype_name(dtypes[n.input]) +
                            " but the expression reads it as " + dtype_name(n.dtype));
    }
    return;
  }
  if (n.kind == ExprKind::Literal) return;
  if (n.kind == ExprKind::Expand) {
    for (std::int64_t d : n.target) {
      if (d < 0) throw InvalidArgument(at + "expand target " + format_shape(n.target) + " has a negative dimension");
    }
  }
  if (n.kind == ExprKind::Reduce && static_cast<std::size_t>(n.reduce) >= std::size(kReduceInfo)) {
    throw InvalidArgument(at + "unknown reduction " + std::to_string(static_cast<int>(n.reduce)));
  }
  if (n.kind == ExprKind::Unary && static_cast<std::size_t>(n.unary) >= std::size(kUnaryInfo)) {
    throw InvalidArgument(at + "unknown unary op " + std::to_string(static_cast<int>(n.unary)));
  }
  std::vector<DType> operands;
  for (std::size_t j = 0; j < arity; ++j) operands.push_back(arg_dtype(j));
  const NodeTyping t = type_node(n.kind, n.op, n.unary, n.dtype, operands);
  switch (t.problem) {
    case NodeTyping::None: break;
    case NodeTyping::Unsupported:
      if (n.kind == ExprKind::Binary) {
        check_binary_op((who + "node " + std::to_string(k)).c_str(), n.op, operands[0]);  // throws, in its words
        throw InvalidArgument(at + op_name(n.op) + " does not support dtype " + dtype_name(operands[0]));
      }
      if (n.kind == ExprKind::Reduce) {
        throw InvalidArgument(at + reduce_name(n.reduce) + " does not support dtype " + dtype_name(operands[0]));
      }
      throw InvalidArgument(at + unary_name(n.unary) + " does not support dtype " + dtype_name(operands[0]));
    case NodeTyping::Mismatch:
      if (n.kind == ExprKind::Binary) throw mismatch("the second operand", operands[1], operands[0]);
      throw mismatch("the second branch", operands[2], operands[1]);
    case NodeTyping::NotBool: throw mismatch("the condition", operands[0], DType::Bool);
  }
  if (n.dtype != t.dtype) {
    throw mismatch(n.kind == ExprKind::Binary                                  ? "the result"
                   : n.kind == ExprKind::Unary || n.kind == ExprKind::Expand || n.kind == ExprKind::Reduce
                       ? "the operand"
                                                                             : "the first branch",
                   n.kind == ExprKind::Binary ? n.dtype : t.dtype, n.kind == ExprKind::Binary ? t.dtype : n.dtype);
  }
}

// Checks that `dag` is well formed and typed over inputs of `dtypes`.
// `who` starts every message. The DAG declares dag.input_used.size()
// inputs, or `declared_inputs` when given (the generator checks specs built
// in memory, whose input_used an embedding compiler may leave empty).
inline void check_expr_dag(const ExprDag& dag, const std::vector<DType>& dtypes,
                           const std::vector<std::string>& names, const std::string& who = "reference::evaluate: ",
                           std::optional<std::size_t> declared_inputs = std::nullopt) {
  if (dag.nodes.empty()) throw InvalidArgument(who + "the expression has no nodes");
  if (dag.root >= dag.nodes.size()) {
    throw InvalidArgument(who + "root " + std::to_string(dag.root) + " is not a node (" +
                          std::to_string(dag.nodes.size()) + " nodes)");
  }
  const std::size_t declared = declared_inputs.value_or(dag.input_used.size());
  if (dtypes.size() != declared) {
    throw InvalidArgument(who + "the expression has " + std::to_string(declared) + " inputs, " +
                          std::to_string(dtypes.size()) + " given");
  }
  if (dag.layouts.size() > declared) {
    throw InvalidArgument(who + "the expression has layouts for " + std::to_string(dag.layouts.size()) +
                          " inputs, of " + std::to_string(declared));
  }
  for (std::size_t k = 0; k < dag.nodes.size(); ++k) check_expr_node(dag, k, dtypes, names, who);
}

// The value of a literal node in its dtype.
inline ExprValue expr_literal_value(const ExprNode& n) {
  ExprValue v;
  visit_dtype(n.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      v.set<bool>(n.literal.b);
    } else if constexpr (std::is_floating_point_v<T>) {
      v.set<T>(static_cast<T>(n.literal.f));
    } else if constexpr (is_half_v<T>) {
      v.set<T>(half_from<T>(n.literal.f));  // exact: the literal holds a value of the type
    } else if constexpr (std::is_signed_v<T>) {
      v.set<T>(ops::cast<T>(n.literal.i));
    } else {
      v.set<T>(ops::cast<T>(n.literal.u));
    }
  });
  return v;
}

// Node n's value from its operands' values in `vals` (Input nodes are read
// by the caller).
inline ExprValue expr_node_value(const ExprNode& n, const std::vector<ExprValue>& vals,
                                 const std::vector<ExprNode>& nodes) {
  ExprValue r;
  switch (n.kind) {
    case ExprKind::Input: break;
    case ExprKind::Literal: r = expr_literal_value(n); break;
    case ExprKind::Binary:
      visit_dtype(nodes[n.args[0]].dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T a = vals[n.args[0]].get<T>(), b = vals[n.args[1]].get<T>();
        if (n.dtype == DType::Bool) {
          bool v;
          ops::apply_binary<T>(n.op, a, b, &v);
          r.set<bool>(v);
        } else {
          T v;
          ops::apply_binary<T>(n.op, a, b, &v);
          r.set<T>(v);
        }
      });
      break;
    case ExprKind::Unary:
      visit_dtype(nodes[n.args[0]].dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (unary_info(n.unary).gives_bool) {
          r.set<bool>(ops::apply_unary<T, bool>(n.unary, vals[n.args[0]].get<T>()));
        } else {
          r.set<T>(ops::apply_unary<T>(n.unary, vals[n.args[0]].get<T>()));
        }
      });
      break;
    case ExprKind::Where:
      visit_dtype(n.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        r.set<T>(ops::where<T>(vals[n.args[0]].get<bool>(), vals[n.args[1]].get<T>(), vals[n.args[2]].get<T>()));
      });
      break;
    case ExprKind::Cast: ops::cast_value(nodes[n.args[0]].dtype, n.dtype, vals[n.args[0]].bytes, r.bytes); break;
    case ExprKind::Expand: r = vals[n.args[0]]; break;  // the operand, at this element of the output
    case ExprKind::Reduce: break;                       // over many elements: evaluate_with_reductions
  }
  return r;
}

// A float value of any float dtype, widened exactly.
inline long double expr_value_wide(const ExprValue& v, DType t) {
  long double w = 0;
  visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_half_v<T>) {
      w = static_cast<long double>(to_float(v.get<T>()));
    } else if constexpr (std::is_floating_point_v<T>) {
      w = static_cast<long double>(v.get<T>());
    }
  });
  return w;
}

// `w` rounded once to the float dtype t.
inline ExprValue expr_value_rounded(long double w, DType t) {
  ExprValue r;
  visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_half_v<T>) {
      r.set<T>(half_from<T>(static_cast<double>(w)));
    } else if constexpr (std::is_floating_point_v<T>) {
      r.set<T>(static_cast<T>(w));
    }
  });
  return r;
}

// Reduce node n over one group of its operand's values (`x`, in the
// operand's index order), each result rounded once: one value (sum, mean,
// max, min) or one per element (softmax, log_softmax). Computed in long
// double: max and min propagate NaN, softmax subtracts the maximum.
inline void reduce_group(ReduceOp op, const std::vector<long double>& x, std::vector<long double>& result) {
  long double sum = 0, m = -std::numeric_limits<long double>::infinity(), lo = -m;
  bool nan = false;
  for (long double v : x) {
    sum += v;
    if (v != v) nan = true;
    if (v > m) m = v;
    if (v < lo) lo = v;
  }
  const long double qnan = std::numeric_limits<long double>::quiet_NaN();
  result.clear();
  switch (op) {
    case ReduceOp::Sum: result.push_back(sum); return;
    case ReduceOp::Mean: result.push_back(sum / static_cast<long double>(x.size())); return;
    case ReduceOp::Max: result.push_back(nan ? qnan : m); return;
    case ReduceOp::Min: result.push_back(nan ? qnan : lo); return;
    case ReduceOp::Softmax:
    case ReduceOp::LogSoftmax: {
      if (nan) m = qnan;
      long double s = 0;
      for (long double v : x) s += std::exp(v - m);
      for (long double v : x) result.push_back(op == ReduceOp::Softmax ? std::exp(v - m) / s : (v - m) - std::log(s));
      return;
    }
  }
}

// reference::evaluate of a DAG with reductions: every node is evaluated
// over the whole domain D (the broadcast of the inputs), a Reduce node by
// groups of the elements that agree outside its axes (NumPy's: over its
// operand's own extent on each axis); out is the root's shape.
inline void evaluate_with_reductions(const ExprDag& dag, const std::vector<ExprOperand>& inputs, const BroadcastInputs& b,
                                     const std::vector<std::int64_t>& offsets, const std::vector<Shape>& shapes,
                                     void* out) {
  const Shape& dom = b.out;
  const std::size_t rank = dom.size();
  const std::int64_t numel = checked_numel(dom);
  std::vector<std::vector<ExprValue>> vals(dag.nodes.size());
  std::vector<std::int64_t> idx(rank, 0);
  auto next = [&] {
    for (std::size_t d = rank; d-- > 0;) {
      if (++idx[d] < dom[d]) break;
      idx[d] = 0;
    }
  };
  // The element of D at multi-index m (dense row-major).
  auto flat = [&](const std::vector<std::int64_t>& m) {
    std::int64_t f = 0;
    for (std::size_t d = 0; d < rank; ++d) f = f * dom[d] + m[d];
    return f;
  };
  for (std::size_t k = 0; k < dag.nodes.size(); ++k) {
    const ExprNode& n = dag.nodes[k];
    std::vector<ExprValue>& v = vals[k];
    v.assign(static_cast<std::size_t>(numel), ExprValue{});
    if (n.kind == ExprKind::Reduce) {
      // The operand's shape aligned to D, and the reduced axes in D's numbering.
      const Shape& xs = shapes[n.args[0]];
      const std::size_t lead = rank - xs.size();
      std::vector<bool> reduced(rank, false);
      for (std::int64_t a : reduce_axes(n, xs.size(), "reference::evaluate: ")) reduced[lead + static_cast<std::size_t>(a)] = true;
      const DType xt = dag.nodes[n.args[0]].dtype;
      std::vector<bool> done(static_cast<std::size_t>(numel), false);
      std::vector<long double> group, result;
      std::vector<std::int64_t> m(rank), base(rank);
      // The next multi-index m along the reduced axes only, each up to its
      // extent in `extent` (row-major); false after the last.
      auto next_reduced = [&](std::vector<std::int64_t>& mi, const Shape& extent) {
        for (std::size_t d = rank; d-- > 0;) {
          if (!reduced[d]) continue;
          if (++mi[d] < extent[d]) return true;
          mi[d] = 0;
        }
        return false;
      };
      std::fill(idx.begin(), idx.end(), 0);
      for (std::int64_t i = 0; i < numel; ++i, next()) {
        if (done[static_cast<std::size_t>(i)]) continue;
        // The group of element i: the operand's elements on the reduced axes.
        base = idx;
        std::vector<std::int64_t> ext(rank, 1);
        for (std::size_t d = 0; d < rank; ++d) {
          if (reduced[d]) {
            base[d] = 0;
            ext[d] = d >= lead ? xs[d - lead] : 1;
          }
        }
        group.clear();
        m = base;
        do {
          group.push_back(expr_value_wide(vals[n.args[0]][static_cast<std::size_t>(flat(m))], xt));
        } while (next_reduced(m, ext));
        reduce_group(n.reduce, group, result);
        // Every element of D in the group's span gets its value: along a
        // reduced axis, a kept size-1 result is the same at every index, a
        // softmax at index c is member c's (its operand broadcasts there
        // when its extent is 1: then c is 0).
        m = base;
        for (;;) {
          std::int64_t c = 0;
          if (reduce_info(n.reduce).keeps_shape) {
            for (std::size_t d = 0; d < rank; ++d) {
              if (reduced[d]) c = c * ext[d] + (ext[d] == 1 ? 0 : m[d]);
            }
          }
          const std::int64_t f = flat(m);
          v[static_cast<std::size_t>(f)] = expr_value_rounded(result[static_cast<std::size_t>(c)], n.dtype);
          done[static_cast<std::size_t>(f)] = true;
          if (!next_reduced(m, dom)) break;
        }
      }
      continue;
    }
    std::fill(idx.begin(), idx.end(), 0);
    std::vector<ExprValue> operands(dag.nodes.size());
    for (std::int64_t i = 0; i < numel; ++i, next()) {
      const auto e = static_cast<std::size_t>(i);
      if (n.kind == ExprKind::Input) {
        std::int64_t off = offsets[n.input];
        for (std::size_t d = 0; d < rank; ++d) off += idx[d] * b.strides[n.input][d];
        const std::size_t size = static_cast<std::size_t>(dtype_size(n.dtype));
        const unsigned char* p =
            static_cast<const unsigned char*>(inputs[n.input].data) + static_cast<std::size_t>(off) * size;
        if (n.dtype == DType::Bool) {
          v[e].set<bool>(*p != 0);
        } else {
          std::memcpy(v[e].bytes, p, size);
        }
        continue;
      }
      for (std::size_t a : n.args) operands[a] = vals[a][e];
      v[e] = expr_node_value(n, operands, dag.nodes);
    }
  }
  // out: the root's shape, aligned to D; each element at index 0 of D's
  // axes where the root has size 1.
  const Shape& rs = shapes[dag.root];
  const std::size_t lead = rank - rs.size();
  const std::int64_t out_numel = checked_numel(rs);
  const std::size_t out_size = static_cast<std::size_t>(dtype_size(dag.nodes[dag.root].dtype));
  std::vector<std::int64_t> o(rs.size(), 0), m(rank, 0);
  for (std::int64_t i = 0; i < out_numel; ++i) {
    for (std::size_t d = 0; d < rs.size(); ++d) m[lead + d] = o[d];
    std::memcpy(static_cast<unsigned char*>(out) + static_cast<std::size_t>(i) * out_size,
                vals[dag.root][static_cast<std::size_t>(flat(m))].bytes, out_size);
    for (std::size_t d = rs.size(); d-- > 0;) {
      if (++o[d] < rs[d]) break;
      o[d] = 0;
    }
  }
}

}  // namespace detail

namespace reference {

// The bodies of binary and evaluate (below): each instantiates every op for
// every dtype (a 0.9 MB object and 20 s of g++ -O3 in every translation unit
// that calls evaluate). They are templates of a dummy parameter so that a
// program can compile them once: where BCASTGEN_REFERENCE_EXTERN is defined,
// the end of this header declares their instantiations extern, and one unit
// of the program defines them (BCASTGEN_REFERENCE_INSTANTIATE; bcastgen_core
// does, and defines BCASTGEN_REFERENCE_EXTERN for whatever links it).
// Without the macros each unit instantiates them, as it would inline functions.
namespace bodies {

template <int kOnce = 0>
void binary(Op op, DType dtype, Rule rule, std::int64_t axis, const void* a, const Shape& a_shape, const void* b,
            const Shape& b_shape, void* out) {
  detail::check_binary_op("reference::binary", op, dtype);
  const BroadcastResult r = broadcast_shapes(rule, a_shape, b_shape, axis);
  const std::int64_t numel = checked_numel(r.out);
  detail::check_pointers("reference::binary", numel, {a, b, out});
  const std::size_t rank = r.out.size();
  const std::size_t out_size = static_cast<std::size_t>(dtype_size(result_dtype(op, dtype)));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < numel; ++i) {
      // Offsets from the multi-index of output element i.
      std::int64_t off_a = 0, off_b = 0;
      for (std::size_t k = 0; k < rank; ++k) {
        off_a += idx[k] * r.a_strides[k];
        off_b += idx[k] * r.b_strides[k];
      }
      ops::apply_binary<T>(op, pa[off_a], pb[off_b], static_cast<char*>(out) + static_cast<std::size_t>(i) * out_size);
      // Next multi-index, row-major (last axis fastest).
      for (std::size_t k = rank; k-- > 0;) {
        if (++idx[k] < r.out[k]) break;
        idx[k] = 0;
      }
    }
  });
}

template <int kOnce = 0>
void evaluate(const ExprDag& dag, const std::vector<ExprOperand>& inputs, Rule rule, std::int64_t axis, void* out,
              const std::vector<std::string>& names);

}  // namespace bodies

// out = op(a, b) broadcast under `rule` (`axis` is pdpd's start axis).
inline void binary(Op op, DType dtype, Rule rule, std::int64_t axis, const void* a, const Shape& a_shape,
                   const void* b, const Shape& b_shape, void* out) {
  bodies::binary(op, dtype, rule, axis, a, a_shape, b, b_shape, out);
}

// The Broadcast op: out (of shape broadcast_to(...).out, i.e. `target`) is
// `input` materialized under `mode`.
inline void broadcast_to(DType dtype, BroadcastMode mode, const void* input, const Shape& input_shape,
                         const Shape& target, std::int64_t axis, const std::vector<std::int64_t>& axes_mapping,
                         void* out) {
  const BroadcastResult r = bcastgen::broadcast_to(mode, input_shape, target, axis, axes_mapping);
  const std::int64_t numel = checked_numel(r.out);
  detail::check_pointers("reference::broadcast_to", numel, {input, out});
  const std::size_t rank = r.out.size();
  const std::size_t size = static_cast<std::size_t>(dtype_size(dtype));
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t i = 0; i < numel; ++i) {
    std::int64_t off_a = 0;
    for (std::size_t k = 0; k < rank; ++k) off_a += idx[k] * r.a_strides[k];
    std::memcpy(static_cast<char*>(out) + static_cast<std::size_t>(i) * size,
                static_cast<const char*>(input) + static_cast<std::size_t>(off_a) * size, size);
    for (std::size_t k = rank; k-- > 0;) {
      if (++idx[k] < r.out[k]) break;
      idx[k] = 0;
    }
  }
}

// The output shape of an expression over `inputs`: broadcast_inputs(rule,
// their shapes and the DAG's expand targets, axis, names).out. Throws as
// broadcast_inputs.
inline Shape expr_output_shape(const std::vector<ExprOperand>& inputs, Rule rule, std::int64_t axis = -1,
                               const std::vector<std::string>& names = {}, const std::vector<Shape>& targets = {}) {
  std::vector<Shape> shapes;
  for (const ExprOperand& in : inputs) shapes.push_back(in.shape);
  return broadcast_inputs(rule, shapes, targets, axis, names).out;
}

// out = the value of `dag` at every element of the broadcast of `inputs`
// (input i of the DAG is inputs[i]), dense row-major, of the root's dtype.
// `names` name the inputs in errors ("input 2" when absent). Every node is
// evaluated per element, in order, as ops.h defines it; bool inputs count
// any nonzero byte as true. With reductions, out has the root's shape
// (expr_out_shape) and each Reduce node is computed in long double over its
// group and rounded once (evaluate_with_reductions). The output may alias
// an input of its shape and dtype. Throws InvalidArgument for a DAG that is not well formed or typed,
// an input count other than dag.input_used.size(), an input whose dtype is
// not its Input nodes', or a null pointer with a non-empty output; and what
// broadcast_inputs throws.
inline void evaluate(const ExprDag& dag, const std::vector<ExprOperand>& inputs, Rule rule, std::int64_t axis,
                     void* out, const std::vector<std::string>& names = {}) {
  bodies::evaluate(dag, inputs, rule, axis, out, names);
}

namespace bodies {

template <int kOnce>
void evaluate(const ExprDag& dag, const std::vector<ExprOperand>& inputs, Rule rule, std::int64_t axis, void* out,
              const std::vector<std::string>& names) {
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
  for (const ExprOperand& in : inputs) {
    dtypes.push_back(in.dtype);
    shapes.push_back(in.shape);
  }
  detail::check_expr_dag(dag, dtypes, names);
  std::vector<std::int64_t> offsets;
  const BroadcastInputs b = broadcast_expr_inputs(dag, rule, shapes, axis, names, &offsets);
  const std::int64_t numel = checked_numel(b.out);
  // With reductions, every node's shape (computed once): the root's is the output's.
  const std::vector<Shape> reduced_shapes =
      has_reductions(dag) ? reduction_node_shapes(dag, rule, shapes, names) : std::vector<Shape>{};
  const Shape out_shape = reduced_shapes.empty() ? b.out : reduced_shapes[dag.root];
  if (numel == 0 || checked_numel(out_shape) == 0) return;
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    if (inputs[j].data == nullptr) {
      throw InvalidArgument("reference::evaluate: null data pointer for " + detail::expr_input_label(j, names) +
                            " with a non-empty output");
    }
  }
  if (out == nullptr) throw InvalidArgument("reference::evaluate: null output pointer for a non-empty output");
  if (!reduced_shapes.empty()) {
    detail::evaluate_with_reductions(dag, inputs, b, offsets, reduced_shapes, out);
    return;
  }
  const std::size_t rank = b.out.size();
  const std::size_t out_size = static_cast<std::size_t>(dtype_size(dag.nodes[dag.root].dtype));
  std::vector<detail::ExprValue> vals(dag.nodes.size());
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t i = 0; i < numel; ++i) {
    for (std::size_t k = 0; k < dag.nodes.size(); ++k) {
      const ExprNode& n = dag.nodes[k];
      if (n.kind != ExprKind::Input) {
        vals[k] = detail::expr_node_value(n, vals, dag.nodes);
        continue;
      }
      // Offset of input n.input from the multi-index of output element i.
      std::int64_t off = offsets[n.input];
      for (std::size_t d = 0; d < rank; ++d) off += idx[d] * b.strides[n.input][d];
      const std::size_t size = static_cast<std::size_t>(dtype_size(n.dtype));
      const unsigned char* p = static_cast<const unsigned char*>(inputs[n.input].data) +
                               static_cast<std::size_t>(off) * size;
      vals[k] = detail::ExprValue{};
      if (n.dtype == DType::Bool) {
        vals[k].set<bool>(*p != 0);
      } else {
        std::memcpy(vals[k].bytes, p, size);
      }
    }
    std::memcpy(static_cast<unsigned char*>(out) + static_cast<std::size_t>(i) * out_size, vals[dag.root].bytes,
                out_size);
    // Next multi-index, row-major (last axis fastest).
    for (std::size_t d = rank; d-- > 0;) {
      if (++idx[d] < b.out[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace bodies

// How far a row kernel's output (reductions: its sums run in f32 in a
// fixed order, the reference's in long double) may be from the reference's
// `want` (n elements of float dtype t): |got - want| <= rel * |want| + abs,
// with rel 4 ulp of t and abs max(64 ulp of f32, 4 ulp of t) at the largest
// finite |want|. NaN matches NaN.
struct RowTolerance {
  double rel = 0, abs = 0;
  bool close(double got, double want) const {
    if (got != got || want != want) return got != got && want != want;
    if (got == want) return true;  // infinities
    return std::fabs(got - want) <= rel * std::fabs(want) + abs;
  }
};

// Element i of `p`, of dtype t, as a double (a 16-bit float widened).
inline double element_as_double(DType t, const void* p, std::int64_t i) {
  double w = 0;
  visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T y;
    std::memcpy(&y, static_cast<const unsigned char*>(p) + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    if constexpr (is_half_v<T>) {
      w = static_cast<double>(to_float(y));
    } else {
      w = static_cast<double>(y);
    }
  });
  return w;
}

inline RowTolerance row_tolerance(DType t, const void* want, std::int64_t n) {
  double scale = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = element_as_double(t, want, i);
    if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
  }
  const double eps = t == DType::F16 ? 0x1p-10 : t == DType::Bf16 ? 0x1p-7 : t == DType::F64 ? 0x1p-52 : 0x1p-23;
  return {4 * eps, std::max(64 * 0x1p-23, 4 * eps) * scale};
}

// The first of n elements of a row kernel's output `got` farther from the
// reference's `want` than row_tolerance, or -1.
inline std::int64_t first_far_element(DType t, const void* got, const void* want, std::int64_t n) {
  const RowTolerance tolerance = row_tolerance(t, want, n);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!tolerance.close(element_as_double(t, got, i), element_as_double(t, want, i))) return i;
  }
  return -1;
}

}  // namespace reference

namespace fallback {

namespace detail {

// The innermost loop: n elements, out contiguous, a/b strided. The common
// stride patterns get their own loop so the compiler can vectorize them.
template <Op kOp, class T, class R>
inline void binary_inner(const T* a, const T* b, R* out, std::int64_t n, std::int64_t sa, std::int64_t sb,
                         std::int64_t so) {
  if (so == 1) {
    if (sa == 1 && sb == 1) {
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(a[i], b[i]);
      return;
    }
    if (sa == 1 && sb == 0) {
      const T bv = *b;
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(a[i], bv);
      return;
    }
    if (sa == 0 && sb == 1) {
      const T av = *a;
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(av, b[i]);
      return;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) out[i * so] = ops::call<kOp, T>(a[i * sa], b[i * sb]);
}

// Odometer over all but the last coalesced loop; `inner` runs the last one.
template <class Inner>
inline void run_loops(const CoalescedLoops& c, Inner&& inner) {
  const std::size_t n = c.extents.size();
  if (n == 0) {  // exactly one element
    inner(std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, std::int64_t{1}, std::int64_t{0}, std::int64_t{0},
          std::int64_t{0});
    return;
  }
  for (std::int64_t e : c.extents) {
    if (e == 0) return;
  }
  const std::size_t last = n - 1;
  std::vector<std::int64_t> idx(last, 0);
  std::int64_t oa = 0, ob = 0, oo = 0;
  for (;;) {
    inner(oa, ob, oo, c.extents[last], c.a_strides[last], c.b_strides[last], c.out_strides[last]);
    std::size_t k = last;
    for (;;) {
      if (k == 0) return;  // every outer index wrapped: done
      --k;
      oa += c.a_strides[k];
      ob += c.b_strides[k];
      oo += c.out_strides[k];
      if (++idx[k] < c.extents[k]) break;
      oa -= c.a_strides[k] * c.extents[k];
      ob -= c.b_strides[k] * c.extents[k];
      oo -= c.out_strides[k] * c.extents[k];
      idx[k] = 0;
    }
  }
}

template <class T>
inline void copy_inner(const T* in, T* out, std::int64_t n, std::int64_t s_in, std::int64_t s_out) {
  if (s_out == 1 && s_in == 1) {
    std::memmove(out, in, static_cast<std::size_t>(n) * sizeof(T));  // in == out is allowed
  } else if (s_out == 1 && s_in == 0) {
    const T v = *in;
    for (std::int64_t i = 0; i < n; ++i) out[i] = v;
  } else {
    for (std::int64_t i = 0; i < n; ++i) out[i * s_out] = in[i * s_in];
  }
}

}  // namespace detail

// Same contract as reference::binary.
inline void binary(Op op, DType dtype, Rule rule, std::int64_t axis, const void* a, const Shape& a_shape,
                   const void* b, const Shape& b_shape, void* out) {
  bcastgen::detail::check_binary_op("fallback::binary", op, dtype);
  const BroadcastResult r = broadcast_shapes(rule, a_shape, b_shape, axis);
  bcastgen::detail::check_pointers("fallback::binary", checked_numel(r.out), {a, b, out});
  const CoalescedLoops c = coalesce(r);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_binary_op(op, [&](auto op_c) {
      constexpr Op kOp = decltype(op_c)::value;
      if constexpr (ops::op_defined_for<T>(kOp)) {
        using R = ops::result_t<kOp, T>;
        const T* pa = static_cast<const T*>(a);
        const T* pb = static_cast<const T*>(b);
        R* po = static_cast<R*>(out);
        detail::run_loops(c, [&](std::int64_t oa, std::int64_t ob, std::int64_t oo, std::int64_t n,
                                 std::int64_t sa, std::int64_t sb, std::int64_t so) {
          detail::binary_inner<kOp, T, R>(pa + oa, pb + ob, po + oo, n, sa, sb, so);
        });
      }
      // (unsupported pairs were rejected by check_binary_op above)
    });
  });
}

// Same contract as reference::broadcast_to.
inline void broadcast_to(DType dtype, BroadcastMode mode, const void* input, const Shape& input_shape,
                         const Shape& target, std::int64_t axis, const std::vector<std::int64_t>& axes_mapping,
                         void* out) {
  const BroadcastResult r = bcastgen::broadcast_to(mode, input_shape, target, axis, axes_mapping);
  bcastgen::detail::check_pointers("fallback::broadcast_to", checked_numel(r.out), {input, out});
  const CoalescedLoops c = coalesce(r);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pi = static_cast<const T*>(input);
    T* po = static_cast<T*>(out);
    detail::run_loops(c, [&](std::int64_t oa, std::int64_t, std::int64_t oo, std::int64_t n, std::int64_t sa,
                             std::int64_t, std::int64_t so) { detail::copy_inner(pi + oa, po + oo, n, sa, so); });
  });
}

}  // namespace fallback

// The bodies compiled once per program (above).
#if defined(BCASTGEN_REFERENCE_EXTERN) || defined(BCASTGEN_REFERENCE_INSTANTIATE)
#if defined(BCASTGEN_REFERENCE_INSTANTIATE)
#define BCASTGEN_REFERENCE_INSTANCE template
#else
#define BCASTGEN_REFERENCE_INSTANCE extern template
#endif
BCASTGEN_REFERENCE_INSTANCE void reference::bodies::binary<0>(Op, DType, Rule, std::int64_t, const void*,
                                                              const Shape&, const void*, const Shape&, void*);
BCASTGEN_REFERENCE_INSTANCE void reference::bodies::evaluate<0>(const ExprDag&, const std::vector<ExprOperand>&, Rule,
                                                                std::int64_t, void*, const std::vector<std::string>&);
#undef BCASTGEN_REFERENCE_INSTANCE
#endif

}  // namespace bcastgen

BCASTGEN_NO_CONTRACT_END
