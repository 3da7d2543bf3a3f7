// Writing generated files: all or nothing, and only what changed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bcastgen/errors.h"

namespace bcastgen::gen {

// A file that could not be read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// Writes every file under `dir` (created if missing). Each is first written
// to a temporary file beside its target; only when all temporaries exist are
// they renamed into place, so an error leaves the directory as it was.
// Files whose content is unchanged are not rewritten (builds stay quiet).
// Returns the paths that were written. Throws IoError naming the path.
std::vector<std::string> write_files(const std::string& dir, const std::map<std::string, std::string>& files);

// Reads a whole file; throws IoError naming the path.
std::string read_file(const std::string& path);

}  // namespace bcastgen::gen
