#include "intrinsic_check.h"

#include "../ast_util.h"
#include "../intrinsic_families.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

void IntrinsicCheck::registerMatchers(MatchFinder& finder) {
  finder.addMatcher(callExpr(expansion_in_analyzed_file(), forFunction(functionDecl().bind("fn"))).bind("call"), this);
}

void IntrinsicCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  if (fn && fn->isDependentContext()) return;  // counted in each instantiation
  IntrinsicFact f;
  f.name = written_callee(context, call);
  f.family = intrinsic_family(f.name);
  if (f.family.empty()) return;
  f.where = where_of(context, call->getBeginLoc());
  if (!seen_.emplace(fn, f.where.offset, f.name).second) return;
  facts_of(fn, context).intrinsics.push_back(f);
}

}  // namespace bcastgen::clangtool
