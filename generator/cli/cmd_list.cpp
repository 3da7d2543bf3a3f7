// `bcastgen list`: what this bcastgen supports, read from its tables (the
// ops, functions, dtypes, ISAs and CPU kinds of the runtime, the rules, and
// the vocabulary's wrappers), so that scripts and tests derive their lists
// from the one source instead of keeping copies.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bcastgen/cpu.h"
#include "bcastgen/cpu_kinds.h"
#include "bcastgen/expr.h"
#include "bcastgen/gen/vocabulary.h"
#include "bcastgen/types.h"
#include "commands.h"
#include "symbols.h"

namespace bcastgen::cli {

namespace {

using nlohmann::json;

template <class Supports>
json dtypes_where(Supports supports) {
  json names = json::array();
  for (DType t : kAllDTypes) {
    if (supports(t)) names.push_back(dtype_name(t));
  }
  return names;
}

json tables_json() {
  json ops = json::array();
  for (const OpInfo& o : kOpInfo) {
    if (o.kind == OpKind::Broadcast) continue;  // the one-input copy: `op: broadcast`, no expression op
    ops.push_back({{"name", o.name},
                   {"comparison", o.kind == OpKind::Comparison},
                   {"dtypes", dtypes_where([&](DType t) { return op_supports(o.op, t); })}});
  }
  json functions = json::array();
  for (const UnaryInfo& u : kUnaryInfo) {
    json row = {{"name", u.name},
                {"max_ulp", u.max_ulp},
                {"gives_bool", u.gives_bool},
                {"form", unary_form_name(u.form)},
                {"dtypes", dtypes_where([&](DType t) { return unary_supports(u.op, t); })}};
    if (u.fast) row["approximates"] = unary_name(u.approximates);
    functions.push_back(row);
  }
  json dtypes = json::array();
  for (DType t : kAllDTypes) {
    const DTypeInfo& d = dtype_info(t);
    dtypes.push_back({{"name", d.name},
                      {"cpp_type", d.cpp_type},
                      {"bytes", d.size},
                      {"float", d.is_float},
                      {"signed", d.is_signed}});
  }
  json isas = json::array();
  for (const IsaInfo& r : kIsaInfo) {
    json implies = json::array();
    for (Isa other : kAllIsas) {
      if (other != r.isa && isa_includes(r.isa, other)) implies.push_back(isa_name(other));
    }
    isas.push_back({{"name", r.name},
                    {"arch", arch_info(r.arch).name},
                    {"header", r.header},
                    {"vector_bytes", r.vector_bytes},
                    {"masked_tails", r.mask_tail},
                    {"implies", implies}});
  }
  json cpu_kinds = json::array();
  for (const CpuKindInfo& c : kCpuKindInfo) cpu_kinds.push_back({{"name", c.name}, {"description", c.description}});
  json rules = json::array();
  for (Rule r : kAllRules) rules.push_back(rule_name(r));
  const gen::Vocabulary& voc = gen::Vocabulary::builtin();
  json suffixes = json::array();
  for (const auto& [symbol, role] : gen::kernel_symbol_roles("")) suffixes.push_back(symbol);
  return {{"ops", ops},
          {"functions", functions},
          {"dtypes", dtypes},
          {"isas", isas},
          {"cpu_kinds", cpu_kinds},
          {"rules", rules},
          // What generated code calls as v::<name> (gen::kWrapperAlias).
          {"wrappers", voc.wrapper_names()},
          // The names a kernel may not bear besides keywords and reserved
          // identifiers (spec.cpp, kernel_name_problem).
          {"kernel_names",
           {{"global_names", voc.global_names()},
            {"macro_prefix", gen::kMacroPrefix},
            {"c_last_error", gen::kCLastError},
            {"symbol_suffixes", suffixes}}}};
}

// One line per table: its name and its rows' names.
void print_text(const json& t) {
  for (const char* key : {"rules", "ops", "functions", "dtypes", "isas", "cpu_kinds"}) {
    std::string line = std::string(key) + ":";
    for (const json& row : t[key]) line += " " + (row.is_string() ? row.get<std::string>() : row["name"].get<std::string>());
    std::cout << line << "\n";
  }
  std::cout << "wrappers: " << t["wrappers"].size() << " (list them with --json)\n";
}

}  // namespace

Action register_list(CLI::App& app) {
  auto* sub = app.add_subcommand("list", "List the rules, ops, functions, dtypes, ISAs and CPU kinds this bcastgen has");
  auto json_flag = std::make_shared<bool>(false);
  sub->add_flag("--json", *json_flag, "print every table with its properties as JSON (for scripts)");
  return [json_flag]() {
    const json t = tables_json();
    if (*json_flag) {
      std::cout << t.dump(2) << "\n";
    } else {
      print_text(t);
    }
    return gen::kExitOk;
  };
}

}  // namespace bcastgen::cli
