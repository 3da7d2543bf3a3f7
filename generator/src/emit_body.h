// Emits the body of one ISA variant of a kernel: the constant outer loops
// and the unrolled innermost row, as the planner decided them.
#pragma once

#include <string>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"

namespace bcastgen::gen {

// The body of `<variant>_block(i0, ...)`: iteration i0 of the kernel's
// split loop (plan.split), or the whole nest when it has none.
// `streaming`: use the vocabulary's non-temporal stores for whole vectors
// (the caller guarantees an aligned output and fences after all blocks).
std::string emit_variant_body(const KernelPlan& plan, const IsaPlan& isa, const Vocabulary& vocabulary,
                              bool streaming);

}  // namespace bcastgen::gen
