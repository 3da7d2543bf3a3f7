// `bcastgen inspect FILE.cpp [--json]`, and the Clang steps of `generate`
// (--verify, --format). Built without Clang (BCASTGEN_WITH_CLANG=0), each
// says so and exits 2.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "commands.h"

#if BCASTGEN_WITH_CLANG
#include "bcastgen/clang/format.h"
#include "bcastgen/clang/inspect.h"
#include "bcastgen/clang/verify.h"
#endif

namespace bcastgen::cli {
namespace {

[[maybe_unused]] gen::ExitCode unavailable(const char* what) {
  std::cerr << "bcastgen: " << what
            << " is unavailable: this bcastgen was built without Clang (BCASTGEN_WITH_CLANG=OFF)\n";
  return gen::kExitBadInput;
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
#if BCASTGEN_WITH_CLANG
    clangtool::SourceInput input;
    input.path = args->file;
    input.code = gen::read_file(args->file);
    const std::filesystem::path dir = std::filesystem::absolute(args->file).parent_path();
    input.args.push_back("-I" + dir.string());
    for (const std::string& i : args->includes) input.args.push_back("-I" + i);
    input.args.insert(input.args.end(), args->clang_args.begin(), args->clang_args.end());
    const clangtool::InspectReport report = clangtool::inspect(input);
    if (args->json) {
      std::cout << clangtool::render_json(report).dump(2) << "\n";
    } else {
      std::cout << clangtool::render_text(report);
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
#else
    return unavailable("inspect");
#endif
  };
}

gen::ExitCode verify_generated_files(const std::map<std::string, std::string>& files, const std::string& main_file) {
#if BCASTGEN_WITH_CLANG
  const clangtool::VerifyResult result = clangtool::verify_generated(files, main_file);
  if (result.ok) return gen::kExitOk;
  std::cerr << result.report << "bcastgen: verify failed";
  if (!result.kernels.empty()) {
    std::cerr << " in kernel(s):";
    for (const std::string& k : result.kernels) std::cerr << " " << k;
  }
  std::cerr << "; nothing was written\n";
  return gen::kExitToolFailure;
#else
  (void)files;
  (void)main_file;
  return unavailable("--verify");
#endif
}

gen::ExitCode format_generated_files(std::map<std::string, std::string>& files) {
#if BCASTGEN_WITH_CLANG
  clangtool::format_generated(files);
  return gen::kExitOk;
#else
  (void)files;
  return unavailable("--format");
#endif
}

}  // namespace bcastgen::cli
