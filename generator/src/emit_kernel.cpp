#include "emit_kernel.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <climits>
#include <optional>
#include <utility>
#include <vector>

#include "emit_body.h"
#include "emit_printer.h"
#include "emit_signature.h"
#include "symbols.h"

namespace bcastgen::gen {
namespace {

std::string dims_text(const Shape& s) {
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t;
}

// One line saying what the kernel computes, for the comments above it.
std::string summary(const KernelPlan& p) {
  const KernelSpec& k = p.spec;
  const std::optional<Op> op = single_op(k);
  if (k.to_target) {
    std::string how = mode_name(k.mode);
    if (k.mode == BroadcastMode::Pdpd) how += fmt::format(" (axis {})", k.axis);
    if (k.mode == BroadcastMode::Explicit) how += " (axes_mapping " + format_shape(k.axes_mapping) + ")";
    return fmt::format("broadcast {} in {} to target {}, mode {} -> out {}", dtype_name(k.inputs[0].dtype),
                       format_shape(k.inputs[0].shape), format_shape(k.target), how, format_shape(p.shapes.out));
  }
  std::string rule = rule_name(k.rule);
  if (rule_takes_axis(k.rule)) rule += fmt::format(" (axis {})", k.axis);
  if (op) {
    return fmt::format("{} {}, rule {}: a {}, b {} -> out {} {}", op_name(*op), dtype_name(k.inputs[0].dtype), rule,
                       format_shape(k.inputs[0].shape), format_shape(k.inputs[1].shape), dtype_name(p.out_dtype),
                       format_shape(p.shapes.out));
  }
  std::string ins;
  for (const InputSpec& in : k.inputs) {
    ins += fmt::format("{}{} {} {}", ins.empty() ? "" : ", ", in.name, dtype_name(in.dtype), format_shape(in.shape));
  }
  return fmt::format("{}, rule {}: {} -> out {} {}", k.expr_text, rule, ins, dtype_name(p.out_dtype),
                     format_shape(p.shapes.out));
}

// "squared_difference" -> "SquaredDifference": the enumerator of a name.
std::string camel(const std::string& name) {
  std::string s;
  bool up = true;
  for (char c : name) {
    if (c == '_') {
      up = true;
      continue;
    }
    s += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return s;
}

// A C++ string literal of `s`.
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n') q += "\\n";
    else q += c;
  }
  return q + "\"";
}

// A template rendered as one entity of a larger file: without its final
// newline, since the enclosing template puts it on a line of its own.
std::string render_entity(const std::string& name, const Values& values) {
  std::string s = render(name, values);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The values every entity of a kernel may use: its name, symbols and parameter lists.
Values common_values(const KernelPlan& p, const Signature& sig, const KernelFileNames& names) {
  const KernelSymbols s = kernel_symbols(p.spec.name), c = kernel_symbols(p.spec.name, names.c_prefix);
  Values v;
  v.set("name", s.unchecked).set("checked", s.checked).set("range", s.range).set("isa", s.isa);
  v.set("impl", s.impl).set("shape", s.shape).set("erased", s.erased).set("range_erased", s.range_erased);
  v.set("inputs", s.inputs).set("nodes", s.nodes);
  v.set("c_unchecked", c.unchecked).set("c_checked", c.checked).set("c_range", c.range);
  v.set("c_outer_extent", c.outer_extent);
  v.set("namespace", names.ns).set("table_fn", names.table_fn);
  v.set("summary", summary(p)).set("outer_extent", p.outer_extent);
  v.set("params", sig.params).set("param_types", sig.types).set("args", sig.args);
  v.set("view_params", sig.view_params).set("view_args", sig.view_args);
  v.set("c_params", sig.c_params).set("c_args", sig.c_args).set("c_checked_params", sig.c_checked_params);
  v.set("c_checked_args", sig.c_checked_args);
  return v;
}

// The shapes the header declares and the checked entry validates: the inputs', then the output's.
std::vector<std::pair<std::string, const Shape*>> operand_shapes(const KernelPlan& p) {
  std::vector<std::pair<std::string, const Shape*>> shapes;
  for (const InputSpec& in : p.spec.inputs) shapes.emplace_back(in.name, &in.shape);
  shapes.emplace_back("out", &p.shapes.out);
  return shapes;
}

// The declarations of header.h and c_header.h: entry points and constexpr shapes.
Values declaration_values(const KernelPlan& p, Values v) {
  const KernelSpec& k = p.spec;
  v.set("out_numel", p.out_numel);
  std::vector<Values> operands;
  for (const auto& [name, shape] : operand_shapes(p)) {
    operands.push_back(Values()
                           .set("operand", name)
                           .set("rank", static_cast<std::int64_t>(shape->size()))
                           .set("dims", dims_text(*shape)));
  }
  v.list("operands", operands);
  std::vector<Values> target;
  if (k.to_target) {
    target.push_back(Values()
                         .set("target_rank", static_cast<std::int64_t>(k.target.size()))
                         .set("target_dims", dims_text(k.target))
                         .set("mapping_rank", static_cast<std::int64_t>(k.axes_mapping.size()))
                         .set("mapping_dims", dims_text(k.axes_mapping)));
  }
  v.list("target", target).declare("target_rank").declare("target_dims").declare("mapping_rank").declare("mapping_dims");
  return v;
}

// The `#if` around code of one ISA (its architecture, and the compiler
// where the row needs one): none for code that compiles everywhere.
std::vector<Values> isa_guard_values(const std::string& condition) {
  if (condition.empty()) return {};
  return {Values().set("condition", condition)};
}

// The namespace of the SIMD wrappers a vector variant calls through its
// alias (kWrapperAlias); none for a scalar loop.
std::vector<Values> simd_wrappers(const IsaPlan& ip) {
  const IsaInfo& row = isa_info(ip.isa);
  if (!ip.vector || *row.header == '\0') return {};
  return {Values()
              .set("alias", kWrapperAlias)
              .set("namespace", std::string("bcastgen::simd::") + row.name)
              .set("header", row.header)};
}

// One ISA variant (or its streaming twin): the block, the full and the range driver.
std::string variant_code(const KernelPlan& p, const IsaPlan& ip, const std::string& body, const Signature& sig,
                         bool streaming) {
  const VariantSymbols vs = variant_symbols(isa_name(ip.isa), streaming);
  const IsaInfo& row = isa_info(ip.isa);
  const std::string target = row.target;
  // The driver carries the kernel mark for `bcastgen inspect`; the block
  // holds the nest and is inlined into the full and the range drivers.
  auto attributes = [&](const std::string& kind, bool inline_always) {
    std::string a = "BCASTGEN_KERNEL(\"bcastgen." + kind + ":" + p.spec.name + ":" + vs.function + "\")";
    std::string gnu;
    if (inline_always) gnu = "always_inline";
    if (!target.empty()) gnu += (gnu.empty() ? "" : ", ") + std::string("target(\"") + target + "\")";
    return gnu.empty() ? a : "__attribute__((" + gnu + ")) " + a;
  };
  return render_entity("variant.cpp.mustache", Values()
                                                   .set("variant", vs.function)
                                                   .set("block", vs.block)
                                                   .set("range", vs.range)
                                                   .set("block_attributes", attributes("block", true))
                                                   .set("attributes", attributes("kernel", false))
                                                   .set("range_attributes", attributes("range", false))
                                                   .set("params", sig.internal_params)
                                                   .set("args", sig.internal_args)
                                                   .set("outer_extent", p.outer_extent)
                                                   .flag("streaming", streaming)
                                                   .set("fence", row.nt_fence)
                                                   .list("guard", isa_guard_values(isa_guard(ip.isa)))
                                                   .list("simd", simd_wrappers(ip))
                                                   .declare("alias")
                                                   .declare("namespace")
                                                   .declare("header")
                                                   .declare("condition")
                                                   .set("body", body));
}

// Every variant, named and explained for the comment above the kernel,
// with its code where `code` (a kernel that shares another's has none).
std::vector<Values> variants(const KernelPlan& p, const VariantBodies& bodies, const Signature& sig, bool code) {
  std::vector<Values> out;
  std::size_t b = 0;
  for (const IsaPlan& ip : p.isas) {
    const std::string base = isa_name(ip.isa);
    out.push_back(Values().set("variant", base).set("why", ip.why).set(
        "code", code ? variant_code(p, ip, bodies.bodies.at(b), sig, false) : ""));
    ++b;
    if (ip.stream) {
      const std::string why = "as " + base + ", with streaming stores; used when out is " +
                              std::to_string(isa_info(ip.isa).vector_bytes) + "-byte aligned";
      out.push_back(Values()
                        .set("variant", variant_symbols(base, true).function)
                        .set("why", why)
                        .set("code", code ? variant_code(p, ip, bodies.bodies.at(b), sig, true) : ""));
      ++b;
    }
  }
  return out;
}

// select() and select_range(): the first variant, in the plan's order
// (most specific first), that the CPU's ISA includes; consecutive variants
// under one guard share its `#if`.
std::string dispatch_code(const KernelPlan& p, const Values& common, const std::string& owner) {
  std::vector<Values> groups, branches;
  std::string group_guard;
  auto close_group = [&] {
    if (!branches.empty()) groups.push_back(Values().list("guard", isa_guard_values(group_guard)).list("branches", branches));
    branches.clear();
  };
  bool has_stream = false;
  // The variants are this kernel's, or those of the kernel it shares them with.
  const std::string at = owner.empty() ? "" : kernel_symbols(owner).impl + "::";
  for (const IsaPlan& ip : p.isas) {
    const VariantSymbols plain = variant_symbols(isa_name(ip.isa), false);
    std::string select = "return " + at + plain.function + ";", select_range = "return " + at + plain.range + ";";
    if (ip.stream) {
      has_stream = true;
      const VariantSymbols nt = variant_symbols(isa_name(ip.isa), true);
      const std::string aligned =
          fill("reinterpret_cast<std::uintptr_t>(out) % $bytes$ == 0", {{"bytes", isa_info(ip.isa).vector_bytes}});
      const char* pick = "return $aligned$ ? $at$$streaming$ : $at$$plain$;";
      select = fill(pick, {{"aligned", aligned}, {"at", at}, {"streaming", nt.function}, {"plain", plain.function}});
      select_range = fill(pick, {{"aligned", aligned}, {"at", at}, {"streaming", nt.range}, {"plain", plain.range}});
    }
    const std::string guard = isa_guard(ip.isa);
    if (guard != group_guard) close_group();
    group_guard = guard;
    branches.push_back(
        Values().set("isa_enum", isa_enumerator(ip.isa)).set("select", select).set("select_range", select_range));
  }
  close_group();
  Values v = common;
  v.list("groups", groups).declare("condition").flag("has_stream", has_stream);
  // `bcastgen inspect` checks a sharing kernel's shapes with its owner's variants.
  v.set("select_attributes",
        owner.empty() ? "" : "BCASTGEN_KERNEL(\"bcastgen.shares:" + p.spec.name + ":" + owner + "\")\n");
  return render_entity("dispatch.cpp.mustache", v);
}

// The dims of the Expand nodes' targets and the Reduce nodes' axes, one
// array per node (`nodes` is the node table's name), for node_rows to
// point at.
std::string target_arrays(const KernelPlan& p, const std::string& nodes) {
  std::string arrays;
  for (std::size_t i = 0; i < p.spec.expr.nodes.size(); ++i) {
    const Shape& target = p.spec.expr.nodes[i].target;
    if (!target.empty()) {
      arrays += fill("static const std::int64_t $nodes$_target$node$[] = {$dims$};\n",
                     {{"nodes", nodes}, {"node", i}, {"dims", fmt::format("{}", fmt::join(target, ", "))}});
    }
    const Shape& axes = p.spec.expr.nodes[i].axes;
    if (!axes.empty()) {
      arrays += fill("static const std::int64_t $nodes$_axes$node$[] = {$axes$};\n",
                     {{"nodes", nodes}, {"node", i}, {"axes", fmt::format("{}", fmt::join(axes, ", "))}});
    }
  }
  return arrays;
}

// An int64 as a C++ literal (INT64_MIN has none: written as an expression).
std::string int_literal(std::int64_t v) { return v == INT64_MIN ? "INT64_MIN" : std::to_string(v); }

// The kernel's DAG as rows of bcastgen::KernelNode (registry.h).
std::string node_rows(const KernelPlan& p, const std::string& nodes) {
  std::string rows;
  for (std::size_t k = 0; k < p.spec.expr.nodes.size(); ++k) {
    const ExprNode& n = p.spec.expr.nodes[k];
    std::size_t a[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n.args.size() && i < 3; ++i) a[i] = n.args[i];
    std::string f = fmt::format("{:.17g}", n.literal.f);
    if (f.find_first_of(".en") == std::string::npos) f += ".0";
    const std::string target =
        n.target.empty() ? "bcastgen::ShapeRef{}"
                         : fill("bcastgen::ShapeRef($nodes$_target$node$, $rank$)",
                                {{"nodes", nodes}, {"node", k}, {"rank", n.target.size()}});
    const std::string axes = n.axes.empty() ? "bcastgen::ShapeRef{}"
                                            : fill("bcastgen::ShapeRef($nodes$_axes$node$, $rank$)",
                                                   {{"nodes", nodes}, {"node", k}, {"rank", n.axes.size()}});
    rows += fill(
        "    {bcastgen::ExprKind::$kind$, bcastgen::Op::$op$, bcastgen::UnaryOp::$unary$, bcastgen::DType::$dtype$, "
        "$arity$, {$a0$, $a1$, $a2$}, $input$, $f$, $i$, $u$u, $b$, $target$, bcastgen::ReduceOp::$reduce$, $axes$},\n",
        {{"kind", camel(expr_kind_name(n.kind))},
         {"op", camel(op_name(n.op))},
         {"unary", camel(unary_name(n.unary))},
         {"dtype", camel(dtype_name(n.dtype))},
         {"arity", n.args.size()},
         {"a0", a[0]},
         {"a1", a[1]},
         {"a2", a[2]},
         {"input", n.input},
         {"f", f},
         {"i", int_literal(n.literal.i)},
         {"u", n.literal.u},
         {"b", n.literal.b ? "true" : "false"},
         {"target", target},
         {"reduce", camel(reduce_name(n.reduce))},
         {"axes", axes}});
  }
  return rows;
}

// The type-erased entries and the input and node rows of the kernel table.
std::string table_entry_code(const KernelPlan& p, const Signature& sig, const Values& common,
                             const KernelFileNames& names) {
  const KernelSymbols s = kernel_symbols(p.spec.name);
  std::string input_rows, layout_arrays;
  for (std::size_t k = 0; k < p.spec.inputs.size(); ++k) {
    const InputSpec& in = p.spec.inputs[k];
    const InputLayout& layout = input_layout(p.spec.expr, k);
    std::string steps = "nullptr, 0";
    if (!layout.empty()) {
      const std::string array = s.nodes + "_layout" + std::to_string(k);
      std::string rows;
      for (std::size_t j = 0; j < layout.size(); ++j) {
        const LayoutStep& l = layout[j];
        std::string dims = "bcastgen::ShapeRef{}";
        if (!l.dims.empty()) {
          layout_arrays += fill("static const std::int64_t $array$_dims$step$[] = {$dims$};\n",
                                {{"array", array}, {"step", j}, {"dims", fmt::format("{}", fmt::join(l.dims, ", "))}});
          dims = fill("bcastgen::ShapeRef($array$_dims$step$, $rank$)",
                      {{"array", array}, {"step", j}, {"rank", l.dims.size()}});
        }
        rows += fill("    {bcastgen::LayoutKind::$kind$, $dims$, $axis$, $start$, $stop$, $step$},\n",
                     {{"kind", camel(layout_info(l.kind).name)},
                      {"dims", dims},
                      {"axis", l.axis},
                      {"start", int_literal(l.start)},
                      {"stop", int_literal(l.stop)},
                      {"step", int_literal(l.step)}});
      }
      layout_arrays += fill("static const bcastgen::KernelLayoutStep $array$[] = {\n$rows$};\n",
                            {{"array", array}, {"rows", rows}});
      steps = fill("$array$, $n$", {{"array", array}, {"n", layout.size()}});
    }
    input_rows += fill("    {\"$name$\", bcastgen::DType::$dtype$, $shapes$::$name$, $steps$},\n",
                       {{"name", in.name}, {"dtype", camel(dtype_name(in.dtype))}, {"shapes", s.shape}, {"steps", steps}});
  }
  Values v = common;
  v.set("erased_body", fill("$isa$(isa, $casts$);", {{"isa", s.isa}, {"casts", sig.casts}}));
  v.set("erased_range_body",
        fill("$impl$::select_range(isa, out)(begin, end, $casts$);", {{"impl", s.impl}, {"casts", sig.casts}}));
  v.set("input_rows", input_rows).set("node_rows", node_rows(p, s.nodes));
  v.set("target_arrays", target_arrays(p, s.nodes)).set("layout_arrays", layout_arrays);
  v.flag("external", names.sharded).set("linkage", names.sharded ? "" : "static ").set("source_file", names.source_file);
  return render_entity("table_entry.cpp.mustache", v);
}

// The kernel's bcastgen::KernelEntry (registry.h), a row of the file's table.
std::string table_row(const KernelPlan& p, const Values& common) {
  const KernelSpec& k = p.spec;
  const std::string sh = kernel_symbols(k.name).shape + "::";
  Values v = common;
  v.set("expr", quoted(k.expr_text)).set("out_dtype", camel(dtype_name(p.out_dtype))).set("rule", camel(rule_name(k.rule)));
  v.set("to_target", k.to_target ? "true" : "false").set("mode", camel(mode_name(k.mode))).set("axis", k.axis);
  v.set("axes_mapping", k.to_target ? sh + "axes_mapping" : "bcastgen::ShapeRef{}");
  v.set("target", k.to_target ? sh + "target" : "bcastgen::ShapeRef{}");
  v.set("input_count", static_cast<std::int64_t>(k.inputs.size()));
  v.set("node_count", static_cast<std::int64_t>(k.expr.nodes.size())).set("root", static_cast<std::int64_t>(k.expr.root));
  return render_entity("table_row.cpp.mustache", v);
}

// The checked entry: shapes, then null pointers, then aliasing. The output
// may alias an input of its own shape and dtype that it reads without a
// layout (the Array API's in-place rule); any other overlap is an error
// naming the input.
std::string checked_entry_code(const KernelPlan& p, const Values& common) {
  const KernelSpec& k = p.spec;
  const std::string ns = kernel_symbols(k.name).shape + "::";
  std::vector<Values> checks;
  auto check = [&](std::string c) { checks.push_back(Values().set("check", std::move(c))); };
  const auto shapes = operand_shapes(p);
  for (const auto& [name, shape] : shapes) {
    check(fill("bcastgen::check_shape(\"$kernel$\", \"$name$\", $shapes$$name$, $name$.shape);",
               {{"kernel", k.name}, {"name", name}, {"shapes", ns}}));
  }
  for (const auto& [name, shape] : shapes) {
    check(fill("bcastgen::check_not_null(\"$kernel$\", \"$name$\", $name$.data, $numel$);",
               {{"kernel", k.name}, {"name", name}, {"numel", checked_numel(*shape)}}));
  }
  for (std::size_t j = 0; j < k.inputs.size(); ++j) {
    const InputSpec& in = k.inputs[j];
    // (An input read through a layout is read out of order: never in place.)
    const bool same = in.shape == p.shapes.out && in.dtype == p.out_dtype && input_layout(k.expr, j).empty();
    check(fill("bcastgen::check_alias(\"$kernel$\", \"$name$\", out.data, $out_bytes$, $name$.data, $bytes$, "
               "$in_place$);",
               {{"kernel", k.name},
                {"name", in.name},
                {"out_bytes", p.out_bytes},
                {"bytes", checked_numel(in.shape) * dtype_size(in.dtype)},
                {"in_place", same ? "true" : "false"}}));
  }
  Values v = common;
  v.list("checks", checks);
  return render_entity("checked_entry.cpp.mustache", v);
}

}  // namespace

VariantBodies variant_bodies(const KernelPlan& p, const Vocabulary& voc) {
  VariantBodies b;
  b.key = fmt::format("{} {}\n", signature_of(p).internal_params, p.outer_extent);
  for (const IsaPlan& ip : p.isas) {
    for (bool streaming : {false, true}) {
      if (streaming && !ip.stream) continue;
      b.bodies.push_back(emit_variant_body(p, ip, voc, streaming));
      b.key += fmt::format("{}{}\n{}\n", isa_name(ip.isa), streaming ? " streaming" : "", b.bodies.back());
    }
  }
  return b;
}

KernelCode emit_kernel(const KernelPlan& p, const VariantBodies& bodies, const KernelFileNames& names,
                       const std::string& shared_with) {
  const Signature sig = signature_of(p);
  const Values common = common_values(p, sig, names);
  std::string input_names;
  for (std::size_t i = 0; i < p.spec.inputs.size(); ++i) {
    input_names += fmt::format("{}in{} = {}", i ? ", " : "", i, p.spec.inputs[i].name);
  }
  Values v = common;
  v.set("expr_table", describe_expr(p, "//   ")).set("input_names", input_names);
  v.set("loop_table", describe_loops(p, "//   ")).set("split_why", p.split_why);
  v.list("variants", variants(p, bodies, sig, shared_with.empty()));
  std::vector<Values> shared;
  if (!shared_with.empty()) shared.push_back(Values().set("owner", shared_with));
  v.list("shared", shared).declare("owner");
  v.set("dispatch", dispatch_code(p, common, shared_with));
  v.set("entries", render_entity("entries.cpp.mustache", common));
  v.set("table_entry", table_entry_code(p, sig, common, names));
  v.set("checked_entry", checked_entry_code(p, common));

  KernelCode out;
  out.declarations = declaration_values(p, common);
  out.declaration = render_entity("declarations.h.mustache", out.declarations);
  out.code = render("kernel.cpp.mustache", v);
  out.table_row = table_row(p, common);
  out.c_entry = render_entity("c_entry.cpp.mustache", common);
  return out;
}

}  // namespace bcastgen::gen
