// `bcastgen run`: one kernel for the shapes and dtype of .npy inputs,
// generated, compiled with a small driver by the system compiler, run, and
// its output written as .npy. With --check the output is also compared with
// the runtime reference and the kernel is timed.
//
// The kernel is compiled out of process, exactly as a user would compile
// generated code, so `run` exercises the real emitted source rather than an
// in-process stand-in.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "bcastgen/errors.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/npy.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/shape_parse.h"
#include "bcastgen/ops.h"
#include "bcastgen/reference.h"
#include "render.h"
#include "commands.h"
#include "process.h"

namespace bcastgen::cli {
namespace {

namespace fs = std::filesystem;

// Names inside the temporary directory.
constexpr const char* kNamespace = "bcastgen_run";
constexpr const char* kStem = "kernel";
constexpr const char* kDriverSource = "driver_main.cpp";
constexpr const char* kDriverExe = "driver";

struct RunArgs {
  std::string op, expr, rule = "numpy", mode = "numpy", target, axes_mapping, out, isa, compute = "dtype";
  std::string accuracy = "exact";
  std::string cpu = "generic";
  std::int64_t axis = -1;
  std::vector<std::string> inputs;
  bool check = false, keep_temp = false;
  // Kept to tell options given on the command line from their defaults.
  CLI::Option *rule_opt = nullptr, *mode_opt = nullptr, *target_opt = nullptr, *axes_opt = nullptr;
  CLI::Option *op_opt = nullptr, *expr_opt = nullptr;
};

// ---------------------------------------------------------------------------
// Command line -> spec

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (Op op : kAllOps) names.emplace_back(op_name(op));
  for (const OpAlias& a : kOpAliases) names.emplace_back(a.name);
  return names;
}

// One input of `run`: its name (--expr's NAME=FILE.npy; a, b or in for
// --op) and file.
struct NamedInput {
  std::string name, path;
};

// The three forms (--expr, a binary --op, --op broadcast) take different
// options; a stray one is refused rather than silently ignored.
std::vector<NamedInput> check_usage(const RunArgs& args, std::optional<Op> op) {
  if (args.op_opt->count() + args.expr_opt->count() != 1) {
    throw InvalidArgument("give exactly one of --op and --expr");
  }
  std::vector<NamedInput> named;
  if (!op) {
    for (const CLI::Option* o : {args.mode_opt, args.target_opt, args.axes_opt}) {
      if (o->count() > 0) throw InvalidArgument(o->get_name() + " is only used by --op broadcast");
    }
    for (const std::string& a : args.inputs) {
      const std::size_t eq = a.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw InvalidArgument("--expr takes its inputs as NAME=FILE.npy, got '" + a + "'");
      }
      named.push_back({a.substr(0, eq), a.substr(eq + 1)});
    }
    return named;
  }
  if (*op == Op::Broadcast) {
    if (args.inputs.size() != 1) throw InvalidArgument("--op broadcast takes one input .npy file");
    if (args.target_opt->count() == 0) throw InvalidArgument("--op broadcast needs --target");
    if (args.rule_opt->count() > 0) throw InvalidArgument("--rule is for binary ops; --op broadcast takes --mode");
    if (args.axes_opt->count() > 0 && args.mode != "explicit") {
      throw InvalidArgument("--axes-mapping is only used by --mode explicit");
    }
    return {{"in", args.inputs[0]}};
  }
  if (args.inputs.size() != 2) {
    throw InvalidArgument(std::string("--op ") + op_name(*op) + " takes two input .npy files");
  }
  for (const CLI::Option* o : {args.mode_opt, args.target_opt, args.axes_opt}) {
    if (o->count() > 0) throw InvalidArgument(o->get_name() + " is only used by --op broadcast");
  }
  return {{"a", args.inputs[0]}, {"b", args.inputs[1]}};
}

