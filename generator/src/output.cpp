#include "bcastgen/gen/output.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace bcastgen::gen {
namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw IoError("cannot read " + path);
  return s.str();
}

std::vector<std::string> write_files(const std::string& dir, const std::map<std::string, std::string>& files) {
  std::error_code ec;
  struct Pending {
    fs::path target, temp;
  };
  std::vector<Pending> pending;
  auto discard = [&] {
    for (const auto& p : pending) fs::remove(p.temp, ec);
  };
  try {
    for (const auto& [rel, content] : files) {
      const fs::path target = fs::path(dir) / rel;
      if (fs::exists(target, ec)) {
        std::ifstream in(target, std::ios::binary);
        std::ostringstream old;
        old << in.rdbuf();
        if (in && old.str() == content) continue;
      }
      fs::create_directories(target.parent_path(), ec);
      if (ec) throw IoError("cannot create directory " + target.parent_path().string() + ": " + ec.message());
      const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp" + std::to_string(getpid()));
      pending.push_back({target, temp});
      std::ofstream out(temp, std::ios::binary | std::ios::trunc);
      if (!out) throw IoError("cannot write " + temp.string() + ": " + std::strerror(errno));
      out << content;
      out.flush();
      if (!out) throw IoError("cannot write " + temp.string() + " (disk full?)");
    }
    std::vector<std::string> written;
    for (const auto& p : pending) {
      fs::rename(p.temp, p.target, ec);
      if (ec) throw IoError("cannot rename " + p.temp.string() + " to " + p.target.string() + ": " + ec.message());
      written.push_back(p.target.string());
    }
    return written;
  } catch (...) {
    discard();
    throw;
  }
}

}  // namespace bcastgen::gen
