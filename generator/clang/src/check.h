// The base of the inspect checks, shaped like a clang-tidy check: each
// registers its AST matchers, and check() records what one match shows.
#pragma once

#include <clang/ASTMatchers/ASTMatchFinder.h>

#include "facts.h"

namespace bcastgen::clangtool {

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  explicit Check(Facts& facts) : facts_(facts) {}
  virtual void registerMatchers(clang::ast_matchers::MatchFinder& finder) = 0;
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult& result) = 0;
  // After every match: work that needs the whole translation unit.
  virtual void finish(clang::ASTContext& /*context*/) {}

 protected:
  Facts& facts_;
  // The facts of `fn`, created on first use.
  FunctionFacts& facts_of(const clang::FunctionDecl* fn, clang::ASTContext& context);

 private:
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) final { check(result); }
};

// Runs every check on a parsed translation unit.
Facts collect_facts(clang::ASTContext& context, const std::string& file);

}  // namespace bcastgen::clangtool
