// Wisdom files: the plan facts `bcastgen tune` measured per kernel on one
// machine (the order of a main-loop step's loads and stores, the unroll,
// whether rows are peeled to the output's lines, and the variant that CPUs
// with wider vectors run too), which `bcastgen generate --wisdom FILE`
// plans with in place of the CPU kind's row. The
// timing happens once, in `tune`; generation reads the file, so the same
// spec and file give the same code on every machine.
//
// The file is JSON:
//   {"format": "bcastgen wisdom 1", "cpu": "zen4",
//    "machine": "AuthenticAMD family 25 model 17", "spec": "model.yaml",
//    "kernels": {"bias_add": {"fingerprint": "0123456789abcdef",
//                             "interleave": true, "unroll": 4, "isa": "avx2", "peel": false,
//                             "measured": "interleaved x4 1210 ns; ..."}}}
// "fingerprint" identifies what the kernel computes and over which shapes
// (kernel_fingerprint); an entry without one (written by hand, to pin a
// kernel's plan) applies whatever they are. A kernel changed since it was
// tuned is an error, as is an entry for a kernel the spec lacks, a file
// tuned for another CPU kind than the one the spec plans for, or an "isa"
// the spec does not generate. Without "isa", every ISA keeps its variant;
// without "peel" (tune writes it where the kernel's plan can peel), the
// kind's peel_rows holds. Kernels without an entry keep the kind's facts.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "bcastgen/cpu_kinds.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"

namespace bcastgen::gen {

inline constexpr const char* kWisdomFormat = "bcastgen wisdom 1";

struct WisdomEntry {
  std::string fingerprint;  // "" for none (a pinned entry)
  KernelTuning tuning;
};

struct Wisdom {
  CpuKind cpu = CpuKind::Generic;  // the kind the kernels were planned for when tuned
  std::string machine;             // the CPUID identity they were timed on (informative)
  std::string spec;                // the spec's file name (informative)
  std::map<std::string, WisdomEntry> kernels;
};

// Parses a wisdom file; `file` names it in errors. Throws InvalidArgument
// ("FILE: kernels.bias_add.unroll: 3 is not 1, 2 or 4").
Wisdom parse_wisdom(std::string_view text, const std::string& file);

// The file's text (2-space JSON, keys sorted, a final newline).
std::string wisdom_text(const Wisdom& wisdom);

// 16 hex digits of a hash of what the kernel computes: its plan's manifest
// entry without the CPU kind and the ISA plans (its name, expression,
// inputs, shapes, dtypes, rule and loops).
std::string kernel_fingerprint(const KernelPlan& plan);

// kernel_fingerprint of each kernel of the spec (by name), planned as
// generate() plans it without tuning.
std::map<std::string, std::string> kernel_fingerprints(const CheckedSpec& spec);

// Checks `wisdom` against the spec (its CPU kind, its kernels, their
// fingerprints: `file` names it in errors, thrown as InvalidArgument) and
// returns the tuning of each kernel it has an entry for. "wisdom FILE"
// becomes each tuning's source.
std::map<std::string, KernelTuning> wisdom_for_spec(const Wisdom& wisdom, const CheckedSpec& spec,
                                                    const std::string& file);

}  // namespace bcastgen::gen
