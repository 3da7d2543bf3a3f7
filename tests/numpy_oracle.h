// Test helpers for tests that use NumPy as the oracle: a deterministic
// random generator and a runner for one python3 process per test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace bcastgen::test {

// splitmix64: deterministic across platforms.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

inline std::string read_file_bytes(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Runs `script` as `python3 script manifest.txt data.bin out.bin` in a fresh
// temporary directory holding `manifest` and `data`; returns what the
// script wrote to out.bin. A failing script fails the test (with its
// stderr) and gives "".
inline std::string run_numpy_script(const std::string& tag, const char* script, const std::string& manifest,
                                    const std::string& data) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("bcastgen_" + tag + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "oracle.py") << script;
  std::ofstream(dir / "manifest.txt") << manifest;
  std::ofstream(dir / "data.bin", std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
  const std::string cmd = std::string(BCASTGEN_PYTHON) + " '" + (dir / "oracle.py").string() + "' '" +
                          (dir / "manifest.txt").string() + "' '" + (dir / "data.bin").string() + "' '" +
                          (dir / "out.bin").string() + "' 2> '" + (dir / "stderr.txt").string() + "'";
  const int rc = std::system(cmd.c_str());
  std::string out = read_file_bytes(dir / "out.bin");
  const std::string err = read_file_bytes(dir / "stderr.txt");
  fs::remove_all(dir);
  if (rc != 0) {
    ADD_FAILURE() << "NumPy oracle failed (status " << rc << "):\n" << err;
    return {};
  }
  return out;
}

}  // namespace bcastgen::test
