// The runtime reference's bodies (runtime/include/bcastgen/reference.h,
// namespace bodies), compiled here once for the generator and whatever links
// bcastgen_core, which defines BCASTGEN_REFERENCE_EXTERN for them: `run`, the
// ONNX frontend's constant folding and the tests each called them from their
// own units, 20 s of g++ -O3 apiece.
#define BCASTGEN_REFERENCE_INSTANTIATE
#include "bcastgen/reference.h"
