// bcastgen runtime: the ISA table, CPU feature detection and the choice of
// kernel variant.
//
// Every fact about an ISA is one row of kIsaInfo below: its names, its
// architecture, the target attribute and header its variants compile with,
// the CPU features it needs, the ISAs it implies, its vector width, tail
// kind and non-temporal store. The generator, the CLI, the spec reader,
// `explain`, the linter and the generated dispatch all read it; no ISA
// name is spelled anywhere else. ISAs have no linear order: an ISA runs the
// variants of the ISAs it implies (AVX-512 runs AVX2 code; AVX512-FP16
// implies AVX-512, while an AVX-512 CPU may lack it).
//
// The dispatcher runs the variant for active_isa(): the most specific ISA
// this CPU supports, unless a variant is forced (for tests and benchmarks)
// with force_isa() or, once per process, with the environment variable
// BCASTGEN_ISA=<name>. Precedence: force_isa() > BCASTGEN_ISA > detection.
// An empty BCASTGEN_ISA counts as unset. Header-only; the state lives in
// function-local statics.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "bcastgen/errors.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace bcastgen {

// --- Architectures -----------------------------------------------------------

enum class Arch { Any, X86_64, AArch64 };

struct ArchInfo {
  Arch arch;
  const char* name;
  const char* guard;  // the preprocessor condition that holds when compiling for it ("" for Any)
};
inline constexpr ArchInfo kArchInfo[] = {
    {Arch::Any, "any", ""},
    {Arch::X86_64, "x86_64", "defined(__x86_64__) || defined(_M_X64)"},
    {Arch::AArch64, "aarch64", "defined(__aarch64__)"},
};
inline const ArchInfo& arch_info(Arch a) { return kArchInfo[static_cast<std::size_t>(a)]; }

// The architecture this translation unit is compiled for.
#if defined(__x86_64__) || defined(_M_X64)
inline constexpr Arch kHostArch = Arch::X86_64;
#elif defined(__aarch64__)
inline constexpr Arch kHostArch = Arch::AArch64;
#else
inline constexpr Arch kHostArch = Arch::Any;
#endif

// --- CPU features ------------------------------------------------------------

// One bit of CPUID (or, for the OS's register-state support, of XCR0); on
// AArch64 Linux, one bit of the kernel's HWCAP.
enum class CpuFeature {
  OsAvx, OsAvx512, Fma, F16c, Avx2, Bmi, Bmi2, Avx512F, Avx512Dq, Avx512Bw, Avx512Vl, Avx512Fp16, AsimdHp,
  Avx512Bf16, Count
};

struct CpuFeatureInfo {
  CpuFeature feature;
  const char* name;  // as /proc/cpuinfo spells it; "os_*" for OS state
  Arch arch;
  unsigned leaf, subleaf;  // CPUID leaf and subleaf (x86)
  char reg;                // 'a' 'b' 'c' 'd': CPUID's eax..edx; 'x': XCR0 (via xgetbv); 'h': AT_HWCAP (AArch64)
  std::uint32_t bits;      // all of these bits set
};
inline constexpr CpuFeatureInfo kCpuFeatureInfo[] = {
    // XCR0: the OS saves the YMM state (bits 1, 2), and also the opmask and ZMM state (5, 6, 7).
    {CpuFeature::OsAvx, "os_avx", Arch::X86_64, 0, 0, 'x', 0x06},
    {CpuFeature::OsAvx512, "os_avx512", Arch::X86_64, 0, 0, 'x', 0xE6},
    {CpuFeature::Fma, "fma", Arch::X86_64, 1, 0, 'c', 1u << 12},
    // the f16 <-> f32 conversions (vcvtph2ps, vcvtps2ph) of the 16-bit float forms
    {CpuFeature::F16c, "f16c", Arch::X86_64, 1, 0, 'c', 1u << 29},
    {CpuFeature::Avx2, "avx2", Arch::X86_64, 7, 0, 'b', 1u << 5},
    {CpuFeature::Bmi, "bmi1", Arch::X86_64, 7, 0, 'b', 1u << 3},
    {CpuFeature::Bmi2, "bmi2", Arch::X86_64, 7, 0, 'b', 1u << 8},
    {CpuFeature::Avx512F, "avx512f", Arch::X86_64, 7, 0, 'b', 1u << 16},
    {CpuFeature::Avx512Dq, "avx512dq", Arch::X86_64, 7, 0, 'b', 1u << 17},
    {CpuFeature::Avx512Bw, "avx512bw", Arch::X86_64, 7, 0, 'b', 1u << 30},
    {CpuFeature::Avx512Vl, "avx512vl", Arch::X86_64, 7, 0, 'b', 1u << 31},
    // native f16 arithmetic (Sapphire Rapids and later; AMD Zen 4 lacks it)
    {CpuFeature::Avx512Fp16, "avx512_fp16", Arch::X86_64, 7, 0, 'd', 1u << 23},
    // Advanced SIMD half-precision arithmetic (Armv8.2 FEAT_FP16; HWCAP_ASIMDHP)
    {CpuFeature::AsimdHp, "asimdhp", Arch::AArch64, 0, 0, 'h', 1u << 10},
    // the f32 -> bf16 conversion vcvtneps2bf16 (Cooper Lake, Sapphire Rapids and later, AMD Zen 4 and later)
    {CpuFeature::Avx512Bf16, "avx512_bf16", Arch::X86_64, 7, 1, 'a', 1u << 5},
};

