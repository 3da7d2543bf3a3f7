#include "check.h"

#include <memory>
#include <vector>

#include <clang/AST/Attr.h>

#include "ast_util.h"
#include "checks/call_check.h"
#include "checks/constant_offset_check.h"
#include "checks/intrinsic_check.h"
#include "checks/kernel_tag_check.h"
#include "checks/loop_bound_check.h"
#include "checks/shape_metadata_check.h"
#include "checks/store_count_check.h"

namespace bcastgen::clangtool {

FunctionFacts& Check::facts_of(const clang::FunctionDecl* fn, clang::ASTContext& context) {
  auto [it, inserted] = facts_.functions.try_emplace(fn);
  FunctionFacts& f = it->second;
  if (inserted) {
    f.fn = fn;
    f.name = fn->getNameAsString();
    f.where = where_of(context, fn->getLocation());
    if (const auto* target = fn->getAttr<clang::TargetAttr>()) f.target = target->getFeaturesStr().str();
  }
  return f;
}

Facts collect_facts(clang::ASTContext& context, const std::string& file) {
  Facts facts;
  facts.file = file;
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(std::make_unique<KernelTagCheck>(facts));
  checks.push_back(std::make_unique<LoopBoundCheck>(facts));
  checks.push_back(std::make_unique<ConstantOffsetCheck>(facts));
  checks.push_back(std::make_unique<CallCheck>(facts));
  checks.push_back(std::make_unique<IntrinsicCheck>(facts));
  checks.push_back(std::make_unique<StoreCountCheck>(facts));
  checks.push_back(std::make_unique<ShapeMetadataCheck>(facts));
  clang::ast_matchers::MatchFinder finder;
  for (auto& check : checks) check->registerMatchers(finder);
  finder.matchAST(context);
  for (auto& check : checks) check->finish(context);
  return facts;
}

}  // namespace bcastgen::clangtool
