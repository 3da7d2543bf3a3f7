// `bcastgen generate SPEC -o DIR`: the kernels of a spec, as C++.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/errors.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/gen/wisdom.h"
#include "commands.h"

namespace bcastgen::cli {

namespace {

// "--isa avx2,scalar" -> {Avx2, Scalar}, best first (the generated dispatch
// tries variants in list order). Unknown, repeated or empty names: exit 2.
std::vector<Isa> parse_isa_list(const std::string& text) {
  std::vector<Isa> isas;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(',', start);
    const std::string name = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    Isa isa;
    if (!parse_isa(name, &isa)) {
      throw InvalidArgument("--isa: unknown isa '" + name + "' (valid: " + isa_names() + ")");
    }
    if (std::find(isas.begin(), isas.end(), isa) != isas.end()) {
      throw InvalidArgument("--isa: isa '" + name + "' is listed twice");
    }
    isas.push_back(isa);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  sort_most_specific_first(&isas);
  return isas;
}

}  // namespace

Action register_generate(CLI::App& app) {
  struct Args {
    std::string spec, out_dir;
    bool emit_runtime = false;
    std::int64_t stream_threshold = -1;
    bool verify = false, format = false;  // Clang steps (cmd_inspect.cpp)
    std::string isa, ns, cpu;  // overrides of the spec's `isa:`, `namespace:` and `cpu:`; empty: keep the spec's
    std::string wisdom;        // bcastgen tune's file; empty: none
    std::string shards = "auto";
    bool list_outputs = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("generate", "emit <stem>.h and <stem>.cpp for the kernels of a YAML/JSON spec");
  cmd->add_option("SPEC", args->spec, "the spec file (YAML or JSON)")->required();
  cmd->add_option("-o,--output", args->out_dir, "output directory (required unless --list-outputs)");
  cmd->add_flag("--emit-runtime", args->emit_runtime,
                "also write the runtime headers (bcastgen/*.h) so the output builds without bcastgen installed");
  cmd->add_option("--stream-threshold", args->stream_threshold,
                  "footprint (inputs + out bytes) from which every kernel's stores stream past the cache "
                  "(overrides the spec and the CPU kind's thresholds)");
  cmd->add_flag("--verify", args->verify,
                "parse and type-check the output with Clang, and inspect it, before writing; exit 4 on a problem");
  cmd->add_flag("--format", args->format, "format the output with clang-format (templates/bcastgen-format.yaml)");
  cmd->add_option("--isa", args->isa,
                  "comma-separated ISAs to generate, e.g. avx2,scalar (overrides the spec's isa list)");
  cmd->add_option("--cpu", args->cpu, kCpuOptionHelp);
  cmd->add_option("--namespace", args->ns, "C++ namespace of the generated code, a::b allowed (overrides the spec)");
  cmd->add_option("--wisdom", args->wisdom,
                  "plan each kernel's order and unroll as `bcastgen tune` measured them (its output file)");
  cmd->add_option("--shards", args->shards, kShardsOptionHelp)->capture_default_str();
  cmd->add_flag("--list-outputs", args->list_outputs,
                "print the names of the files this run would write, one per line, and write nothing "
                "(for build systems, at configure time)");
  return [args] {
    if (args->out_dir.empty() && !args->list_outputs) throw InvalidArgument("generate: -o,--output is required");
    const std::filesystem::path spec_path(args->spec);
    const std::string text = gen::read_file(args->spec);
    // The rules run once per kernel: generate() plans from the parser's shapes.
    gen::CheckedSpec spec = gen::parse_checked_spec(text, args->spec);
    if (args->stream_threshold >= 0) spec.set_stream_threshold_bytes(args->stream_threshold);
    if (!args->isa.empty()) spec.set_isas(parse_isa_list(args->isa));
    if (!args->cpu.empty()) spec.set_cpu(parse_cpu_option(args->cpu));
    if (!args->ns.empty()) {
      try {
        spec.set_namespace(args->ns);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(std::string("--namespace: ") + e.what());  // exit 2
      }
    }
    gen::GenerateOptions options;
    if (!args->wisdom.empty()) {
      // Checked against the spec before anything is written: a bad or foreign file is exit 2.
      const gen::Wisdom wisdom = gen::parse_wisdom(gen::read_file(args->wisdom), args->wisdom);
      options.tuning = gen::wisdom_for_spec(wisdom, spec, args->wisdom);
      options.wisdom_name = std::filesystem::path(args->wisdom).filename().string();
    }
    options.stem = spec_path.stem().string();
    options.source_name = spec_path.filename().string();  // no absolute paths in the output
    options.emit_runtime = args->emit_runtime;
    options.shards = parse_shards_option(args->shards);
    gen::GeneratedFiles files = gen::generate(spec, options);
    if (args->list_outputs) {
      for (const auto& [name, content] : files.files) std::cout << name << "\n";
      return gen::kExitOk;
    }
    if (args->format) {
      if (const gen::ExitCode rc = format_generated_files(files.files)) return rc;
    }
    if (args->verify) {
      for (const auto& [name, content] : files.files) {
        if (name != options.stem + ".cpp" && !gen::is_shard_file_name(options.stem, name)) continue;
        if (const gen::ExitCode rc = verify_generated_files(files.files, name)) return rc;
      }
    }
    const auto stale = gen::stale_shards(args->out_dir, options.stem, files.files);
    const auto written = gen::write_files(args->out_dir, files.files, write_faults_from_environment(), stale);
    std::cerr << "bcastgen: " << files.plans.size() << " kernel(s), " << written.size() << " of "
              << files.files.size() << " file(s) written to " << args->out_dir;
    if (files.shards > 1) std::cerr << " (" << files.shards << " shards)";
    if (!stale.empty()) std::cerr << "; " << stale.size() << " stale shard(s) removed";
    std::cerr << "\n";
    return gen::kExitOk;
  };
}

}  // namespace bcastgen::cli
