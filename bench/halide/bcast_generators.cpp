// The Halide 14 peer's generators (bench/halide/README.md has the schedule of
// every case). bench/CMakeLists.txt instantiates them once per (case,
// schedule) with add_halide_library: each instance is compiled ahead of time,
// for the host (AVX-512 here), with every input's and the output's bounds
// and strides fixed to the case's shapes, as Halide's own AOT apps do.
//
// GeneratorParams (all shapes in the spec's order, outermost first, joined
// with 'x'; the inputs aligned to the output's rank with 1s, as NumPy's rule
// aligns them):
//   out_shape, a_shape, b_shape  the shapes
//   schedule                     0 or 1 (below)
//   a.type, a.dim, b.type, ...   Halide's own GeneratorParams of the
//                                untyped Input/Output buffers
//
// The algorithm is the one a Halide user writes for a broadcast: an operand
// is indexed by the output's variable on the dimensions it has, and by 0 on
// the dimensions it is broadcast along. The schedule is what a competent
// Halide user writes by hand for a memory-bound pointwise stage:
//   - fuse the innermost dimensions along which both operands behave alike
//     (both read contiguously, or one broadcast along all of them): one long
//     loop; the fused index simplifies back to a linear address;
//   - vectorize the innermost (fused) dimension at the native width (64
//     bytes of the widest type: 16 floats, 64 bytes of u8);
//   - if the innermost dimension is narrower than a vector (NHWC with C=3,
//     the Array API example's 5), unroll it and vectorize the next one
//     instead: out.unroll(c).vectorize(x, 16);
//   schedule 0: exactly that;
//   schedule 1: the same with 4 vectors per iteration (vectorize at 4x the
//     native width, which LLVM splits into 4 independent native vectors; for
//     a narrow innermost dimension, 2x); where the next dimension is narrow
//     too (case 9), the other way round: vectorize the innermost dimension
//     whole and unroll the next.
// In the descriptions, fuse(d1,d2,d3) stands for fuse(d1,d2,t).fuse(t,d3,u).
// Both are built and timed; the benchmark reports the faster (peer notes
// say which). With BENCH_HALIDE_DESCRIBE=1 in the environment the generator
// prints the schedule it applied (bench/halide/README.md lists them).
#include <Halide.h>

#include <string>
#include <vector>

#include "pointwise.h"

namespace {

using namespace Halide;
using namespace bench_halide;

// c = a OP b, with broadcasting.
class BcastBinary : public Generator<BcastBinary> {
 public:
  GeneratorParam<std::string> op{"op", "add"};
  GeneratorParam<std::string> out_shape{"out_shape", ""};
  GeneratorParam<std::string> a_shape{"a_shape", ""};
  GeneratorParam<std::string> b_shape{"b_shape", ""};
  GeneratorParam<int> schedule{"schedule", 0};

  Input<Buffer<>> a{"a"};
  Input<Buffer<>> b{"b"};
  Output<Buffer<>> out{"out"};

  void generate() {
    const std::vector<int> eo = reversed(parse_shape(out_shape)), ea = reversed(parse_shape(a_shape)),
                           eb = reversed(parse_shape(b_shape));
    std::vector<Var> v;
    for (std::size_t k = 0; k < eo.size(); ++k) v.emplace_back("d" + std::to_string(k));
    const Expr x = a(index_of(ea, eo, v)), y = b(index_of(eb, eo, v));
    const std::string o = op;
    Expr r;
    if (o == "add") r = x + y;
    else if (o == "subtract") r = x - y;
    else if (o == "multiply") r = x * y;
    else if (o == "greater") r = x > y;
    else throw std::runtime_error("bcast_binary: unknown op " + o);
    std::vector<Expr> vars(v.begin(), v.end());
    out(v) = r;

    fix_layout(a, ea);
    fix_layout(b, eb);
    fix_layout(out, eo);
    std::vector<std::string> kinds;
    for (std::size_t k = 0; k < eo.size(); ++k) {
      kinds.push_back(std::string(ea[k] == eo[k] ? "a" : "-") + (eb[k] == eo[k] ? "b" : "-"));
    }
    const int widest = std::max(a.type().bytes(), out.type().bytes());
    describe(schedule, schedule_pointwise(out, v, eo, kinds, native_vector(get_target(), widest), schedule));
  }
};

// The Broadcast op: out = a broadcast to out_shape.
class BcastMaterialize : public Generator<BcastMaterialize> {
 public:
  GeneratorParam<std::string> out_shape{"out_shape", ""};
  GeneratorParam<std::string> a_shape{"a_shape", ""};
  GeneratorParam<int> schedule{"schedule", 0};

  Input<Buffer<>> a{"a"};
  Output<Buffer<>> out{"out"};

  void generate() {
    const std::vector<int> eo = reversed(parse_shape(out_shape)), ea = reversed(parse_shape(a_shape));
    std::vector<Var> v;
    for (std::size_t k = 0; k < eo.size(); ++k) v.emplace_back("d" + std::to_string(k));
    out(v) = a(index_of(ea, eo, v));
    fix_layout(a, ea);
    fix_layout(out, eo);
    std::vector<std::string> kinds;
    for (std::size_t k = 0; k < eo.size(); ++k) kinds.push_back(ea[k] == eo[k] ? "a" : "-");
    describe(schedule, schedule_pointwise(out, v, eo, kinds, native_vector(get_target(), a.type().bytes()), schedule));
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BcastBinary, bcast_binary)
HALIDE_REGISTER_GENERATOR(BcastMaterialize, bcast_materialize)
