// `bcastgen explain`: a readable and a JSON view of how a rule aligns two
// shapes (and, for kernels, how the planner lays out the loop nest).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bcastgen/gen/plan.h"
#include "bcastgen/rules.h"

namespace bcastgen::gen {

struct RuleQuery {
  Rule rule = Rule::Numpy;
  std::int64_t axis = -1;
  Shape a, b;
};

// Applies the rule; throws like broadcast_shapes.
BroadcastResult evaluate(const RuleQuery& q);

std::string explain_rule_text(const RuleQuery& q, const BroadcastResult& r);
nlohmann::json explain_rule_json(const RuleQuery& q, const BroadcastResult& r);

// The kernel plan of an elementwise op on the query's shapes (rule
// bidirectional plans the Broadcast op in that mode).
KernelPlan plan_query(const RuleQuery& q, Op op, DType dtype, const PlanOptions& options);
// The kernel plan of an expression over named, typed, shaped inputs
// (`explain --expr`); throws ExprError / InvalidArgument / BroadcastError.
KernelPlan plan_expr_query(const std::string& expr, const std::vector<InputSpec>& inputs, Rule rule, bool compute_f32,
                           std::int64_t axis, const PlanOptions& options);
std::string explain_plan_text(const KernelPlan& plan);
// The inputs of an expression plan, aligned on the result's axes with their strides.
std::string explain_inputs_text(const KernelPlan& plan);
nlohmann::json explain_plan_json(const KernelPlan& plan);

}  // namespace bcastgen::gen
