// The shape metadata the generator emits for each kernel: from the header,
// the constexpr `<kernel>_shape::out_numel` and `<kernel>_shape::out`; from
// the banner comment above the kernel's code, its loop table ("i0  64 ...",
// or "(no loops: ...)"). analysis.cpp compares them with each other and
// with the elements every variant stores.
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class ShapeMetadataCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void finish(clang::ASTContext& context) override;  // reads the loop tables
};

}  // namespace bcastgen::clangtool
