// The entry point of bcastgen-clang.so (include/bcastgen/clang/plugin.h):
// the table of the Clang-based functions, looked up by the command line.
#include "bcastgen/clang/plugin.h"

#include "bcastgen/clang/format.h"
#include "bcastgen/gen/version.h"

namespace {

const bcastgen::clangtool::ClangFunctions kFunctions = {
    bcastgen::gen::kVersion,
    &bcastgen::clangtool::inspect,
    &bcastgen::clangtool::render_text,
    &bcastgen::clangtool::render_json,
    &bcastgen::clangtool::verify_generated,
    &bcastgen::clangtool::format_generated,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const bcastgen::clangtool::ClangFunctions*
BCASTGEN_CLANG_PLUGIN_ENTRY() {
  return &kFunctions;
}
