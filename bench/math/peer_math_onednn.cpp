// oneDNN 2.6 eltwise (forward inference, its JIT kernels, one thread with
// OMP_NUM_THREADS=1): the primitive is made once; swish with alpha 1 is
// silu, soft_relu is softplus.
#include <oneapi/dnnl/dnnl.hpp>

#include "math_peers.h"

namespace {

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::memory::desc md(const dnnl::memory::dims& d) {
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32,
                            d.size() == 1 ? dnnl::memory::format_tag::a : dnnl::memory::format_tag::ab);
}

}  // namespace

PeerLoop onednn_math(Fn f, const float* x, float* y, std::int64_t n) {
  dnnl::algorithm alg;
  switch (f) {
    case Fn::exp: alg = dnnl::algorithm::eltwise_exp; break;
    case Fn::log: alg = dnnl::algorithm::eltwise_log; break;
    case Fn::tanh: alg = dnnl::algorithm::eltwise_tanh; break;
    case Fn::sigmoid: alg = dnnl::algorithm::eltwise_logistic; break;
    case Fn::silu: alg = dnnl::algorithm::eltwise_swish; break;
    case Fn::gelu: alg = dnnl::algorithm::eltwise_gelu_erf; break;
    case Fn::gelu_tanh: alg = dnnl::algorithm::eltwise_gelu_tanh; break;
    case Fn::softplus: alg = dnnl::algorithm::eltwise_soft_relu; break;
    default: return bench::not_available("oneDNN 2.6 has no such eltwise algorithm");
  }
  const dnnl::memory::desc d = md({n});
  const float alpha = f == Fn::silu ? 1.0f : 0.0f;
  const dnnl::eltwise_forward::primitive_desc pd(
      dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, alg, d, alpha, 0.0f), engine());
  const dnnl::eltwise_forward prim(pd);
  const dnnl::memory src(d, engine(), const_cast<float*>(x)), dst(d, engine(), y);
  return [=] {
    dnnl::stream s(engine());
    prim.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
  };
}

// The bias cases as one binary add with the activation as an eltwise
// post-op (one pass); the gate as eltwise logistic, then a binary mul.
PeerLoop onednn_fused(Fused f, const float* x, const float* b, float* y) {
  const bool gelu = f == Fused::BiasGelu;
  const dnnl::memory::dims big = gelu || f == Fused::Gate ? dnnl::memory::dims{1024, 3072} : dnnl::memory::dims{64, 12544};
  const dnnl::memory::dims bias = gelu ? dnnl::memory::dims{1, 3072} : f == Fused::Gate ? big : dnnl::memory::dims{64, 1};
  const dnnl::memory src(md(big), engine(), const_cast<float*>(x)), dst(md(big), engine(), y);
  const dnnl::memory other(md(bias), engine(), const_cast<float*>(b));
  dnnl::primitive_attr attr;
  if (f != Fused::Gate) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, gelu ? dnnl::algorithm::eltwise_gelu_erf : dnnl::algorithm::eltwise_swish,
                       gelu ? 0.0f : 1.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  const dnnl::binary::primitive_desc pd(
      dnnl::binary::desc(f == Fused::Gate ? dnnl::algorithm::binary_mul : dnnl::algorithm::binary_add, md(big),
                         md(bias), md(big)),
      attr, engine());
  const dnnl::binary add(pd);
  if (f != Fused::Gate) {
    return [=] {
      dnnl::stream s(engine());
      add.execute(s, {{DNNL_ARG_SRC_0, src}, {DNNL_ARG_SRC_1, other}, {DNNL_ARG_DST, dst}});
      s.wait();
    };
  }
  const dnnl::eltwise_forward sigmoid(dnnl::eltwise_forward::primitive_desc(
      dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_logistic, md(big), 0.0f,
                                  0.0f),
      engine()));
  return [=] {
    dnnl::stream s(engine());
    sigmoid.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    add.execute(s, {{DNNL_ARG_SRC_0, dst}, {DNNL_ARG_SRC_1, other}, {DNNL_ARG_DST, dst}});
    s.wait();
  };
}
