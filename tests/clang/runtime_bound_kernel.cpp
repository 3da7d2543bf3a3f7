// A hand-written kernel for `bcastgen inspect` (tests/verify_test.cpp): its
// loop bound is a parameter, so inspect must exit non-zero and name the loop.
#include <cstdint>

#define BCASTGEN_KERNEL(tag) __attribute__((annotate(tag)))

namespace add_impl {

BCASTGEN_KERNEL("bcastgen.kernel:add:scalar")
void scalar(const float* a, const float* b, float* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = a[i] + b[i];
  }
}

}  // namespace add_impl
