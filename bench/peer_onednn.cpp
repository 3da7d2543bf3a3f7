// Peer: oneDNN 2.6 (Debian's libdnnl, OpenMP build: run with
// OMP_NUM_THREADS=1), dnnl::binary on the 2.x API. The primitive and its
// memory objects are made here, outside the timed region; the timed call is
// primitive::execute + stream::wait.
#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <string>
#include <unordered_map>

#include "bench.h"
#include "fused.h"

namespace bench {
namespace {

dnnl::engine& cpu_engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::memory::desc md(const bcastgen::Shape& s, dnnl::memory::data_type dt) {
  dnnl::memory::dims d(s.begin(), s.end());
  dnnl::memory::dims strides(s.size(), 1);
  for (std::size_t i = s.size(); i-- > 1;) strides[i - 1] = strides[i] * d[i];
  return dnnl::memory::desc(d, dt, strides);
}

bool data_type_of(bcastgen::DType t, dnnl::memory::data_type* dt) {
  switch (t) {
    case bcastgen::DType::F32: *dt = dnnl::memory::data_type::f32; return true;
    case bcastgen::DType::U8:
    case bcastgen::DType::Bool: *dt = dnnl::memory::data_type::u8; return true;
    case bcastgen::DType::I8: *dt = dnnl::memory::data_type::s8; return true;
    case bcastgen::DType::I32: *dt = dnnl::memory::data_type::s32; return true;
    default: return false;
  }
}

bool algorithm_of(bcastgen::Op op, dnnl::algorithm* alg) {
  using bcastgen::Op;
  switch (op) {
    case Op::Add: *alg = dnnl::algorithm::binary_add; return true;
    case Op::Subtract: *alg = dnnl::algorithm::binary_sub; return true;
    case Op::Multiply: *alg = dnnl::algorithm::binary_mul; return true;
    case Op::Divide: *alg = dnnl::algorithm::binary_div; return true;
    case Op::Maximum: *alg = dnnl::algorithm::binary_max; return true;
    case Op::Minimum: *alg = dnnl::algorithm::binary_min; return true;
    case Op::Greater: *alg = dnnl::algorithm::binary_gt; return true;
    case Op::GreaterEqual: *alg = dnnl::algorithm::binary_ge; return true;
    case Op::Less: *alg = dnnl::algorithm::binary_lt; return true;
    case Op::LessEqual: *alg = dnnl::algorithm::binary_le; return true;
    case Op::Equal: *alg = dnnl::algorithm::binary_eq; return true;
    case Op::NotEqual: *alg = dnnl::algorithm::binary_ne; return true;
    default: return false;
  }
}

bool commutative(bcastgen::Op op) {
  using bcastgen::Op;
  return op == Op::Add || op == Op::Multiply || op == Op::Maximum || op == Op::Minimum || op == Op::Equal ||
         op == Op::NotEqual;
}

struct Prepared {
  dnnl::stream stream;
  dnnl::binary prim;
  std::unordered_map<int, dnnl::memory> args;
};

}  // namespace

PeerRun make_onednn(const Case& c) {
  if (!c.binary()) return not_available("no broadcast (materialize) primitive");
  dnnl::algorithm alg;
  if (!algorithm_of(c.op, &alg)) return not_available(std::string("no binary ") + bcastgen::op_name(c.op));
  dnnl::memory::data_type dt, odt;
  if (!data_type_of(c.dtype, &dt) || !data_type_of(c.out_dtype, &odt)) {
    return not_available(std::string("no ") + bcastgen::dtype_name(c.dtype) + " data type");
  }
  // binary broadcasts src1 only: src0 must have the output's dims.
  const void* p0 = c.a_ptr();
  const void* p1 = c.b_ptr();
  bcastgen::Shape s0 = c.a_aligned, s1 = c.b_aligned;
  std::string note;
  if (s0 != c.out) {
    if (s1 == c.out && commutative(c.op)) {
      std::swap(p0, p1);
      std::swap(s0, s1);
      note = "operands swapped (src1 broadcasts)";
    } else {
      return not_available("binary broadcasts src1 only; here src0 (a) broadcasts");
    }
  }
  try {
    auto prep = std::make_shared<Prepared>();
    dnnl::engine& eng = cpu_engine();
    const auto md0 = md(s0, dt), md1 = md(s1, dt), mdo = md(c.out, odt);
    dnnl::binary::primitive_desc pd(dnnl::binary::desc(alg, md0, md1, mdo), eng);
    prep->prim = dnnl::binary(pd);
    prep->stream = dnnl::stream(eng);
    prep->args = {{DNNL_ARG_SRC_0, dnnl::memory(md0, eng, const_cast<void*>(p0))},
                  {DNNL_ARG_SRC_1, dnnl::memory(md1, eng, const_cast<void*>(p1))},
                  {DNNL_ARG_DST, dnnl::memory(mdo, eng, c.out_ptr())}};
    PeerRun p;
    p.run = [prep] {
      prep->prim.execute(prep->stream, prep->args);
      prep->stream.wait();
    };
    p.note = std::string("impl ") + pd.impl_info_str() + (note.empty() ? "" : "; " + note);
    if (c.dtype == bcastgen::DType::U8) p.note += "; saturates (inputs < 128: no sum overflows)";
    if (c.dtype == bcastgen::DType::I32) p.note += "; s32 computed in f32 (inputs small: exact)";
    return p;
  } catch (const dnnl::error& e) {
    return not_available(std::string("oneDNN: ") + e.what());
  }
}


// Fused cases (fused.h): dnnl::binary with post-ops (binary and eltwise),
// made here. One primitive per case where oneDNN's jit can broadcast every
// post-op operand; F3's scale is src0's scale attribute (a binary post-op
// broadcasting mask [8,1,1,128] gets only the reference implementation,
// ref:any). F4 is two primitives over 2-D and 3-D views of the same memory:
// its post-ops need per-row (rstd) and per-column (gamma, beta) operands,
// which no single view gives the jit (one primitive is ref:any, 190x slower).
// F6: oneDNN 2.6 has no select.
PeerRun make_fused_onednn(const FusedCase& c) {
  using dnnl::algorithm;
  struct Operand {
    std::string name;               // an input, "out", or "=VALUE"
    dnnl::memory::dims dims = {};   // the view; empty: the tensor at the output's rank
  };
  struct PostOp {
    algorithm alg;
    Operand operand = {};  // binary post-op; eltwise: name ""
    float alpha = 0, beta = 0;
  };
  struct Prim {
    algorithm alg;
    Operand src0, src1;
    std::vector<PostOp> post;
    float scale0 = 1;
  };
  std::vector<Prim> prims;
  const PostOp relu{algorithm::eltwise_relu, {}, 0.0f, 0.0f};
  if (c.name == "f1_bn_relu") {
    prims = {{algorithm::binary_mul, {"x"}, {"scale"}, {{algorithm::binary_add, {"shift"}}, relu}}};
  } else if (c.name == "f2_residual_relu") {
    prims = {{algorithm::binary_add, {"a"}, {"b"}, {relu}}};
  } else if (c.name == "f3_attention") {
    prims = {{algorithm::binary_add, {"s"}, {"mask"}, {}, 0.125f}};
  } else if (c.name == "f4_layernorm_tail") {
    prims = {{algorithm::binary_sub, {"x", {1, 1024, 768}}, {"mean", {1, 1024, 1}},
              {{algorithm::binary_mul, {"rstd", {1, 1024, 1}}}}},
             {algorithm::binary_mul, {"out", {1024, 768}}, {"gamma", {1, 768}},
              {{algorithm::binary_add, {"beta", {1, 768}}}}}};
  } else if (c.name == "f5_relu6_nhwc") {
    prims = {{algorithm::binary_add, {"x"}, {"bias"}, {{algorithm::eltwise_clip, {}, 0.0f, 6.0f}}}};
  } else {
    return not_available("no select (where) in oneDNN 2.6's binary or post-ops");
  }
  try {
    dnnl::engine& eng = cpu_engine();
    const auto f32 = dnnl::memory::data_type::f32;
    const std::size_t rank = c.out.shape.size();
    auto operand_md = [&](const Operand& o) {
      if (!o.dims.empty()) return md(bcastgen::Shape(o.dims.begin(), o.dims.end()), f32);
      if (o.name[0] == '=') return md(bcastgen::Shape(rank, 1), f32);  // a literal: 1 element
      return md(o.name == "out" ? c.out.shape : c.in(o.name).aligned, f32);
    };
    auto memory = [&](const Operand& o) {
      return dnnl::memory(operand_md(o), eng, const_cast<void*>(c.tensor(o.name).ptr()));
    };
    auto prep = std::make_shared<std::vector<Prepared>>();
    PeerRun p;
    p.passes = static_cast<int>(prims.size());
    std::string impls;
    for (const Prim& pr : prims) {
      dnnl::post_ops ops;
      for (const PostOp& o : pr.post) {
        if (o.operand.name.empty()) {
          ops.append_eltwise(1.0f, o.alg, o.alpha, o.beta);
        } else {
          ops.append_binary(o.alg, operand_md(o.operand));
        }
      }
      dnnl::primitive_attr attr;
      attr.set_post_ops(ops);
      if (pr.scale0 != 1) attr.set_scales(DNNL_ARG_SRC_0, 0, {pr.scale0});
      const auto md0 = operand_md(pr.src0), md1 = operand_md(pr.src1);
      dnnl::binary::primitive_desc pd(dnnl::binary::desc(pr.alg, md0, md1, md0), attr, eng);
      Prepared q;
      q.prim = dnnl::binary(pd);
      q.stream = dnnl::stream(eng);
      q.args = {{DNNL_ARG_SRC_0, memory(pr.src0)},
                {DNNL_ARG_SRC_1, memory(pr.src1)},
                {DNNL_ARG_DST, dnnl::memory(md0, eng, c.out.ptr())}};
      p.bytes += c.tensor(pr.src0.name).bytes + c.tensor(pr.src1.name).bytes + c.out.bytes;
      for (std::size_t i = 0; i < pr.post.size(); ++i) {
        if (pr.post[i].operand.name.empty()) continue;
        q.args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i)) | DNNL_ARG_SRC_1, memory(pr.post[i].operand));
        p.bytes += c.tensor(pr.post[i].operand.name).bytes;
      }
      impls += std::string(impls.empty() ? "" : ", ") + pd.impl_info_str();
      prep->push_back(std::move(q));
    }
    p.run = [prep] {
      for (Prepared& q : *prep) {
        q.prim.execute(q.stream, q.args);
        q.stream.wait();
      }
    };
    p.note = "impl " + impls;
    return p;
  } catch (const dnnl::error& e) {
    return not_available(std::string("oneDNN: ") + e.what());
  }
}

}  // namespace bench
