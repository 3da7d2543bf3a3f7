// Times bcastgen's 16-bit float kernels (bench/half/cases.yaml) and its f32
// kernels of the same shapes against PyTorch, oneDNN, Eigen and Halide on one
// thread; prints one line per (case, element type, peer): the median time
// of BENCH_REPETITIONS runs, and the elements that differ from bcastgen's
// output (NaN equals NaN), or n/a and the peer's reason. bench/half/CMakeLists.txt builds it, bench/half/run.sh runs it, NumPy
// (numpy_half.py) beside it, and report.py prints the table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/half.h"
#include "bcastgen/registry.h"
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

// A case in each element type: the kernels of cases.yaml named CASE_f32,
// CASE_f16 and CASE_bf16, through the generated table (cases_kernels()),
// the one list of the cases.
struct TableCase {
  Case c;
  const bcastgen::KernelEntry* kernels[3] = {};  // by Elem
};

Elem elem_of_suffix(const std::string& s) {
  for (Elem e : {Elem::F32, Elem::F16, Elem::Bf16}) {
    if (s == elem_name(e)) return e;
  }
  throw std::runtime_error("half_bench: kernel suffix '" + s + "' is not f32, f16 or bf16");
}

// The peers' form of a kernel: one binary op, max(x * s + t, 0), or the
// mixed case (inputs of two types; its f32 twin takes the same form).
Kind kind_of(const std::string& name, const bcastgen::KernelEntry& k) {
  if (name == "mixed") return Kind::Mixed;
  if (std::string(k.expr) == "max(x * s + t, 0)") return Kind::BnRelu;
  const bcastgen::ExprDag d = bcastgen::entry_dag(k);
  if (k.input_count == 2 && d.nodes.size() == 3 && d.nodes[d.root].kind == bcastgen::ExprKind::Binary) {
    switch (d.nodes[d.root].op) {
      case bcastgen::Op::Add: return Kind::Add;
      case bcastgen::Op::Multiply: return Kind::Multiply;
      case bcastgen::Op::Subtract: return Kind::Subtract;
      default: break;
    }
  }
  throw std::runtime_error(std::string("half_bench: the peers have no form of ") + k.name + " (" + k.expr + ")");
}

std::vector<std::int64_t> aligned(const bcastgen::ShapeRef& s, std::size_t rank) {
  std::vector<std::int64_t> a(rank - s.rank, 1);
  a.insert(a.end(), s.dims, s.dims + s.rank);
  return a;
}

const std::vector<TableCase>& cases() {
  static const std::vector<TableCase> c = [] {
    std::vector<TableCase> all;
    for (const bcastgen::KernelEntry& k : hk::cases_kernels()) {
      const std::string full = k.name;
      const std::size_t cut = full.rfind('_');
      const std::string name = full.substr(0, cut);
      const Elem e = elem_of_suffix(full.substr(cut + 1));
      auto it = std::find_if(all.begin(), all.end(), [&](const TableCase& t) { return t.c.name == name; });
      if (it == all.end()) {
        TableCase t;
        t.c.name = name;
        t.c.kind = kind_of(name, k);
        t.c.out.assign(k.out.dims, k.out.dims + k.out.rank);
        for (std::size_t i = 0; i < k.input_count; ++i) t.c.inputs.push_back(aligned(k.inputs[i].shape, k.out.rank));
        all.push_back(t);
        it = all.end() - 1;
      }
      it->kernels[static_cast<int>(e)] = &k;
    }
    return all;
  }();
  return c;
}

// bcastgen's kernel for (case, element type), on the ISA the CPU's dispatch picks.
Loop bcastgen_loop(const TableCase& t, Elem e, const std::vector<void*>& in, void* out) {
  const bcastgen::KernelEntry* k = t.kernels[static_cast<int>(e)];
  if (k == nullptr) return {};
  const bcastgen::Isa isa = bcastgen::active_isa();
  return [k, isa, in, out] { k->run(isa, in.data(), out); };
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
  std::printf("case\tdtype\tpeer\tmedian_ns\tmismatches\tbytes\tn/a because\n");
  for (const TableCase& t : cases()) {
    const Case& c = t.c;
    for (Elem e : {Elem::F32, Elem::F16, Elem::Bf16}) {
      if (t.kernels[static_cast<int>(e)] == nullptr) continue;
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
      const Loop mine = bcastgen_loop(t, e, in, ours.get());
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
          std::printf("%s\t%s\t%s\tn/a\t\t%lld\t%s\n", c.name.c_str(), elem_name(e), p.name,
                      static_cast<long long>(bytes), p.loop.na.c_str());
          continue;
        }
        std::printf("%s\t%s\t%s\t%.0f\t%lld\t%lld\n", c.name.c_str(), elem_name(e), p.name, ns[next++],
                    static_cast<long long>(bad[k]), static_cast<long long>(bytes));
      }
      std::fflush(stdout);
    }
  }
}