std::vector<gen::NpyArray> read_inputs(const std::vector<NamedInput>& named, std::optional<Op> op) {
  std::vector<gen::NpyArray> arrays;
  for (const NamedInput& n : named) arrays.push_back(gen::read_npy(n.path));
  // One binary op has one input dtype; no implicit promotion as NumPy would do.
  if (op && arrays.size() == 2 && arrays[0].dtype != arrays[1].dtype) {
    throw InvalidArgument("inputs have different dtypes: " + named[0].path + " is " + dtype_name(arrays[0].dtype) +
                          ", " + named[1].path + " is " + dtype_name(arrays[1].dtype) +
                          " (both inputs of a binary op need the same dtype; --expr with cast() mixes them)");
  }
  return arrays;
}

gen::KernelSpec make_kernel(const RunArgs& args, std::optional<Op> op, const std::vector<NamedInput>& named,
                            const std::vector<gen::NpyArray>& inputs) {
  Rule rule = Rule::Numpy;
  if (!parse_rule(args.rule, &rule)) throw InvalidArgument("unknown rule '" + args.rule + "'");
  if (op == Op::Broadcast) {
    BroadcastMode mode;
    if (!parse_mode(args.mode, &mode)) throw InvalidArgument("unknown broadcast mode '" + args.mode + "'");
    return gen::broadcast_kernel("run_broadcast", inputs[0].dtype, mode, inputs[0].shape,
                                 gen::parse_shape(args.target), args.axis,
                                 args.axes_mapping.empty() ? Shape{} : gen::parse_shape(args.axes_mapping));
  }
  if (op) {
    return gen::binary_kernel(std::string("run_") + op_name(*op), *op, inputs[0].dtype, rule, inputs[0].shape,
                              inputs[1].shape, args.axis);
  }
  gen::KernelSpec k;
  k.name = "run_expr";
  k.rule = rule;
  k.axis = args.axis;
  k.expr_text = args.expr;
  std::vector<gen::ExprInput> decl;
  for (std::size_t i = 0; i < named.size(); ++i) {
    k.inputs.push_back({named[i].name, inputs[i].shape, inputs[i].dtype, {}});
    decl.push_back({named[i].name, inputs[i].dtype});
  }
  k.expr = gen::parse_expr(args.expr, decl);  // ExprError: the column and a caret
  k.compute_f32 = args.compute == "f32";
  if (args.accuracy == "fast") gen::use_fast_tier(k.expr);
  return k;
}

// Checked like a parsed spec, so errors read (and exit) as `generate`'s do;
// the rules run once, here.
gen::CheckedSpec make_spec(const RunArgs& args, gen::KernelSpec kernel) {
  gen::Spec spec;
  spec.ns = kNamespace;
  spec.cpu = parse_cpu_option(args.cpu);
  spec.kernels.push_back(std::move(kernel));
  std::string where = "bcastgen run";
  for (const auto& p : args.inputs) where += " " + p;
  return gen::check_spec(std::move(spec), where);
}

std::optional<Isa> requested_isa(const RunArgs& args) {
  if (args.isa.empty()) return std::nullopt;
  Isa isa;
  if (!parse_isa(args.isa, &isa)) throw InvalidArgument("unknown ISA '" + args.isa + "'");
  // Checked here: the driver would only fail later, after a compile.
  if (!cpu_supports(isa)) {
    throw InvalidArgument(std::string("--isa ") + isa_name(isa) + ": this CPU does not support it (best: " +
                          isa_name(detected_isa()) + ")");
  }
  return isa;
}

// ---------------------------------------------------------------------------
// Files and processes

void write_bytes(const fs::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw gen::IoError("cannot write " + path.string());
}

std::vector<unsigned char> read_bytes(const fs::path& path) {
  const std::string s = gen::read_file(path.string());
  return std::vector<unsigned char>(s.begin(), s.end());
}

// ---------------------------------------------------------------------------
// The driver

// Arguments of the kernel entry points: each input cast from in[k], then out.
std::string call_args(const gen::KernelSpec& k, bool checked) {
  const std::string shape = std::string(kNamespace) + "::" + k.name + "_shape::";
  std::string s;
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    const std::string ptr =
        fmt::format("static_cast<const {}*>(in[{}])", dtype_info(k.inputs[i].dtype).cpp_type, i);
    s += checked ? fmt::format("{{{}, {}{}}}, ", ptr, shape, k.inputs[i].name) : ptr + ", ";
  }
  return s + (checked ? "{out, " + shape + "out}" : "out");
}

