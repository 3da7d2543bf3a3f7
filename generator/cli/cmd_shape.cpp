// `bcastgen shape` and `bcastgen explain`: apply a rule to two shapes.
#include <iostream>
#include <memory>
#include <string>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/explain.h"
#include "bcastgen/gen/shape_parse.h"
#include "commands.h"

namespace bcastgen::cli {
namespace {

struct RuleArgs {
  std::string rule = "numpy";
  std::int64_t axis = -1;
  std::string a, b;
  bool json = false;
  std::string op = "add", dtype = "f32";
};

void add_rule_options(CLI::App* cmd, RuleArgs& args) {
  cmd->add_option("--rule", args.rule, "broadcast rule")
      ->check(CLI::IsMember(rule_names()))
      ->capture_default_str();
  cmd->add_option("--axis", args.axis,
                  "pdpd: start axis of B in A, -1 means rank(A) - rank(B); paddle: start axis of the lower-rank "
                  "operand, -1 means the rank difference")
      ->capture_default_str();
  cmd->add_option("A", args.a, "first shape: [2,3,4], 2,3,4 or 2x3x4; [] is a scalar")->required();
  cmd->add_option("B", args.b, "second shape (for bidirectional: the target shape)")->required();
}

gen::RuleQuery to_query(const RuleArgs& args) {
  gen::RuleQuery q;
  if (!parse_rule(args.rule, &q.rule)) throw InvalidArgument("unknown rule '" + args.rule + "'");
  q.axis = args.axis;
  q.a = gen::parse_shape(args.a);
  q.b = gen::parse_shape(args.b);
  return q;
}

}  // namespace

Action register_shape(CLI::App& app) {
  auto args = std::make_shared<RuleArgs>();
  auto* cmd = app.add_subcommand("shape", "print the broadcast result of two shapes (exit 1 if they do not broadcast)");
  add_rule_options(cmd, *args);
  return [args] {
    const gen::RuleQuery q = to_query(*args);
    std::cout << format_shape(gen::evaluate(q).out) << "\n";
    return gen::kExitOk;
  };
}

Action register_explain(CLI::App& app) {
  auto args = std::make_shared<RuleArgs>();
  auto* cmd = app.add_subcommand(
      "explain", "show how a rule aligns two shapes (dims, strides, broadcast axes) and the kernel plan for them");
  add_rule_options(cmd, *args);
  cmd->add_flag("--json", args->json, "print JSON instead of a table");
  cmd->add_option("--op", args->op, "the op whose kernel plan to show")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "the element type of the plan")->capture_default_str();
  return [args] {
    const gen::RuleQuery q = to_query(*args);
    const BroadcastResult r = gen::evaluate(q);
    Op op;
    DType dtype;
    if (!parse_op(args->op, &op)) throw InvalidArgument("unknown op '" + args->op + "'");
    if (!parse_dtype(args->dtype, &dtype)) throw InvalidArgument("unknown dtype '" + args->dtype + "'");
    gen::PlanOptions options;
    options.isas = gen::default_isas();
    const gen::KernelPlan plan = gen::plan_query(q, op, dtype, options);
    if (args->json) {
      nlohmann::json j = gen::explain_rule_json(q, r);
      j["plan"] = gen::explain_plan_json(plan);
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << gen::explain_rule_text(q, r) << "\n" << gen::explain_plan_text(plan);
    }
    return gen::kExitOk;
  };
}

}  // namespace bcastgen::cli
