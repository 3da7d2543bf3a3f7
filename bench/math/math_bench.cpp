// Throughput of the vectorized math functions: bcastgen's generated kernels
// against SLEEF's u10 vector functions (1.0 ulp, what PyTorch's CPU kernels
// call; the composites built from them as PyTorch does, sleef_loops.cpp),
// PyTorch itself, oneDNN eltwise, Eigen, XNNPACK and Halide where they have
// the function (math_peers.h), and bcastgen's fast tier (`accuracy: fast`,
// "BcastgenFast") where the function has one. In cache (4096 elements) and DRAM-sized
// ([8,128,3072], 25 MB of traffic), one thread; the fused cases also on
// every core (fused_loops). With --accuracy it instead
// measures every loop's max error in ulp over every 1367th f32 bit pattern
// (3.1 million inputs) against the long double reference
// (bcastgen::ops::<fn><long double>); `--accuracy DIR` adds ONNX Runtime's
// and NumPy's outputs dumped there by ort_math.py and numpy_math.py.
// With --versus A B [FILTER] it times two loops of each case (e.g.
// BcastgenFast and Halide) in alternating rounds, as ab.sh does two builds,
// and prints the medians and the ratio B/A: on a shared host the two sides'
// figures in a normal run move by 10% from run to run, their ratio in one
// process much less.
// bench/math/CMakeLists.txt builds it, bench/math/run.sh runs it; see docs/benchmarks.md, "Math functions".
#include <benchmark/benchmark.h>
#include <pthreadpool.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "alternate.h"
#include "bcastgen/cpu.h"
#include "bcastgen/math.h"
#include "buffers.h"
#include "math_inputs.h"
#include "math_kernels.h"  // generated from kernels.sh's spec: namespace mk, <fn>_small / <fn>_large
#include "math_peers.h"
#include "sleef_loops.h"

namespace {

constexpr std::int64_t kSmall = 4096, kLarge = 8 * 128 * 3072;

// Inputs in each function's domain (math_inputs.h).
struct Buffers {
  bench::AlignedArray<float> x, y;
  Buffers(Fn f, std::int64_t n) : x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n)) {
    bench::fill_math_input(f, x.data(), x.size());
  }
};

void time_loop(benchmark::State& state, const PeerLoop& loop, std::int64_t n) {
  for (auto _ : state) {
    loop();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 8);  // read x, write y
  state.counters["ns_per_elt"] = benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

struct Function {
  const char* name;
  Fn fn;
  void (*small)(const float*, float*);
  void (*large)(const float*, float*);
  long double (*reference)(long double);
};

#define BCASTGEN_FUNCTION_(NAME) \
  {#NAME, Fn::NAME, &mk::NAME##_small, &mk::NAME##_large, &bcastgen::ops::NAME<long double>},
const Function kFunctions[] = {BCASTGEN_MATH_BENCH_FUNCTIONS_(BCASTGEN_FUNCTION_)};
#undef BCASTGEN_FUNCTION_

// The fast tier (`accuracy: fast`, kernels.sh's fast_<fn> kernels), timed and
// graded as the loop "BcastgenFast" of its function.
struct FastKernels {
  Fn fn;
  void (*small)(const float*, float*);
  void (*large)(const float*, float*);
};
const FastKernels kFast[] = {
#include "fast_kernels.inc"  // kernels.sh's list
};

const FastKernels* fast_kernels(Fn fn) {
  for (const FastKernels& k : kFast) {
    if (k.fn == fn) return &k;
  }
  return nullptr;
}

// |y - exact| in units of the exact result's f32 ulp (subnormal ulp at the
// bottom); an infinite or NaN mismatch counts as infinite.
double ulp_error(float y, long double exact) {
  if (std::isnan(exact)) return std::isnan(y) ? 0.0 : INFINITY;
  const float rounded = static_cast<float>(exact);
  if (std::isinf(rounded)) return y == rounded ? 0.0 : INFINITY;
  if (!std::isfinite(y)) return INFINITY;
  int e = 0;
  std::frexp(rounded == 0.0f ? 1e-45f : std::fabs(rounded), &e);
  return static_cast<double>(std::fabs(static_cast<long double>(y) - exact) / std::ldexp(1.0L, std::max(e - 24, -149)));
}

struct Loop {
  std::string name;
  const Function* function;
  Buffers* buffers;
  std::int64_t n;
  PeerLoop run;
};

std::vector<Loop> all_loops() {
  static std::deque<Buffers> buffers;  // stable addresses for the loops
  const bool avx512 = bcastgen::cpu_supports(bcastgen::Isa::Avx512);
  std::vector<Loop> loops;
  for (const Function& f : kFunctions) {
    for (const std::int64_t n : {kSmall, kLarge}) {
      Buffers& b = buffers.emplace_back(f.fn, n);
      const float* x = b.x.data();
      float* y = b.y.data();
      const std::string size = n == kSmall ? "4096" : "8x128x3072";
      auto kernel = n == kSmall ? f.small : f.large;
      const Fn fn = f.fn;
      PeerLoop fast;
      if (const FastKernels* k = fast_kernels(fn)) fast = [x, y, fk = n == kSmall ? k->small : k->large] { fk(x, y); };
      const std::pair<std::string, PeerLoop> peers[] = {
          {"Bcastgen", [=] { kernel(x, y); }},
          {"BcastgenFast", fast},
          {"Sleef", [=] { (avx512 ? sleef_avx512 : sleef_avx2)(fn, x, y, n); }},
          {"Torch", torch_math(fn, x, y, n)},
          {"Onednn", onednn_math(fn, x, y, n)},
          {"Eigen", eigen_math(fn, x, y, n)},
          {"Xnnpack", xnnpack_math(fn, x, y, n)},
          {"Halide", halide_math(fn, x, y, n)},
      };
      for (const auto& [peer, run] : peers) {
        if (run) loops.push_back({peer + "/" + f.name + "_" + size, &f, &b, n, run});
      }
    }
  }
  return loops;
}

// Every 1367th f32 bit pattern, as many as fit in n (all of them do in the
// large size), clamped to the last pattern.
constexpr std::uint64_t kStride = 1367;

std::uint32_t pattern(std::uint64_t begin, std::size_t i) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(begin + kStride * i, 0xffffffffu));
}