// The statement that runs the kernel: the _isa entry when an ISA is asked
// for, else the dispatching entry (checked or not).
std::string kernel_call(const gen::KernelSpec& k, std::optional<Isa> isa, bool checked) {
  const std::string fn = std::string(kNamespace) + "::" + k.name;
  if (isa) {
    return fn + "_isa(bcastgen::Isa::" + isa_enumerator(*isa) + ", " + call_args(k, false) + ");";
  }
  return fn + (checked ? "_checked(" : "(") + call_args(k, checked) + ");";
}


std::size_t byte_count(const Shape& shape, DType dtype) {
  return static_cast<std::size_t>(checked_numel(shape)) * static_cast<std::size_t>(dtype_size(dtype));
}

// The driver's source (templates/run_driver.cpp.mustache). Inputs and
// output are raw bytes in files, so it needs no .npy code; its only job is
// to call the generated kernel.
std::string driver_source(const gen::KernelPlan& plan, std::optional<Isa> isa) {
  const gen::KernelSpec& k = plan.spec;
  std::string bytes;
  for (const gen::InputSpec& in : k.inputs) {
    bytes += (bytes.empty() ? "" : ", ") + std::to_string(byte_count(in.shape, in.dtype));
  }
  gen::Values v;
  v.set("header", std::string(kStem) + ".h").set("out_type", dtype_info(plan.out_dtype).cpp_type);
  v.set("inputs", static_cast<std::int64_t>(k.inputs.size()));
  v.set("last", static_cast<std::int64_t>(k.inputs.size() - 1)).set("in_bytes", "{" + bytes + "}");
  v.set("out_bytes", std::to_string(byte_count(plan.shapes.out, plan.out_dtype)));
  // The checked entry validates the shapes once, so a driver bug shows as
  // an error rather than as a wrong result; timing uses the unchecked one.
  v.set("first_call", kernel_call(k, isa, true)).set("timed_call", kernel_call(k, isa, false));
  return gen::render("run_driver.cpp.mustache", v);
}

void compile_driver(const TempDir& dir) {
  compile_program({dir / kDriverSource, dir / (std::string(kStem) + ".cpp")}, dir.path(), dir / kDriverExe,
                  "the kernel");
}

struct DriverResult {
  std::vector<unsigned char> output;
  double ns_per_call = 0;  // when timed
};

DriverResult run_driver(const TempDir& dir, std::size_t inputs, bool timed) {
  std::vector<std::string> argv = {(dir / kDriverExe).string()};
  for (std::size_t k = 0; k < inputs; ++k) argv.push_back((dir / fmt::format("in{}.bin", k)).string());
  argv.push_back((dir / "out.bin").string());
  argv.push_back(timed ? "1" : "0");
  const fs::path out_log = dir / "driver.out", err_log = dir / "driver.err";
  const std::string failure = run_process(argv, out_log, err_log);
  if (!failure.empty()) throw ToolFailure("the kernel driver " + failure, gen::read_file(err_log.string()));
  DriverResult r;
  r.output = read_bytes(dir / "out.bin");
  if (timed) {
    const std::string text = gen::read_file(out_log.string());
    const std::string key = "time_per_call_ns=";
    const std::size_t p = text.find(key);
    if (p == std::string::npos) throw ToolFailure("the kernel driver printed no timing", text);
    r.ns_per_call = std::strtod(text.c_str() + p + key.size(), nullptr);
  }
  return r;
}

