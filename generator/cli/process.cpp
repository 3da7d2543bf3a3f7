#include "process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"

extern char** environ;

namespace bcastgen::cli {

namespace fs = std::filesystem;

int report_tool_failure(const ToolFailure& e, bool kept_temp) {
  std::cerr << "bcastgen: " << e.what() << "\n" << e.detail();
  if (!e.detail().empty() && e.detail().back() != '\n') std::cerr << "\n";
  if (!kept_temp) std::cerr << "bcastgen: rerun with --keep-temp to keep the build directory\n";
  return gen::kExitToolFailure;
}

TempDir::TempDir(const std::string& prefix, bool keep) : keep_(keep) {
  const char* env = std::getenv("TMPDIR");
  const fs::path base = (env != nullptr && *env != '\0') ? fs::path(env) : fs::path("/tmp");
  std::string tmpl = (base / (prefix + "XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    throw gen::IoError("cannot create a temporary directory " + tmpl + ": " + std::strerror(errno));
  }
  path_ = tmpl;
  if (keep_) std::cerr << "bcastgen: temporary directory kept: " << path_.string() << "\n";
}

TempDir::~TempDir() {
  std::error_code ec;  // best effort: a leftover directory is not worth failing over
  if (!keep_) fs::remove_all(path_, ec);
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::string run_process(const std::vector<std::string>& argv, const fs::path& out_path, const fs::path& err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err_path == out_path) {
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return "could not be started: " + std::string(std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return "could not be waited for: " + std::string(std::strerror(errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? "" : "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended abnormally";
}

std::vector<std::string> compiler_command() {
  const char* env = std::getenv("CXX");
  std::istringstream words((env != nullptr && *env != '\0') ? env : "c++");
  std::vector<std::string> argv;
  for (std::string w; words >> w;) argv.push_back(w);
  return argv;
}

void compile_program(const std::vector<fs::path>& sources, const fs::path& include_dir, const fs::path& exe,
                     const std::string& what) {
  std::vector<std::string> argv = compiler_command();
  argv.push_back("-std=c++17");
  argv.push_back("-O2");
  argv.push_back("-I" + include_dir.string());
  for (const fs::path& s : sources) argv.push_back(s.string());
  argv.push_back("-o");
  argv.push_back(exe.string());
  const fs::path log = exe.parent_path() / "compile.log";
  const std::string failure = run_process(argv, log, log);
  if (!failure.empty()) {
    throw ToolFailure("compiling " + what + " failed: `" + command_text(argv) + "` " + failure,
                      gen::read_file(log.string()));
  }
}

}  // namespace bcastgen::cli
