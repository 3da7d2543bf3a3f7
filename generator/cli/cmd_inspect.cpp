// `bcastgen inspect FILE.cpp [--json]`, and the Clang steps of `generate`
// (--verify, --format), through the module bcastgen-clang.so
// (clang_module.h). Where it is missing (built with BCASTGEN_WITH_CLANG=OFF),
// each says so and exits 2.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "clang_module.h"
#include "commands.h"

namespace bcastgen::cli {
namespace {

// The module's functions, or nullptr after saying why `what` cannot run.
const clangtool::ClangFunctions* clang_or_say(const char* what) {
  std::string why;
  const clangtool::ClangFunctions* clang = clang_functions(&why);
  if (clang == nullptr) std::cerr << "bcastgen: " << what << " is unavailable: " << why << "\n";
  return clang;
}

}  // namespace

Action register_inspect(CLI::App& app) {
  struct Args {
    std::string file;
    bool json = false;
    std::vector<std::string> includes, clang_args;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "inspect",
      "parse generated kernels with Clang and check them: constant loop bounds and offsets, intrinsics per ISA, "
      "shapes (exit 4 on a problem)");
  cmd->add_option("FILE", args->file, "a generated .cpp (its header and the runtime headers are found beside it)")
      ->required();
  cmd->add_flag("--json", args->json, "print JSON instead of text");
  cmd->add_option("-I,--include", args->includes, "an extra include directory");
  cmd->add_option("--clang-arg", args->clang_args, "an extra compiler argument (-D..., -m...)");
  return [args] {
    const clangtool::ClangFunctions* clang = clang_or_say("inspect");
    if (clang == nullptr) return gen::kExitBadInput;
    clangtool::SourceInput input;
    input.path = args->file;
    input.code = gen::read_file(args->file);
    const std::filesystem::path dir = std::filesystem::absolute(args->file).parent_path();
    input.args.push_back("-I" + dir.string());
    for (const std::string& i : args->includes) input.args.push_back("-I" + i);
    input.args.insert(input.args.end(), args->clang_args.begin(), args->clang_args.end());
    const clangtool::InspectReport report = clang->inspect(input);
    if (args->json) {
      std::cout << clang->render_json(report).dump(2) << "\n";
    } else {
      std::cout << clang->render_text(report);
    }
    if (!report.parsed) {
      if (args->json) {
        for (const std::string& d : report.diagnostics) std::cerr << d;
      }
      return gen::kExitToolFailure;
    }
    if (report.kernels.empty()) {
      std::cerr << "bcastgen: " << args->file << ": no kernels (no BCASTGEN_KERNEL(\"bcastgen.kernel:...\") function)\n";
      return gen::kExitBadInput;
    }
    return report.ok() ? gen::kExitOk : gen::kExitToolFailure;
  };
}

gen::ExitCode verify_generated_files(const std::map<std::string, std::string>& files, const std::string& main_file) {
  const clangtool::ClangFunctions* clang = clang_or_say("--verify");
  if (clang == nullptr) return gen::kExitBadInput;
  const clangtool::VerifyResult result = clang->verify_generated(files, main_file);
  if (result.ok) return gen::kExitOk;
  std::cerr << result.report << "bcastgen: verify failed";
  if (!result.kernels.empty()) {
    std::cerr << " in kernel(s):";
    for (const std::string& k : result.kernels) std::cerr << " " << k;
  }
  std::cerr << "; nothing was written\n";
  return gen::kExitToolFailure;
}

gen::ExitCode format_generated_files(std::map<std::string, std::string>& files) {
  const clangtool::ClangFunctions* clang = clang_or_say("--format");
  if (clang == nullptr) return gen::kExitBadInput;
  clang->format_generated(files);
  return gen::kExitOk;
}

}  // namespace bcastgen::cli
