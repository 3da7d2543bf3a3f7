// bcastgen benchmark: the fused cases of issue 14 (F1-F6, bench/fused_cases.yaml).
//
// A FusedCase is one expression over N inputs. Its buffers are allocated once
// and shared by all peers as bench.h's Case's are; `expected` is the
// reference's output (bcastgen::reference, one node at a time, each rounded
// as NumPy rounds it). Fusing peers compute the whole expression in one pass;
// chain peers run one library call per node (or fewer where the library
// folds a node into a call, e.g. XNNPACK's output clamp), in place on `out`.
// Every peer reports the bytes its call moves (PeerRun::bytes, ::passes):
// the traffic bound over a chain is those bytes / fused_bytes().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench.h"

namespace bench {

// One buffer of a fused case: an input, the output, or a chain's scratch.
struct Tensor {
  std::string name;
  bcastgen::Shape shape;    // as in the spec
  bcastgen::Shape aligned;  // right-aligned to the output's rank with 1s (NumPy's rule)
  bcastgen::DType dtype = bcastgen::DType::F32;
  std::int64_t numel = 0;
  std::size_t bytes = 0;
  Buffer buf;
  void* ptr() const { return buf.get(); }
  template <class T>
  T* as() const { return static_cast<T*>(ptr()); }
};

// One call of a chain program: dst = op(args[0], args[1]), or
// dst = where(args[0], args[1], args[2]). An argument names an input, "out",
// a scratch tensor of the case, or a literal "=VALUE" (a [1] f32 tensor).
struct Step {
  const char* kernel;  // bcastgen's binary kernel for it (bench/fused_chain.yaml); "" for where
  bcastgen::Op op;
  bool where;
  std::vector<std::string> args;
  std::string dst;
};

struct FusedCase {
  std::string name;   // the kernel name in fused_cases.yaml, e.g. f1_bn_relu
  std::string label;  // the case number, e.g. "F1"
  std::string expr;   // as in fused_cases.yaml
  std::vector<Tensor> inputs;  // in spec order
  Tensor out;
  // Literals and temporaries of the chain programs, made once.
  std::map<std::string, Tensor> scratch;
  // The expression as a chain, one call per node: the reference runs it, and
  // its bytes are the canonical traffic bound. `binary_chain` is the same
  // with binary ops only (for F6 an arithmetic form of where): the fallback's,
  // bcastgen's and XNNPACK's chains.
  std::vector<Step> chain, binary_chain;
  std::vector<unsigned char> expected;
  std::uint64_t checksum = 0;

  const Tensor& in(const std::string& name) const;  // throws if absent
  const Tensor& tensor(const std::string& name) const;  // an input, "out", a scratch or a literal
  template <class T>
  const T* in_ptr(const std::string& name) const { return in(name).template as<const T>(); }
  template <class T>
  T* out_ptr() const { return out.as<T>(); }
  std::string binary_chain_note() const;  // how binary_chain differs from chain ("" if not)
  std::size_t fused_bytes() const;  // every input once + the output once
  std::size_t chain_bytes(const std::vector<Step>& steps) const;  // each call's operands + its result
};

// The six cases of issue 14 with their buffers filled, scratch made and
// `expected` computed by the reference.
std::vector<std::unique_ptr<FusedCase>> make_fused_cases();

// Fused peers (the same translation units as the single-op peers').
PeerRun make_fused_bcastgen(const FusedCase& c);        // the generated fused kernel
PeerRun make_fused_bcastgen_chain(const FusedCase& c);  // bench/fused_chain.yaml's kernels
PeerRun make_fused_fallback(const FusedCase& c);
PeerRun make_fused_xnnpack(const FusedCase& c);
PeerRun make_fused_torch(const FusedCase& c);
PeerRun make_fused_eigen(const FusedCase& c);
PeerRun make_fused_onednn(const FusedCase& c);
PeerRun make_fused_halide(const FusedCase& c, int schedule);

}  // namespace bench
