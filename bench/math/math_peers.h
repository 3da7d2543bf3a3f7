// The peers of bench/math beside SLEEF (ONNX Runtime and NumPy run in their
// own processes: ort/, numpy_math.py): each prepares, outside the timed
// region, a loop y = f(x) over n floats, or returns an empty function when
// it lacks f. One translation unit per peer (its headers and flags).
#pragma once

#include <cstdint>

#include "peer.h"         // bench::PeerRun: the one interface of the C++ peers
#include "sleef_loops.h"  // Fn

using PeerLoop = bench::PeerRun;
PeerLoop eigen_math(Fn f, const float* x, float* y, std::int64_t n);
PeerLoop torch_math(Fn f, const float* x, float* y, std::int64_t n);
PeerLoop onednn_math(Fn f, const float* x, float* y, std::int64_t n);
PeerLoop xnnpack_math(Fn f, const float* x, float* y, std::int64_t n);
PeerLoop halide_math(Fn f, const float* x, float* y, std::int64_t n);

// The fused cases of issue 21: bias + GELU gelu(x + b) on [8,128,3072] +
// [3072], bias + SiLU silu(x + b) on [1,64,112,112] + [1,64,1,1], and the
// gate sigmoid(x) * z on [8,128,3072] twice. `b` is the bias or the gate's z.
enum class Fused { BiasGelu, BiasSilu, Gate };
PeerLoop torch_fused(Fused f, const float* x, const float* b, float* y);
PeerLoop onednn_fused(Fused f, const float* x, const float* b, float* y);
PeerLoop halide_fused(Fused f, const float* x, const float* b, float* y);
