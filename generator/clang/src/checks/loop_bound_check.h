// Every loop of a kernel must have a trip count that is an integer constant
// expression: `for (T i = C0; i < C1; i += C2)` with C0, C1, C2 constant
// (<, <=, >, >=, !=; ++, --, +=, -=). Records each loop with its counter,
// bounds and trip count, or why it has none. while, do and range-for loops
// never have one.
//
// Not checked: a body that assigns the counter.
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class LoopBoundCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  void check_for(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::ForStmt* loop, LoopFact& f);
};

}  // namespace bcastgen::clangtool
