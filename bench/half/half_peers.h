// The 16-bit float benchmark's cases and the interface of its peers
// (bench/half/half_bench.cpp runs them; one translation unit per peer, as
// each needs its own flags).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "peer.h"

namespace half_bench {

enum class Elem { F32, F16, Bf16 };
inline const char* elem_name(Elem e) { return e == Elem::F32 ? "f32" : e == Elem::F16 ? "f16" : "bf16"; }
inline int elem_size(Elem e) { return e == Elem::F32 ? 4 : 2; }

// out = x OP y (a binary op), max(x * y + z, 0) (BnRelu), or the mixed case:
// x (16-bit) + y (f32) rounded to x's type.
enum class Kind { Add, Multiply, Subtract, BnRelu, Mixed };

struct Case {
  std::string name;
  Kind kind;
  std::vector<std::vector<std::int64_t>> inputs;  // shapes, each of the output's rank (size-1 axes broadcast)
  std::vector<std::int64_t> out;
};

// A ready-to-run loop over preallocated buffers, or none and why when the
// peer has no kernel for this case and element type (peer.h: the one
// interface of the C++ peers).
using Loop = bench::PeerRun;

// inputs[i] holds case.inputs[i] in `e` (the mixed case: input 1 in f32).
Loop torch_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out);
Loop onednn_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out);
Loop eigen_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out);
Loop halide_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out);

}  // namespace half_bench
