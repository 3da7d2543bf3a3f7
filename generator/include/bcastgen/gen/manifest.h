// <stem>.manifest.json: what an AOT compiler needs to know about the
// kernels of a generated file without parsing C++ (format in docs/guide/generated-code.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bcastgen/gen/plan.h"

namespace bcastgen::gen {

struct ManifestNames {
  std::string source;     // the spec file, as named in the banner
  std::string ns;         // C++ namespace
  std::string header, source_file, c_header;
  std::string c_prefix;   // prefix of the C entry points
  // A sharded output: its shard files, and per kernel the one that defines
  // it (both empty: one file).
  std::vector<std::string> shard_files, kernel_sources;
};

// One kernel's plan as JSON: its inputs, expression DAG, loop nest (one
// stride per input and the output), input classes and per-ISA decisions.
// The one serializer of a plan, shared by the manifest and `explain --json`.
nlohmann::json plan_json(const KernelPlan& plan);

// The manifest's text (docs/guide/generated-code.md), as JSON's dump(2)
// lays it out, with a final newline. `shares_code_with`: per kernel, the
// kernel whose variants it calls, or "" (GeneratedFiles::shares_code_with);
// empty: every kernel has its own.
std::string manifest_text(const std::vector<KernelPlan>& plans, const ManifestNames& names,
                          const std::vector<std::string>& shares_code_with = {});

}  // namespace bcastgen::gen
