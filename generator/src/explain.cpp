#include "bcastgen/gen/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/manifest.h"

namespace bcastgen::gen {
namespace {

// A row kernel's program (RowPlan::program), one node per line with when it
// is computed: the pass whose loop accumulates a reduction, once per row for
// the values between them, or each element of the output pass.
std::string describe_row_program(const KernelPlan& p) {
  const RowPlan& r = *p.rows;
  std::vector<std::string> names;
  for (const InputSpec& in : p.spec.inputs) names.push_back(in.name);
  std::int64_t rows = r.rows_per_step;
  for (const Loop& l : r.outer) rows *= l.extent;
  std::string s = fmt::format("row program ({} rows of {} elements{}; {} reduction pass{}, then {}):\n", rows, r.row,
                              r.rows_per_step == 2 ? ", two a step, pass by pass" : "", r.passes,
                              r.passes == 1 ? "" : "es", r.out_per_row ? "the row's one value" : "the output pass");
  if (r.prefetch_next) s += "  the vector output pass prefetches the next step's rows: " + r.prefetch_why + "\n";
  for (std::size_t i = 0; i < r.program.nodes.size(); ++i) {
    const ExprNode& n = r.program.nodes[i];
    std::string when;
    if (n.kind == ExprKind::Reduce) {
      when = fmt::format("accumulated in pass {}", r.level[n.args[0]] + 1);
    } else if (n.kind == ExprKind::Literal) {
      when = "a constant";
    } else if (n.kind == ExprKind::Input) {
      when = r.varying[i] ? "read in each pass that needs it" : "read once per row";
    } else if (r.varying[i]) {
      when = r.level[i] == r.passes ? "per element, output pass" : fmt::format("per element, pass {}", r.level[i] + 1);
    } else {
      when = r.level[i] == 0 ? "once per row, first" : fmt::format("once per row, after pass {}", r.level[i]);
    }
    s += fmt::format("  {}{}  ({})\n", node_to_string(r.program, i, names), i == r.program.root ? "  -> out" : "", when);
  }
  return s;
}

// Axes on which an operand is stretched: its dim differs from the result's.
std::vector<std::int64_t> broadcast_axes(const Shape& aligned, const Shape& out) {
  std::vector<std::int64_t> axes;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (aligned[i] != out[i]) axes.push_back(static_cast<std::int64_t>(i));
  }
  return axes;
}

std::string row(const std::string& label, const std::vector<std::string>& cells, std::size_t width,
                std::size_t label_width) {
  std::string s = fmt::format("{:<{}}", label, label_width);
  for (const auto& c : cells) s += fmt::format("{:>{}}", c, width + 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s + "\n";
}

std::vector<std::string> cells(const Shape& s) {
  std::vector<std::string> c;
  for (auto d : s) c.push_back(std::to_string(d));
  return c;
}

}  // namespace

BroadcastResult evaluate(const RuleQuery& q) {
  if (!rule_takes_axis(q.rule) && q.axis != -1) {
    throw InvalidArgument(std::string("--axis applies only to rules pdpd and paddle, not ") + rule_name(q.rule));
  }
  return broadcast_shapes(q.rule, q.a, q.b, q.axis);
}

std::string explain_rule_text(const RuleQuery& q, const BroadcastResult& r) {
  const bool bidir = q.rule == Rule::Bidirectional;
  const std::string a = bidir ? "input" : "A", b = bidir ? "target" : "B";
  std::string s;
  s += fmt::format("{:<10}{}", "rule", rule_name(q.rule));
  const auto ra = static_cast<std::int64_t>(q.a.size()), rb = static_cast<std::int64_t>(q.b.size());
  if (q.rule == Rule::Pdpd) {
    s += q.axis == -1 ? fmt::format(" (axis -1: start at rank(A) - rank(B) = {})", ra - rb)
                      : fmt::format(" (axis {})", q.axis);
  } else if (q.rule == Rule::Paddle) {
    const char* low = rb < ra ? "B" : "A";
    s += ra == rb            ? fmt::format(" (axis {}: equal ranks, no part)", q.axis)
         : q.axis == -1      ? fmt::format(" (axis -1: {} starts at the rank difference, {})", low, std::abs(ra - rb))
                             : fmt::format(" (axis {}: {} starts there)", q.axis, low);
  }
  s += "\n";
  s += fmt::format("{:<10}{}\n{:<10}{}\n{:<10}{}\n\n", a, format_shape(q.a), b, format_shape(q.b), "result",
                   format_shape(r.out));
  if (r.out.empty()) return s + "scalar result: no axes\n";

  std::size_t width = 4;
  for (const Shape* v : {&r.out, &r.a_aligned, &r.b_aligned, &r.a_strides, &r.b_strides}) {
    for (auto d : *v) width = std::max(width, std::to_string(d).size());
  }
  std::vector<std::string> axis_cells, who;
  const auto a_axes = broadcast_axes(r.a_aligned, r.out), b_axes = broadcast_axes(r.b_aligned, r.out);
  for (std::size_t i = 0; i < r.out.size(); ++i) {
    axis_cells.push_back(std::to_string(i));
    const auto i64 = static_cast<std::int64_t>(i);
    const bool in_a = std::count(a_axes.begin(), a_axes.end(), i64) > 0;
    const bool in_b = std::count(b_axes.begin(), b_axes.end(), i64) > 0;
    who.push_back(in_a ? a : in_b ? b : "-");
    width = std::max(width, who.back().size());
  }
  // Labels are padded to a common width so that the columns line up
  // ("target stride" is longer than the usual 10).
  const std::size_t lw = std::max<std::size_t>(10, std::max(a.size(), b.size()) + 7);
  s += row("axis", axis_cells, width, lw);
  s += row(a + " dim", cells(r.a_aligned), width, lw);
  s += row(b + " dim", cells(r.b_aligned), width, lw);
  s += row("result", cells(r.out), width, lw);
  s += row(a + " stride", cells(r.a_strides), width, lw);
  s += row(b + " stride", cells(r.b_strides), width, lw);
  s += row("stretched", who, width, lw);
  s += fmt::format("\n(dims are {} on the result's axes; a stride of 0 marks an axis the operand broadcasts on)\n",
                   rule_takes_axis(q.rule) ? "placed from the axis" : "right-aligned");
  return s;
}

nlohmann::json explain_rule_json(const RuleQuery& q, const BroadcastResult& r) {
  return nlohmann::json{
      {"rule", rule_name(q.rule)},
      {"axis", q.axis},
      {"a", q.a},
      {"b", q.b},
      {"out", r.out},
      {"a_aligned", r.a_aligned},
      {"b_aligned", r.b_aligned},
      {"a_strides", r.a_strides},
      {"b_strides", r.b_strides},
      {"a_broadcast_axes", broadcast_axes(r.a_aligned, r.out)},
      {"b_broadcast_axes", broadcast_axes(r.b_aligned, r.out)},
  };
}

KernelPlan plan_query(const RuleQuery& q, Op op, DType dtype, const PlanOptions& options) {
  if (q.rule != Rule::Bidirectional && !op_supports(op, dtype)) {
    throw InvalidArgument(std::string("op '") + op_name(op) + "' does not support dtype '" + dtype_name(dtype) +
                          "' (valid: " + supported_dtypes_text(op) + ")");
  }
  const KernelSpec k = q.rule == Rule::Bidirectional
                           ? broadcast_kernel("explain", dtype, BroadcastMode::Bidirectional, q.a, q.b)
                           : binary_kernel("explain", op, dtype, q.rule, q.a, q.b, q.axis);
  return plan_kernel(k, options);
}

KernelPlan plan_expr_query(const std::string& expr, const std::vector<InputSpec>& inputs, Rule rule, bool compute_f32,
                           std::int64_t axis, const PlanOptions& options) {
  KernelSpec k;
  k.name = "explain";
  k.compute_f32 = compute_f32;
  k.inputs = inputs;
  k.expr_text = expr;
  k.rule = rule;
  k.axis = axis;
  std::vector<ExprInput> decl;
  for (const InputSpec& in : inputs) decl.push_back({in.name, in.dtype});
  k.expr = parse_expr(expr, decl);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!k.expr.input_used[i]) {
      throw InvalidArgument("input '" + inputs[i].name + "' is given but the expression does not use it");
    }
  }
  return plan_kernel(k, options);
}

