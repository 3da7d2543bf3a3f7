// bench/half's Halide 14 pipelines: the binary cases, BatchNorm + ReLU and
// the mixed-precision add, in the element type `elem` (float32, float16 or
// bfloat16), on untyped inputs whose types and ranks bench/half/CMakeLists.txt sets
// (x.type=float16 x.dim=4 ...), shapes fixed by out_shape and in_shapes as
// in bench/halide/fused_generators.cpp, and bench/halide's schedules
// (pointwise.h). A Generator cannot name bfloat16 as a buffer type, so its
// buffers are uint16 and reinterpreted. Halide computes a 16-bit float op in
// f32 and rounds it back, as bcastgen does per node.
#include <Halide.h>

#include <sstream>
#include <string>
#include <vector>

#include "pointwise.h"

namespace {

using namespace Halide;
using namespace bench_halide;

std::vector<std::vector<int>> shapes_of(const std::string& list) {
  std::vector<std::vector<int>> s;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) s.push_back(reversed(parse_shape(item)));
  return s;
}

// out = f(x, y[, z]) over out_shape, inputs broadcast as in_shapes say.
template <class G>
class HalfGenerator : public Generator<G> {
 public:
  GeneratorParam<std::string> elem{"elem", "float16"};
  GeneratorParam<std::string> out_shape{"out_shape", ""};
  GeneratorParam<std::string> in_shapes{"in_shapes", ""};
  GeneratorParam<int> schedule{"schedule", 0};

 protected:
  bool bf16() const { return std::string(elem) == "bfloat16"; }
  Type elem_type() const {
    const std::string t = elem;
    return t == "float32" ? Float(32) : t == "float16" ? Float(16) : BFloat(16);
  }
  template <class Out, class... In>
  void define(Out& out, const std::vector<Var>& v, const Expr& e, In&... in) {
    out(v) = bf16() ? reinterpret(UInt(16), e) : e;
    const std::vector<int> eo = reversed(parse_shape(out_shape));
    const std::vector<std::vector<int>> ei = shapes_of(in_shapes);
    std::size_t i = 0;
    (fix_layout(in, ei[i++]), ...);
    fix_layout(out, eo);
    std::vector<std::string> kinds(eo.size());
    for (std::size_t k = 0; k < eo.size(); ++k) {
      for (const auto& s : ei) kinds[k] += s[k] == eo[k] ? "i" : "-";
    }
    describe(schedule, schedule_pointwise(out, v, eo, kinds, native_vector(this->get_target(), 2), schedule));
  }
  // Input `k`'s value at the output's point.
  template <class B>
  Expr at(B& buf, std::size_t k, const std::vector<Var>& v) {
    const std::vector<int> eo = reversed(parse_shape(out_shape));
    const Expr e = buf(index_of(shapes_of(in_shapes)[k], eo, v));
    return bf16() && e.type() == UInt(16) ? reinterpret(BFloat(16), e) : e;
  }
  std::vector<Var> vars() {
    std::vector<Var> v;
    for (std::size_t k = 0; k < parse_shape(out_shape).size(); ++k) v.emplace_back("d" + std::to_string(k));
    return v;
  }
};

// x OP y, OP = add, subtract or multiply.
class HalfBinary : public HalfGenerator<HalfBinary> {
 public:
  GeneratorParam<std::string> op{"op", "add"};
  Input<Buffer<>> x{"x"}, y{"y"};
  Output<Buffer<>> out{"out"};
  void generate() {
    const std::vector<Var> v = vars();
    const Expr a = at(x, 0, v), b = at(y, 1, v);
    const std::string o = op;
    const Expr e = o == "add" ? a + b : o == "subtract" ? a - b : a * b;
    define(out, v, e, x, y);
  }
};

// max(x * s + t, 0), each op rounded to the element type.
class HalfBnRelu : public HalfGenerator<HalfBnRelu> {
 public:
  Input<Buffer<>> x{"x"}, s{"s"}, t{"t"};
  Output<Buffer<>> out{"out"};
  void generate() {
    const std::vector<Var> v = vars();
    const Expr e = max(at(x, 0, v) * at(s, 1, v) + at(t, 2, v), cast(elem_type(), 0));
    define(out, v, e, x, s, t);
  }
};

// x (16-bit) + b (f32), in f32, rounded once to the element type.
class HalfMixed : public HalfGenerator<HalfMixed> {
 public:
  Input<Buffer<>> x{"x"}, b{"b"};
  Output<Buffer<>> out{"out"};
  void generate() {
    const std::vector<Var> v = vars();
    define(out, v, cast(elem_type(), cast<float>(at(x, 0, v)) + at(b, 1, v)), x, b);
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HalfBinary, half_binary)
HALIDE_REGISTER_GENERATOR(HalfBnRelu, half_bn_relu)
HALIDE_REGISTER_GENERATOR(HalfMixed, half_mixed)
