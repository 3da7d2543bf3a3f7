// Subcommands of the bcastgen tool. Each registers its options on the app
// and returns the action to run when it was the one chosen; actions return
// an exit code from exit_codes.h.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace bcastgen::cli {

using Action = std::function<int()>;

Action register_shape(CLI::App& app);
Action register_explain(CLI::App& app);
Action register_generate(CLI::App& app);
Action register_run(CLI::App& app);

// Runs `body`, turning bcastgen's exceptions into a message on stderr and
// the matching exit code.
int run_guarded(const std::function<int()>& body);

}  // namespace bcastgen::cli
