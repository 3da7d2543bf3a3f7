#include "call_check.h"

#include "../ast_util.h"
#include "../static_expr.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

void CallCheck::registerMatchers(MatchFinder& finder) {
  finder.addMatcher(callExpr(expansion_in_analyzed_file(), forFunction(functionDecl().bind("fn")),
                             callee(functionDecl().bind("callee")))
                        .bind("call"),
                    this);
}

void CallCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  const clang::FunctionDecl* callee = result.Nodes.getNodeAs<clang::FunctionDecl>("callee")->getDefinition();
  const clang::SourceManager& sm = context.getSourceManager();
  if (!callee || callee == fn->getDefinition() || !in_analyzed_file(sm, callee->getLocation())) return;
  CallFact f;
  f.callee = callee;
  f.loop = enclosing_loop(context, call);
  f.where = where_of(context, call->getBeginLoc());
  for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
    const clang::Expr* arg = call->getArg(i);
    f.args.push_back(arg->getType()->isIntegralOrEnumerationType() ? classify(context, fn, arg) : Staticness{});
    f.values.push_back(arg_value(context, arg));
    const clang::ParmVarDecl* root = arg->getType()->isPointerType() ? output_root(arg) : nullptr;
    f.pointer_roots.push_back(root && root->getDeclContext() == fn ? static_cast<int>(root->getFunctionScopeIndex())
                                                                   : -1);
  }
  facts_of(fn, context).calls.push_back(f);
}

}  // namespace bcastgen::clangtool
