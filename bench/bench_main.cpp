// bcastgen benchmark driver (bench/run.sh runs it; see docs/benchmarks.md).
//
//   bcastgen_bench [--cases-json=PATH] [--fused-json=PATH] [--status-json=PATH]
//                  [--caches-json=PATH] [--check-only] [Google Benchmark flags]
//   bcastgen_bench --versus=A,B[,FILTER]   (e.g. --versus=bcastgen,halide_s0,f5)
//
// 1. Builds every case of bench/cases.yaml (the generated kernel table gives
//    the shapes), fills the inputs and runs bcastgen once: its output is the
//    expected output of every peer. Builds the fused cases (fused.h), whose
//    expected output is the reference's.
// 2. Makes each peer (setup outside the timed region), runs it once and
//    compares its output byte for byte with the expected one: a mismatch is
//    printed loudly and the peer's time is reported as MISMATCH.
// 3. Registers one benchmark per (case, peer) that can run, plus the roofs,
//    and runs them (one thread).
// --cases-json and --fused-json write the cases and their expected output's
// checksums for numpy_bench.py (the fused cases also their traffic);
// --status-json writes every (case, peer)'s status: ok, n/a with the reason,
// or mismatch, and a fused peer's bytes per call; --caches-json the per-core
// cache sizes and where they come from (detect_caches(), caches.cpp).
// --versus=A,B[,FILTER] times peers A and B of each case whose name holds
// FILTER in alternating rounds instead of step 3 (versus()).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <iterator>
#include <string>
#include <vector>

#include "alternate.h"
#include "bcastgen/registry.h"
#include "bench.h"
#include "fused.h"
#include "cases.h"  // generated from bench/cases.yaml

namespace bench {

// Exactly representable, so every single op's result is exact and every peer
// must match bit for bit (in the fused cases, where a node may round, every
// peer must round each node as NumPy does). Unsigned 8-bit inputs stay below
// 128 so that no sum overflows (oneDNN and XNNPACK saturate where bcastgen,
// NumPy and Eigen wrap).
void fill(void* p, bcastgen::DType t, std::int64_t n, std::int64_t seed) {
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = (i * 7 + seed) % 509;
    switch (t) {
      case bcastgen::DType::F32: static_cast<float*>(p)[i] = static_cast<float>(k) * 0.25f - 63.5f; break;
      case bcastgen::DType::U8: static_cast<std::uint8_t*>(p)[i] = static_cast<std::uint8_t>((i * 7 + seed) % 128); break;
      case bcastgen::DType::I32: static_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(k - 254); break;
      default: throw std::runtime_error("bench: fill: dtype not used by the cases");
    }
  }
}

std::uint64_t checksum(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 0;
  for (std::size_t i = 0, k = 0; i < bytes; i += 8, ++k) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + i, bytes - i < 8 ? bytes - i : 8);  // little endian
    h += w * (2 * k + 1);
  }
  return h;
}

