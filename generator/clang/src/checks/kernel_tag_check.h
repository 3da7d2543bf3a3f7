// Finds the kernel variants: functions tagged
// BCASTGEN_KERNEL("bcastgen.<kind>:<kernel>:<variant>"), i.e. clang's
// annotate attribute. Kinds: kernel (an ISA variant), block (one iteration
// of a split loop, called by the variant), range (the run-time [begin, end)
// driver of the split loop).
#pragma once

#include "../check.h"

namespace bcastgen::clangtool {

class KernelTagCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
};

}  // namespace bcastgen::clangtool
