// PyTorch (libtorch's ATen) on one thread with kHalf and kBFloat16 tensors
// made once with at::from_blob and out= variants, as a user with
// preallocated outputs runs them; BN + ReLU is three calls (mul, add, relu),
// the mixed case ATen's type promotion (bf16 + f32 computes in f32) written
// to a bf16 output.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "half_peers.h"

namespace half_bench {

namespace {

Loop make_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out) {
  at::set_num_threads(1);
  const auto type = e == Elem::F32 ? at::kFloat : e == Elem::F16 ? at::kHalf : at::kBFloat16;
  auto wrap = [&](void* p, const std::vector<std::int64_t>& shape, at::ScalarType t) {
    return at::from_blob(p, shape, at::TensorOptions().dtype(t));
  };
  at::Tensor o = wrap(out, c.out, type);
  const at::Tensor x = wrap(inputs[0], c.inputs[0], type);
  const at::Tensor y = wrap(inputs[1], c.inputs[1], c.kind == Kind::Mixed ? at::kFloat : type);
  switch (c.kind) {
    case Kind::Add:
    case Kind::Mixed: return [=]() mutable { at::add_out(o, x, y); };
    case Kind::Multiply: return [=]() mutable { at::mul_out(o, x, y); };
    case Kind::Subtract: return [=]() mutable { at::sub_out(o, x, y); };
    case Kind::BnRelu: {
      const at::Tensor z = wrap(inputs[2], c.inputs[2], type);
      return [=]() mutable {
        at::mul_out(o, x, y);
        o.add_(z);
        o.relu_();
      };
    }
  }
  return bench::not_available("no ATen form");
}

}  // namespace

// Empty where ATen has no CPU kernel for the type (1.13: relu of Half).
Loop torch_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out) {
  Loop f = make_loop(c, e, inputs, out);
  try {
    f();
  } catch (const c10::Error& e) {
    return bench::not_available(std::string("ATen: ") + e.what_without_backtrace());
  }
  return f;
}

}  // namespace half_bench