namespace {

// The generated kernels, called through their unchecked entry.
template <class A, class O>
std::function<void()> bind(void (*f)(const A*, const A*, O*), const Case& c) {
  const auto* a = static_cast<const A*>(c.a_ptr());
  const auto* b = static_cast<const A*>(c.b_ptr());
  auto* o = static_cast<O*>(c.out_ptr());
  return [f, a, b, o] { f(a, b, o); };
}
template <class A>
std::function<void()> bind(void (*f)(const A*, A*), const Case& c) {
  const auto* a = static_cast<const A*>(c.a_ptr());
  auto* o = static_cast<A*>(c.out_ptr());
  return [f, a, o] { f(a, o); };
}

#define BENCH_CASES(X)                                                                                      \
  X(c01_same_shape, "1") X(c02_nchw_bias, "2") X(c03_nhwc_bias, "3") X(c04_nhwc_c3, "4")                  \
  X(c05_attn_mask, "5") X(c06_ln_scale, "6") X(c07_row_bcast, "7") X(c08_outer, "8") X(c09_array_api, "9") \
  X(c10_se_scale, "10") X(c11_pdpd, "11") X(c12a_u8_add, "12a") X(c12b_i32_bias, "12b")                   \
  X(c13_broadcast, "13") X(c14_greater, "14")

struct Entry {
  std::unique_ptr<Case> c;
  std::function<void()> bcastgen;
};

bcastgen::Shape shape_of(bcastgen::ShapeRef r) { return r.to_shape(); }

std::unique_ptr<Case> make_case(const bcastgen::KernelEntry& k, const char* label) {
  auto c = std::make_unique<Case>();
  c->name = k.name;
  c->label = label;
  c->op = single_op(k);
  c->dtype = k.inputs[0].dtype;
  c->out_dtype = k.out_dtype;  // result_dtype(op, dtype)
  c->rule = k.rule;
  c->mode = k.mode;
  c->axis = k.axis;
  c->a = shape_of(k.inputs[0].shape);
  c->b = c->binary() ? shape_of(k.inputs[1].shape) : shape_of(k.target);
  c->out = shape_of(k.out);
  const bcastgen::BroadcastResult r = c->binary() ? bcastgen::broadcast_shapes(c->rule, c->a, c->b, c->axis)
                                                  : bcastgen::broadcast_to(c->mode, c->a, c->b, c->axis, {});
  c->a_aligned = r.a_aligned;
  c->b_aligned = c->binary() ? r.b_aligned : bcastgen::Shape{};
  c->a_numel = bcastgen::checked_numel(c->a);
  c->b_numel = c->binary() ? bcastgen::checked_numel(c->b) : 0;
  c->out_numel = bcastgen::checked_numel(c->out);
  const auto in_size = static_cast<std::size_t>(bcastgen::dtype_size(c->dtype));
  c->a_bytes = static_cast<std::size_t>(c->a_numel) * in_size;
  c->b_bytes = static_cast<std::size_t>(c->b_numel) * in_size;
  c->out_bytes = static_cast<std::size_t>(c->out_numel) * static_cast<std::size_t>(bcastgen::dtype_size(c->out_dtype));
  c->a_buf = aligned_buffer(c->a_bytes);
  c->b_buf = aligned_buffer(c->b_bytes);
  c->out_buf = aligned_buffer(c->out_bytes);
  fill(c->a_ptr(), c->dtype, c->a_numel, 1);
  fill(c->b_ptr(), c->dtype, c->b_numel, 5);
  return c;
}

std::vector<Entry> make_entries() {
  const bcastgen::KernelTable table = bcbench::cases_kernels();
  auto find = [&](const char* name) -> const bcastgen::KernelEntry& {
    for (const bcastgen::KernelEntry& k : table) {
      if (std::strcmp(k.name, name) == 0) return k;
    }
    throw std::runtime_error(std::string("bench: kernel ") + name + " is not in the generated table");
  };
  std::vector<Entry> entries;
#define MAKE_ENTRY(name, label)                              \
  {                                                          \
    Entry e;                                                 \
    e.c = make_case(find(#name), label);                     \
    e.bcastgen = bind(&bcbench::name, *e.c);                 \
    entries.push_back(std::move(e));                         \
  }
  BENCH_CASES(MAKE_ENTRY)
#undef MAKE_ENTRY
  return entries;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      o += ' ';
    } else {
      o += ch;
    }
  }
  return o;
}

std::string json_shape(const bcastgen::Shape& s) {
  std::string o = "[";
  for (std::size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
  return o + "]";
}

struct Status {
  std::string case_name, peer, status, reason;
  std::size_t bytes = 0;  // fused cases: PeerRun::bytes
  int passes = 1;
};

const char* const kPeers[] = {"bcastgen", "xnnpack", "onednn", "eigen", "fallback", "halide_s0", "halide_s1", "torch"};

// BENCH_AA=1 adds this peer to every case: bcastgen's kernel again, so that
// report.py's a/a line shows how often a verdict of a kernel against itself
// is not a tie on this machine.
const char* const kTwin = "bcastgen_twin";

// `peers`, and the twin after them under BENCH_AA=1.
template <std::size_t N>
std::vector<std::string> peers_to_run(const char* const (&peers)[N]) {
  std::vector<std::string> v(std::begin(peers), std::end(peers));
  const char* aa = std::getenv("BENCH_AA");
  if (aa != nullptr && std::string(aa) == "1") v.push_back(kTwin);
  return v;
}

PeerRun make_peer(const std::string& peer, const Entry& e) {
  try {
    if (peer == "bcastgen" || peer == kTwin) {
      PeerRun p;
      p.run = e.bcastgen;
      p.note = std::string("isa ") + bcastgen::isa_name(bcastgen::active_isa());
      return p;
    }
    if (peer == "xnnpack") return make_xnnpack(*e.c);
    if (peer == "onednn") return make_onednn(*e.c);
    if (peer == "eigen") return make_eigen(*e.c);
    if (peer == "fallback") return make_fallback(*e.c);
    if (peer == "halide_s0") return make_halide(*e.c, 0);
    if (peer == "halide_s1") return make_halide(*e.c, 1);
    if (peer == "torch") return make_torch(*e.c);
  } catch (const std::exception& ex) {
    return not_available(std::string("setup threw: ") + ex.what());
  }
  return not_available("unknown peer");
}

const char* const kFusedPeers[] = {"bcastgen", "bcastgen_chain", "xnnpack", "fallback", "torch",
                                  "eigen", "onednn", "halide_s0", "halide_s1"};

PeerRun make_fused_peer(const std::string& peer, const FusedCase& c) {
  try {
    if (peer == "bcastgen" || peer == kTwin) return make_fused_bcastgen(c);
    if (peer == "bcastgen_chain") return make_fused_bcastgen_chain(c);
    if (peer == "xnnpack") return make_fused_xnnpack(c);
    if (peer == "fallback") return make_fused_fallback(c);
    if (peer == "torch") return make_fused_torch(c);
    if (peer == "eigen") return make_fused_eigen(c);
    if (peer == "onednn") return make_fused_onednn(c);
    if (peer == "halide_s0") return make_fused_halide(c, 0);
    if (peer == "halide_s1") return make_fused_halide(c, 1);
  } catch (const std::exception& ex) {
    return not_available(std::string("setup threw: ") + ex.what());
  }
  return not_available("unknown peer");
}

// Runs `p` once on a poisoned output and compares with the expected output.
// Returns "" or a description of the first difference.
std::string check(void* out, std::size_t out_bytes, std::size_t elem, const std::vector<unsigned char>& expected,
                  const PeerRun& p) {
  std::memset(out, 0xAB, out_bytes);
  p.run();
  const auto* got = static_cast<const unsigned char*>(out);
  if (std::memcmp(got, expected.data(), out_bytes) == 0) return "";
  std::size_t diffs = 0, first = out_bytes;
  for (std::size_t i = 0; i < out_bytes; ++i) {
    if (got[i] != expected[i]) {
      if (first == out_bytes) first = i;
      ++diffs;
    }
  }
  std::ostringstream os;
  os << diffs << " of " << out_bytes << " output bytes differ; first at element " << first / elem;
  return os.str();
}

// Untimed calls before each repetition. Google Benchmark sizes the iteration
// count on a benchmark's first repetition only, and random interleaving puts
// any other case before each later one, so without them a repetition's first
// calls find the caches holding another case's buffers: case 13's 32 MiB
// broadcast took 1.67x, 1.50x and 1.07x its steady time on the first three
// calls after two passes over 48 MiB, and its steady time from the fourth
// (Intel Xeon, 2026-12-01). NumPy and ONNX Runtime, timed in their own
// processes, run each case back to back, so they were always warm.
constexpr int kWarmUpCalls = 3;

void register_timed(const std::string& name, const std::function<void()>& run, std::size_t bytes) {
  benchmark::RegisterBenchmark(name.c_str(),
                               [run, bytes](benchmark::State& state) {
                                 for (int i = 0; i < kWarmUpCalls; ++i) run();
                                 for (auto _ : state) {
                                   run();
                                   benchmark::ClobberMemory();
                                 }
                                 state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                                                         static_cast<std::int64_t>(bytes));
                               })
      ->Unit(benchmark::kNanosecond);
}

// Checks each peer once, then registers it for timing; keeps every status.
struct Harness {
  bool check_only = false;
  int mismatches = 0;
  std::vector<Status> statuses;
  std::vector<PeerRun> keep;       // alive until the benchmarks have run
  std::vector<long> elements;      // of each one's output, for --versus

