// `bcastgen generate --format`: generated code through clang-format's
// library, with the style file kept in templates/bcastgen-format.yaml
// (compiled into the tool, so output does not depend on any .clang-format
// around it).
#pragma once

#include <map>
#include <string>

namespace bcastgen::clangtool {

// The style, as YAML (the embedded templates/bcastgen-format.yaml).
const std::string& format_style_yaml();

// Formats C++ source; `file_name` only names it. Throws bcastgen::Error if
// the style or the replacements cannot be applied.
std::string format_source(const std::string& code, const std::string& file_name);

// Formats every generated .h/.cpp in a gen::generate file map, leaving the
// runtime headers (bcastgen/*.h, copies of the repository's) as they are.
void format_generated(std::map<std::string, std::string>& files);

}  // namespace bcastgen::clangtool
