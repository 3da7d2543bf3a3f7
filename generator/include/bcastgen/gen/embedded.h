// Files compiled into the tool: templates/, the vocabulary and the runtime
// headers (written beside generated code on request), keyed by their path
// relative to the repository ("templates/kernel.cpp.mustache",
// "runtime/include/bcastgen/rules.h").
#pragma once

#include <map>
#include <string>

namespace bcastgen::gen {

const std::map<std::string, std::string>& embedded_files();

// The embedded file, or throws if there is none (a build error).
const std::string& embedded_file(const std::string& name);

}  // namespace bcastgen::gen