  // `against` names what `expected` is ("bcastgen", "the reference");
  // `bytes` is what one call counts as moved for Google Benchmark's rate.
  void add(const std::string& name, const std::string& label, const std::string& peer, PeerRun p, void* out,
           std::size_t out_bytes, std::size_t elem, const std::vector<unsigned char>& expected,
           std::size_t bytes, const char* against) {
    Status s{name, peer, "ok", p.note, p.bytes, p.passes};
    if (!p.run) {
      s.status = "n/a";
      s.reason = p.na;
    } else {
      std::string diff;
      try {
        diff = check(out, out_bytes, elem, expected, p);
      } catch (const std::exception& ex) {
        diff = std::string("threw: ") + ex.what();
      }
      if (!diff.empty()) {
        ++mismatches;
        s.status = "mismatch";
        s.reason = diff;
        std::cerr << "\n*** MISMATCH *** case " << label << " (" << name << "), peer " << peer << " differs from "
                  << against << ": " << diff << "\n\n";
      }
    }
    std::cerr << "check  " << label << "\t" << name << "\t" << peer << "\t" << s.status
              << (s.reason.empty() ? "" : "\t" + s.reason) << "\n";
    if (p.run && s.status == "ok" && !check_only) register_timed(name + "/" + peer, p.run, bytes);
    statuses.push_back(std::move(s));
    keep.push_back(std::move(p));
    elements.push_back(static_cast<long>(out_bytes / elem));
  }
};

// --versus=A,B[,FILTER]: peers A and B of every case whose name contains
// FILTER, timed in 41 alternating rounds (alternate.h) instead of the
// Google Benchmark run: on a shared host a whole run's figures move by 5%
// to 10%, the ratio of two loops timed turn about much less. Returns how
// many cases had both, each checked.
int versus(const Harness& h, const std::string& spec) {
  const std::string::size_type c1 = spec.find(',');
  if (c1 == std::string::npos || c1 == 0 || c1 + 1 == spec.size()) return -1;
  const std::string::size_type c2 = spec.find(',', c1 + 1);
  const std::string a = spec.substr(0, c1);
  const std::string b = c2 == std::string::npos ? spec.substr(c1 + 1) : spec.substr(c1 + 1, c2 - c1 - 1);
  const std::string filter = c2 == std::string::npos ? "" : spec.substr(c2 + 1);
  std::printf("%-28s %11s %11s  %s/%s median [quartiles]\n", "case", "A ns/call", "B ns/call", b.c_str(), a.c_str());
  int cases = 0;
  for (std::size_t i = 0; i < h.statuses.size(); ++i) {
    const Status& s = h.statuses[i];
    if (s.peer != a || s.status != "ok" || s.case_name.find(filter) == std::string::npos) continue;
    for (std::size_t j = 0; j < h.statuses.size(); ++j) {
      const Status& t = h.statuses[j];
      if (t.case_name != s.case_name || t.peer != b || t.status != "ok") continue;
      const Alternation r = alternate(h.keep[i].run, h.keep[j].run, h.elements[i]);
      const double n = static_cast<double>(h.elements[i]);
      std::printf("%-28s %11.0f %11.0f  %.3f [%.3f %.3f]\n", s.case_name.c_str(), r.a * n, r.b * n, r.ratio, r.ratio_q1,
                  r.ratio_q3);
      std::fflush(stdout);
      ++cases;
    }
  }
  return cases;
}

std::string json_inputs(const FusedCase& c) {
  std::string o = "[";
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const Tensor& t = c.inputs[i];
    o += std::string(i ? ", " : "") + "{\"name\": \"" + t.name + "\", \"shape\": " + json_shape(t.shape) +
         ", \"aligned\": " + json_shape(t.aligned) + ", \"dtype\": \"" + bcastgen::dtype_name(t.dtype) +
         "\", \"bytes\": " + std::to_string(t.bytes) + "}";
  }
  return o + "]";
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  benchmark::Initialize(&argc, argv);
  std::string cases_json, status_json, caches_json, fused_json, versus_spec;
  bool check_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--cases-json=", 0) == 0) {
      cases_json = arg.substr(13);
    } else if (arg.rfind("--status-json=", 0) == 0) {
      status_json = arg.substr(14);
    } else if (arg.rfind("--caches-json=", 0) == 0) {
      caches_json = arg.substr(14);
    } else if (arg.rfind("--fused-json=", 0) == 0) {
      fused_json = arg.substr(13);
    } else if (arg == "--check-only") {
      check_only = true;
    } else if (arg.rfind("--versus=", 0) == 0) {
      versus_spec = arg.substr(9);
    } else {
      std::cerr << "bcastgen_bench: unknown argument " << arg << "\n";
      return 2;
    }
  }

  if (!caches_json.empty()) {
    std::ofstream f(caches_json);
    f << "[";
    const std::vector<CacheLevel> caches = detect_caches();
    for (std::size_t i = 0; i < caches.size(); ++i) {
      f << (i ? ", " : "") << "{\"level\": " << caches[i].level << ", \"bytes\": " << caches[i].bytes
        << ", \"source\": \"" << json_escape(caches[i].source) << "\"}";
    }
    f << "]\n";
  }

  std::vector<Entry> entries = make_entries();
  for (Entry& e : entries) {
    std::memset(e.c->out_ptr(), 0xAB, e.c->out_bytes);
    e.bcastgen();
    const auto* o = static_cast<const unsigned char*>(e.c->out_ptr());
    e.c->expected.assign(o, o + e.c->out_bytes);
    e.c->checksum = checksum(o, e.c->out_bytes);
  }
  if (!cases_json.empty()) {
    std::ofstream f(cases_json);
    f << "[\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Case& c = *entries[i].c;
      f << "  {\"name\": \"" << c.name << "\", \"label\": \"" << c.label << "\", \"op\": \""
        << bcastgen::op_name(c.op) << "\", \"dtype\": \"" << bcastgen::dtype_name(c.dtype) << "\", \"out_dtype\": \""
        << bcastgen::dtype_name(c.out_dtype) << "\", \"rule\": \""
        << (c.binary() ? bcastgen::rule_name(c.rule) : bcastgen::mode_name(c.mode)) << "\", \"axis\": " << c.axis
        << ", \"a\": " << json_shape(c.a) << ", \"b\": " << json_shape(c.b) << ", \"out\": " << json_shape(c.out)
        << ", \"a_aligned\": " << json_shape(c.a_aligned) << ", \"b_aligned\": " << json_shape(c.b_aligned)
        << ", \"a_bytes\": " << c.a_bytes << ", \"b_bytes\": " << c.b_bytes << ", \"out_bytes\": " << c.out_bytes
        << ", \"out_numel\": " << c.out_numel << ", \"checksum\": \"" << c.checksum << "\"}"
        << (i + 1 < entries.size() ? ",\n" : "\n");
    }
    f << "]\n";
  }

  // Peers: make, check once, register.
  Harness h;
  h.check_only = check_only;
  const std::vector<std::string> peers = peers_to_run(kPeers), fused_peers = peers_to_run(kFusedPeers);
  for (const Entry& e : entries) {
    const Case& c = *e.c;
    for (const std::string& peer : peers) {
      h.add(c.name, c.label, peer, make_peer(peer, e), c.out_ptr(), c.out_bytes,
            static_cast<std::size_t>(bcastgen::dtype_size(c.out_dtype)), c.expected,
            c.a_bytes + c.b_bytes + c.out_bytes, "bcastgen");
    }
  }
  // The fused cases (fused.h): every peer against the reference's output.
  const std::vector<std::unique_ptr<FusedCase>> fused = make_fused_cases();
  for (const auto& c : fused) {
    for (const std::string& peer : fused_peers) {
      h.add(c->name, c->label, peer, make_fused_peer(peer, *c), c->out.ptr(), c->out.bytes,
            static_cast<std::size_t>(bcastgen::dtype_size(c->out.dtype)), c->expected, c->fused_bytes(),
            "the reference");
    }
  }
  if (!fused_json.empty()) {
    std::ofstream f(fused_json);
    f << "[\n";
    for (std::size_t i = 0; i < fused.size(); ++i) {
      const FusedCase& c = *fused[i];
      f << "  {\"name\": \"" << c.name << "\", \"label\": \"" << c.label << "\", \"expr\": \""
        << json_escape(c.expr) << "\", \"inputs\": " << json_inputs(c) << ", \"out\": " << json_shape(c.out.shape)
        << ", \"out_dtype\": \"" << bcastgen::dtype_name(c.out.dtype) << "\", \"out_bytes\": " << c.out.bytes
        << ", \"out_numel\": " << c.out.numel << ", \"fused_bytes\": " << c.fused_bytes()
        << ", \"chain_bytes\": " << c.chain_bytes(c.chain) << ", \"chain_passes\": " << c.chain.size()
        << ", \"checksum\": \"" << c.checksum << "\"}" << (i + 1 < fused.size() ? ",\n" : "\n");
    }
    f << "]\n";
  }
  const std::vector<Status>& statuses = h.statuses;
  const int mismatches = h.mismatches;
  if (!status_json.empty()) {
    std::ofstream f(status_json);
    f << "[\n";
    for (std::size_t i = 0; i < statuses.size(); ++i) {
      const Status& s = statuses[i];
      f << "  {\"case\": \"" << s.case_name << "\", \"peer\": \"" << s.peer << "\", \"status\": \"" << s.status
        << "\", \"reason\": \"" << json_escape(s.reason) << "\", \"bytes\": " << s.bytes
        << ", \"passes\": " << s.passes << "}" << (i + 1 < statuses.size() ? ",\n" : "\n");
    }
    f << "]\n";
  }
  if (mismatches) std::cerr << "*** " << mismatches << " peer output(s) differ from bcastgen's (see above) ***\n";
  if (check_only) return mismatches ? 1 : 0;
  if (!versus_spec.empty()) {
    const int cases = versus(h, versus_spec);
    if (cases < 0) {
      std::cerr << "bcastgen_bench: --versus=A,B[,FILTER] needs two peer names (e.g. bcastgen,halide_s0,f5)\n";
      return 2;
    }
    if (cases == 0) {
      std::cerr << "bcastgen_bench: no case has both peers, checked, in --versus=" << versus_spec << "\n";
      return 1;
    }
    return mismatches ? 1 : 0;
  }

  std::vector<Roof> roofs = make_roofs();
  for (const Roof& r : roofs) register_timed("roof/" + r.name, r.run, r.bytes);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return mismatches ? 1 : 0;
}
