#include "static_expr.h"

#include <clang/AST/ExprCXX.h>

#include "ast_util.h"

namespace bcastgen::clangtool {
namespace {

// Whether e is a pointer's address as an integer, give or take integer
// constants: `0 - reinterpret_cast<std::uintptr_t>(p)`.
bool is_address(clang::ASTContext& context, const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_PointerToIntegral) return true;
    return cast->getType()->isIntegralOrEnumerationType() && is_address(context, cast->getSubExpr());
  }
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->getOpcode() != clang::BO_Add && b->getOpcode() != clang::BO_Sub) return false;
    if (b->getLHS()->getIntegerConstantExpr(context)) return is_address(context, b->getRHS());
    if (b->getRHS()->getIntegerConstantExpr(context)) return is_address(context, b->getLHS());
  }
  return false;
}

Staticness classify_at(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::Expr* e, int depth) {
  if (depth > 32) return Staticness::runtime("the expression is too deep to follow");
  if (e->isValueDependent() || e->isTypeDependent()) return Staticness::runtime("'" + text_of(context, e) + "' is dependent");
  if (e->getType()->isIntegralOrEnumerationType() && e->getIntegerConstantExpr(context)) return {};
  e = e->IgnoreParens();
  const std::string text = "'" + text_of(context, e) + "'";

  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    // An address is known only at run time, whatever the pointer (a block's
    // pointer parameters count as static: they move the data, not the loops).
    if (cast->getCastKind() == clang::CK_PointerToIntegral) return Staticness::runtime(text + " is an address");
    if (cast->getType()->isIntegralOrEnumerationType() || cast->getType()->isBooleanType() ||
        cast->getCastKind() == clang::CK_NoOp) {
      return classify_at(context, fn, cast->getSubExpr(), depth + 1);
    }
    if (cast->getCastKind() == clang::CK_LValueToRValue) return classify_at(context, fn, cast->getSubExpr(), depth + 1);
    return Staticness::runtime(text + " is a conversion from a run-time value");
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const clang::ValueDecl* decl = ref->getDecl();
    if (llvm::isa<clang::EnumConstantDecl>(decl)) return {};
    if (const auto* parm = llvm::dyn_cast<clang::ParmVarDecl>(decl)) {
      if (parm->getDeclContext() == fn) {
        Staticness s;
        s.kind = Staticness::Param;
        s.params.insert(parm->getFunctionScopeIndex());
        return s;
      }
      return Staticness::runtime(text + " is a parameter of another function");
    }
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl)) {
      if (is_loop_counter(context, var)) return {};
      if (var->isLocalVarDecl() && var->getType().isConstQualified() && var->getInit()) {
        Staticness s = classify_at(context, fn, var->getInit(), depth + 1);
        if (s.kind == Staticness::Runtime) s.culprit = text + " is initialized at run time: " + s.culprit;
        return s;
      }
      if (var->isLocalVarDecl()) return Staticness::runtime(text + " is a variable that is not const");
      return Staticness::runtime(text + " is a variable that is not a compile-time constant");
    }
    return Staticness::runtime(text + " is not a compile-time constant");
  }
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) {
    switch (u->getOpcode()) {
      case clang::UO_Plus:
      case clang::UO_Minus:
      case clang::UO_Not:
      case clang::UO_LNot: return classify_at(context, fn, u->getSubExpr(), depth + 1);
      case clang::UO_Deref: return Staticness::runtime(text + " reads memory");
      default: return Staticness::runtime(text + " changes a variable");
    }
  }
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    if (b->isAssignmentOp()) return Staticness::runtime(text + " assigns a variable");
    if (b->getOpcode() == clang::BO_Comma) return classify_at(context, fn, b->getRHS(), depth + 1);
    // A peeled row's head: an address modulo its line.
    if (b->getOpcode() == clang::BO_Rem && is_address(context, b->getLHS())) {
      if (const auto line = b->getRHS()->getIntegerConstantExpr(context); line && line->isStrictlyPositive()) {
        Staticness s;
        s.peel = text + ": a pointer's offset in its " + std::to_string(line->getExtValue()) + "-byte line";
        return s;
      }
    }
    Staticness s = classify_at(context, fn, b->getLHS(), depth + 1);
    s.merge(classify_at(context, fn, b->getRHS(), depth + 1));
    return s;
  }
  if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
    Staticness s = classify_at(context, fn, c->getCond(), depth + 1);
    s.merge(classify_at(context, fn, c->getTrueExpr(), depth + 1));
    s.merge(classify_at(context, fn, c->getFalseExpr(), depth + 1));
    return s;
  }
  if (llvm::isa<clang::ArraySubscriptExpr, clang::MemberExpr>(e)) return Staticness::runtime(text + " reads memory");
  if (llvm::isa<clang::CallExpr>(e)) return Staticness::runtime(text + " is a call");
  return Staticness::runtime(text + " is not a compile-time constant");
}

}  // namespace

Staticness classify(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::Expr* e) {
  return classify_at(context, fn, e, 0);
}

}  // namespace bcastgen::clangtool
