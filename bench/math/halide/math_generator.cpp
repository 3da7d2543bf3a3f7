// The Halide 14 peer of bench/math: one generator, `math`, instantiated by
// bench/math/CMakeLists.txt once per (function, size) and once per fused case, ahead
// of time for the host (no_asserts, no_bounds_query), the buffers' extents
// fixed. Each function is written as a Halide user writes it: Halide's own
// exp, log and erf for f32 (vectorized polynomials; its tanh calls the C
// library per lane), the composites from them (sigmoid 1 / (1 + exp(-x)),
// gelu from erf, softplus log(1 + exp(x))).
//
// GeneratorParams: function (exp log log2 log10 tanh erf sigmoid silu gelu
// gelu_tanh softplus, or bias_gelu bias_silu gate), and the output's extents
// inner and outer (x is inner x outer; the bias of bias_gelu has `inner`
// elements, that of bias_silu one per `outer` index, the gate's z is like x).
// Schedule: the inner dimension vectorized at four native vectors per step.
#include <Halide.h>

#include <stdexcept>
#include <string>

namespace {

using namespace Halide;

Expr sigmoid(const Expr& v) { return 1.0f / (1.0f + exp(-v)); }

Expr gelu(const Expr& v) { return 0.5f * v * (1.0f + erf(v * 0.70710678f)); }

class MathGenerator : public Generator<MathGenerator> {
 public:
  GeneratorParam<std::string> function{"function", "exp"};
  GeneratorParam<int> inner{"inner", 4096};
  GeneratorParam<int> outer{"outer", 1};
  Input<Buffer<float, 2>> x{"x"};
  Input<Buffer<float, 2>> b{"b"};  // the bias or the gate's z; unused by the single functions
  Output<Buffer<float, 2>> out{"out"};

  void generate() {
    Var i("i"), j("j");
    const Expr v = x(i, j);
    const std::string f = function;
    Expr e;
    if (f == "exp") e = exp(v);
    else if (f == "log") e = log(v);
    else if (f == "log2") e = log(v) * 1.44269504f;
    else if (f == "log10") e = log(v) * 0.434294482f;
    else if (f == "tanh") e = tanh(v);
    else if (f == "erf") e = erf(v);
    else if (f == "sigmoid") e = sigmoid(v);
    else if (f == "silu") e = v * sigmoid(v);
    else if (f == "gelu") e = gelu(v);
    else if (f == "gelu_tanh") e = 0.5f * v * (1.0f + tanh(0.797884561f * (v + 0.044715f * v * v * v)));
    else if (f == "softplus") e = log(1.0f + exp(v));
    else if (f == "bias_gelu") e = gelu(v + b(i, 0));
    else if (f == "bias_silu") e = (v + b(0, j)) * sigmoid(v + b(0, j));
    else if (f == "gate") e = sigmoid(v) * b(i, j);
    else throw std::invalid_argument("math generator: unknown function " + f);
    out(i, j) = e;
    const int n = inner, m = outer;
    x.dim(0).set_bounds(0, n).set_stride(1);
    x.dim(1).set_bounds(0, m).set_stride(n);
    out.dim(0).set_bounds(0, n).set_stride(1);
    out.dim(1).set_bounds(0, m).set_stride(n);
    if (f == "gate") {
      b.dim(0).set_bounds(0, n).set_stride(1);
      b.dim(1).set_bounds(0, m).set_stride(n);
    } else if (f == "bias_silu") {
      b.dim(0).set_bounds(0, 1).set_stride(1);
      b.dim(1).set_bounds(0, m).set_stride(1);
    } else {
      b.dim(0).set_bounds(0, f == "bias_gelu" ? n : 1).set_stride(1);
      b.dim(1).set_bounds(0, 1).set_stride(f == "bias_gelu" ? n : 1);
    }
    out.vectorize(i, natural_vector_size<float>() * 4);
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MathGenerator, math)
