// bcastgen-clang.so, the Clang-based commands' module
// (generator/clang/include/bcastgen/clang/plugin.h), loaded on first use.
#pragma once

#include <string>

#include "bcastgen/clang/plugin.h"

namespace bcastgen::cli {

// The module's functions; nullptr when it cannot be loaded, with the reason
// (which file was looked for where, or what the loader said) in *why.
const clangtool::ClangFunctions* clang_functions(std::string* why);

}  // namespace bcastgen::cli
