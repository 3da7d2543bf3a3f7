// The kernel spec: which kernels to generate, for which fixed shapes.
// Parsed from YAML (JSON works too, being YAML), or built in memory by an
// embedding AOT compiler.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/cpu_kinds.h"
#include "bcastgen/expr.h"
#include "bcastgen/rules.h"
#include "bcastgen/types.h"

namespace bcastgen::gen {

struct SourcePos {
  int line = 0, column = 0;  // 1-based; 0 when built in memory
};

// One input of a kernel: a named, typed tensor of a fixed shape.
struct InputSpec {
  std::string name;  // a C++ identifier; the generated function's parameter name
  Shape shape;
  DType dtype = DType::F32;
  SourcePos pos;
};

// A kernel: N inputs (in parameter order), an expression DAG over them
// whose root is the one output, and how the inputs broadcast. A spec's
// `op: add` with `a`/`b` is the DAG add(a, b) over inputs a and b; the
// Broadcast op (`op: broadcast`) is the DAG `in` over one input, copied to
// `target` under `mode` (to_target).
struct KernelSpec {
  std::string name;
  std::vector<InputSpec> inputs;
  ExprDag expr;
  std::string expr_text;                        // as written, or the canonical form of an `op:` kernel
  Rule rule = Rule::Numpy;                      // elementwise kernels
  std::int64_t axis = -1;                       // pdpd, paddle, and mode pdpd
  bool to_target = false;                       // the Broadcast op
  BroadcastMode mode = BroadcastMode::Numpy;    // to_target
  Shape target;                                 // to_target
  std::vector<std::int64_t> axes_mapping;       // mode explicit
  // `compute: f32`: f16/bf16 intermediates stay in f32 and the output is
  // rounded once (compute_in_f32, applied by the planner); by default every
  // node is rounded to its dtype.
  bool compute_f32 = false;
  SourcePos pos;

  DType out_dtype() const { return expr.nodes.empty() ? DType::F32 : expr.nodes[expr.root].dtype; }
};

// The `compute` choices of a kernel (spec `compute:`, `--compute`): "dtype",
// every node rounded to its own dtype (the default), or "f32". False for
// another word.
bool parse_compute(std::string_view s, bool* compute_f32);
inline constexpr const char* kComputeChoices = "dtype, f32";

// The accuracy tier of a kernel's math functions (spec `accuracy:`,
// `--accuracy`): "exact", each function within its own bound (the default),
// or "fast", each function with a fast-tier form (fast_function, expr.h)
// computed by it, within 4 ulp. False for another word.
bool parse_accuracy(std::string_view s, bool* fast);
inline constexpr const char* kAccuracyChoices = "exact, fast";
// Maps every function node with a fast-tier form to that form.
void use_fast_tier(ExprDag& dag);
// The functions with a fast-tier form, from kUnaryInfo: "sigmoid, silu, ...".
std::string fast_tier_functions();

// The kernel of one binary op on inputs `a` and `b` (an `op:` kernel).
KernelSpec binary_kernel(std::string name, Op op, DType dtype, Rule rule, Shape a, Shape b, std::int64_t axis = -1);
// The Broadcast op: input `in` materialized at `target`.
KernelSpec broadcast_kernel(std::string name, DType dtype, BroadcastMode mode, Shape in, Shape target,
                            std::int64_t axis = -1, std::vector<std::int64_t> axes_mapping = {});
// The op of a kernel that is one op: Broadcast for to_target, the op of a
// DAG that is one binary op on inputs 0 and 1; nullopt for other DAGs.
std::optional<Op> single_op(const KernelSpec& k);

// The output shape and each input's strides aligned to it (the rule engine
// on the kernel's inputs); throws as broadcast_inputs / broadcast_to.
BroadcastInputs broadcast_kernel_inputs(const KernelSpec& k);

struct Spec {
  std::string ns = "bcastgen_kernels";
  std::vector<Isa> isas;  // best first
  // The CPU kind the plans are made for (its tuning facts, cpu_kinds.h).
  CpuKind cpu = CpuKind::Generic;
  std::vector<KernelSpec> kernels;
  // Kernels whose footprint (every input's and out's bytes, once) is at
  // least this stream their stores; unset: the CPU kind's facts
  // (CpuKindInfo::stream_bytes and stream_reading_bytes).
  std::optional<std::int64_t> stream_threshold_bytes;
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

// The ISAs generated when a spec names none: every row of the ISA table,
// most specific first (sort_most_specific_first, cpu.h).
std::vector<Isa> default_isas();

// Parses spec text; `file` names it in diagnostics. Throws SpecError with
// every problem found, after checking each kernel's shapes with the rules.
Spec parse_spec(std::string_view text, const std::string& file);

// Checks an in-memory spec the same way (names, dtypes, shapes, limits);
// returns each kernel's broadcast shapes, from one run of the rules.
std::vector<BroadcastInputs> validate_spec(const Spec& spec, const std::string& file = "<spec>");

// A spec that passed every check, with each kernel's broadcast shapes from
// that one run of the rules: generate() plans from them without running the
// rules again. Only check_spec and parse_checked_spec make one, so the
// shapes belong to the spec; the settings that leave every shape as it is
// may still change, each checked as the spec's own.
class CheckedSpec {
 public:
  const Spec& spec() const { return spec_; }
  const std::vector<BroadcastInputs>& shapes() const { return shapes_; }  // per kernel

  void set_isas(std::vector<Isa> isas) { spec_.isas = std::move(isas); }
  void set_cpu(CpuKind cpu) { spec_.cpu = cpu; }
  void set_namespace(const std::string& ns);                  // InvalidArgument unless a C++ namespace
  void set_stream_threshold_bytes(std::int64_t bytes);        // InvalidArgument below 0

 private:
  CheckedSpec(Spec spec, std::vector<BroadcastInputs> shapes) : spec_(std::move(spec)), shapes_(std::move(shapes)) {}
  friend CheckedSpec check_spec(Spec spec, const std::string& file);
  friend CheckedSpec parse_checked_spec(std::string_view text, const std::string& file);
  Spec spec_;
  std::vector<BroadcastInputs> shapes_;
};

// validate_spec and parse_spec, keeping the shapes with the spec.
CheckedSpec check_spec(Spec spec, const std::string& file = "<spec>");
CheckedSpec parse_checked_spec(std::string_view text, const std::string& file);

// True for a valid C++ identifier that is not a keyword.
bool is_cpp_identifier(std::string_view s);

// Why `ns` is not a C++ namespace ("a::b": every part an identifier): the
// offending part, quoted; "" when it is one.
std::string namespace_problem(const std::string& ns);

}  // namespace bcastgen::gen
