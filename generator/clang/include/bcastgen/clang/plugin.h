// The Clang-based commands as a module that the command line loads when it
// needs them (`inspect`, `generate --verify`, `--format`): bcastgen-clang.so.
// Loading libclang-cpp and libLLVM takes about 75 ms per process (half a
// million relocations), which every other command — `generate`, `onnx`,
// `run`, called thousands of times by a compiler's build — would otherwise
// pay. The module and the tool come from one build: the entry point's name
// carries the interface's revision and the table the tool's version.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "bcastgen/clang/inspect.h"
#include "bcastgen/clang/verify.h"

namespace bcastgen::clangtool {

// The functions of inspect.h, verify.h and format.h that the tool calls.
struct ClangFunctions {
  const char* version;  // bcastgen::gen::kVersion of the module's build
  InspectReport (*inspect)(const SourceInput& input);
  std::string (*render_text)(const InspectReport& report);
  nlohmann::json (*render_json)(const InspectReport& report);
  VerifyResult (*verify_generated)(const std::map<std::string, std::string>& files, const std::string& main_file);
  void (*format_generated)(std::map<std::string, std::string>& files);
};

// The file name of the module, and its one exported function; a change to
// ClangFunctions or to the types it passes changes the suffix.
inline constexpr const char* kPluginFile = "bcastgen-clang.so";
#define BCASTGEN_CLANG_PLUGIN_ENTRY bcastgen_clang_functions_v1
#define BCASTGEN_CLANG_STRINGIFY(x) BCASTGEN_CLANG_STRINGIFY_(x)
#define BCASTGEN_CLANG_STRINGIFY_(x) #x
inline constexpr const char* kPluginEntry = BCASTGEN_CLANG_STRINGIFY(BCASTGEN_CLANG_PLUGIN_ENTRY);
using PluginEntry = const ClangFunctions* (*)();

}  // namespace bcastgen::clangtool