struct MaxError {
  double worst = 0;
  float at = 0;
  void add(float x, float y, const Function& f) {
    const double e = ulp_error(y, f.reference(x));
    if (!(e <= worst)) {
      worst = e;
      at = x;
    }
  }
  void print(const std::string& name) const { std::printf("%-28s max %.3g ulp at %.9g\n", name.c_str(), worst, at); }
};

// Each large loop's max error over every 1367th bit pattern; then, for the
// peers that run in their own process (ONNX Runtime, NumPy), each file
// <Peer>_<function>.f32 in outputs_dir: their outputs on the first kLarge
// patterns (ort_math.py --dump, numpy_math.py --dump).
void accuracy(const std::vector<Loop>& loops, const char* outputs_dir) {
  for (const Loop& l : loops) {
    if (l.n != kLarge) continue;
    MaxError m;
    bench::AlignedArray<float>& x = l.buffers->x;
    for (std::uint64_t begin = 0; begin < (std::uint64_t{1} << 32); begin += kStride * x.size()) {
      for (std::size_t i = 0; i < x.size(); ++i) {
        const std::uint32_t b = pattern(begin, i);
        std::memcpy(&x[i], &b, 4);
      }
      l.run();
      for (std::size_t i = 0; i < x.size(); ++i) m.add(x[i], l.buffers->y[i], *l.function);
    }
    m.print(l.name);
  }
  if (outputs_dir == nullptr) return;
  for (const char* peer : {"Ort", "Numpy"}) {
    for (const Function& f : kFunctions) {
      const std::string file = std::string(outputs_dir) + "/" + peer + "_" + f.name + ".f32";
      std::FILE* in = std::fopen(file.c_str(), "rb");
      if (in == nullptr) continue;
      std::vector<float> y(static_cast<std::size_t>(kLarge));
      const std::size_t got = std::fread(y.data(), 4, y.size(), in);
      std::fclose(in);
      MaxError m;
      for (std::size_t i = 0; i < got; ++i) {
        const std::uint32_t b = pattern(0, i);
        float x;
        std::memcpy(&x, &b, 4);
        m.add(x, y[i], f);
      }
      m.print(std::string(peer) + "/" + f.name + "_8x128x3072");
    }
  }
}

