// Helpers of the Halide peer's generators (bcast_generators.cpp for the
// single ops, fused_generators.cpp for the fused cases): shapes from
// GeneratorParams, fixed layouts, broadcast indexing and the pointwise
// schedule both follow (bcast_generators.cpp's header comment, README.md).
#pragma once

#include <Halide.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace bench_halide {

using namespace Halide;

inline std::vector<int> parse_shape(const std::string& s) {
  std::vector<int> d;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, 'x')) {
    if (!item.empty()) d.push_back(std::stoi(item));
  }
  return d;
}

// Halide orders dimensions innermost first.
inline std::vector<int> reversed(std::vector<int> v) { return std::vector<int>(v.rbegin(), v.rend()); }

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
inline std::vector<Expr> index_of(const std::vector<int>& in, const std::vector<int>& out, const std::vector<Var>& v) {
  std::vector<Expr> idx;
  for (std::size_t k = 0; k < out.size(); ++k) idx.push_back(in[k] == out[k] ? Expr(v[k]) : Expr(0));
  return idx;
}

// The schedule described above. `kinds[k]` tells how the operands read
// output dimension k (a string per dimension, equal strings fuse); `vw` is
// the native vector width in elements. Returns a one-line description.
inline std::string schedule_pointwise(Func out, const std::vector<Var>& v, const std::vector<int>& ext,
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

inline int native_vector(const Target& t, int bytes) {
  const int vector_bytes = t.has_feature(Target::AVX512) ? 64 : t.has_feature(Target::AVX) ? 32 : 16;
  return vector_bytes / bytes;
}

// With BENCH_HALIDE_DESCRIBE=1 in the environment, prints the schedule applied.
inline void describe(int schedule, const std::string& what) {
  if (const char* e = std::getenv("BENCH_HALIDE_DESCRIBE"); e && std::string(e) == "1") {
    std::cerr << "schedule " << schedule << ": out." << what << "\n";
  }
}

}  // namespace bench_halide
