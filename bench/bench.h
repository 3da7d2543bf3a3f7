// bcastgen benchmark: what every peer sees of a case.
//
// One Case per kernel of bench/cases.yaml. The buffers are allocated once,
// 64-byte aligned, filled with exactly representable values (so every peer
// must agree bit for bit), and shared by all peers; each peer writes `out`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bcastgen/registry.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"
#include "buffers.h"
#include "peer.h"

namespace bench {

struct Case {
  std::string name;   // the kernel name in cases.yaml, e.g. c04_nhwc_c3
  std::string label;  // the case number, e.g. "4", "12a"
  bcastgen::Op op;
  bcastgen::DType dtype;      // input element type
  bcastgen::DType out_dtype;  // result_dtype(op, dtype)
  bcastgen::Rule rule;
  bcastgen::BroadcastMode mode;
  std::int64_t axis;
  bcastgen::Shape a, b, out;  // as in the spec (for Broadcast, b is the target)
  // a and b aligned to the output's rank with 1s on broadcast axes: the form
  // the numpy-rule peers (XNNPACK, oneDNN, Eigen, NumPy) are given.
  bcastgen::Shape a_aligned, b_aligned;
  std::int64_t a_numel, b_numel, out_numel;  // b_numel = 0 for Broadcast
  std::size_t a_bytes, b_bytes, out_bytes;
  Buffer a_buf, b_buf, out_buf;
  void* a_ptr() const { return a_buf.get(); }
  void* b_ptr() const { return b_buf.get(); }
  void* out_ptr() const { return out_buf.get(); }
  std::vector<unsigned char> expected;  // bcastgen's output, for the checks
  std::uint64_t checksum = 0;           // of `expected`, for the NumPy process
  bool binary() const { return op != bcastgen::Op::Broadcast; }
};

// The op of a generated kernel that is one op: Broadcast for the Broadcast
// op, else the op of a DAG that is one binary op on inputs 0 and 1 (an
// `op:` kernel of bench/cases.yaml). Throws for any other kernel.
inline bcastgen::Op single_op(const bcastgen::KernelEntry& k) {
  if (k.to_target) return bcastgen::Op::Broadcast;
  const bcastgen::ExprDag d = bcastgen::entry_dag(k);
  const auto& n = d.nodes;
  if (k.input_count != 2 || n.size() != 3 || d.root != 2 || n[2].kind != bcastgen::ExprKind::Binary ||
      n[0].kind != bcastgen::ExprKind::Input || n[1].kind != bcastgen::ExprKind::Input || n[0].input != 0 ||
      n[1].input != 1 || n[2].args != std::vector<std::size_t>{0, 1}) {
    throw std::runtime_error(std::string("bench: kernel ") + k.name + " (" + k.expr + ") is not one binary op on a and b");
  }
  return n[2].op;
}

// Peers (one translation unit each).
PeerRun make_xnnpack(const Case& c);
PeerRun make_onednn(const Case& c);
PeerRun make_eigen(const Case& c);
PeerRun make_fallback(const Case& c);
PeerRun make_halide(const Case& c, int schedule);  // schedule 0 or 1 (bench/halide/README.md)
PeerRun make_torch(const Case& c);

// Per-core data cache sizes by level (caches.cpp): from sysfs under
// $BENCH_SYSFS_ROOT (default /sys), else sysconf(_SC_LEVEL*_CACHE_SIZE),
// else CPUID (leaf 4 on Intel, 0x8000001D or 0x80000005/6 on AMD). A level
// none of them knows is absent.
struct CacheLevel {
  int level;
  std::int64_t bytes;
  std::string source;  // "sysfs", "sysconf", "cpuid 0x80000006", ...
};
std::vector<CacheLevel> detect_caches();

// Roofs (roofs.cpp): each returns a call that processes `n` elements of
// c[i] = a[i] + b[i] (f32), on buffers it owns.
struct Roof {
  std::string name;
  std::int64_t elements;  // per call
  std::size_t bytes;      // read + written per call
  std::function<void()> run;
};
std::vector<Roof> make_roofs();

// Fills n elements of type t with exactly representable values (identical in
// numpy_bench.py): f32 (k / 4 - 63.5), i32 (k - 254), u8 below 128, for
// k = (7 i + seed) mod 509.
void fill(void* p, bcastgen::DType t, std::int64_t n, std::int64_t seed);

// 64-bit checksum of a byte string, identical in numpy_bench.py: the bytes
// zero-padded to 8-byte little-endian words w[i], sum of w[i] * (2i + 1)
// modulo 2^64.
std::uint64_t checksum(const void* data, std::size_t bytes);

}  // namespace bench
