// Subcommands of the bcastgen tool. Each registers its options on the app
// and returns the action to run when it was the one chosen; actions return
// an exit code from exit_codes.h.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bcastgen/cpu_kinds.h"
#include "bcastgen/errors.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/rules.h"

namespace bcastgen::cli {

using Action = std::function<int()>;

Action register_shape(CLI::App& app);
Action register_explain(CLI::App& app);
Action register_generate(CLI::App& app);
Action register_run(CLI::App& app);
Action register_tune(CLI::App& app);   // cmd_tune.cpp
Action register_inspect(CLI::App& app);  // cmd_inspect.cpp
Action register_onnx(CLI::App& app);     // cmd_onnx.cpp
Action register_list(CLI::App& app);     // cmd_list.cpp
// Runs one bcastgen command line (the arguments after `bcastgen`) in this
// process and returns its exit code (main.cpp): what `batch` runs per line.
using CommandRunner = std::function<int(const std::vector<std::string>&)>;
Action register_batch(CLI::App& app, CommandRunner run);  // cmd_batch.cpp

// The Clang steps of `generate` (cmd_inspect.cpp): kExitOk, kExitToolFailure
// when verification fails, kExitBadInput when built without Clang.
gen::ExitCode verify_generated_files(const std::map<std::string, std::string>& files, const std::string& main_file);
gen::ExitCode format_generated_files(std::map<std::string, std::string>& files);

// The output tests' fault injection, from BCASTGEN_TEST_* (test_faults.cpp).
gen::WriteFaults write_faults_from_environment();

// The names `--rule` accepts: every rule of rules.h.
inline std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (Rule r : kAllRules) names.emplace_back(rule_name(r));
  return names;
}

// `--cpu`: a row of the CPU-kind table (cpu_kinds.h), or `native`, the
// kind of the CPU bcastgen runs on (generic when no row matches it).
inline CpuKind parse_cpu_option(const std::string& text) {
  if (text == "native") return detect_cpu_kind();
  CpuKind kind;
  if (!parse_cpu_kind(text, &kind)) {
    throw InvalidArgument("--cpu: unknown CPU kind '" + text + "' (valid: " + cpu_kind_names() + ", native)");
  }
  return kind;
}
inline constexpr const char* kCpuOptionHelp =
    "the CPU kind to plan for: a row of the CPU-kind table, or `native` for this machine's (overrides a spec's cpu:)";

// `--shards`: `auto` (gen::kAutoShards) or a count from 1 to gen::kMaxShards.
inline std::size_t parse_shards_option(const std::string& text) {
  if (text == "auto") return gen::kAutoShards;
  const bool digits = !text.empty() && text.size() <= 6 && text.find_first_not_of("0123456789") == std::string::npos;
  const std::size_t n = digits ? std::stoul(text) : 0;
  if (n < 1 || n > gen::kMaxShards) {
    throw InvalidArgument("--shards: '" + text + "' is not auto or a count from 1 to " +
                          std::to_string(gen::kMaxShards));
  }
  return n;
}
inline constexpr const char* kShardsOptionHelp =
    "translation units of kernels: auto (one per ~512 KiB of kernel code; one file below that) or N, "
    "<stem>_shard0.cpp .. <stem>_shard<N-1>.cpp beside <stem>.cpp, which keeps the kernel table";

// Runs `body`, turning bcastgen's exceptions into a message on stderr and
// the matching exit code.
int run_guarded(const std::function<int()>& body);

}  // namespace bcastgen::cli
