// `bcastgen onnx MODEL.onnx -o DIR`: the fused elementwise kernels of an
// ONNX model, with the spec they came from and a map back to the graph.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/shape_parse.h"
#include "bcastgen/gen/spec.h"
#include "commands.h"
#if BCASTGEN_WITH_ONNX
#include "bcastgen/onnx/import.h"
#endif

namespace bcastgen::cli {

Action register_onnx(CLI::App& app) {
  struct Args {
    std::string model, out_dir, ns;
    std::vector<std::string> input_shapes;
    bool report = false;
    std::string accuracy = "exact";
    std::string shards = "auto";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("onnx", "fuse an ONNX model's elementwise nodes into kernels: <stem>.yaml, the "
                                         "generated <stem>.h/.cpp and <stem>.onnx-map.json");
  cmd->add_option("MODEL", args->model, "the .onnx model")->required();
  cmd->add_option("-o,--output", args->out_dir, "output directory")->required();
  cmd->add_option("--namespace", args->ns, "C++ namespace of the generated code (default: from the model's file name)");
  cmd->add_option("--input-shape", args->input_shapes,
                  "NAME=d0,d1,...: a static shape for a graph input (repeatable; needed for dynamic dimensions)");
  cmd->add_flag("--report", args->report, "print, per op type, the nodes fused and what was not covered and why");
  cmd->add_option("--accuracy", args->accuracy,
                  "fast computes the functions that have a fast form (" + gen::fast_tier_functions() +
                      ") in it (within 4 ulp; the spec says 'accuracy: fast'); exact keeps every function within "
                      "its own bound")
      ->check(CLI::IsMember({"exact", "fast"}))
      ->capture_default_str();
  cmd->add_option("--shards", args->shards, kShardsOptionHelp)->capture_default_str();
  return [args]() -> int {
#if BCASTGEN_WITH_ONNX
    onnx_import::ImportOptions options;
    options.fast = args->accuracy == "fast";
    for (const std::string& s : args->input_shapes) {
      const std::size_t eq = s.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw InvalidArgument("--input-shape '" + s + "': expected NAME=d0,d1,...");
      }
      try {
        options.input_shapes[s.substr(0, eq)] = gen::parse_shape(s.substr(eq + 1));
      } catch (const InvalidArgument& e) {
        throw InvalidArgument("--input-shape '" + s + "': " + e.what());
      }
    }
    if (!args->ns.empty()) {
      if (const std::string problem = gen::namespace_problem(args->ns); !problem.empty()) {
        throw InvalidArgument("--namespace: " + problem);
      }
      options.ns = args->ns;
    }
    const std::filesystem::path path(args->model);
    const std::string bytes = gen::read_file(args->model);
    const onnx_import::ImportedModel model = onnx_import::import_model(bytes, path.filename().string(), options);
    if (args->report) std::cout << model.report << std::flush;
    const std::string stem = path.stem().string();
    if (model.spec.kernels.empty() && model.outputs_folded) {  // all shape arithmetic: its values are the result
      const auto written = gen::write_files(args->out_dir, {{stem + ".onnx-map.json", model.map_json}},
                                            write_faults_from_environment());
      std::cerr << "bcastgen: no kernel: every output of the model was folded when it was read (the map holds "
                << "the values); " << written.size() << " file written to " << args->out_dir << "\n";
      return gen::kExitOk;
    }
    if (model.spec.kernels.empty()) {
      throw InvalidArgument(args->model + ": no node to fuse into a kernel (--report says why); nothing written");
    }
    gen::GenerateOptions generate;
    generate.stem = stem;
    generate.source_name = stem + ".yaml";
    generate.shards = parse_shards_option(args->shards);
    gen::GeneratedFiles files = gen::generate(gen::check_spec(model.spec, stem + ".yaml"), generate);
    files.files[stem + ".yaml"] = model.spec_yaml;
    files.files[stem + ".onnx-map.json"] = model.map_json;
    const auto written = gen::write_files(args->out_dir, files.files, write_faults_from_environment(),
                                          gen::stale_shards(args->out_dir, stem, files.files));
    std::cerr << "bcastgen: " << model.spec.kernels.size() << " kernel(s), " << written.size() << " of "
              << files.files.size() << " file(s) written to " << args->out_dir << "\n";
    return gen::kExitOk;
#else
    std::cerr << "bcastgen: onnx: this bcastgen was built without libonnx-dev (BCASTGEN_WITH_ONNX)\n";
    return gen::kExitBadInput;
#endif
  };
}

}  // namespace bcastgen::cli
