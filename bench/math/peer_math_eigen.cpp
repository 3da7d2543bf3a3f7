// Eigen 3.4 arrays (its own vectorized exp, log, log1p, expm1, tanh, erf,
// logistic), compiled with -march=native as a user tuning for the machine
// would. The composites as an Eigen user writes them.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include "math_peers.h"

PeerLoop eigen_math(Fn f, const float* x, float* y, std::int64_t n) {
  using Map = Eigen::Map<const Eigen::ArrayXf>;
  using Out = Eigen::Map<Eigen::ArrayXf>;
  auto loop = [=](auto expr) -> PeerLoop {
    return [=] { Out(y, n) = expr(Map(x, n)); };
  };
  switch (f) {
    case Fn::exp: return loop([](const Map& v) { return v.exp(); });
    case Fn::expm1: return loop([](const Map& v) { return v.expm1(); });
    case Fn::log: return loop([](const Map& v) { return v.log(); });
    case Fn::log2: return loop([](const Map& v) { return v.log2(); });
    case Fn::log10: return loop([](const Map& v) { return v.log10(); });
    case Fn::log1p: return loop([](const Map& v) { return v.log1p(); });
    case Fn::erf: return loop([](const Map& v) { return v.erf(); });
    case Fn::tanh: return loop([](const Map& v) { return v.tanh(); });
    case Fn::sigmoid: return loop([](const Map& v) { return v.logistic(); });
    case Fn::silu: return loop([](const Map& v) { return v * v.logistic(); });
    case Fn::gelu: return loop([](const Map& v) { return 0.5f * v * (1.0f + (v * 0.70710678f).erf()); });
    case Fn::softplus: return loop([](const Map& v) { return v.exp().log1p(); });
    default: return bench::not_available("Eigen's Tensor has no such function");
  }
}
