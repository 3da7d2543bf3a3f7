// Peer: oneDNN 2.6 (Debian's libdnnl, OpenMP build: run with
// OMP_NUM_THREADS=1), dnnl::binary on the 2.x API. The primitive and its
// memory objects are made here, outside the timed region; the timed call is
// primitive::execute + stream::wait.
#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <string>
#include <unordered_map>

#include "bench.h"

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

}  // namespace bench
