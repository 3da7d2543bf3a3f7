// `bcastgen generate --format`: clang-format's library, with the style
// compiled into the tool.
#include "bcastgen/clang/format.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>
#include <llvm/Support/Error.h>

#include "bcastgen/errors.h"
#include "bcastgen/gen/embedded.h"

namespace bcastgen::clangtool {

const std::string& format_style_yaml() { return gen::embedded_file("templates/bcastgen-format.yaml"); }

std::string format_source(const std::string& code, const std::string& file_name) {
  clang::format::FormatStyle style = clang::format::getLLVMStyle(clang::format::FormatStyle::LK_Cpp);
  if (const std::error_code ec = clang::format::parseConfiguration(format_style_yaml(), &style)) {
    throw Error("templates/bcastgen-format.yaml: " + ec.message());
  }
  const clang::tooling::Replacements replacements =
      clang::format::reformat(style, code, {clang::tooling::Range(0, static_cast<unsigned>(code.size()))}, file_name);
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) throw Error("formatting " + file_name + ": " + llvm::toString(formatted.takeError()));
  return *formatted;
}

void format_generated(std::map<std::string, std::string>& files) {
  for (auto& [path, content] : files) {
    const bool source = path.size() > 4 && (path.compare(path.size() - 2, 2, ".h") == 0 ||
                                            path.compare(path.size() - 4, 4, ".cpp") == 0);
    if (source && path.rfind("bcastgen/", 0) != 0) content = format_source(content, path);
  }
}

}  // namespace bcastgen::clangtool