std::string explain_inputs_text(const KernelPlan& p) {
  const Shape& out = p.shapes.out;
  std::string s = fmt::format("{:<10}{}", "rule", rule_name(p.spec.rule));
  if (rule_takes_axis(p.spec.rule)) s += fmt::format(" (axis {})", p.spec.axis);
  s += "\n";
  for (const InputSpec& in : p.spec.inputs) {
    s += fmt::format("{:<10}{} {}\n", in.name, format_shape(in.shape), dtype_name(in.dtype));
  }
  s += fmt::format("{:<10}{}\n\n", "result", format_shape(out));
  if (out.empty()) return s + "scalar result: no axes\n";
  std::size_t width = 4, lw = 10;
  for (const InputSpec& in : p.spec.inputs) lw = std::max(lw, in.name.size() + 8);
  for (auto d : out) width = std::max(width, std::to_string(d).size());
  for (const Shape& st : p.shapes.strides) {
    for (auto d : st) width = std::max(width, std::to_string(d).size());
  }
  std::vector<std::string> axis_cells;
  for (std::size_t i = 0; i < out.size(); ++i) axis_cells.push_back(std::to_string(i));
  s += row("axis", axis_cells, width, lw);
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    s += row(p.spec.inputs[k].name + " dim", cells(p.shapes.aligned[k]), width, lw);
  }
  s += row("result", cells(out), width, lw);
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    s += row(p.spec.inputs[k].name + " stride", cells(p.shapes.strides[k]), width, lw);
  }
  s += "\n(dims as the rule places them on the result's axes; a stride of 0 marks an axis the input broadcasts on)\n";
  return s;
}