// The fused cases (math_peers.h), and a copy of the output's bytes
// (std::memcpy, its streaming stores: x read once, y written once) as the
// memory roof: the cases' roof is that time scaled by their bytes (the gate
// reads two inputs). x is uniform over [-8, 8], the bias (small, as a
// trained one is) over [-0.5, 0.5], and the gate's z over [-8, 8].
// "BcastgenFastThreads" and "CopyThreads" are the fast kernel's `_range`
// entry and the copy split over every core, one block each, on
// pthreadpool (XNNPACK's pool: the calling thread takes a block, the
// workers spin between back-to-back calls; a std::thread per call cost
// about 80 us of start-up on a 2-core VM): how far more cores take the
// compute-bound kernels towards the roof of those cores.
const std::size_t kThreads = std::max(1u, std::thread::hardware_concurrency());

// One pool for every loop, made on first use.
pthreadpool_t thread_pool() {
  static const pthreadpool_t pool = pthreadpool_create(kThreads);
  return pool;
}

template <class Block>  // Block(begin, end) over [0, extent)
void on_threads(std::int64_t extent, const Block& block) {
  const auto size = static_cast<std::size_t>(extent);
  pthreadpool_parallelize_1d_tile_1d(
      thread_pool(),
      [](void* b, std::size_t begin, std::size_t count) {
        (*static_cast<const Block*>(b))(static_cast<std::int64_t>(begin), static_cast<std::int64_t>(begin + count));
      },
      const_cast<Block*>(&block), size, (size + kThreads - 1) / kThreads, 0);
}

struct Timed {
  std::string name;  // Peer/case
  PeerLoop run;
  std::int64_t n;
};

std::vector<Timed> fused_loops() {
  struct Case {
    const char* name;
    Fused fused;
    std::int64_t n, b_n;
    int sets;  // of x and y, run in turn; where more, only the fast kernel and the copy
    void (*kernel)(const float*, const float*, float*);
    void (*fast)(const float*, const float*, float*);  // accuracy: fast
    void (*fast_range)(std::int64_t, std::int64_t, const float*, const float*, float*);
    std::int64_t fast_extent;  // of fast_range's split loop
  };
  // The last is bias + GELU over 4 sets of x and y in turn (100 MB, past
  // a 32 MiB L3, where the 25 MB case stays): the roof of DRAM itself.
  static const Case kCases[] = {
      {"bias_gelu_8x128x3072", Fused::BiasGelu, kLarge, 3072, 1, &mk::bias_gelu, &mk::bias_gelu_fast,
       &mk::bias_gelu_fast_range, mk::bias_gelu_fast_shape::outer_extent},
      {"bias_silu_1x64x112x112", Fused::BiasSilu, 64 * 112 * 112, 64, 1, &mk::bias_silu, &mk::bias_silu_fast,
       &mk::bias_silu_fast_range, mk::bias_silu_fast_shape::outer_extent},
      {"gate_8x128x3072", Fused::Gate, kLarge, kLarge, 1, &mk::gate, &mk::gate_fast, &mk::gate_fast_range,
       mk::gate_fast_shape::outer_extent},
      {"bias_gelu_8x128x3072_4sets", Fused::BiasGelu, kLarge, 3072, 4, &mk::bias_gelu, &mk::bias_gelu_fast,
       &mk::bias_gelu_fast_range, mk::bias_gelu_fast_shape::outer_extent},
  };
  static std::deque<bench::AlignedArray<float>> buffers;
  struct Set {
    const float* x;
    float* y;
  };
  std::vector<Timed> out;
  for (const Case& c : kCases) {
    bench::AlignedArray<float>& b = buffers.emplace_back(std::move(Buffers(Fn::gelu, c.b_n).x));
    if (c.fused != Fused::Gate) {
      for (float& v : b) v /= 16.0f;
    }
    std::vector<Set> sets;
    for (int i = 0; i < c.sets; ++i) {
      const float* x = buffers.emplace_back(std::move(Buffers(Fn::gelu, c.n).x)).data();
      sets.push_back({x, buffers.emplace_back(static_cast<std::size_t>(c.n)).data()});
    }
    const float* bp = b.data();
    const std::int64_t n = c.n, extent = c.fast_extent;
    auto kernel = c.kernel, fast_kernel = c.fast;
    auto fast_range = c.fast_range;
    // loop(per_set) runs per_set(x, y) on each set in turn.
    auto loop = [sets](auto per_set) { return PeerLoop([=] { for (const Set& s : sets) per_set(s.x, s.y); }); };
    const float* x0 = sets[0].x;
    float* y0 = sets[0].y;
    const bool peers = c.sets == 1;  // and bcastgen's 1-ulp kernel
    const std::pair<std::string, PeerLoop> loops[] = {
        {"Bcastgen", peers ? loop([=](const float* x, float* y) { kernel(x, bp, y); }) : PeerLoop()},
        {"BcastgenFast", loop([=](const float* x, float* y) { fast_kernel(x, bp, y); })},
        {"Torch", peers ? torch_fused(c.fused, x0, bp, y0) : PeerLoop()},
        {"Onednn", peers ? onednn_fused(c.fused, x0, bp, y0) : PeerLoop()},
        {"Halide", peers ? halide_fused(c.fused, x0, bp, y0) : PeerLoop()},
        {"Copy", loop([=](const float* x, float* y) { std::memcpy(y, x, static_cast<std::size_t>(n) * 4); })},
        {"BcastgenFastThreads", loop([=](const float* x, float* y) {
           on_threads(extent, [=](std::int64_t begin, std::int64_t end) { fast_range(begin, end, x, bp, y); });
         })},
        {"CopyThreads", loop([=](const float* x, float* y) {
           on_threads(n, [=](std::int64_t begin, std::int64_t end) {
             std::memcpy(y + begin, x + begin, static_cast<std::size_t>(end - begin) * 4);
           });
         })},
    };
    for (const auto& [peer, run] : loops) {
      if (run) out.push_back({peer + "/" + c.name, run, n * c.sets});
    }
  }
  return out;
}

