// `bcastgen generate SPEC -o DIR`: the kernels of a spec, as C++.
#include <filesystem>
#include <iostream>
#include <memory>

#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "commands.h"

namespace bcastgen::cli {

Action register_generate(CLI::App& app) {
  struct Args {
    std::string spec, out_dir;
    bool emit_runtime = false;
    std::int64_t stream_threshold = -1;
    bool verify = false, format = false;  // Clang steps (cmd_inspect.cpp)
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("generate", "emit <stem>.h and <stem>.cpp for the kernels of a YAML/JSON spec");
  cmd->add_option("SPEC", args->spec, "the spec file (YAML or JSON)")->required();
  cmd->add_option("-o,--output", args->out_dir, "output directory")->required();
  cmd->add_flag("--emit-runtime", args->emit_runtime,
                "also write the runtime headers (bcastgen/*.h) so the output builds without bcastgen installed");
  cmd->add_option("--stream-threshold", args->stream_threshold,
                  "output bytes from which stores stream past the cache (overrides the spec)");
  cmd->add_flag("--verify", args->verify,
                "parse and type-check the output with Clang, and inspect it, before writing; exit 4 on a problem");
  cmd->add_flag("--format", args->format, "format the output with clang-format (templates/bcastgen-format.yaml)");
  return [args] {
    const std::filesystem::path spec_path(args->spec);
    const std::string text = gen::read_file(args->spec);
    gen::Spec spec = gen::parse_spec(text, args->spec);
    if (args->stream_threshold >= 0) spec.stream_threshold_bytes = args->stream_threshold;
    gen::GenerateOptions options;
    options.stem = spec_path.stem().string();
    options.source_name = spec_path.filename().string();  // no absolute paths in the output
    options.emit_runtime = args->emit_runtime;
    gen::GeneratedFiles files = gen::generate(spec, options);
    if (args->format) {
      if (const gen::ExitCode rc = format_generated_files(files.files)) return rc;
    }
    if (args->verify) {
      if (const gen::ExitCode rc = verify_generated_files(files.files, options.stem + ".cpp")) return rc;
    }
    const auto written = gen::write_files(args->out_dir, files.files);
    std::cerr << "bcastgen: " << files.plans.size() << " kernel(s), " << written.size() << " of "
              << files.files.size() << " file(s) written to " << args->out_dir << "\n";
    return gen::kExitOk;
  };
}

}  // namespace bcastgen::cli