std::string explain_plan_text(const KernelPlan& p) {
  std::string s = fmt::format("plan      {} -> {}, {} output elements ({} bytes)\n", p.spec.expr_text,
                              dtype_name(p.out_dtype), p.out_numel, p.out_bytes);
  s += "inputs   ";
  for (const InputSpec& in : p.spec.inputs) {
    s += fmt::format(" {} {} {};", in.name, dtype_name(in.dtype), format_shape(in.shape));
  }
  s.back() = '\n';
  s += fmt::format("out       {}\n", format_shape(p.shapes.out));
  s += "expression (one node per line, each computed once per element";
  s += p.spec.compute_f32 ? "; compute f32: f16/bf16 intermediates stay in f32):\n" : "):\n";
  s += describe_expr(p, "  ");
  if (p.root_in_type) {
    s += "  (the output only picks or re-signs bf16 values: its store does not round, where the ISA\n"
         "   has that store)\n";
  } else if (p.root_nans_exact) {
    s += "  (the output's NaNs can only be bf16 NaNs, from bf16 operands and IEEE ops: its store rounds\n"
         "   without the NaN fixup, where the ISA has that store)\n";
  }
  if (p.rows) s += describe_row_program(p);
  const CpuKindInfo& cpu = cpu_kind_info(p.cpu);
  s += fmt::format("cpu       {} ({}): unroll {}, {}{}{}; {}\n", cpu.name, cpu.description, cpu.unroll,
                   cpu.interleave ? "each vector's loads, nodes and store together" : "loads, then nodes, then stores",
                   cpu.peel_rows ? ", rows peeled to the output's lines" : "",
                   cpu.stream_vector_bytes == 0
                       ? std::string()
                       : fmt::format(", streaming kernels in vectors of at most {} bytes", cpu.stream_vector_bytes),
                   cpu.why);
  s += "loop nest (size-1 axes dropped, adjacent axes coalesced; strides in elements):\n";
  s += describe_loops(p, "  ");
  for (const IsaPlan& ip : p.isas) {
    s += fmt::format("{:<8}  {}\n", isa_name(ip.isa), ip.why);
    if (p.rows) {
      std::string access;
      for (std::size_t k = 0; k < p.rows->per_row.size(); ++k) {
        access += fmt::format("{}{} {}", k ? ", " : "", p.spec.inputs[k].name,
                              p.rows->per_row[k] ? "once per row" : "along the row");
      }
      s += fmt::format("          reads {}; stores {}\n", access,
                       p.rows->out_per_row ? "one value per row"
                       : ip.stream        ? "streaming (when out is aligned)"
                                          : "normal");
    } else if (ip.vector) {
      std::string access;
      for (std::size_t k = 0; k < ip.access.size(); ++k) {
        const bool tiled = std::any_of(ip.tiles.begin(), ip.tiles.end(),
                                       [&](const IsaPlan::TileRead& r) { return r.input == k; });
        access += fmt::format("{}{} {}", k ? ", " : "", p.spec.inputs[k].name,
                              tiled ? "transposed tiles" : access_name(ip.access[k]));
      }
      s += fmt::format("          {} lanes{}; reads {}; outer loops {}, row {}, tail {}, stores {}\n",
                       dtype_name(ip.lane_dtype),
                       !is_half(ip.lane_dtype) ? ""
                       : ip.lanes * dtype_lane_size(DType::F32) == isa_info(ip.isa).vector_bytes
                           ? " (held as f32: loads widen, stores narrow)"
                           : " (native 16-bit lanes)",
                       access, ip.outer.size(), ip.row,
                       ip.tail_lanes == 0 ? "none" : isa_info(ip.isa).mask_tail ? "constant mask" : "unrolled scalars",
                       ip.stream ? "streaming (when out is aligned)" : "normal");
    }
  }
  return s;
}

nlohmann::json explain_plan_json(const KernelPlan& p) { return plan_json(p); }

}  // namespace bcastgen::gen
