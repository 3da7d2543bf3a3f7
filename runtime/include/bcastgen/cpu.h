// bcastgen runtime: CPU feature detection and the choice of kernel variant.
//
// Generated kernels come in ISA variants; the dispatcher runs the one for
// active_isa(): the best ISA this CPU supports, unless a variant is forced
// (for tests and benchmarks) with force_isa() or, once per process, with the
// environment variable BCASTGEN_ISA=scalar|avx2|avx512. Precedence:
// force_isa() > BCASTGEN_ISA > detection. An empty BCASTGEN_ISA counts as
// unset. Header-only; the state lives in function-local statics.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include "bcastgen/errors.h"

namespace bcastgen {

// Ordered: a later ISA implies the earlier ones on the CPUs we target.
enum class Isa { Scalar, Avx2, Avx512 };

inline constexpr Isa kAllIsas[] = {Isa::Scalar, Isa::Avx2, Isa::Avx512};

// One row per ISA, in enum order: its names everywhere they are spelled.
struct IsaInfo {
  Isa isa;
  const char* name;        // "avx512": the CLI, specs, BCASTGEN_ISA, variant symbols
  const char* enumerator;  // "Avx512": how generated code names it (bcastgen::Isa::Avx512)
};
inline constexpr IsaInfo kIsaInfo[] = {
    {Isa::Scalar, "scalar", "Scalar"},
    {Isa::Avx2, "avx2", "Avx2"},
    {Isa::Avx512, "avx512", "Avx512"},
};

namespace detail {
inline constexpr bool isa_rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kIsaInfo); ++i) {
    if (kIsaInfo[i].isa != kAllIsas[i] || static_cast<std::size_t>(kAllIsas[i]) != i) return false;
  }
  return std::size(kIsaInfo) == std::size(kAllIsas);
}
}  // namespace detail
static_assert(detail::isa_rows_in_enum_order(), "kIsaInfo and kAllIsas must list every Isa once, in enum order");

inline const char* isa_name(Isa isa) { return kIsaInfo[static_cast<std::size_t>(isa)].name; }
inline const char* isa_enumerator(Isa isa) { return kIsaInfo[static_cast<std::size_t>(isa)].enumerator; }

// Exact lowercase names: "scalar", "avx2", "avx512".
inline bool parse_isa(std::string_view s, Isa* out) {
  for (Isa isa : kAllIsas) {
    if (s == isa_name(isa)) {
      *out = isa;
      return true;
    }
  }
  return false;
}

// Whether this CPU (and OS) can run kernels compiled for `isa`:
//   avx2   = AVX2 + FMA + BMI2
//   avx512 = AVX-512 F + BW + DQ + VL
// Only Scalar off x86-64.
inline bool cpu_supports(Isa isa) {
  switch (isa) {
    case Isa::Scalar: return true;
#if defined(__x86_64__) || defined(_M_X64)
    case Isa::Avx2:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    case Isa::Avx512:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    case Isa::Avx2:
    case Isa::Avx512: return false;
#endif
  }
  return false;
}

// The best ISA this CPU supports; computed once (thread-safe static).
inline Isa detected_isa() {
  static const Isa kDetected = [] {
    if (cpu_supports(Isa::Avx512)) return Isa::Avx512;
    if (cpu_supports(Isa::Avx2)) return Isa::Avx2;
    return Isa::Scalar;
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
      throw InvalidArgument("BCASTGEN_ISA='" + env.text + "' is not an ISA; use scalar, avx2 or avx512");
    }
    return detail::require_supported(env.isa, "BCASTGEN_ISA");
  }
  return detected_isa();
}

}  // namespace bcastgen
