// Times bcastgen's 16-bit float kernels (bench/half/cases.yaml) and its f32
// kernels of the same shapes against PyTorch, oneDNN, Eigen and Halide on one
// thread; prints one line per (case, element type, peer): the median time
// of BENCH_REPETITIONS runs, and the elements that differ from bcastgen's
// output (NaN equals NaN). bench/half/CMakeLists.txt builds it, bench/half/run.sh runs it, NumPy
// (numpy_half.py) beside it, and report.py prints the table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "bcastgen/half.h"
#include "buffers.h"
#include "cases.h"
#include "half_peers.h"

using namespace half_bench;

namespace {

std::int64_t numel(const std::vector<std::int64_t>& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"bias_add", Kind::Add, {{1, 64, 56, 56}, {1, 64, 1, 1}}, {1, 64, 56, 56}},
      {"ln_scale", Kind::Multiply, {{8, 128, 768}, {1, 1, 768}}, {8, 128, 768}},
      {"nhwc", Kind::Subtract, {{1, 224, 224, 3}, {1, 1, 1, 3}}, {1, 224, 224, 3}},
      {"mask", Kind::Add, {{8, 12, 128, 128}, {8, 1, 1, 128}}, {8, 12, 128, 128}},
      {"bn_relu", Kind::BnRelu, {{1, 64, 112, 112}, {1, 64, 1, 1}, {1, 64, 1, 1}}, {1, 64, 112, 112}},
      {"mixed", Kind::Mixed, {{8, 128, 768}, {1, 1, 768}}, {8, 128, 768}},
      {"big_add", Kind::Add, {{4096, 4096}, {1, 4096}}, {4096, 4096}},
  };
  return c;
}

// bcastgen's kernel for (case, element type): the generated functions take
// typed pointers; the table erases them.
Loop bcastgen_loop(const std::string& name, Elem e, const std::vector<void*>& in, void* out) {
  const std::string key = name + "_" + elem_name(e);
#define BG2(N, T, U)                                                                                 \
  if (key == #N) return [=] { hk::N(static_cast<const T*>(in[0]), static_cast<const U*>(in[1]), static_cast<T*>(out)); };
#define BG3(N, T)                                                                                   \
  if (key == #N)                                                                                    \
    return [=] {                                                                                    \
      hk::N(static_cast<const T*>(in[0]), static_cast<const T*>(in[1]), static_cast<const T*>(in[2]), \
            static_cast<T*>(out));                                                                  \
    };
  using bcastgen::bf16;
  using bcastgen::f16;
  BG2(bias_add_f32, float, float) BG2(bias_add_f16, f16, f16) BG2(bias_add_bf16, bf16, bf16)
  BG2(ln_scale_f32, float, float) BG2(ln_scale_f16, f16, f16) BG2(ln_scale_bf16, bf16, bf16)
  BG2(nhwc_f32, float, float) BG2(nhwc_f16, f16, f16) BG2(nhwc_bf16, bf16, bf16)
  BG2(mask_f32, float, float) BG2(mask_f16, f16, f16) BG2(mask_bf16, bf16, bf16)
  BG3(bn_relu_f32, float) BG3(bn_relu_f16, f16) BG3(bn_relu_bf16, bf16)
  BG2(mixed_f32, float, float) BG2(mixed_bf16, bf16, float)
  BG2(big_add_f32, float, float) BG2(big_add_f16, f16, f16) BG2(big_add_bf16, bf16, bf16)
#undef BG2
#undef BG3
  return {};
}

float value_of(const void* p, Elem e, std::int64_t i) {
  if (e == Elem::F32) return static_cast<const float*>(p)[i];
  if (e == Elem::F16) return bcastgen::to_float(static_cast<const bcastgen::f16*>(p)[i]);
  return bcastgen::to_float(static_cast<const bcastgen::bf16*>(p)[i]);
}

// Values in [-4, 4): in range for every type, rounding in every op.
bench::Buffer random_buffer(std::int64_t n, Elem e, std::mt19937& rng) {
  bench::Buffer buf = bench::aligned_buffer(static_cast<std::size_t>(n * elem_size(e)));
  unsigned char* b = buf.get();
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = u(rng);
    if (e == Elem::F32) std::memcpy(&b[i * 4], &v, 4);
    const std::uint16_t h = e == Elem::F16 ? bcastgen::half_from<bcastgen::f16>(v).bits
                                           : bcastgen::half_from<bcastgen::bf16>(v).bits;
    if (e != Elem::F32) std::memcpy(&b[i * 2], &h, 2);
  }
  return buf;
}

// Calls of f per timed batch: enough for 20 ms (after a warm-up call:
// page faults, caches).
int batch_size(const Loop& f) {
  f();
  int iters = 1;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) f();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    if (ns > 2e7 || iters > (1 << 20)) return iters;
    iters *= 2;
  }
}