inline constexpr std::uint32_t feature_bit(CpuFeature f) { return 1u << static_cast<unsigned>(f); }
template <typename... F>
inline constexpr std::uint32_t features(F... f) {
  return (0u | ... | feature_bit(f));
}

// --- ISAs ----------------------------------------------------------------------

// The rows of kIsaInfo; the enumerators are indices, not an order.
enum class Isa { Scalar, Avx2, Avx512, Avx512Fp16, Neon, NeonFp16, Avx512Bf16 };

inline constexpr std::uint32_t isa_bit(Isa isa) { return 1u << static_cast<unsigned>(isa); }
template <typename... I>
inline constexpr std::uint32_t isas(I... i) {
  return (0u | ... | isa_bit(i));
}

// Target attributes, as macros because the SIMD headers' wrappers need them
// as string literals in their own attributes (bcastgen/simd/<isa>.h).
#define BCASTGEN_TARGET_AVX2 "avx2,fma,f16c,bmi,bmi2"
#define BCASTGEN_TARGET_AVX512 "avx512f,avx512bw,avx512dq,avx512vl,f16c,bmi,bmi2"
#define BCASTGEN_TARGET_AVX512BF16 "avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,f16c,bmi,bmi2"
#define BCASTGEN_TARGET_AVX512FP16 "avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,avx512fp16,f16c,bmi,bmi2"
#define BCASTGEN_TARGET_NEONFP16 "arch=armv8.2-a+fp16"

