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

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace Halide;

std::vector<int> parse_shape(const std::string& s) {
  std::vector<int> d;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, 'x')) {
    if (!item.empty()) d.push_back(std::stoi(item));
  }
  return d;
}

// Halide orders dimensions innermost first.
std::vector<int> reversed(std::vector<int> v) { return std::vector<int>(v.rbegin(), v.rend()); }

// Fixes the bounds and the dense row-major strides of a buffer parameter.
template <class B>
void fix_layout(B& buf, const std::vector<int>& dims_inner_first) {
  int stride = 1;
  for (std::size_t k = 0; k < dims_inner_first.size(); ++k) {
    buf.dim(static_cast<int>(k)).set_bounds(0, dims_inner_first[k]).set_stride(stride);
    stride *= dims_inner_first[k];
  }
}

// The operand's index: the output's variable where it has the dimension, 0
// where it is broadcast.
std::vector<Expr> index_of(const std::vector<int>& in, const std::vector<int>& out, const std::vector<Var>& v) {
  std::vector<Expr> idx;
  for (std::size_t k = 0; k < out.size(); ++k) idx.push_back(in[k] == out[k] ? Expr(v[k]) : Expr(0));
  return idx;
}

// The schedule described above. `kinds[k]` tells how the operands read
// output dimension k (a string per dimension, equal strings fuse); `vw` is
// the native vector width in elements. Returns a one-line description.
std::string schedule_pointwise(Func out, const std::vector<Var>& v, const std::vector<int>& ext,
                               const std::vector<std::string>& kinds, int vw, int which) {
  std::ostringstream desc;
  // Groups of adjacent dimensions, innermost first; a dimension of extent 1
  // joins any group.
  std::vector<Var> loop;  // the group's loop variable
  std::vector<int> loop_ext;
  std::size_t k = 0;
  while (k < v.size()) {
    Var cur = v[k];
    int e = ext[k];
    std::string kind = kinds[k];
    std::size_t j = k + 1;
    std::string names = cur.name();
    while (j < v.size() && (ext[j] == 1 || e == 1 || kinds[j] == kind)) {
      if (e == 1) kind = kinds[j];
      Var f(cur.name() + "_" + v[j].name());
      out.fuse(cur, v[j], f);
      names += "," + v[j].name();
      cur = f;
      e *= ext[j];
      ++j;
    }
    if (j - k > 1) desc << "fuse(" << names << ").";
    loop.push_back(cur);
    loop_ext.push_back(e);
    k = j;
  }
  if (loop_ext[0] >= vw || loop.size() == 1) {
    const int w = which == 0 ? vw : 4 * vw;
    const int width = loop_ext[0] >= w ? w : loop_ext[0];
    out.vectorize(loop[0], width);
    desc << "vectorize(" << loop[0].name() << ", " << width << ")";
  } else if (which == 1 && loop_ext[1] <= vw) {
    // Narrow innermost and next dimensions (the Array API example's 5 and
    // 6), where a wider vector changes nothing: the other way round, one
    // vector of the whole innermost row, the next dimension unrolled.
    out.vectorize(loop[0], loop_ext[0]).unroll(loop[1]);
    desc << "vectorize(" << loop[0].name() << ", " << loop_ext[0] << ").unroll(" << loop[1].name() << ")";
  } else {
    // Narrow innermost dimension: unroll it, vectorize the next.
    const int w = which == 0 ? vw : 2 * vw;
    const int width = loop_ext[1] >= w ? w : loop_ext[1];
    out.unroll(loop[0]).vectorize(loop[1], width);
    desc << "unroll(" << loop[0].name() << ").vectorize(" << loop[1].name() << ", " << width << ")";
  }
  return desc.str();
}

int native_vector(const Target& t, int bytes) {
  const int vector_bytes = t.has_feature(Target::AVX512) ? 64 : t.has_feature(Target::AVX) ? 32 : 16;
  return vector_bytes / bytes;
}

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
    describe(schedule_pointwise(out, v, eo, kinds, native_vector(get_target(), widest), schedule));
  }

 private:
  void describe(const std::string& what) {
    if (const char* e = std::getenv("BENCH_HALIDE_DESCRIBE"); e && std::string(e) == "1") {
      std::cerr << "schedule " << static_cast<int>(schedule) << ": out" << "." << what << "\n";
    }
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
    const std::string what = schedule_pointwise(out, v, eo, kinds, native_vector(get_target(), a.type().bytes()), schedule);
    if (const char* e = std::getenv("BENCH_HALIDE_DESCRIBE"); e && std::string(e) == "1") {
      std::cerr << "schedule " << static_cast<int>(schedule) << ": out." << what << "\n";
    }
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BcastBinary, bcast_binary)
HALIDE_REGISTER_GENERATOR(BcastMaterialize, bcast_materialize)
