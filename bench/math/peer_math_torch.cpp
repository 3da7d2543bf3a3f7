// PyTorch 1.13 (libtorch's ATen) on one thread, out= variants on tensors
// made once with at::from_blob: what `torch.exp(x, out=y)` runs, SLEEF's u10
// functions inside its vectorized CPU kernels.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "math_peers.h"

PeerLoop torch_math(Fn f, const float* x, float* y, std::int64_t n) {
  at::set_num_threads(1);
  const auto options = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor in = at::from_blob(const_cast<float*>(x), {n}, options);
  at::Tensor out = at::from_blob(y, {n}, options);
  switch (f) {
    case Fn::exp: return [=]() mutable { at::exp_out(out, in); };
    case Fn::exp2: return [=]() mutable { at::exp2_out(out, in); };
    case Fn::expm1: return [=]() mutable { at::expm1_out(out, in); };
    case Fn::log: return [=]() mutable { at::log_out(out, in); };
    case Fn::log2: return [=]() mutable { at::log2_out(out, in); };
    case Fn::log10: return [=]() mutable { at::log10_out(out, in); };
    case Fn::log1p: return [=]() mutable { at::log1p_out(out, in); };
    case Fn::erf: return [=]() mutable { at::erf_out(out, in); };
    case Fn::tanh: return [=]() mutable { at::tanh_out(out, in); };
    case Fn::gelu: return [=]() mutable { at::gelu_out(out, in, "none"); };
    case Fn::gelu_tanh: return [=]() mutable { at::gelu_out(out, in, "tanh"); };
    case Fn::sigmoid: return [=]() mutable { at::sigmoid_out(out, in); };
    case Fn::silu: return [=]() mutable { at::silu_out(out, in); };
    case Fn::softplus: return [=]() mutable { at::softplus_out(out, in, 1, 20); };
  }
  return bench::not_available("no ATen op");
}

// As a PyTorch user runs them with preallocated outputs: one call per op,
// the second in place (F.gelu(x + b) would also allocate a temporary).
PeerLoop torch_fused(Fused f, const float* x, const float* b, float* y) {
  at::set_num_threads(1);
  const auto options = at::TensorOptions().dtype(at::kFloat);
  auto wrap = [&](const float* p, at::IntArrayRef shape) { return at::from_blob(const_cast<float*>(p), shape, options); };
  switch (f) {
    case Fused::BiasGelu: {
      const at::Tensor in = wrap(x, {8, 128, 3072}), bias = wrap(b, {3072});
      at::Tensor out = wrap(y, {8, 128, 3072});
      return [=]() mutable { at::add_out(out, in, bias); at::gelu_out(out, out, "none"); };
    }
    case Fused::BiasSilu: {
      const at::Tensor in = wrap(x, {1, 64, 112, 112}), bias = wrap(b, {1, 64, 1, 1});
      at::Tensor out = wrap(y, {1, 64, 112, 112});
      return [=]() mutable { at::add_out(out, in, bias); at::silu_out(out, out); };
    }
    case Fused::Gate: {
      const at::Tensor in = wrap(x, {8, 128, 3072}), z = wrap(b, {8, 128, 3072});
      at::Tensor out = wrap(y, {8, 128, 3072});
      return [=]() mutable { at::sigmoid_out(out, in); out.mul_(z); };
    }
  }
  return bench::not_available("no ATen form");
}