// Alternates a block of calls of peer a's loop with one of b's, 41 rounds
// (alternate.h, in bench/), for every case both have whose name contains filter;
// returns how many.
int versus(const std::vector<Timed>& timed, const std::string& a, const std::string& b, const std::string& filter) {
  std::printf("%-24s %9s %9s  %s/%s median [quartiles]\n", "case", "A ns/el", "B ns/el", b.c_str(), a.c_str());
  int cases = 0;
  for (const Timed& ta : timed) {
    const std::string::size_type slash = ta.name.find('/');
    const std::string case_name = ta.name.substr(slash + 1);
    if (ta.name.compare(0, slash, a) != 0 || case_name.find(filter) == std::string::npos) continue;
    const auto tb = std::find_if(timed.begin(), timed.end(), [&](const Timed& t) { return t.name == b + "/" + case_name; });
    if (tb == timed.end()) continue;
    ++cases;
    const bench::Alternation r = bench::alternate(ta.run, tb->run, static_cast<long>(ta.n));
    std::printf("%-24s %9.3f %9.3f  %.3f [%.3f %.3f]\n", case_name.c_str(), r.a, r.b, r.ratio, r.ratio_q1,
                r.ratio_q3);
    std::fflush(stdout);
  }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::vector<Loop> loops = all_loops();
  if (argc > 1 && std::strcmp(argv[1], "--accuracy") == 0) {
    accuracy(loops, argc > 2 ? argv[2] : nullptr);
    return 0;
  }
  const std::vector<Timed> fused = fused_loops();
  std::printf("threads of the *Threads loops: %zu\n", kThreads);
  if (argc > 1 && std::strcmp(argv[1], "--versus") == 0) {
    if (argc < 4) {
      std::fprintf(stderr, "usage: %s --versus A B [FILTER] (A, B: loop prefixes, e.g. BcastgenFast Halide)\n", argv[0]);
      return 2;
    }
    std::vector<Timed> timed = fused;
    for (const Loop& l : loops) timed.push_back({l.name, l.run, l.n});
    if (versus(timed, argv[2], argv[3], argc > 4 ? argv[4] : "") > 0) return 0;
    std::fprintf(stderr, "%s: no case has both a %s and a %s loop%s%s\n", argv[0], argv[2], argv[3],
                 argc > 4 ? " matching " : "", argc > 4 ? argv[4] : "");
    return 1;
  }
  for (const Loop& l : loops) {
    const std::int64_t n = l.n;
    auto* bench = benchmark::RegisterBenchmark(l.name.c_str(),
                                               [run = l.run, n](benchmark::State& s) { time_loop(s, run, n); });
    if (n == kLarge) bench->UseRealTime();
  }
  for (const Timed& t : fused) {
    benchmark::RegisterBenchmark(t.name.c_str(), [run = t.run, n = t.n](benchmark::State& s) {
      time_loop(s, run, n);
    })->UseRealTime();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
