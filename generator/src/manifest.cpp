#include "bcastgen/gen/manifest.h"

#include "bcastgen/gen/version.h"
#include "symbols.h"

#include <optional>
#include <string>
#include <vector>

namespace bcastgen::gen {
namespace {


nlohmann::json dag_json(const KernelSpec& k) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const ExprNode& n : k.expr.nodes) {
    nlohmann::json j{{"kind", expr_kind_name(n.kind)}, {"dtype", dtype_name(n.dtype)}, {"args", n.args}};
    if (n.kind == ExprKind::Input) j["input"] = k.inputs[n.input].name;
    if (n.kind == ExprKind::Literal) j["literal"] = n.literal.text;
    if (n.kind == ExprKind::Binary) j["op"] = op_name(n.op);
    if (n.kind == ExprKind::Unary) j["op"] = unary_name(n.unary);
    if (n.kind == ExprKind::Expand) j["target"] = n.target;
    if (n.kind == ExprKind::Reduce) {
      j["op"] = reduce_name(n.reduce);
      j["axes"] = n.axes;
    }
    nodes.push_back(j);
  }
  return {{"nodes", nodes}, {"root", k.expr.root}};
}

// Per input name: a value from `f(k)`.
template <class F>
nlohmann::json per_input(const KernelSpec& k, F f) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < k.inputs.size(); ++i) j[k.inputs[i].name] = f(i);
  return j;
}

}  // namespace

nlohmann::json plan_json(const KernelPlan& p) {
  const KernelSpec& k = p.spec;
  nlohmann::json j;
  j["name"] = k.name;
  j["expr"] = k.expr_text;
  const std::optional<Op> op = single_op(k);
  j["op"] = op ? nlohmann::json(op_name(*op)) : nlohmann::json(nullptr);
  j["inputs"] = per_input(k, [&](std::size_t i) { return k.inputs[i].shape; });
  j["input_dtypes"] = per_input(k, [&](std::size_t i) { return dtype_name(k.inputs[i].dtype); });
  nlohmann::json order = nlohmann::json::array();
  for (const InputSpec& in : k.inputs) order.push_back(in.name);
  j["input_order"] = order;
  j["dtype"] = dtype_name(k.inputs.empty() ? p.out_dtype : k.inputs[0].dtype);
  j["out_dtype"] = dtype_name(p.out_dtype);
  if (k.to_target) {
    j["mode"] = mode_name(k.mode);
    j["target"] = k.target;
    if (k.mode == BroadcastMode::Explicit) j["axes_mapping"] = k.axes_mapping;
  } else {
    j["rule"] = rule_name(k.rule);
  }
  if (k.to_target ? k.mode == BroadcastMode::Pdpd : rule_takes_axis(k.rule)) j["axis"] = k.axis;
  j["out"] = p.shapes.out;
  j["dag"] = dag_json(k);
  nlohmann::json loops = nlohmann::json::array();
  for (const Loop& l : p.loops) {
    nlohmann::json strides = per_input(k, [&](std::size_t i) { return l.in[i]; });
    strides["out"] = l.out;
    loops.push_back({{"extent", l.extent}, {"strides", strides}});
  }
  j["loops"] = loops;
  j["classes"] = per_input(k, [&](std::size_t i) { return operand_class(p.classes[i]); });
  j["outer_extent"] = p.outer_extent;
  j["split"] = p.split_why;
  j["cpu"] = cpu_kind_name(p.cpu);
  nlohmann::json isas = nlohmann::json::array();
  for (const IsaPlan& ip : p.isas) {
    isas.push_back({{"isa", isa_name(ip.isa)},
                    {"vector", ip.vector},
                    {"lane_dtype", ip.vector ? nlohmann::json(dtype_name(ip.lane_dtype)) : nlohmann::json(nullptr)},
                    {"lanes", ip.lanes},
                    {"unroll", ip.unroll},
                    {"row", ip.row},
                    {"outer_loops", ip.outer.size()},
                    {"main_trips", ip.main_trips},
                    {"tail_vectors", ip.tail_vectors},
                    {"tail_lanes", ip.tail_lanes},
                    {"access", per_input(k, [&](std::size_t i) { return access_name(ip.access[i]); })},
                    {"period", ip.period},
                    {"stream", ip.stream},
                    {"interleave", ip.interleave},
                    {"peel", ip.peel},
                    {"plan", ip.why}});
    // ISAs whose own variants were left out: their CPUs run this one.
    if (!ip.runs_for.empty()) {
      nlohmann::json runs_for = nlohmann::json::array();
      for (Isa isa : ip.runs_for) runs_for.push_back(isa_name(isa));
      isas.back()["runs_for"] = runs_for;
    }
  }
  j["isas"] = isas;
  return j;
}

namespace {

// `owner`: the kernel whose variants this one calls, or "" (its own).
nlohmann::json kernel_json(const KernelPlan& p, const ManifestNames& names, const std::string& owner,
                           const std::string& file) {
  const KernelSpec& k = p.spec;
  nlohmann::json j = plan_json(p);
  const KernelSymbols cpp = kernel_symbols(k.name, names.ns + "::"), c = kernel_symbols(k.name, names.c_prefix);
  j["entries"] = {{"unchecked", cpp.unchecked}, {"checked", cpp.checked},     {"range", cpp.range},
                  {"isa", cpp.isa},             {"c_unchecked", c.unchecked}, {"c_checked", c.checked},
                  {"c_range", c.range}};
  const std::string impl = owner.empty() ? cpp.impl : kernel_symbols(owner, names.ns + "::").impl;
  for (std::size_t i = 0; i < p.isas.size(); ++i) {
    const std::string isa = isa_name(p.isas[i].isa);
    j["isas"][i]["function"] = impl + "::" + variant_symbols(isa, false).function;
    if (p.isas[i].stream) j["isas"][i]["function_streaming"] = impl + "::" + variant_symbols(isa, true).function;
  }
  if (!owner.empty()) j["shares_code_with"] = owner;
  if (!file.empty()) j["file"] = file;
  return j;
}

}  // namespace

std::string manifest_text(const std::vector<KernelPlan>& plans, const ManifestNames& names,
                          const std::vector<std::string>& shares_code_with) {
  nlohmann::json files = {{"header", names.header}, {"source", names.source_file}, {"c_header", names.c_header}};
  if (!names.shard_files.empty()) files["shards"] = names.shard_files;
  // The kernels are written one at a time into the text, as dump(2) would
  // lay them out in the array: the whole document as one JSON value took
  // about 40 bytes of memory per byte of text (bench/scale).
  const std::string placeholder = "\x01kernels\x01";
  const nlohmann::json top = {{"format", "bcastgen.manifest/2"},
                              {"bcastgen_version", kVersion},
                              {"source", names.source},
                              {"namespace", names.ns},
                              {"files", files},
                              {"kernels", placeholder}};
  std::string text = top.dump(2) + "\n";
  std::string kernels = plans.empty() ? "[]" : "[\n";
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::string one = kernel_json(plans[i], names, i < shares_code_with.size() ? shares_code_with[i] : "",
                                        i < names.kernel_sources.size() ? names.kernel_sources[i] : "")
                                .dump(2);
    kernels += "    ";
    for (char c : one) {
      kernels += c;
      if (c == '\n') kernels += "    ";
    }
    kernels += i + 1 < plans.size() ? ",\n" : "\n  ]";
  }
  const std::string quoted = nlohmann::json(placeholder).dump();
  text.replace(text.find(quoted), quoted.size(), kernels);
  return text;
}

}  // namespace bcastgen::gen
