// Finds bcastgen-clang.so beside the running tool (the build tree) or where
// the install puts it relative to the tool (<bindir>/../<libdir>/bcastgen),
// loads it once and checks that it comes from the same version.
#include "clang_module.h"

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "bcastgen/gen/version.h"

namespace bcastgen::cli {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> candidates() {
  std::error_code ec;
  const fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return {};
  return {dir / clangtool::kPluginFile, (dir / BCASTGEN_CLANG_MODULE_DIR / clangtool::kPluginFile).lexically_normal()};
}

const clangtool::ClangFunctions* load(std::string* why) {
  const std::vector<fs::path> paths = candidates();
  for (const fs::path& path : paths) {
    if (!fs::exists(path)) continue;
    // Never closed: LLVM's global state does not expect to be unloaded.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      *why = std::string("cannot load ") + path.string() + ": " + dlerror();
      return nullptr;
    }
    const auto entry = reinterpret_cast<clangtool::PluginEntry>(dlsym(handle, clangtool::kPluginEntry));
    if (entry == nullptr) {
      *why = path.string() + " has no " + clangtool::kPluginEntry + " (a module of another bcastgen version)";
      return nullptr;
    }
    const clangtool::ClangFunctions* functions = entry();
    if (std::strcmp(functions->version, gen::kVersion) != 0) {
      *why = path.string() + " is bcastgen " + functions->version + "'s, this is " + gen::kVersion;
      return nullptr;
    }
    return functions;
  }
  *why = std::string("no ") + clangtool::kPluginFile + " at";
  for (const fs::path& path : paths) *why += " " + path.string();
  *why += " (built with BCASTGEN_WITH_CLANG=ON, the default)";
  return nullptr;
}

}  // namespace

const clangtool::ClangFunctions* clang_functions(std::string* why) {
  static std::string reason;
  static const clangtool::ClangFunctions* const functions = load(&reason);
  if (functions == nullptr) *why = reason;
  return functions;
}

}  // namespace bcastgen::cli
