// Emission: a spec in, the generated files out, as strings. This is also
// the library entry point for AOT compilers that embed bcastgen: no files
// are read or written and no process is spawned.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"

namespace bcastgen::gen {

struct GenerateOptions {
  std::string stem = "kernels";       // output names: <stem>.h, <stem>.cpp
  std::string source_name = "<spec>"; // named in the banner (no absolute paths)
  bool emit_runtime = false;          // also return the runtime headers, under bcastgen/
  // Measured facts per kernel name (wisdom_for_spec, or tune's candidates),
  // and the wisdom file's name for the banner ("": none).
  std::map<std::string, KernelTuning> tuning;
  std::string wisdom_name;
};

struct GeneratedFiles {
  std::map<std::string, std::string> files;  // relative path -> content
  std::vector<KernelPlan> plans;
  // Per kernel: the earlier kernel whose variants it calls (the same code),
  // or "" for one with its own.
  std::vector<std::string> shares_code_with;
};

// Plans every kernel of a checked spec, from its shapes, and renders the files.
GeneratedFiles generate(const CheckedSpec& spec, const GenerateOptions& options);
// The same for an unchecked spec: check_spec first (throws SpecError).
GeneratedFiles generate(const Spec& spec, const GenerateOptions& options);

}  // namespace bcastgen::gen