// Generates, compiles and runs the kernel on `inputs`; returns the driver's
// raw output (and timing).
DriverResult run_generated(const RunArgs& args, const gen::CheckedSpec& spec,
                           const std::vector<gen::NpyArray>& inputs,
                           gen::KernelPlan* plan) {
  gen::GenerateOptions options;
  options.stem = kStem;
  options.source_name = "bcastgen run";
  options.emit_runtime = true;  // the temporary build must not depend on an installed bcastgen
  gen::GeneratedFiles files = gen::generate(spec, options);
  *plan = files.plans.at(0);
  files.files[kDriverSource] = driver_source(*plan, requested_isa(args));

  const TempDir dir("bcastgen-run-", args.keep_temp);
  gen::write_files(dir.path().string(), files.files);
  for (std::size_t k = 0; k < inputs.size(); ++k) write_bytes(dir / fmt::format("in{}.bin", k), inputs[k].data);
  compile_driver(dir);
  DriverResult r = run_driver(dir, inputs.size(), args.check);
  const std::size_t expected = byte_count(plan->shapes.out, plan->out_dtype);
  if (r.output.size() != expected) {
    throw ToolFailure("the kernel driver wrote " + std::to_string(r.output.size()) + " bytes, expected " +
                      std::to_string(expected));
  }
  return r;
}

// ---------------------------------------------------------------------------
// --check

std::vector<unsigned char> reference_output(const gen::KernelPlan& plan, const std::vector<gen::NpyArray>& inputs) {
  const gen::KernelSpec& k = plan.spec;
  std::vector<unsigned char> out(byte_count(plan.shapes.out, plan.out_dtype));
  if (k.to_target) {
    reference::broadcast_to(k.inputs[0].dtype, k.mode, inputs[0].data.data(), k.inputs[0].shape, k.target, k.axis,
                            k.axes_mapping, out.data());
    return out;
  }
  std::vector<ExprOperand> operands;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    operands.push_back({inputs[i].data.data(), k.inputs[i].shape, k.inputs[i].dtype});
    names.push_back(k.inputs[i].name);
  }
  reference::evaluate(k.expr, operands, k.rule, k.axis, out.data(), names);
  return out;
}

struct Comparison {
  double max_abs_error = 0;
  std::int64_t mismatches = 0;
};

// An element as a number: a 16-bit float as its float value.
template <class T>
auto widened(T x) {
  if constexpr (is_half_v<T>) {
    return to_float(x);
  } else {
    return x;
  }
}

// Element by element; for floats NaN equals NaN (and -0 equals +0), any
// other difference is a mismatch whose size feeds max_abs_error. A row
// kernel (reductions) is compared within reference::row_tolerance.
Comparison compare(DType dtype, const std::vector<unsigned char>& got, const std::vector<unsigned char>& want,
                   bool rows = false) {
  Comparison c;
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::size_t n = got.size() / sizeof(T);
    reference::RowTolerance tolerance;
    if (rows) tolerance = reference::row_tolerance(dtype, want.data(), static_cast<std::int64_t>(n));
    for (std::size_t i = 0; i < n; ++i) {
      T xt, yt;  // memcpy: the byte buffers carry no alignment or type
      std::memcpy(&xt, got.data() + i * sizeof(T), sizeof(T));
      std::memcpy(&yt, want.data() + i * sizeof(T), sizeof(T));
      const auto x = widened(xt), y = widened(yt);
      if (x == y) continue;
      if (rows && tolerance.close(static_cast<double>(x), static_cast<double>(y))) continue;
      if constexpr (!std::is_integral_v<decltype(x)>) {
        if (std::isnan(x) && std::isnan(y)) continue;
      }
      ++c.mismatches;
      double err = std::fabs(static_cast<double>(x) - static_cast<double>(y));
      if (std::isnan(err)) err = std::numeric_limits<double>::infinity();  // NaN against a number
      c.max_abs_error = std::max(c.max_abs_error, err);
    }
  });
  return c;
}

int report_check(const gen::KernelPlan& plan, const std::vector<gen::NpyArray>& inputs, const DriverResult& r) {
  const Comparison c = compare(plan.out_dtype, r.output, reference_output(plan, inputs), plan.rows.has_value());
  std::cout << fmt::format("check: max_abs_error={} mismatches={} time_per_call_ns={:.1f}\n", c.max_abs_error,
                           c.mismatches, r.ns_per_call);
  if (c.mismatches == 0) return gen::kExitOk;
  std::cerr << "bcastgen: check failed: " << c.mismatches << " of " << checked_numel(plan.shapes.out)
            << " output elements differ from the reference\n";
  return gen::kExitToolFailure;
}

