// The SIMD intrinsics a kernel calls, by family (avx512: _mm512_*, the
// masked 128/256-bit forms and mask ops; avx2: _mm256_* and FMA; sse:
// _mm_*; bmi: _pdep_u64...; neon: vaddq_f32...), named as written: a macro
// such as _mm512_cmp_ps_mask counts, not the builtin it expands to.
// analysis.cpp checks them against the variant's ISA and target attribute.
// A template's calls count in each instantiation, with its arguments.
#pragma once

#include <set>
#include <string>
#include <tuple>

#include "../check.h"

namespace bcastgen::clangtool {

class IntrinsicCheck : public Check {
 public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  // (function, offset, name): one macro, several builtins. Per function, as
  // a template's instantiations share their calls' offsets.
  std::set<std::tuple<const clang::FunctionDecl*, unsigned, std::string>> seen_;
};

}  // namespace bcastgen::clangtool
