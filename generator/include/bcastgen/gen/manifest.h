// <stem>.manifest.json: what an AOT compiler needs to know about the
// kernels of a generated file without parsing C++ (format in README.md).
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
};

nlohmann::json manifest_json(const std::vector<KernelPlan>& plans, const ManifestNames& names);

}  // namespace bcastgen::gen
