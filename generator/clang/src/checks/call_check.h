// Calls from one function of the file to another (a variant calling the
// block of its split loop): where they are, in which loop, and whether each
// integer argument is known at generation time. analysis.cpp follows them,
// so a block is checked with the values its callers pass.
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class CallCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
};

}  // namespace bcastgen::clangtool