int run(const RunArgs& args) {
  std::optional<Op> op;
  if (args.op_opt->count() > 0) {
    Op parsed;
    if (!parse_op(args.op, &parsed)) throw InvalidArgument("unknown op '" + args.op + "'");
    op = parsed;
  }
  const std::vector<NamedInput> named = check_usage(args, op);
  const std::optional<Isa> requested = requested_isa(args);  // before any file is read or compiled
  const std::vector<gen::NpyArray> inputs = read_inputs(named, op);
  gen::CheckedSpec spec = make_spec(args, make_kernel(args, op, named, inputs));
  // Only the variant that will run: --isa, else the one the driver's
  // dispatch picks here (BCASTGEN_ISA or detection). The others would only
  // lengthen the compile.
  spec.set_isas({requested.value_or(active_isa())});
  gen::KernelPlan plan;
  const DriverResult r = run_generated(args, spec, inputs, &plan);
  gen::write_npy(args.out, gen::NpyArray{plan.out_dtype, plan.shapes.out, r.output});
  return args.check ? report_check(plan, inputs, r) : gen::kExitOk;
}

}  // namespace

Action register_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run", "generate one kernel for .npy inputs, compile it with the system C++ compiler, run it, write the output");
  args->op_opt = cmd->add_option("--op", args->op, "the op")->check(CLI::IsMember(op_names()));
  args->expr_opt = cmd->add_option("--expr", args->expr,
                                   "an expression over named inputs, e.g. 'max(x * scale + shift, 0)' "
                                   "(inputs as NAME=FILE.npy; see docs/guide/spec.md, Fused expression kernels)");
  args->rule_opt = cmd->add_option("--rule", args->rule, "broadcast rule of a binary op")
                       ->check(CLI::IsMember(rule_names()))
                       ->capture_default_str();
  args->mode_opt = cmd->add_option("--mode", args->mode, "mode of --op broadcast")
                       ->check(CLI::IsMember({"numpy", "explicit", "bidirectional", "pdpd"}))
                       ->capture_default_str();
  cmd->add_option("--axis", args->axis,
                  "pdpd: start axis of B in A (of the input in the target); paddle: of the lower-rank operand; "
                  "-1: aligned right")
      ->capture_default_str();
  cmd->add_option("--compute", args->compute,
                  "--expr: f32 keeps f16/bf16 intermediates in f32 and rounds once at the output; dtype rounds "
                  "every node to its dtype")
      ->check(CLI::IsMember({"dtype", "f32"}))
      ->capture_default_str();
  cmd->add_option("--accuracy", args->accuracy,
                  "--expr: fast computes the functions that have a fast form (" + gen::fast_tier_functions() +
                      ") in it (within 4 ulp); exact keeps every function within its own bound")
      ->check(CLI::IsMember({"exact", "fast"}))
      ->capture_default_str();
  args->target_opt = cmd->add_option("--target", args->target, "--op broadcast: the target shape, e.g. 2,1,6");
  args->axes_opt = cmd->add_option("--axes-mapping", args->axes_mapping,
                                   "--mode explicit: the target axis of each input axis, e.g. 0,2");
  cmd->add_option("INPUTS", args->inputs,
                  "A.npy B.npy for a binary op, one .npy for broadcast, NAME=FILE.npy ... for --expr")
      ->required()
      ->expected(1, static_cast<int>(gen::kMaxExprInputs));
  cmd->add_option("-o,--output", args->out, "the output .npy file")->required();
  cmd->add_flag("--check", args->check, "compare with the reference, time the kernel, exit 4 on a mismatch");
  cmd->add_option("--isa", args->isa, "run this variant instead of the best for this CPU")
      ->check(CLI::IsMember(isa_name_list()));
  cmd->add_option("--cpu", args->cpu, kCpuOptionHelp)->capture_default_str();
  cmd->add_flag("--keep-temp", args->keep_temp, "keep the temporary build directory and print its path");
  return [args] {
    try {
      return run(*args);
    } catch (const ToolFailure& e) {
      return report_tool_failure(e, args->keep_temp);
    }
  };
}

}  // namespace bcastgen::cli
