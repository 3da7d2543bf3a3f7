// The intrinsic families `bcastgen inspect` tells apart, one table: how a
// family's names look and which target-attribute features enable it. The
// ISA table's `families` column (runtime/include/bcastgen/cpu.h) says which
// families each ISA's variants may call, by these rows' names;
// inspect_test checks that every family it names has a row, and the reverse.
#pragma once

#include <string>

namespace bcastgen::clangtool {

struct IntrinsicFamily {
  const char* name;
  // ECMAScript regular expression over the whole callee name. Rows are tried
  // in order: the first match names the family (AVX-512's masked 128- and
  // 256-bit forms before AVX2's and SSE's plain prefixes).
  const char* pattern;
  // Comma-separated substrings of a function's target attribute, any of which
  // enables the family; empty: the baseline of its architecture.
  const char* enabled_by;
};

inline constexpr IntrinsicFamily kIntrinsicFamilies[] = {
    {"avx512",
     "_mm512_.*|_mm(256)?(_.*)?(_mask_|_maskz_).*|_mm(256)?(_.*)?_mask|_k.*_mask.*|_cvtmask.*|_cvtu(32|64)_mask.*"
     "|_(load|store)_mask.*",
     "avx512"},
    {"avx2", "_mm256_.*|_mm_(fmadd|fmsub|fnm).*", "avx,fma"},
    {"sse", "_mm_.*", ""},
    {"bmi", "_(pdep|pext|bzhi|bextr|blsi|blsr|blsmsk|tzcnt|lzcnt|andn|mulx)_u(32|64)", "bmi"},
    {"neon", "v[a-z0-9]+(_[a-z0-9]+)*_(f|s|u|p|bf)(8|16|32|64)", ""},
};

// The family of an intrinsic's name, or "" for a name of none (a plain call).
std::string intrinsic_family(const std::string& name);

// Whether a function whose target attribute is `target` may call `family`.
bool target_enables(const std::string& target, const std::string& family);

}  // namespace bcastgen::clangtool
