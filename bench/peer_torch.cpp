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

#include <memory>
#include <string>
#include <vector>

#include "bench.h"

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

}  // namespace bench
