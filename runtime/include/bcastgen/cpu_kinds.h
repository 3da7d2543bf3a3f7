// bcastgen runtime: the CPU-kind table, the tuning facts plans are made for.
//
// The ISA table (cpu.h) says what a CPU can run; this one says how a plan
// should use it on a family of CPUs: one row per kind (vendor, CPUID
// family and models), with the planner's tuning facts and the measurement
// behind them. A plan is made for one kind, named by the spec (`cpu:`) or
// on the command line (`--cpu`); `generic` is the default, so that the same
// spec gives the same code on every build machine. The generated code runs
// correctly on every CPU whatever kind it was planned for: only its loop
// shapes differ. detect_cpu_kind() names the kind of the CPU it runs on
// (`--cpu native`, `bcastgen explain`, the benchmarks).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "bcastgen/cpu.h"

namespace bcastgen {

// The rows of kCpuKindInfo; the enumerators are indices.
enum class CpuKind { Generic, IntelXeon, Zen3, Zen4, Zen5 };

struct CpuModels {
  unsigned lo = 0, hi = 0;  // CPUID display models, inclusive; lo > hi: no range
};

struct CpuKindInfo {
  CpuKind kind;
  const char* name;         // "zen4": specs' `cpu:`, --cpu
  const char* description;  // for explain and the benchmarks' tables
  const char* vendor;       // CPUID leaf 0 vendor string ("" for generic: detected for no CPU)
  unsigned family;          // CPUID display family (base + extended)
  std::array<CpuModels, 4> models;
  // Tuning facts the planner reads.
  int unroll;               // vectors per main-loop iteration: 1, 2 or 4 (plan.cpp's block quantum assumes it)
  // Each vector's loads, nodes and store together (as GCC unrolls a loop),
  // else the loads of all the step's vectors first, then their nodes, then
  // their stores (as XNNPACK's kernels).
  bool interleave;
  // Rows whose starts fall at different offsets in the output's vector-sized
  // lines (a row of 196 floats: 784 bytes) begin with a masked vector up to
  // the next line, computed from the output pointer at run time, so that
  // every whole vector after it stores one whole line (plan.cpp, peel).
  bool peel_rows;
  // The widest vectors of a streaming kernel's variant, in bytes (0: every
  // ISA's own). A streaming kernel (plan.cpp, streams_at_any_width: plain
  // arithmetic, rows of whole vectors, a store as wide as its lanes) then
  // runs the widest variant whose vectors are at most this wide on CPUs that
  // have wider ones: the wider variants are left out of its plan.
  int stream_vector_bytes;
  // Footprints (bytes of every input and of out, once) from which stores
  // stream: stream_bytes for every kernel, stream_reading_bytes (lower) for
  // kernels that read at least as many bytes as they write. A write-mostly
  // kernel's output stays in the L3 across calls until it is well past its
  // size; one that reads as much as it writes gains from skipping the
  // read-for-ownership sooner (bench/stream_threshold/run.sh,
  // docs/design/planner.md). A spec's stream_threshold_bytes replaces both; without one, a
  // kernel with a math function keeps normal stores (gen/plan.h,
  // stream_threshold).
  std::int64_t stream_bytes, stream_reading_bytes;
  const char* why;          // the measurement behind these facts
};

inline constexpr CpuModels kAllModels{0x00, 0xFF};
inline constexpr CpuModels kNoModels{1, 0};
// Measured on AMD Zen 5 and, for the add and the broadcast, on the AVX-512
// machine of 2026-11-23 (a 32 MiB L3; docs/design/planner.md): from 24 MiB,
// streaming gained 1.02x to 1.41x on kernels that read as much as they
// write, in three runs but for one bf16 point (0.95x), and a write-only
// broadcast breaks even between 40 and 64 MiB.
inline constexpr std::int64_t kStreamBytes = std::int64_t{40} << 20;
inline constexpr std::int64_t kStreamReadingBytes = std::int64_t{24} << 20;

inline constexpr CpuKindInfo kCpuKindInfo[] = {
    {CpuKind::Generic, "generic", "any CPU", "", 0, {kNoModels, kNoModels, kNoModels, kNoModels}, 4, false, false, 0,
     kStreamBytes, kStreamReadingBytes,
     "the default: the plans as tuned on the project's earlier machines (Intel Xeon, AMD Zen 3)"},
    {CpuKind::IntelXeon, "intel-xeon",
     "Intel Xeon with AVX-512 (Skylake-SP, Cascade Lake, Ice Lake-SP, Sapphire and Emerald Rapids)",
     "GenuineIntel", 6,
     {CpuModels{0x55, 0x55}, CpuModels{0x6A, 0x6C}, CpuModels{0x8F, 0x8F}, CpuModels{0xCF, 0xCF}}, 4, false, true, 0,
     kStreamBytes, kStreamReadingBytes,
     "the generic plan was tuned here (bench/run.sh, docs/benchmarks.md); rows peeled to the output's lines "
     "measured on an Emerald Rapids (family 6 model 207): case 10's rows of 196 floats at 0.99x to 1.05x Halide's "
     "speed, against 0.91x to 0.96x unpeeled, in alternating rounds at five placements of its buffers; 0.95x the time "
     "of the unpeeled plan at four of six placements, 0.99x to 1.01x at two (bench/plan_ab; docs/design/planner.md, "
     "\"Plans per CPU kind\")"},
    {CpuKind::Zen3, "zen3", "AMD Zen 3 (EPYC Milan): AVX2", "AuthenticAMD", 0x19,
     {CpuModels{0x00, 0x0F}, CpuModels{0x20, 0x5F}, kNoModels, kNoModels}, 4, false, false, 0,
     kStreamBytes, kStreamReadingBytes,
     "the generic plan, measured there since the fused cases (docs/benchmarks.md, Zen 3 tables)"},
    {CpuKind::Zen4, "zen4", "AMD Zen 4 (EPYC Genoa): AVX-512 as two 256-bit halves", "AuthenticAMD", 0x19,
     {CpuModels{0x10, 0x1F}, CpuModels{0x60, 0x7F}, CpuModels{0xA0, 0xAF}, kNoModels}, 4, false, false, 32,
     kStreamBytes, kStreamReadingBytes,
     "on a Genoa (family 25 model 17), bcastgen tune's driver timed the 40 benchmark kernels (bench/cases.yaml, "
     "fused_cases.yaml, fused_chain.yaml) in 8 plans each (grouped or interleaved, unroll 4 or 2, avx512 or avx2), "
     "in blocks of back-to-back calls at 4 placements of their buffers: on 34 of the 37 streams, the avx2 variant "
     "grouped x4 took 0.90x to 0.99x the time of the best avx512 plan, and 1.00x to 1.03x on 3 (an outer sum, a "
     "broadcast to DRAM, F1's scale, shift and relu); interleaved avx512, the row's earlier fact, lost up to 30% where "
     "an output sat 64 bytes past its input modulo 4 KiB. bench/run.sh: below_peer 1, fused_below_peer 1, against "
     "2 and 0 with interleaved avx512. A compare into bool (avx2 1.09x) and a 1680-element gathered block (2.3x) "
     "keep avx512"},
    {CpuKind::Zen5, "zen5", "AMD Zen 5 (EPYC Turin): 512-bit AVX-512 datapaths", "AuthenticAMD", 0x1A,
     {kAllModels, kNoModels, kNoModels, kNoModels}, 4, false, false, 0,
     kStreamBytes, kStreamReadingBytes,
     "the generic plan: interleaved measured slower here (case 10: 166, 160 us grouped, 170, 172 interleaved; "
     "F1: 81, 77 against 84, 83); streaming from 24 MiB for kernels that read as much as they write "
     "(1.02x to 1.41x from 24 MiB in three runs, but for one bf16 point at 0.95x), else from 40 MiB (a write-only "
     "broadcast: 0.91x to 1.23x at 40)"},
};

inline constexpr std::size_t kCpuKindCount = std::size(kCpuKindInfo);
inline constexpr const CpuKindInfo& cpu_kind_info(CpuKind k) { return kCpuKindInfo[static_cast<std::size_t>(k)]; }
inline const char* cpu_kind_name(CpuKind k) { return cpu_kind_info(k).name; }

namespace detail {
inline constexpr bool cpu_kind_table_consistent() {
  for (std::size_t i = 0; i < kCpuKindCount; ++i) {
    const CpuKindInfo& r = kCpuKindInfo[i];
    if (static_cast<std::size_t>(r.kind) != i || (r.unroll != 1 && r.unroll != 2 && r.unroll != 4)) return false;
    if (r.stream_vector_bytes < 0) return false;
    if (r.stream_reading_bytes < 0 || r.stream_reading_bytes > r.stream_bytes) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::cpu_kind_table_consistent(), "kCpuKindInfo: one row per CpuKind in enum order, unroll 1, 2 or 4, "
              "0 <= stream_reading_bytes <= stream_bytes");

// Exact names, as the table spells them.
inline bool parse_cpu_kind(std::string_view s, CpuKind* out) {
  for (const CpuKindInfo& r : kCpuKindInfo) {
    if (s == r.name) {
      *out = r.kind;
      return true;
    }
  }
  return false;
}

// "generic, intel-xeon, zen3, ...": every name, in table order (for messages).
inline std::string cpu_kind_names(const char* separator = ", ") {
  std::string s;
  for (const CpuKindInfo& r : kCpuKindInfo) s += (s.empty() ? "" : separator) + std::string(r.name);
  return s;
}

// What CPUID says of a CPU: vendor string and display family and model.
struct CpuIdentity {
  std::string vendor;
  unsigned family = 0, model = 0;
};

// The row of a CPU: the first whose vendor, family and a model range match; generic for none.
inline CpuKind cpu_kind_of(const CpuIdentity& id) {
  for (const CpuKindInfo& r : kCpuKindInfo) {
    if (*r.vendor == '\0' || id.vendor != r.vendor || id.family != r.family) continue;
    for (const CpuModels& m : r.models) {
      if (m.lo <= m.hi && id.model >= m.lo && id.model <= m.hi) return r.kind;
    }
  }
  return CpuKind::Generic;
}

// This CPU's identity (empty vendor off x86), read once.
inline const CpuIdentity& host_cpu_identity() {
  static const CpuIdentity kIdentity = [] {
    CpuIdentity id;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    const std::uint32_t words[3] = {detail::cpuid_reg(0, 0, 'b'), detail::cpuid_reg(0, 0, 'd'),
                                    detail::cpuid_reg(0, 0, 'c')};
    for (std::uint32_t w : words) {
      for (int byte = 0; byte < 4; ++byte) id.vendor += static_cast<char>((w >> (8 * byte)) & 0xFF);
    }
    // Leaf 1 EAX: base family in bits 8..11, base model 4..7, extended model
    // 16..19, extended family 20..27; the extended fields count for families
    // 15 (extended family) and 6 or 15 (extended model).
    const std::uint32_t a = detail::cpuid_reg(1, 0, 'a');
    const unsigned base_family = (a >> 8) & 0xF, base_model = (a >> 4) & 0xF;
    id.family = base_family == 0xF ? base_family + ((a >> 20) & 0xFF) : base_family;
    id.model = base_family == 0x6 || base_family == 0xF ? (((a >> 16) & 0xF) << 4) + base_model : base_model;
#endif
    return id;
  }();
  return kIdentity;
}

inline CpuKind detect_cpu_kind() { return cpu_kind_of(host_cpu_identity()); }

}  // namespace bcastgen
