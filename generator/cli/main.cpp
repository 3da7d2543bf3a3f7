// The bcastgen command line.
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/version.h"
#include "commands.h"

namespace {

// Parses one command line (argv[0] the program's name) and runs its
// subcommand; `batch` runs more of them through this function.
int run_command(int argc, const char* const* argv) {
  CLI::App app{"bcastgen: generates specialized C++ loop nests for broadcasting elementwise kernels"};
  app.set_version_flag("--version", std::string("bcastgen ") + bcastgen::gen::kVersion);
  app.require_subcommand(1);

  std::vector<std::pair<CLI::App*, bcastgen::cli::Action>> actions;
  for (auto reg : {bcastgen::cli::register_shape, bcastgen::cli::register_explain,
                   bcastgen::cli::register_generate, bcastgen::cli::register_run, bcastgen::cli::register_tune,
                   bcastgen::cli::register_inspect, bcastgen::cli::register_onnx, bcastgen::cli::register_list}) {
    auto action = reg(app);
    actions.emplace_back(app.get_subcommands({}).back(), std::move(action));
  }
  auto batch = bcastgen::cli::register_batch(app, [](const std::vector<std::string>& args) {
    std::vector<const char*> argv_of_line{"bcastgen"};
    for (const std::string& a : args) argv_of_line.push_back(a.c_str());
    return run_command(static_cast<int>(argv_of_line.size()), argv_of_line.data());
  });
  actions.emplace_back(app.get_subcommands({}).back(), std::move(batch));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the error
    return code == 0 ? bcastgen::gen::kExitOk : bcastgen::gen::kExitBadInput;
  }
  for (auto& [sub, action] : actions) {
    if (sub->parsed()) return bcastgen::cli::run_guarded(action);
  }
  return bcastgen::gen::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) { return run_command(argc, argv); }
