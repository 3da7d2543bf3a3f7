// `bcastgen generate --verify`: the generated files are parsed and
// type-checked in-process by Clang before anything is written.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace bcastgen::clangtool {

struct VerifyResult {
  bool ok = true;
  // Clang's diagnostics (errors and warnings, -Wall -Wextra), each headed by
  // the kernel it is in, then the inspect findings; empty when ok.
  std::string report;
  std::vector<std::string> kernels;  // kernels with a problem, sorted, unique
  double seconds = 0;                // wall time
};

// The compiler flag sets every file is checked with: the baseline (what a
// user compiles with: each variant carries its own target attribute), then
// the whole file with -mavx2... and with -mavx512f... (x86-64 hosts only).
std::vector<std::vector<std::string>> verify_flag_sets();

// `files` maps paths relative to the output directory to content, as
// gen::generate returns them; `main_file` ("demo.cpp") is the one compiled.
// The runtime headers come from the copy compiled into bcastgen unless
// `files` has them. Nothing is read from or written to disk, save the
// system's C++ headers. The inspect checks run on the baseline parse too.
VerifyResult verify_generated(const std::map<std::string, std::string>& files, const std::string& main_file);

}  // namespace bcastgen::clangtool
