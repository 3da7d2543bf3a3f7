// Eigen 3.4 Tensor expressions on Eigen::half and Eigen::bfloat16 (and
// float), broadcasting with .broadcast(), compiled for this machine
// (-march=native) as a user tuning for it would: each element converts to
// float, computes and rounds back, per op.
#include <unsupported/Eigen/CXX11/Tensor>

#include "half_peers.h"

namespace half_bench {
namespace {

template <int R>
Eigen::array<Eigen::Index, R> dims(const std::vector<std::int64_t>& s) {
  Eigen::array<Eigen::Index, R> d;
  for (int i = 0; i < R; ++i) d[i] = s[i];
  return d;
}

template <int R>
Eigen::array<Eigen::Index, R> factors(const std::vector<std::int64_t>& out, const std::vector<std::int64_t>& in) {
  Eigen::array<Eigen::Index, R> f;
  for (int i = 0; i < R; ++i) f[i] = out[i] / in[i];
  return f;
}

template <int R, class T>
Loop loop(const Case& c, const std::vector<void*>& in, void* out) {
  using Map = Eigen::TensorMap<Eigen::Tensor<T, R, Eigen::RowMajor>>;
  using FloatMap = Eigen::TensorMap<Eigen::Tensor<float, R, Eigen::RowMajor>>;
  Map x(static_cast<T*>(in[0]), dims<R>(c.inputs[0])), o(static_cast<T*>(out), dims<R>(c.out));
  const auto by = factors<R>(c.out, c.inputs[1]);
  if (c.kind == Kind::Mixed) {
    FloatMap y(static_cast<float*>(in[1]), dims<R>(c.inputs[1]));
    return [=]() mutable { o = (x.template cast<float>() + y.broadcast(by)).template cast<T>(); };
  }
  Map y(static_cast<T*>(in[1]), dims<R>(c.inputs[1]));
  switch (c.kind) {
    case Kind::Add: return [=]() mutable { o = x + y.broadcast(by); };
    case Kind::Multiply: return [=]() mutable { o = x * y.broadcast(by); };
    case Kind::Subtract: return [=]() mutable { o = x - y.broadcast(by); };
    case Kind::BnRelu: {
      Map z(static_cast<T*>(in[2]), dims<R>(c.inputs[2]));
      const auto bz = factors<R>(c.out, c.inputs[2]);
      return [=]() mutable { o = (x * y.broadcast(by) + z.broadcast(bz)).cwiseMax(T(0)); };
    }
    case Kind::Mixed: break;
  }
  return bench::not_available("no mixed-type Tensor expression");
}

template <class T>
Loop by_rank(const Case& c, const std::vector<void*>& in, void* out) {
  switch (c.out.size()) {
    case 2: return loop<2, T>(c, in, out);
    case 3: return loop<3, T>(c, in, out);
    case 4: return loop<4, T>(c, in, out);
    default: return bench::not_available("rank " + std::to_string(c.out.size()));
  }
}

}  // namespace

Loop eigen_loop(const Case& c, Elem e, const std::vector<void*>& inputs, void* out) {
  if (e == Elem::F32) return by_rank<float>(c, inputs, out);
  if (e == Elem::F16) return by_rank<Eigen::half>(c, inputs, out);
  return by_rank<Eigen::bfloat16>(c, inputs, out);
}

}  // namespace half_bench
