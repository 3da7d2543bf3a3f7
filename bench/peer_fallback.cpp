// Peer: bcastgen's own generic runtime loop (runtime/include/bcastgen/
// reference.h, namespace fallback): rule engine + coalescing per call, op and
// dtype dispatched once, an odometer over the outer loops and a
// compiler-vectorized inner loop. This is what a runtime without generated
// kernels would call. Compiled with -march=x86-64-v3 (bench/CMakeLists.txt).
#include "bcastgen/reference.h"

#include "bench.h"

namespace bench {

PeerRun make_fallback(const Case& c) {
  PeerRun p;
  const void* a = c.a_ptr();
  const void* b = c.b_ptr();
  void* o = c.out_ptr();
  if (c.binary()) {
    p.run = [&c, a, b, o] { bcastgen::fallback::binary(c.op, c.dtype, c.rule, c.axis, a, c.a, b, c.b, o); };
  } else {
    p.run = [&c, a, o] { bcastgen::fallback::broadcast_to(c.dtype, c.mode, a, c.a, c.b, c.axis, {}, o); };
  }
  return p;
}

}  // namespace bench
