#include "loop_bound_check.h"

#include "../ast_util.h"
#include "../static_expr.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

namespace {

const clang::VarDecl* counter_of(const clang::Expr* e) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// The value of a header part, or why it is not constant.
std::optional<std::int64_t> constant(clang::ASTContext& context, const clang::FunctionDecl* fn,
                                     const clang::Expr* e, const char* part, std::string& problem) {
  if (auto v = e->getIntegerConstantExpr(context)) return v->getExtValue();
  if (!problem.empty()) return std::nullopt;
  const Staticness s = classify(context, fn, e);
  problem = std::string(part) + " '" + text_of(context, e) + "' is not an integer constant expression";
  if (s.kind == Staticness::Runtime) {
    problem += ": " + s.culprit;
  } else if (s.kind == Staticness::Param) {
    problem += ": it uses parameter '" + fn->getParamDecl(*s.params.begin())->getNameAsString() + "'";
  }
  return std::nullopt;
}

std::optional<std::int64_t> trip_count(std::int64_t begin, std::int64_t end, std::int64_t step,
                                       clang::BinaryOperatorKind op) {
  const __int128 b = begin, e = end, s = step;
  __int128 trips = -1;
  switch (op) {
    case clang::BO_LT: if (s > 0) trips = e > b ? (e - b + s - 1) / s : 0; break;
    case clang::BO_LE: if (s > 0) trips = e >= b ? (e - b) / s + 1 : 0; break;
    case clang::BO_GT: if (s < 0) trips = b > e ? (b - e - s - 1) / -s : 0; break;
    case clang::BO_GE: if (s < 0) trips = b >= e ? (b - e) / -s + 1 : 0; break;
    case clang::BO_NE: if (s != 0 && (e - b) % s == 0 && (e - b) / s >= 0) trips = (e - b) / s; break;
    default: break;
  }
  if (trips < 0 || trips > INT64_MAX) return std::nullopt;
  return static_cast<std::int64_t>(trips);
}

}  // namespace

void LoopBoundCheck::registerMatchers(MatchFinder& finder) {
  auto in_function = forFunction(functionDecl().bind("fn"));
  finder.addMatcher(forStmt(isExpansionInMainFile(), in_function).bind("loop"), this);
  finder.addMatcher(whileStmt(isExpansionInMainFile(), in_function).bind("loop"), this);
  finder.addMatcher(doStmt(isExpansionInMainFile(), in_function).bind("loop"), this);
  finder.addMatcher(cxxForRangeStmt(isExpansionInMainFile(), in_function).bind("loop"), this);
}

void LoopBoundCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  const auto* loop = result.Nodes.getNodeAs<clang::Stmt>("loop");
  LoopFact f;
  f.stmt = loop;
  f.parent = enclosing_loop(context, loop);
  f.where = where_of(context, loop->getBeginLoc());
  if (const auto* for_loop = llvm::dyn_cast<clang::ForStmt>(loop)) {
    check_for(context, fn, for_loop, f);
  } else {
    f.problem = std::string(llvm::isa<clang::WhileStmt>(loop) ? "a while" : llvm::isa<clang::DoStmt>(loop) ? "a do" : "a range-for") +
                " loop: its trip count is not an integer constant expression";
  }
  if (!f.problem.empty()) f.trips.reset();
  facts_of(fn, context).loops.push_back(f);
}

void LoopBoundCheck::check_for(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::ForStmt* loop,
                               LoopFact& f) {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* begin = nullptr;
  if (const auto* decl = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit()); decl && decl->isSingleDecl()) {
    var = llvm::dyn_cast<clang::VarDecl>(decl->getSingleDecl());
    if (var) begin = var->getInit();
  } else if (const auto* assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(loop->getInit());
             assign && assign->getOpcode() == clang::BO_Assign) {
    var = counter_of(assign->getLHS());
    begin = assign->getRHS();
  }
  if (!var || !begin) {
    f.problem = "no loop counter is initialized in the loop header";
    return;
  }
  f.var = var->getNameAsString();

  const auto* cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(loop->getCond());
  const clang::Expr* end = nullptr;
  clang::BinaryOperatorKind op = clang::BO_LT;
  if (cond && (cond->isRelationalOp() || cond->getOpcode() == clang::BO_NE)) {
    if (counter_of(cond->getLHS()) == var) {
      end = cond->getRHS();
      op = cond->getOpcode();
    } else if (counter_of(cond->getRHS()) == var) {
      end = cond->getLHS();
      op = clang::BinaryOperator::reverseComparisonOp(cond->getOpcode());
    }
  }
  if (!end) {
    f.problem = "the condition is not a comparison of '" + f.var + "' with a bound";
    return;
  }

  std::optional<std::int64_t> step;
  const clang::Stmt* inc = loop->getInc();
  if (const auto* u = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc); u && counter_of(u->getSubExpr()) == var) {
    if (u->isIncrementOp()) step = 1;
    if (u->isDecrementOp()) step = -1;
  } else if (const auto* c = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
             c && counter_of(c->getLHS()) == var &&
             (c->getOpcode() == clang::BO_AddAssign || c->getOpcode() == clang::BO_SubAssign)) {
    std::string problem;
    step = constant(context, fn, c->getRHS(), "step", problem);
    if (!problem.empty()) {
      f.problem = problem;
      return;
    }
    if (c->getOpcode() == clang::BO_SubAssign) step = -*step;
  }
  if (!step) {
    f.problem = "the increment of '" + f.var + "' is not ++, --, += or -= a constant";
    return;
  }
  f.step = step;
  f.begin = constant(context, fn, begin, "start", f.problem);
  f.end = constant(context, fn, end, "bound", f.problem);
  if (!f.problem.empty()) return;
  f.cmp = clang::BinaryOperator::getOpcodeStr(op).str();
  f.trips = trip_count(*f.begin, *f.end, *f.step, op);
  if (!f.trips) f.problem = "the loop does not end after a constant number of iterations";
}

}  // namespace bcastgen::clangtool
