#include "constant_offset_check.h"

#include "../ast_util.h"
#include "../static_expr.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

void ConstantOffsetCheck::registerMatchers(MatchFinder& finder) {
  auto in_function = forFunction(functionDecl().bind("fn"));
  finder.addMatcher(arraySubscriptExpr(isExpansionInMainFile(), in_function).bind("offset"), this);
  finder.addMatcher(binaryOperator(isExpansionInMainFile(), hasAnyOperatorName("+", "-", "+=", "-="),
                                   hasType(pointerType()), in_function)
                        .bind("offset"),
                    this);
}

void ConstantOffsetCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  const auto* e = result.Nodes.getNodeAs<clang::Expr>("offset");
  const clang::Expr* index = nullptr;
  if (const auto* sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    index = sub->getIdx();
  } else if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->getRHS()->getType()->isIntegralOrEnumerationType()) index = b->getRHS();
    else if (b->getLHS()->getType()->isIntegralOrEnumerationType()) index = b->getLHS();
  }
  if (!index) return;
  OffsetFact f;
  f.where = where_of(context, e->getExprLoc());
  f.text = text_of(context, e);
  f.index = classify(context, fn, index);
  for (const clang::ParmVarDecl* p : fn->parameters()) f.param_names.push_back(p->getNameAsString());
  facts_of(fn, context).offsets.push_back(f);
}

}  // namespace bcastgen::clangtool
