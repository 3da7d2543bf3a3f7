// `bcastgen shape` and `bcastgen explain`: apply a rule to two shapes.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/explain.h"
#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/shape_parse.h"
#include "commands.h"

namespace bcastgen::cli {
namespace {

struct RuleArgs {
  std::string rule = "numpy";
  std::int64_t axis = -1;
  std::string a, b;
  bool json = false;
  std::string op = "add", dtype = "f32", expr, compute = "dtype", cpu = "generic";
  std::vector<std::string> operands;  // explain: A B, or NAME=SHAPE[:DTYPE] ... with --expr
};

void add_rule_options(CLI::App* cmd, RuleArgs& args) {
  cmd->add_option("--rule", args.rule, "broadcast rule")
      ->check(CLI::IsMember(rule_names()))
      ->capture_default_str();
  cmd->add_option("--axis", args.axis,
                  "pdpd: start axis of B in A, -1 means rank(A) - rank(B); paddle: start axis of the lower-rank "
                  "operand, -1 means the rank difference")
      ->capture_default_str();
}

void add_shape_operands(CLI::App* cmd, RuleArgs& args) {
  cmd->add_option("A", args.a, "first shape: [2,3,4], 2,3,4 or 2x3x4; [] is a scalar")->required();
  cmd->add_option("B", args.b, "second shape (for bidirectional: the target shape)")->required();
}

// explain --expr's inputs: NAME=SHAPE or NAME=SHAPE:DTYPE (default f32).
std::vector<gen::InputSpec> expr_inputs(const std::vector<std::string>& operands) {
  std::vector<gen::InputSpec> inputs;
  for (const std::string& o : operands) {
    const std::size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InvalidArgument("--expr takes its inputs as NAME=SHAPE[:DTYPE], got '" + o + "'");
    }
    gen::InputSpec in;
    in.name = o.substr(0, eq);
    std::string shape = o.substr(eq + 1);
    const std::size_t colon = shape.rfind(':');
    if (colon != std::string::npos) {
      const std::string dt = shape.substr(colon + 1);
      if (!parse_dtype(dt, &in.dtype)) throw InvalidArgument("unknown dtype '" + dt + "' for input '" + in.name + "'");
      shape.resize(colon);
    }
    in.shape = gen::parse_shape(shape);
    inputs.push_back(std::move(in));
  }
  return inputs;
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
  add_shape_operands(cmd, *args);
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
  // Two shapes A B; with --expr, one or more NAME=SHAPE[:DTYPE] (the ones
  // after A and B arrive as extras: a vector positional would read "[2,3]"
  // as CLI11's list syntax).
  cmd->add_option("A", args->a, "first shape: [2,3,4], 2,3,4 or 2x3x4; [] is a scalar (with --expr: NAME=SHAPE[:DTYPE])");
  cmd->add_option("B", args->b, "second shape (for bidirectional: the target shape)");
  cmd->allow_extras();
  cmd->add_option("--expr", args->expr, "an expression over named inputs: show its fused kernel's plan");
  cmd->add_flag("--json", args->json, "print JSON instead of a table");
  cmd->add_option("--cpu", args->cpu, kCpuOptionHelp)->capture_default_str();
  cmd->add_option("--op", args->op, "the op whose kernel plan to show")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "the element type of the plan")->capture_default_str();
  cmd->add_option("--compute", args->compute,
                  "with --expr: f32 keeps f16/bf16 intermediates in f32 and rounds once at the output; dtype "
                  "rounds every node to its dtype")
      ->check(CLI::IsMember({"dtype", "f32"}))
      ->capture_default_str();
  return [args, cmd] {
    gen::PlanOptions options;
    options.isas = gen::default_isas();
    options.cpu = parse_cpu_option(args->cpu);
    args->operands.clear();
    for (const std::string* s : {&args->a, &args->b}) {
      if (!s->empty()) args->operands.push_back(*s);
    }
    for (const std::string& s : cmd->remaining()) args->operands.push_back(s);
    if (!args->expr.empty()) {
      Rule rule;
      if (!parse_rule(args->rule, &rule)) throw InvalidArgument("unknown rule '" + args->rule + "'");
      const gen::KernelPlan plan = gen::plan_expr_query(args->expr, expr_inputs(args->operands), rule,
                                                        args->compute == "f32", args->axis, options);
      if (args->json) std::cout << gen::explain_plan_json(plan).dump(2) << "\n";
      else std::cout << gen::explain_inputs_text(plan) << "\n" << gen::explain_plan_text(plan);
      return gen::kExitOk;
    }
    if (args->operands.size() != 2) throw InvalidArgument("explain takes two shapes A B (or --expr and NAME=SHAPE inputs)");
    const gen::RuleQuery q = to_query(*args);
    const BroadcastResult r = gen::evaluate(q);
    Op op;
    DType dtype;
    if (!parse_op(args->op, &op)) throw InvalidArgument("unknown op '" + args->op + "'");
    if (!parse_dtype(args->dtype, &dtype)) throw InvalidArgument("unknown dtype '" + args->dtype + "'");
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
