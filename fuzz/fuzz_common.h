// Shared by the libFuzzer targets in this folder. Each target defines
// BCASTGEN_FUZZ_ENTRY, which is LLVMFuzzerTestOneInput in the fuzz build
// (scripts/fuzz.sh) and a named function in tests/fuzz_replay_test.cpp,
// which replays the seed corpora and the regression inputs in the ordinary
// test suite.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "bcastgen/gen/vocabulary.h"

#ifndef BCASTGEN_FUZZ_ENTRY
#define BCASTGEN_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

// A broken invariant: print what and where, then abort (libFuzzer records
// the input as a crash; the replay test sees the child die).
#define FUZZ_CHECK(cond, msg)                                                                        \
  do {                                                                                               \
    if (!(cond)) {                                                                                   \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, #cond,     \
                   std::string(msg).c_str());                                                        \
      std::abort();                                                                                  \
    }                                                                                                \
  } while (0)

namespace bcastgen::fuzz {

// Reads small values off the fuzzer's bytes; past the end it reads zeros,
// so every input decodes to something.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t u8() { return i_ < n_ ? p_[i_++] : 0; }
  std::uint32_t u16() { return static_cast<std::uint32_t>(u8()) | (static_cast<std::uint32_t>(u8()) << 8); }
  // One of `count` choices.
  std::size_t pick(std::size_t count) { return count == 0 ? 0 : u8() % count; }
  template <class T, std::size_t N>
  const T& pick_from(const T (&table)[N]) {
    return table[pick(N)];
  }
  bool flag() { return u8() & 1; }
  bool empty() const { return i_ >= n_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_, i_ = 0;
};

inline std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

// The SIMD wrappers' names that generated code calls, sorted
// (Vocabulary::wrapper_names), computed once: kernel names to pick by index.
inline const std::vector<std::string>& wrapper_names() {
  static const std::vector<std::string> names = [] {
    const std::set<std::string> set = gen::Vocabulary::builtin().wrapper_names();
    return std::vector<std::string>(set.begin(), set.end());
  }();
  return names;
}

}  // namespace bcastgen::fuzz
