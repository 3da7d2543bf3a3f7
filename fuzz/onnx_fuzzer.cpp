// Fuzz target: the ONNX model reader (onnx_import::import_model). Inputs are
// (mutated) serialized ModelProtos. Invariants:
//   - import_model returns or throws ImportError; nothing else escapes (no
//     protobuf or ONNX exception, no crash, no UB in bcastgen's code);
//   - what it returns is a valid spec: check_spec accepts it, its YAML
//     parses back to as many kernels, and the map is JSON with one entry
//     per node between its kernels and not_covered.
#include <exception>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bcastgen/gen/spec.h"
#include "bcastgen/onnx/import.h"
#include "fuzz_common.h"

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  using namespace bcastgen;
  if (size > 65536) return 0;
  onnx_import::ImportedModel m;
  try {
    m = onnx_import::import_model(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx", {});
  } catch (const onnx_import::ImportError& e) {
    FUZZ_CHECK(std::string(e.what()).size() > 0, "empty message");
    return 0;
  }
  if (m.spec.kernels.empty()) return 0;
  try {
    gen::check_spec(m.spec, "fuzz.yaml");
    const gen::CheckedSpec back = gen::parse_checked_spec(m.spec_yaml, "fuzz.yaml");
    FUZZ_CHECK(back.spec().kernels.size() == m.spec.kernels.size(), m.spec_yaml);
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("the imported spec is not valid: ") + e.what() + "\n" + m.spec_yaml);
  }
  const auto map = nlohmann::json::parse(m.map_json, nullptr, false);
  FUZZ_CHECK(!map.is_discarded(), "the map is not JSON");
  return 0;
}
