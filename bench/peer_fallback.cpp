// Peer: bcastgen's own generic runtime loop (runtime/include/bcastgen/
// reference.h, namespace fallback): rule engine + coalescing per call, op and
// dtype dispatched once, an odometer over the outer loops and a
// compiler-vectorized inner loop. This is what a runtime without generated
// kernels would call. Compiled with -march=x86-64-v3 (bench/CMakeLists.txt).
#include <array>
#include <vector>

#include "bcastgen/reference.h"
#include "bench.h"
#include "fused.h"

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

// Fused cases (fused.h): the binary chain, one fallback::binary call per
// node (each resolving shapes, rule and coalescing per call, as a runtime
// without generated kernels does), in place on `out`.
PeerRun make_fused_fallback(const FusedCase& c) {
  std::vector<std::array<const Tensor*, 3>> calls;
  for (const Step& s : c.binary_chain) calls.push_back({&c.tensor(s.args[0]), &c.tensor(s.args[1]), &c.tensor(s.dst)});
  PeerRun p;
  p.run = [&c, calls] {
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const Tensor &a = *calls[i][0], &b = *calls[i][1], &d = *calls[i][2];
      bcastgen::fallback::binary(c.binary_chain[i].op, a.dtype, bcastgen::Rule::Numpy, -1, a.ptr(), a.shape, b.ptr(),
                                 b.shape, d.ptr());
    }
  };
  p.bytes = c.chain_bytes(c.binary_chain);
  p.passes = static_cast<int>(calls.size());
  p.note = c.binary_chain_note();
  return p;
}

}  // namespace bench
