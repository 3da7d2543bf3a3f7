// Emits the body of one ISA variant of a kernel: the constant outer loops
// and the unrolled innermost row, as the planner decided them.
#pragma once

#include <string>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"

namespace bcastgen::gen {

// `streaming`: use the vocabulary's non-temporal stores for whole vectors
// (the caller guarantees an aligned output) and fence at the end.
std::string emit_variant_body(const KernelPlan& plan, const IsaPlan& isa, const Vocabulary& vocabulary,
                              bool streaming);

}  // namespace bcastgen::gen
