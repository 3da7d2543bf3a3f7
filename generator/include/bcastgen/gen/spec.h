// The kernel spec: which kernels to generate, for which fixed shapes.
// Parsed from YAML (JSON works too, being YAML), or built in memory by an
// embedding AOT compiler.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/rules.h"
#include "bcastgen/types.h"

namespace bcastgen::gen {

struct SourcePos {
  int line = 0, column = 0;  // 1-based; 0 when built in memory
};

struct KernelSpec {
  std::string name;
  Op op = Op::Add;
  DType dtype = DType::F32;
  Rule rule = Rule::Numpy;                      // binary ops
  BroadcastMode mode = BroadcastMode::Numpy;    // op == Broadcast
  std::int64_t axis = -1;                       // pdpd
  std::vector<std::int64_t> axes_mapping;       // explicit
  Shape a, b;                                   // for Broadcast: a is the input, b the target
  SourcePos pos;
};

struct Spec {
  std::string ns = "bcastgen_kernels";
  std::vector<Isa> isas;  // best first
  std::vector<KernelSpec> kernels;
  // Outputs at least this large use non-temporal (streaming) stores.
  std::int64_t stream_threshold_bytes = 40 << 20;  // footprint (a + b + out bytes) that streams
  // Largest output element count accepted for one kernel.
  std::int64_t max_elements = std::int64_t{1} << 40;
};

// One problem found in a spec: where, which kernel, what.
struct Diagnostic {
  std::string file;
  SourcePos pos;
  std::string kernel;  // empty for spec-level problems
  std::string message;
  bool rule_failure = false;  // shapes that do not broadcast (exit 1) vs bad input (exit 2)
  std::string text() const;   // "file:line:col: kernel 'k': message"
};

// All the problems of a spec at once.
class SpecError : public Error {
 public:
  explicit SpecError(std::vector<Diagnostic> diags);
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  bool only_rule_failures() const;

 private:
  std::vector<Diagnostic> diags_;
};

// The ISAs generated when a spec names none: all bcastgen supports here.
std::vector<Isa> default_isas();

// Parses spec text; `file` names it in diagnostics. Throws SpecError with
// every problem found, after checking each kernel's shapes with the rules.
Spec parse_spec(std::string_view text, const std::string& file);

// Checks an in-memory spec the same way (names, dtypes, shapes, limits).
void validate_spec(const Spec& spec, const std::string& file = "<spec>");

// True for a valid C++ identifier that is not a keyword.
bool is_cpp_identifier(std::string_view s);

}  // namespace bcastgen::gen