struct IsaInfo {
  Isa isa;
  const char* name;        // "avx512": the CLI, specs, BCASTGEN_ISA, variant symbols
  const char* enumerator;  // "Avx512": how generated code names it (bcastgen::Isa::Avx512)
  Arch arch;               // its variants compile only for this architecture
  const char* target;      // GNU target attribute of its variants ("" for none)
  const char* header;      // its SIMD wrappers (bcastgen/simd/<name>.h, namespace bcastgen::simd::<name>); "" for none
  std::uint32_t features;  // CpuFeature bits the CPU and OS must have
  std::uint32_t implies;   // Isa bits: the ISAs whose variants this one also runs (transitively closed)
  int vector_bytes;        // register width; 0: no vectors
  int vector_registers;    // architectural vector registers (the planner's budget for held rows)
  bool mask_tail;          // a partial vector by constant lane masks (else unrolled scalars)
  const char* nt_fence;    // the fence after non-temporal stores ("" when it has none)
  const char* families;    // intrinsic families its variants may call (bcastgen inspect), comma-separated
  // A preprocessor condition on the compiler, beside the architecture's
  // guard ("" for none): GCC 12 declares the AVX512-FP16 intrinsics for a
  // target attribute, Clang 14 only when the whole file is built with
  // -mavx512fp16 (its immintrin.h tests __AVX512FP16__).
  const char* compiler;
};
inline constexpr IsaInfo kIsaInfo[] = {
    {Isa::Scalar, "scalar", "Scalar", Arch::Any, "", "", 0, 0, 0, 0, false, "", "", ""},
    {Isa::Avx2, "avx2", "Avx2", Arch::X86_64, BCASTGEN_TARGET_AVX2, "bcastgen/simd/avx2.h",
     features(CpuFeature::OsAvx, CpuFeature::Avx2, CpuFeature::Fma, CpuFeature::F16c, CpuFeature::Bmi,
              CpuFeature::Bmi2),
     isas(Isa::Scalar), 32, 16, false, "_mm_sfence()", "avx2,sse,bmi", ""},
    {Isa::Avx512, "avx512", "Avx512", Arch::X86_64, BCASTGEN_TARGET_AVX512, "bcastgen/simd/avx512.h",
     features(CpuFeature::OsAvx, CpuFeature::OsAvx512, CpuFeature::Avx2, CpuFeature::Fma, CpuFeature::F16c,
              CpuFeature::Bmi, CpuFeature::Bmi2, CpuFeature::Avx512F, CpuFeature::Avx512Dq, CpuFeature::Avx512Bw,
              CpuFeature::Avx512Vl),
     isas(Isa::Scalar, Isa::Avx2), 64, 32, true, "_mm_sfence()", "avx512,avx2,sse,bmi", ""},
    {Isa::Avx512Fp16, "avx512fp16", "Avx512Fp16", Arch::X86_64, BCASTGEN_TARGET_AVX512FP16,
     "bcastgen/simd/avx512fp16.h",
     features(CpuFeature::OsAvx, CpuFeature::OsAvx512, CpuFeature::Avx2, CpuFeature::Fma, CpuFeature::F16c,
              CpuFeature::Bmi, CpuFeature::Bmi2, CpuFeature::Avx512F, CpuFeature::Avx512Dq, CpuFeature::Avx512Bw,
              CpuFeature::Avx512Vl, CpuFeature::Avx512Bf16, CpuFeature::Avx512Fp16),
     isas(Isa::Scalar, Isa::Avx2, Isa::Avx512, Isa::Avx512Bf16), 64, 32, true, "_mm_sfence()", "avx512,avx2,sse,bmi",
     "(!defined(__clang__) && __GNUC__ >= 12) || defined(__AVX512FP16__)"},
    // AArch64 Advanced SIMD: in every AArch64 CPU, so no feature to detect and
    // no target attribute. No masked loads or stores (unrolled scalar tails)
    // and no streaming store worth a fence (stnp is only a hint).
    {Isa::Neon, "neon", "Neon", Arch::AArch64, "", "bcastgen/simd/neon.h", 0, isas(Isa::Scalar), 16, 32, false, "", "neon",
     ""},
    // NEON with native f16 arithmetic (8 lanes). GCC only: it declares the
    // intrinsics for this target attribute, whose syntax Clang 14 rejects
    // (a Clang build runs f16 kernels on the neon row, as f32 lanes).
    {Isa::NeonFp16, "neonfp16", "NeonFp16", Arch::AArch64, BCASTGEN_TARGET_NEONFP16, "bcastgen/simd/neonfp16.h",
     features(CpuFeature::AsimdHp), isas(Isa::Scalar, Isa::Neon), 16, 32, false, "", "neon",
     "!defined(__clang__) && __GNUC__ >= 10"},
    // AVX-512 whose bf16 stores round with vcvtneps2bf16 (AVX512-BF16), one
    // instruction for AVX-512's eight. Every CPU with AVX512-FP16 has it too
    // (Sapphire Rapids and later), so avx512fp16 implies it: a bf16 kernel
    // with no f16 node runs this variant there.
    {Isa::Avx512Bf16, "avx512bf16", "Avx512Bf16", Arch::X86_64, BCASTGEN_TARGET_AVX512BF16,
     "bcastgen/simd/avx512bf16.h",
     features(CpuFeature::OsAvx, CpuFeature::OsAvx512, CpuFeature::Avx2, CpuFeature::Fma, CpuFeature::F16c,
              CpuFeature::Bmi, CpuFeature::Bmi2, CpuFeature::Avx512F, CpuFeature::Avx512Dq, CpuFeature::Avx512Bw,
              CpuFeature::Avx512Vl, CpuFeature::Avx512Bf16),
     isas(Isa::Scalar, Isa::Avx2, Isa::Avx512), 64, 32, true, "_mm_sfence()", "avx512,avx2,sse,bmi", ""},
};

inline constexpr std::size_t kIsaCount = std::size(kIsaInfo);
inline constexpr const IsaInfo& isa_info(Isa isa) { return kIsaInfo[static_cast<std::size_t>(isa)]; }

