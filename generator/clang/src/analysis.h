// Puts each kernel variant together from the facts of the functions it
// calls, and decides the findings: run-time loop bounds and offsets,
// intrinsics outside the variant's ISA or target, and shape mismatches.
#pragma once

#include <vector>

#include "bcastgen/clang/inspect.h"
#include "facts.h"

namespace bcastgen::clangtool {

std::vector<KernelReport> analyze(const Facts& facts);

}  // namespace bcastgen::clangtool
