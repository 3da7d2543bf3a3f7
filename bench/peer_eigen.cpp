// Peer: Eigen 3.4 Tensor module, single-threaded (DefaultDevice). Operands
// are TensorMaps of the shared buffers at the output's rank; an operand that
// broadcasts goes through .broadcast(factors), one that does not is used as
// is (as an Eigen user would write it). Compiled with -march=x86-64-v3 so
// Eigen vectorizes with AVX2/FMA (bench/CMakeLists.txt).
#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <array>
#include <limits>
#include <cstdint>
#include <string>

#include "bench.h"
#include "fused.h"

namespace bench {
namespace {

template <int N>
std::array<Eigen::Index, N> to_dims(const bcastgen::Shape& s) {
  std::array<Eigen::Index, N> d{};
  for (int i = 0; i < N; ++i) d[i] = static_cast<Eigen::Index>(s[static_cast<std::size_t>(i)]);
  return d;
}

template <int N>
std::array<Eigen::Index, N> factors(const bcastgen::Shape& s, const bcastgen::Shape& out) {
  std::array<Eigen::Index, N> f{};
  for (int i = 0; i < N; ++i) {
    const auto k = static_cast<std::size_t>(i);
    f[i] = static_cast<Eigen::Index>(s[k] == out[k] ? 1 : out[k]);
  }
  return f;
}

struct AddF {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const { return x + y; }
};
struct SubF {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const { return x - y; }
};
struct MulF {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const { return x * y; }
};
struct GtF {
  template <class X, class Y>
  auto operator()(const X& x, const Y& y) const { return x > y; }
};

template <int N, class T, class TO, class F>
PeerRun binary(const Case& c) {
  using In = Eigen::TensorMap<const Eigen::Tensor<T, N, Eigen::RowMajor>, Eigen::Aligned64>;
  using Out = Eigen::TensorMap<Eigen::Tensor<TO, N, Eigen::RowMajor>, Eigen::Aligned64>;
  const auto* pa = static_cast<const T*>(c.a_ptr());
  const auto* pb = static_cast<const T*>(c.b_ptr());
  auto* po = static_cast<TO*>(c.out_ptr());
  const auto da = to_dims<N>(c.a_aligned), db = to_dims<N>(c.b_aligned), dout = to_dims<N>(c.out);
  const auto fa = factors<N>(c.a_aligned, c.out), fb = factors<N>(c.b_aligned, c.out);
  const bool a_full = c.a_aligned == c.out, b_full = c.b_aligned == c.out;
  PeerRun p;
  if (a_full && b_full) {
    p.run = [=] { Out(po, dout) = F()(In(pa, da), In(pb, db)); };
  } else if (a_full) {
    p.run = [=] { Out(po, dout) = F()(In(pa, da), In(pb, db).broadcast(fb)); };
  } else {
    // Also when only a broadcasts (b then with factors of 1): that does not
    // occur in bench/cases.yaml, and it is one evaluator less to compile.
    p.run = [=] { Out(po, dout) = F()(In(pa, da).broadcast(fa), In(pb, db).broadcast(fb)); };
  }
  return p;
}

template <int N, class T>
PeerRun materialize(const Case& c) {
  using In = Eigen::TensorMap<const Eigen::Tensor<T, N, Eigen::RowMajor>, Eigen::Aligned64>;
  using Out = Eigen::TensorMap<Eigen::Tensor<T, N, Eigen::RowMajor>, Eigen::Aligned64>;
  const auto* pa = static_cast<const T*>(c.a_ptr());
  auto* po = static_cast<T*>(c.out_ptr());
  const auto da = to_dims<N>(c.a_aligned), dout = to_dims<N>(c.out);
  const auto fa = factors<N>(c.a_aligned, c.out);
  PeerRun p;
  p.run = [=] { Out(po, dout) = In(pa, da).broadcast(fa); };
  return p;
}

}  // namespace

// Each (rank, type, op) costs a few Eigen evaluators to compile: only the
// combinations of bench/cases.yaml are instantiated; others report n/a.
PeerRun make_eigen(const Case& c) {
  using bcastgen::DType;
  using bcastgen::Op;
  const std::size_t rank = c.out.size();
  if (c.dtype == DType::F32) {
    switch (c.op) {
      case Op::Add:
        if (rank == 1) return binary<1, float, float, AddF>(c);
        if (rank == 2) return binary<2, float, float, AddF>(c);
        if (rank == 4) return binary<4, float, float, AddF>(c);
        break;
      case Op::Subtract:
        if (rank == 4) return binary<4, float, float, SubF>(c);
        break;
      case Op::Multiply:
        if (rank == 3) return binary<3, float, float, MulF>(c);
        if (rank == 4) return binary<4, float, float, MulF>(c);
        break;
      case Op::Greater:
        if (rank == 2) return binary<2, float, bool, GtF>(c);
        break;
      case Op::Broadcast:
        if (rank == 3) return materialize<3, float>(c);
        break;
      default: break;
    }
  } else if (c.dtype == DType::U8 && rank == 1 && c.op == Op::Add) {
    return binary<1, std::uint8_t, std::uint8_t, AddF>(c);
  } else if (c.dtype == DType::I32 && rank == 4 && c.op == Op::Add) {
    return binary<4, std::int32_t, std::int32_t, AddF>(c);
  }
  return not_available("combination not instantiated in peer_eigen.cpp");
}


namespace {

// An input of a fused case as a TensorMap at the output's rank, and its
// broadcast factors to the output.
template <int N, class T = float>
struct FusedIn {
  using Map = Eigen::TensorMap<const Eigen::Tensor<T, N, Eigen::RowMajor>, Eigen::Aligned64>;
  const T* p;
  std::array<Eigen::Index, N> dims, f;
  FusedIn(const FusedCase& c, const char* name)
      : p(c.in_ptr<T>(name)), dims(to_dims<N>(c.in(name).aligned)), f(factors<N>(c.in(name).aligned, c.out.shape)) {}
  Map map() const { return Map(p, dims); }
  auto bcast() const { return map().broadcast(f); }
};

template <int N>
using FusedOut = Eigen::TensorMap<Eigen::Tensor<float, N, Eigen::RowMajor>, Eigen::Aligned64>;

// min(max(v, lo), hi) as a vectorized unary functor: ReLU (hi = inf) and
// ReLU6. The obvious .cwiseMax(0.0f) is 100x slower on a broadcasting
// expression (F1: 23 ms instead of 0.2 ms, Eigen 3.4 falls off its packet
// path when a constant meets a broadcast), so an Eigen user would write this.
struct Clamp {
  float lo, hi;
  float operator()(float v) const { return std::min(std::max(v, lo), hi); }
  template <class P>
  P packetOp(const P& v) const {
    return Eigen::internal::pmin(Eigen::internal::pmax(v, Eigen::internal::pset1<P>(lo)),
                                 Eigen::internal::pset1<P>(hi));
  }
};

}  // namespace
}  // namespace bench

