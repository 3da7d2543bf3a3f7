#include "bcastgen/gen/manifest.h"

#include "bcastgen/gen/version.h"

namespace bcastgen::gen {
namespace {

nlohmann::json kernel_json(const KernelPlan& p, const ManifestNames& names) {
  const KernelSpec& k = p.spec;
  const bool broadcast = k.op == Op::Broadcast;
  nlohmann::json j;
  j["name"] = k.name;
  j["op"] = op_name(k.op);
  j["dtype"] = dtype_name(k.dtype);
  j["out_dtype"] = dtype_name(p.out_dtype);
  if (broadcast) {
    j["mode"] = mode_name(k.mode);
    j["inputs"] = {{"in", k.a}};
    j["target"] = k.b;
    if (k.mode == BroadcastMode::Explicit) j["axes_mapping"] = k.axes_mapping;
  } else {
    j["rule"] = rule_name(k.rule);
    j["inputs"] = {{"a", k.a}, {"b", k.b}};
  }
  if (broadcast ? k.mode == BroadcastMode::Pdpd : rule_takes_axis(k.rule)) j["axis"] = k.axis;
  j["out"] = p.shapes.out;
  nlohmann::json loops = nlohmann::json::array();
  for (const Loop& l : p.loops) {
    nlohmann::json strides = broadcast ? nlohmann::json{{"in", l.a}, {"out", l.out}}
                                       : nlohmann::json{{"a", l.a}, {"b", l.b}, {"out", l.out}};
    loops.push_back({{"extent", l.extent}, {"strides", strides}});
  }
  j["loops"] = loops;
  j["inner"] = inner_class_name(p.inner);
  j["outer_extent"] = p.outer_extent;
  j["split"] = p.split_why;
  const std::string q = names.ns + "::" + k.name;
  j["entries"] = {{"unchecked", q},
                  {"checked", q + "_checked"},
                  {"range", q + "_range"},
                  {"isa", q + "_isa"},
                  {"c_unchecked", names.c_prefix + k.name},
                  {"c_checked", names.c_prefix + k.name + "_checked"},
                  {"c_range", names.c_prefix + k.name + "_range"}};
  nlohmann::json isas = nlohmann::json::array();
  for (const IsaPlan& ip : p.isas) {
    nlohmann::json v{{"isa", isa_name(ip.isa)},
                     {"function", q + "_impl::" + isa_name(ip.isa)},
                     {"vector", ip.vector},
                     {"lanes", ip.lanes},
                     {"unroll", ip.unroll},
                     {"stream", ip.stream},
                     {"plan", ip.why}};
    if (ip.stream) v["function_streaming"] = q + "_impl::" + isa_name(ip.isa) + "_nt";
    isas.push_back(v);
  }
  j["isas"] = isas;
  return j;
}

}  // namespace

nlohmann::json manifest_json(const std::vector<KernelPlan>& plans, const ManifestNames& names) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelPlan& p : plans) kernels.push_back(kernel_json(p, names));
  return {{"format", "bcastgen.manifest/1"},
          {"bcastgen_version", kVersion},
          {"source", names.source},
          {"namespace", names.ns},
          {"files", {{"header", names.header}, {"source", names.source_file}, {"c_header", names.c_header}}},
          {"kernels", kernels}};
}

}  // namespace bcastgen::gen
