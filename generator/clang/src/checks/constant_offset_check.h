// Every index, stride and offset of a kernel must be known when the code is
// generated: the integer side of each subscript (p[i]) and of each pointer
// offset (p + i, p - i, p += i) is classified by static_expr.h. A use of a
// parameter is resolved later, against the arguments of each call
// (analysis.cpp): the block of a split kernel takes its loop counter i0 as
// a parameter.
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class ConstantOffsetCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
};

}  // namespace bcastgen::clangtool
