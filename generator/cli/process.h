// What `bcastgen run` and `bcastgen tune` share to build and run generated
// code out of process: a temporary directory, the system compiler, a child
// process with its output in files, and the error that reports a failure
// of either (exit 4, with the tool's output).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bcastgen/errors.h"

namespace bcastgen::cli {

// A compiler or driver that failed: exit 4 with `detail` (its output) shown.
class ToolFailure : public Error {
 public:
  ToolFailure(const std::string& message, std::string detail = "") : Error(message), detail_(std::move(detail)) {}
  const std::string& detail() const { return detail_; }

 private:
  std::string detail_;
};

// Prints a ToolFailure and its detail to stderr, with the hint to keep the
// build directory when it was not kept; returns kExitToolFailure.
int report_tool_failure(const ToolFailure& e, bool kept_temp);

// A fresh directory $TMPDIR/<prefix>XXXXXX (or under /tmp), removed at scope
// exit unless kept.
class TempDir {
 public:
  TempDir(const std::string& prefix, bool keep);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool keep_;
};

std::string command_text(const std::vector<std::string>& argv);

// Runs argv (argv[0] searched in PATH) with stdin from /dev/null, stdout to
// `out_path` and stderr to `err_path` (may be the same file). Returns "" on
// exit status 0, else what went wrong.
std::string run_process(const std::vector<std::string>& argv, const std::filesystem::path& out_path,
                        const std::filesystem::path& err_path);

// $CXX (split on whitespace, so "ccache g++" works) or c++.
std::vector<std::string> compiler_command();

// Compiles `sources` into `exe` with the system compiler (C++17, -O2, no
// -march: each variant carries its own target attribute), `include_dir` on
// the include path; throws ToolFailure with the compiler's output.
void compile_program(const std::vector<std::filesystem::path>& sources, const std::filesystem::path& include_dir,
                     const std::filesystem::path& exe, const std::string& what);

}  // namespace bcastgen::cli
