// oneDNN 2.6 binary primitives on one thread (OMP_NUM_THREADS=1): bf16 and
// f32; f16 where this version implements it on the CPU (it reports
// "unimplemented" otherwise, and the table says n/a). BN + ReLU is one
// binary multiply with a binary-add and a ReLU post-op; the mixed case a
// bf16 src0 with an f32 src1.
#include <oneapi/dnnl/dnnl.hpp>

#include "half_peers.h"

namespace half_bench {
namespace {

dnnl::memory::data_type data_type(Elem e) {
  return e == Elem::F32 ? dnnl::memory::data_type::f32
         : e == Elem::F16 ? dnnl::memory::data_type::f16
                          : dnnl::memory::data_type::bf16;
}

dnnl::memory::desc md(const std::vector<std::int64_t>& s, dnnl::memory::data_type t) {
  dnnl::memory::dims strides(s.size(), 1);
  for (std::size_t i = s.size() - 1; i-- > 0;) strides[i] = strides[i + 1] * s[i + 1];
  return dnnl::memory::desc(dnnl::memory::dims(s.begin(), s.end()), t, strides);
}

}  // namespace

Loop onednn_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out) {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  static dnnl::stream stream(engine);
  const auto t = data_type(e);
  const auto t1 = c.kind == Kind::Mixed ? dnnl::memory::data_type::f32 : t;
  dnnl::algorithm alg = dnnl::algorithm::binary_add;
  if (c.kind == Kind::Multiply || c.kind == Kind::BnRelu) alg = dnnl::algorithm::binary_mul;
  if (c.kind == Kind::Subtract) alg = dnnl::algorithm::binary_sub;
  try {
    dnnl::primitive_attr attr;
    if (c.kind == Kind::BnRelu) {
      dnnl::post_ops po;
      po.append_binary(dnnl::algorithm::binary_add, md(c.inputs[2], t));
      po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      attr.set_post_ops(po);
    }
    const dnnl::binary::primitive_desc pd(
        dnnl::binary::desc(alg, md(c.inputs[0], t), md(c.inputs[1], t1), md(c.out, t)), attr, engine);
    auto mem = [&](const std::vector<std::int64_t>& s, dnnl::memory::data_type dt, void* p) {
      return dnnl::memory(md(s, dt), engine, p);
    };
    std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC_0, mem(c.inputs[0], t, inputs[0])},
                                                  {DNNL_ARG_SRC_1, mem(c.inputs[1], t1, inputs[1])},
                                                  {DNNL_ARG_DST, mem(c.out, t, out)}};
    if (c.kind == Kind::BnRelu) {
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = mem(c.inputs[2], t, inputs[2]);
    }
    dnnl::binary prim(pd);
    return [=]() mutable { prim.execute(stream, args); stream.wait(); };
  } catch (const dnnl::error&) {
    return bench::not_available("oneDNN 2.6 has no binary primitive for this type on this CPU");
  }
}

}  // namespace half_bench
