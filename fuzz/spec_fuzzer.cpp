// Fuzz target: the spec parser (gen::parse_spec) and, for the specs it
// accepts, generation. Invariants:
//   - parse_spec either returns a spec or throws SpecError with at least one
//     diagnostic, each naming the file, with a message and a sane position;
//     nothing else escapes (no yaml-cpp exception, no crash, no UB);
//   - an accepted spec passes validate_spec, and gen::generate succeeds on
//     it (what the parser accepts, the generator can emit), giving one plan
//     per kernel and the header and source files; but for a kernel named
//     like the output's table (fuzz_kernels), which only generate can see;
//   - so is the same spec with its kernels named like SIMD wrappers.
#include <exception>
#include <string>
#include <vector>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/spec.h"
#include "fuzz_common.h"

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  using namespace bcastgen::gen;
  if (size > 16384) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Spec spec;
  try {
    spec = parse_spec(text, "fuzz.yaml");
  } catch (const SpecError& e) {
    FUZZ_CHECK(!e.diagnostics().empty(), "SpecError without diagnostics");
    for (const Diagnostic& d : e.diagnostics()) {
      FUZZ_CHECK(d.file == "fuzz.yaml", d.text());
      FUZZ_CHECK(!d.message.empty(), d.text());
      FUZZ_CHECK(d.pos.line >= 0 && d.pos.column >= 0, d.text());
      FUZZ_CHECK(d.pos.line <= static_cast<int>(size) + 2, d.text());
    }
    return 0;
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("parse_spec threw something else than SpecError: ") + e.what());
  }
  FUZZ_CHECK(!spec.kernels.empty(), "an accepted spec without kernels");
  try {
    validate_spec(spec, "fuzz.yaml");
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("parse_spec accepted what validate_spec rejects: ") + e.what());
  }
  if (spec.kernels.size() > 32) return 0;  // keep each run fast
  try {
    GenerateOptions options;
    options.stem = "fuzz";
    const GeneratedFiles g = generate(spec, options);
    FUZZ_CHECK(g.plans.size() == spec.kernels.size(), "one plan per kernel");
    FUZZ_CHECK(g.files.count("fuzz.h") && g.files.count("fuzz.cpp"), "header and source");
    // The same kernels named like SIMD wrappers (picked by the input's
    // length): accepted and emitted alike, as the wrappers are called
    // through their alias.
    const std::vector<std::string>& wrappers = bcastgen::fuzz::wrapper_names();
    Spec renamed = spec;
    for (std::size_t i = 0; i < renamed.kernels.size(); ++i) {
      renamed.kernels[i].name = wrappers[(size + i * 7919) % wrappers.size()];
    }
    validate_spec(renamed, "fuzz.yaml");
    FUZZ_CHECK(generate(renamed, options).plans.size() == spec.kernels.size(), "one plan per renamed kernel");
  } catch (const SpecError& e) {
    // The one name the spec cannot check: the kernel table's, the output's stem + _kernels.
    for (const Diagnostic& d : e.diagnostics()) {
      FUZZ_CHECK(d.kernel == "fuzz_kernels" && d.message.find("kernel table function") != std::string::npos,
                 std::string("parse_spec accepted a spec that generate rejects: ") + d.text());
    }
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("parse_spec accepted a spec that generate rejects: ") + e.what());
  }
  return 0;
}
