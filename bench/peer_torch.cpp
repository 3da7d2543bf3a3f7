// Peer: PyTorch 1.13 through libtorch's C++ API (ATen), on one thread
// (at::set_num_threads(1)). The tensors are made here, outside the timed
// region, with at::from_blob on the shared buffers: the operands at the
// output's rank (as aligned by the case's rule; for NumPy's rule PyTorch
// aligns them the same way itself), `out` preallocated. The timed call is
// the op's out= variant (at::add_out, at::sub_out, at::mul_out, at::gt_out),
// which goes through TensorIterator: it coalesces dimensions and vectorizes
// broadcasts; the Broadcast op is out.copy_(a.expand(out_shape)).
// One translation unit: ATen's headers are slow to compile.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench.h"
#include "fused.h"

namespace bench {
namespace {

bool scalar_type_of(bcastgen::DType t, at::ScalarType* st) {
  switch (t) {
    case bcastgen::DType::F32: *st = at::kFloat; return true;
    case bcastgen::DType::U8: *st = at::kByte; return true;
    case bcastgen::DType::I32: *st = at::kInt; return true;
    case bcastgen::DType::Bool: *st = at::kBool; return true;
    default: return false;
  }
}

std::vector<int64_t> sizes(const bcastgen::Shape& s) { return std::vector<int64_t>(s.begin(), s.end()); }

at::Tensor wrap(void* p, const bcastgen::Shape& s, at::ScalarType t) {
  return at::from_blob(p, sizes(s), at::TensorOptions().dtype(t).device(at::kCPU));
}

struct Tensors {
  at::Tensor a, b, out;
};

}  // namespace

PeerRun make_torch(const Case& c) {
  at::set_num_threads(1);
  at::ScalarType in_t, out_t;
  if (!scalar_type_of(c.dtype, &in_t) || !scalar_type_of(c.out_dtype, &out_t)) {
    return not_available(std::string("no ") + bcastgen::dtype_name(c.dtype) + " dtype in this peer");
  }
  auto t = std::make_shared<Tensors>();
  t->a = wrap(c.a_ptr(), c.a_aligned, in_t);
  t->out = wrap(c.out_ptr(), c.out, out_t);
  PeerRun p;
  if (!c.binary()) {
    const std::vector<int64_t> target = sizes(c.out);
    p.run = [t, target] { t->out.copy_(t->a.expand(target)); };
    p.note = "out.copy_(a.expand(shape))";
    return p;
  }
  t->b = wrap(c.b_ptr(), c.b_aligned, in_t);
  using bcastgen::Op;
  switch (c.op) {
    case Op::Add: p.run = [t] { at::add_out(t->out, t->a, t->b); }; break;
    case Op::Subtract: p.run = [t] { at::sub_out(t->out, t->a, t->b); }; break;
    case Op::Multiply: p.run = [t] { at::mul_out(t->out, t->a, t->b); }; break;
    case Op::Greater: p.run = [t] { at::gt_out(t->out, t->a, t->b); }; break;
    default: return not_available(std::string("op ") + bcastgen::op_name(c.op) + " not wired in peer_torch.cpp");
  }
  if (c.dtype == bcastgen::DType::U8) p.note = "uint8 add wraps, as bcastgen's";
  return p;
}


// Fused cases (fused.h): PyTorch eager, each case as a PyTorch user writes it
// with the fewest passes: out= variants and in-place ops on `out`, tensors
// made here; ops that fold two nodes into one pass are used (add with alpha,
// clamp for ReLU6, where). Not addcmul (self + t1 * t2, one pass for
// x * scale + shift): its kernel is contracted to an FMA, which rounds once
// where NumPy rounds twice (about one element in ten of F1's differs from
// the reference).
PeerRun make_fused_torch(const FusedCase& c) {
  at::set_num_threads(1);
  auto ts = std::make_shared<std::map<std::string, at::Tensor>>();
  for (const Tensor& in : c.inputs) {
    at::ScalarType st;
    if (!scalar_type_of(in.dtype, &st)) return not_available("no " + std::string(bcastgen::dtype_name(in.dtype)) + " dtype");
    (*ts)[in.name] = wrap(in.ptr(), in.aligned, st);
  }
  at::Tensor out = wrap(c.out.ptr(), c.out.shape, at::kFloat);
  PeerRun p;
  // Bytes of one pass over `out` reading the inputs named.
  auto pass = [&c](std::initializer_list<const char*> ins, bool reads_out) {
    std::size_t n = c.out.bytes * (reads_out ? 2 : 1);
    for (const char* i : ins) n += c.in(i).bytes;
    return n;
  };
  const std::map<std::string, at::Tensor>& t = *ts;
  if (c.name == "f1_bn_relu") {
    p.run = [ts, out, x = t.at("x"), scale = t.at("scale"), shift = t.at("shift")]() mutable {
      at::mul_out(out, x, scale);
      at::add_out(out, out, shift);
      at::clamp_min_(out, 0);
    };
    p.bytes = pass({"x", "scale"}, false) + pass({"shift"}, true) + pass({}, true);
    p.passes = 3;
    p.note = "mul_out, add_out, clamp_min_";
  } else if (c.name == "f2_residual_relu") {
    p.run = [ts, out, a = t.at("a"), b = t.at("b")]() mutable {
      at::add_out(out, a, b);
      at::clamp_min_(out, 0);
    };
    p.bytes = pass({"a", "b"}, false) + pass({}, true);
    p.passes = 2;
    p.note = "add_out, clamp_min_";
  } else if (c.name == "f3_attention") {
    // mask + 0.125 * s in one pass (s * 0.125 is exact, FMA or not).
    p.run = [ts, out, s = t.at("s"), mask = t.at("mask")]() mutable { at::add_out(out, mask, s, 0.125); };
    p.bytes = pass({"s", "mask"}, false);
    p.passes = 1;
    p.note = "add_out(out, mask, s, alpha=0.125)";
  } else if (c.name == "f4_layernorm_tail") {
    p.run = [ts, out, x = t.at("x"), mean = t.at("mean"), rstd = t.at("rstd"), gamma = t.at("gamma"),
             beta = t.at("beta")]() mutable {
      at::sub_out(out, x, mean);
      at::mul_out(out, out, rstd);
      at::mul_out(out, out, gamma);
      at::add_out(out, out, beta);
    };
    p.bytes = pass({"x", "mean"}, false) + pass({"rstd"}, true) + pass({"gamma"}, true) + pass({"beta"}, true);
    p.passes = 4;
    p.note = "sub_out, mul_out, mul_out, add_out";
  } else if (c.name == "f5_relu6_nhwc") {
    p.run = [ts, out, x = t.at("x"), bias = t.at("bias")]() mutable {
      at::add_out(out, x, bias);
      at::clamp_(out, 0, 6);
    };
    p.bytes = pass({"x", "bias"}, false) + pass({}, true);
    p.passes = 2;
    p.note = "add_out, clamp_(0, 6)";
  } else if (c.name == "f6_causal_mask") {
    const at::Tensor other = at::scalar_tensor(-10000.0, at::TensorOptions().dtype(at::kFloat));
    p.run = [ts, out, s = t.at("s"), keep = t.at("keep"), other]() mutable { at::where_out(out, keep, s, other); };
    p.bytes = pass({"s", "keep"}, false) + sizeof(float);
    p.passes = 1;
    p.note = "where_out(out, keep, s, scalar_tensor(-10000))";
  } else {
    return not_available("case not wired in peer_torch.cpp");
  }
  return p;
}

}  // namespace bench