// The median time per call of each loop over `reps` rounds; each round
// times one batch of every loop in turn, so that a machine whose speed
// drifts (this VM's DRAM bandwidth moves by 40% within minutes) slows all
// of them alike and their ratios hold.
std::vector<double> interleaved_median_ns(const std::vector<Loop>& loops, int reps) {
  std::vector<int> iters;
  for (const Loop& f : loops) iters.push_back(batch_size(f));
  std::vector<std::vector<double>> t(loops.size());
  for (int r = 0; r < reps; ++r) {
    for (std::size_t k = 0; k < loops.size(); ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < iters[k]; ++i) loops[k]();
      t[k].push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                     iters[k]);
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& v : t) {
    std::nth_element(v.begin(), v.begin() + reps / 2, v.end());
    medians.push_back(v[reps / 2]);
  }
  return medians;
}

}  // namespace

int main() {
  const int reps = std::getenv("BENCH_REPETITIONS") ? std::atoi(std::getenv("BENCH_REPETITIONS")) : 11;
  std::mt19937 rng(20261126);
  std::printf("case\tdtype\tpeer\tmedian_ns\tmismatches\tbytes\n");
  for (const Case& c : cases()) {
    for (Elem e : {Elem::F32, Elem::F16, Elem::Bf16}) {
      if (c.kind == Kind::Mixed && e == Elem::F16) continue;
      std::vector<bench::Buffer> bufs;
      std::vector<void*> in;
      std::int64_t bytes = numel(c.out) * elem_size(e);
      for (std::size_t k = 0; k < c.inputs.size(); ++k) {
        const Elem ek = c.kind == Kind::Mixed && k == 1 ? Elem::F32 : e;
        bufs.push_back(random_buffer(numel(c.inputs[k]), ek, rng));
        bytes += numel(c.inputs[k]) * elem_size(ek);
      }
      for (auto& b : bufs) in.push_back(b.get());
      const std::int64_t n = numel(c.out);
      const std::size_t out_bytes = static_cast<std::size_t>(n * elem_size(e));
      const bench::Buffer ours = bench::aligned_buffer(out_bytes), theirs = bench::aligned_buffer(out_bytes);
      const Loop mine = bcastgen_loop(c.name, e, in, ours.get());
      if (!mine) continue;
      mine();
      struct Peer {
        const char* name;
        Loop loop;
      };
      const Peer peers[] = {{"bcastgen", mine},
                            {"pytorch", torch_loop(c, e, in, theirs.get())},
                            {"onednn", onednn_loop(c, e, in, theirs.get())},
                            {"eigen", eigen_loop(c, e, in, theirs.get())},
                            {"halide", halide_loop(c, e, in, theirs.get())}};
      // Each peer's outputs against bcastgen's, then every available peer timed in one interleaved run.
      std::vector<std::int64_t> bad(std::size(peers), 0);
      std::vector<Loop> timed;
      for (std::size_t k = 0; k < std::size(peers); ++k) {
        const Peer& p = peers[k];
        if (!p.loop) continue;
        timed.push_back(p.loop);
        if (std::string(p.name) == "bcastgen") continue;
        std::memset(theirs.get(), 0, out_bytes);
        p.loop();
        for (std::int64_t i = 0; i < n; ++i) {
          const float a = value_of(ours.get(), e, i), b = value_of(theirs.get(), e, i);
          if (!(a == b || (std::isnan(a) && std::isnan(b)))) ++bad[k];
        }
      }
      const std::vector<double> ns = interleaved_median_ns(timed, reps);
      std::size_t next = 0;
      for (std::size_t k = 0; k < std::size(peers); ++k) {
        const Peer& p = peers[k];
        if (!p.loop) {
          std::printf("%s\t%s\t%s\tn/a\t\t%lld\n", c.name.c_str(), elem_name(e), p.name, static_cast<long long>(bytes));
          continue;
        }
        std::printf("%s\t%s\t%s\t%.0f\t%lld\t%lld\n", c.name.c_str(), elem_name(e), p.name, ns[next++],
                    static_cast<long long>(bad[k]), static_cast<long long>(bytes));
      }
      std::fflush(stdout);
    }
  }
}