namespace Eigen::internal {
template <>
struct functor_traits<bench::Clamp> {
  enum { Cost = 2, PacketAccess = true };
};
}  // namespace Eigen::internal

namespace bench {

// Fused cases (fused.h): one Tensor expression per case, evaluated once into
// `out` (single-threaded DefaultDevice); inputs that broadcast go through
// .broadcast(), the others are used as they are. F6's select on a bool
// condition has no packet path in Eigen 3.4: it runs one element at a time.
PeerRun make_fused_eigen(const FusedCase& c) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float* po = c.out_ptr<float>();
  PeerRun p;
  if (c.name == "f1_bn_relu") {
    const FusedIn<4> x(c, "x"), scale(c, "scale"), shift(c, "shift");
    const auto d = to_dims<4>(c.out.shape);
    p.run = [=] { FusedOut<4>(po, d) = (x.map() * scale.bcast() + shift.bcast()).unaryExpr(Clamp{0.0f, kInf}); };
  } else if (c.name == "f2_residual_relu") {
    const FusedIn<4> a(c, "a"), b(c, "b");
    const auto d = to_dims<4>(c.out.shape);
    p.run = [=] { FusedOut<4>(po, d) = (a.map() + b.map()).unaryExpr(Clamp{0.0f, kInf}); };
  } else if (c.name == "f3_attention") {
    const FusedIn<4> s(c, "s"), mask(c, "mask");
    const auto d = to_dims<4>(c.out.shape);
    p.run = [=] { FusedOut<4>(po, d) = s.map() * 0.125f + mask.bcast(); };
  } else if (c.name == "f4_layernorm_tail") {
    const FusedIn<3> x(c, "x"), mean(c, "mean"), rstd(c, "rstd"), gamma(c, "gamma"), beta(c, "beta");
    const auto d = to_dims<3>(c.out.shape);
    p.run = [=] {
      FusedOut<3>(po, d) = (x.map() - mean.bcast()) * rstd.bcast() * gamma.bcast() + beta.bcast();
    };
  } else if (c.name == "f5_relu6_nhwc") {
    const FusedIn<4> x(c, "x"), bias(c, "bias");
    const auto d = to_dims<4>(c.out.shape);
    p.run = [=] { FusedOut<4>(po, d) = (x.map() + bias.bcast()).unaryExpr(Clamp{0.0f, 6.0f}); };
  } else if (c.name == "f6_causal_mask") {
    const FusedIn<4> s(c, "s");
    const FusedIn<4, bool> keep(c, "keep");
    const auto d = to_dims<4>(c.out.shape);
    p.run = [=] { FusedOut<4>(po, d) = keep.bcast().select(s.map(), s.map().constant(-10000.0f)); };
  } else {
    return not_available("case not wired in peer_eigen.cpp");
  }
  return p;
}

}  // namespace bench