// The `#if` condition under which code of `isa` compiles: its architecture's
// guard and its compiler condition ("" when it compiles everywhere).
inline std::string isa_guard(Isa isa) {
  const IsaInfo& r = isa_info(isa);
  const std::string arch = arch_info(r.arch).guard, compiler = r.compiler;
  if (compiler.empty() || arch.empty()) return arch.empty() ? compiler : arch;
  return "(" + arch + ") && (" + compiler + ")";
}

// Every Isa, in table order (for iteration).
inline constexpr std::array<Isa, kIsaCount> kAllIsas = [] {
  std::array<Isa, kIsaCount> all{};
  for (std::size_t i = 0; i < kIsaCount; ++i) all[i] = kIsaInfo[i].isa;
  return all;
}();

namespace detail {
inline constexpr bool isa_table_consistent() {
  if (std::size(kCpuFeatureInfo) != static_cast<std::size_t>(CpuFeature::Count)) return false;
  for (std::size_t i = 0; i < std::size(kCpuFeatureInfo); ++i) {
    if (static_cast<std::size_t>(kCpuFeatureInfo[i].feature) != i) return false;
  }
  for (std::size_t i = 0; i < kIsaCount; ++i) {
    const IsaInfo& r = kIsaInfo[i];
    if (static_cast<std::size_t>(r.isa) != i) return false;
    if (r.implies & isa_bit(r.isa)) return false;  // an ISA does not list itself
    for (std::size_t j = 0; j < kIsaCount; ++j) {
      if (!(r.implies & (1u << j))) continue;
      const IsaInfo& implied = kIsaInfo[j];
      // Transitively closed, needs what the implied ISA needs, and runs on the same architecture.
      if ((implied.implies & ~r.implies) != 0) return false;
      if ((implied.features & ~r.features) != 0) return false;
      if (implied.arch != Arch::Any && implied.arch != r.arch) return false;
    }
  }
  return true;
}
}  // namespace detail
static_assert(detail::isa_table_consistent(),
              "kIsaInfo: one row per Isa in enum order; `implies` transitively closed and its features included");

// "?" for a value that is no row (a cast integer), where generated dispatch names what it got.
inline const char* isa_name(Isa isa) {
  return static_cast<std::size_t>(isa) < kIsaCount ? isa_info(isa).name : "?";
}
inline const char* isa_enumerator(Isa isa) { return isa_info(isa).enumerator; }

// Whether a CPU that has `have` runs code built for `want`: the same ISA or one it implies.
inline constexpr bool isa_includes(Isa have, Isa want) {
  return have == want || (isa_info(have).implies & isa_bit(want)) != 0;
}

// How many ISAs `isa` implies: the more, the more specific (the better) it is.
inline constexpr int isa_rank(Isa isa) {
  int n = 0;
  for (std::uint32_t b = isa_info(isa).implies; b != 0; b &= b - 1) ++n;
  return n;
}

// Exact lowercase names, as kIsaInfo spells them.
inline bool parse_isa(std::string_view s, Isa* out) {
  for (const IsaInfo& r : kIsaInfo) {
    if (s == r.name) {
      *out = r.isa;
      return true;
    }
  }
  return false;
}

// Orders ISAs most specific first (isa_rank), keeping the order of equals:
// the order generated dispatch tries variants in, and messages list names in.
inline void sort_most_specific_first(std::vector<Isa>* isas) {
  std::stable_sort(isas->begin(), isas->end(), [](Isa x, Isa y) { return isa_rank(x) > isa_rank(y); });
}

// "avx512, avx2, scalar": every ISA name, most specific first (for messages).
inline std::string isa_names(const char* separator = ", ") {
  std::vector<Isa> all(kAllIsas.begin(), kAllIsas.end());
  sort_most_specific_first(&all);
  std::string s;
  for (Isa isa : all) s += (s.empty() ? "" : separator) + std::string(isa_name(isa));
  return s;
}

// Every ISA name, in table order.
inline std::vector<std::string> isa_name_list() {
  std::vector<std::string> names;
  for (const IsaInfo& r : kIsaInfo) names.emplace_back(r.name);
  return names;
}

namespace detail {
inline std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start < s.size();) {
    const std::size_t end = std::min(s.find(',', start), s.size());
    parts.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}
}  // namespace detail

// The features of an ISA's target attribute: {"avx2", "fma", "bmi", "bmi2"}.
inline std::vector<std::string> isa_target_features(Isa isa) { return detail::split_commas(isa_info(isa).target); }
// The intrinsic families its variants may call: {"avx2", "sse", "bmi"}.
inline std::vector<std::string> isa_families(Isa isa) { return detail::split_commas(isa_info(isa).families); }

