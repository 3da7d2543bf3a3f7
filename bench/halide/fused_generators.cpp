// The Halide 14 peer's fused pipelines (issue 14, F1-F6): one generator per
// case, the whole expression in one Func, compiled ahead of time like the
// single-op generators (bcast_generators.cpp): bench/CMakeLists.txt
// instantiates each once per schedule with add_halide_library, for the host,
// every input's and the output's bounds and strides fixed.
//
// GeneratorParams: out_shape, and in_shapes (the inputs' shapes in the
// generator's input order, aligned to the output's rank, joined with ','),
// in the spec's order, outermost first, joined with 'x'; schedule 0 or 1.
// The schedule is bcast_generators.cpp's: fuse the innermost dimensions along
// which every input behaves alike, vectorize at the native width (schedule
// 1: four vectors per iteration).
#include <Halide.h>

#include <sstream>
#include <string>
#include <vector>

#include "pointwise.h"

namespace {

using namespace Halide;
using namespace bench_halide;

// What the case generators share: the shapes, the output, indexing and
// schedule. N is the output's rank.
template <class G, int N>
class FusedGenerator : public Generator<G> {
 public:
  // (Generator's Input/Output aliases are not visible in a template.)
  GeneratorParam<std::string> out_shape{"out_shape", ""};
  GeneratorParam<std::string> in_shapes{"in_shapes", ""};
  GeneratorParam<int> schedule{"schedule", 0};
  GeneratorOutput<Buffer<float, N>> out{"out"};

 protected:
  // Input i (in in_shapes' order) at the output's point, its layout fixed.
  template <class B>
  Expr at(B& buf, std::size_t i) {
    shapes();
    fix_layout(buf, ei_.at(i));
    return buf(index_of(ei_[i], eo_, v_));
  }
  // Defines out and schedules it.
  void define(const Expr& e) {
    shapes();
    out(v_) = e;
    fix_layout(out, eo_);
    std::vector<std::string> kinds;
    for (std::size_t k = 0; k < eo_.size(); ++k) {
      std::string kind;
      for (std::size_t i = 0; i < ei_.size(); ++i) kind += ei_[i][k] == eo_[k] ? char('a' + i) : '-';
      kinds.push_back(kind);
    }
    describe(schedule, schedule_pointwise(out, v_, eo_, kinds, native_vector(this->get_target(), 4), schedule));
  }

 private:
  void shapes() {
    if (!v_.empty()) return;
    eo_ = reversed(parse_shape(out_shape));
    std::stringstream ss(static_cast<std::string>(in_shapes));
    std::string s;
    while (std::getline(ss, s, ',')) ei_.push_back(reversed(parse_shape(s)));
    if (eo_.size() != N) throw std::runtime_error("fused generator: out_shape is not of rank " + std::to_string(N));
    for (std::size_t k = 0; k < eo_.size(); ++k) v_.emplace_back("d" + std::to_string(k));
  }
  std::vector<int> eo_;
  std::vector<std::vector<int>> ei_;
  std::vector<Var> v_;
};

// F1: max(x * scale + shift, 0)
class F1BnRelu : public FusedGenerator<F1BnRelu, 4> {
 public:
  Input<Buffer<float, 4>> x{"x"}, scale{"scale"}, shift{"shift"};
  void generate() { define(max(at(x, 0) * at(scale, 1) + at(shift, 2), 0.0f)); }
};

// F2: max(a + b, 0)
class F2ResidualRelu : public FusedGenerator<F2ResidualRelu, 4> {
 public:
  Input<Buffer<float, 4>> a{"a"}, b{"b"};
  void generate() { define(max(at(a, 0) + at(b, 1), 0.0f)); }
};

// F3: s * 0.125 + mask
class F3Attention : public FusedGenerator<F3Attention, 4> {
 public:
  Input<Buffer<float, 4>> s{"s"}, mask{"mask"};
  void generate() { define(at(s, 0) * 0.125f + at(mask, 1)); }
};

// F4: (x - mean) * rstd * gamma + beta
class F4LayernormTail : public FusedGenerator<F4LayernormTail, 3> {
 public:
  Input<Buffer<float, 3>> x{"x"}, mean{"mean"}, rstd{"rstd"}, gamma{"gamma"}, beta{"beta"};
  void generate() { define((at(x, 0) - at(mean, 1)) * at(rstd, 2) * at(gamma, 3) + at(beta, 4)); }
};

// F5: min(max(x + bias, 0), 6)
class F5Relu6Nhwc : public FusedGenerator<F5Relu6Nhwc, 4> {
 public:
  Input<Buffer<float, 4>> x{"x"}, bias{"bias"};
  void generate() { define(min(max(at(x, 0) + at(bias, 1), 0.0f), 6.0f)); }
};

// F6: where(keep, s, -10000.0)
class F6CausalMask : public FusedGenerator<F6CausalMask, 4> {
 public:
  Input<Buffer<float, 4>> s{"s"};
  Input<Buffer<bool, 4>> keep{"keep"};
  void generate() {
    const Expr vs = at(s, 0), vk = at(keep, 1);
    define(select(vk, vs, -10000.0f));
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(F1BnRelu, fused_f1_bn_relu)
HALIDE_REGISTER_GENERATOR(F2ResidualRelu, fused_f2_residual_relu)
HALIDE_REGISTER_GENERATOR(F3Attention, fused_f3_attention)
HALIDE_REGISTER_GENERATOR(F4LayernormTail, fused_f4_layernorm_tail)
HALIDE_REGISTER_GENERATOR(F5Relu6Nhwc, fused_f5_relu6_nhwc)
HALIDE_REGISTER_GENERATOR(F6CausalMask, fused_f6_causal_mask)
