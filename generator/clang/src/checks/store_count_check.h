// The stores to a kernel's output (a pointer parameter to non-const data,
// or a local pointer derived from one), each with the number of elements it
// writes: store intrinsics by their width (a masked store by the popcount
// of its constant mask, or, when the mask is a parameter of a SIMD wrapper,
// of the argument at each call), memcpy by its constant size, an assignment through
// a subscript or * by its type. analysis.cpp multiplies them by the trip
// counts around them to get the elements a variant stores.
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class StoreCountCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  void check_call(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::CallExpr* call, StoreFact& f);
};

}  // namespace bcastgen::clangtool