// --- Detection -----------------------------------------------------------------

namespace detail {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
inline std::uint32_t cpuid_reg(unsigned leaf, unsigned subleaf, char reg) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (reg == 'x') {
    // XCR0 is readable only when the OS has set OSXSAVE (CPUID.1:ECX bit 27).
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return lo;
  }
  // (__get_cpuid_count returns 0 for a leaf above the CPU's maximum.)
  if (!__get_cpuid_count(leaf, subleaf, &a, &b, &c, &d)) return 0;
  return reg == 'a' ? a : reg == 'b' ? b : reg == 'c' ? c : d;
}
#endif

// The CpuFeature bits of this CPU and OS, read once.
inline std::uint32_t host_features() {
  static const std::uint32_t kFeatures = [] {
    std::uint32_t have = 0;
    for (const CpuFeatureInfo& f : kCpuFeatureInfo) {
      if (f.arch != kHostArch) continue;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
      if ((cpuid_reg(f.leaf, f.subleaf, f.reg) & f.bits) == f.bits) have |= feature_bit(f.feature);
#elif defined(__aarch64__) && defined(__linux__)
      if (f.reg == 'h' && (getauxval(AT_HWCAP) & f.bits) == f.bits) have |= feature_bit(f.feature);
#endif
    }
    return have;
  }();
  return kFeatures;
}

}  // namespace detail

// Whether this CPU (and OS) can run kernels compiled for `isa`: the
// architecture matches and every feature of its row is present.
inline bool cpu_supports(Isa isa) {
  const IsaInfo& r = isa_info(isa);
  if (r.arch != Arch::Any && r.arch != kHostArch) return false;
  return (detail::host_features() & r.features) == r.features;
}

// The most specific ISA this CPU supports; computed once (thread-safe static).
inline Isa detected_isa() {
  static const Isa kDetected = [] {
    Isa best = Isa::Scalar;
    for (const IsaInfo& r : kIsaInfo) {
      if (cpu_supports(r.isa) && isa_rank(r.isa) > isa_rank(best)) best = r.isa;
    }
    return best;
  }();
  return kDetected;
}

namespace detail {

// -1: nothing forced, else static_cast<int>(Isa).
inline std::atomic<int>& forced_isa_state() {
  static std::atomic<int> state{-1};
  return state;
}

struct IsaEnv {
  bool set = false;    // BCASTGEN_ISA present and non-empty
  bool valid = false;  // ... and one of the ISA names
  Isa isa = Isa::Scalar;
  std::string text;
};

// BCASTGEN_ISA, read on first use only.
inline const IsaEnv& isa_env() {
  static const IsaEnv kEnv = [] {
    IsaEnv e;
    const char* v = std::getenv("BCASTGEN_ISA");
    if (v != nullptr && *v != '\0') {
      e.set = true;
      e.text = v;
      e.valid = parse_isa(e.text, &e.isa);
    }
    return e;
  }();
  return kEnv;
}

inline Isa require_supported(Isa isa, const char* source) {
  if (!cpu_supports(isa)) {
    throw InvalidArgument(std::string(source) + " asks for ISA '" + isa_name(isa) +
                          "', which this CPU does not support (best supported: " + isa_name(detected_isa()) + ")");
  }
  return isa;
}

}  // namespace detail

// Forces active_isa() to `isa` until clear_forced_isa(). Not checked here:
// active_isa() throws if the CPU lacks it.
inline void force_isa(Isa isa) { detail::forced_isa_state().store(static_cast<int>(isa)); }

inline void clear_forced_isa() { detail::forced_isa_state().store(-1); }

// The ISA whose kernel variant to run: forced (force_isa, then BCASTGEN_ISA)
// or detected. Throws InvalidArgument if the forced ISA is not supported by
// this CPU or BCASTGEN_ISA holds an unknown name.
inline Isa active_isa() {
  const int forced = detail::forced_isa_state().load();
  if (forced >= 0) return detail::require_supported(static_cast<Isa>(forced), "force_isa()");
  const detail::IsaEnv& env = detail::isa_env();
  if (env.set) {
    if (!env.valid) {
      throw InvalidArgument("BCASTGEN_ISA='" + env.text + "' is not an ISA; use one of " + isa_names());
    }
    return detail::require_supported(env.isa, "BCASTGEN_ISA");
  }
  return detected_isa();
}

}  // namespace bcastgen
