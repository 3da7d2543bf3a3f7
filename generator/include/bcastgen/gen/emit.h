// Emission: a spec in, the generated files out, as strings. This is also
// the library entry point for AOT compilers that embed bcastgen: no files
// are read or written and no process is spawned.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"

namespace bcastgen::gen {

// A sharded output (GenerateOptions::shards > 1) puts its kernels in
// <stem>_shard0.cpp .. <stem>_shard<N-1>.cpp, each its own translation unit,
// and keeps <stem>.cpp for the kernel table and the C entries' last error.
// A kernel's shard is a consistent hash of its name (of the name of the
// kernel whose code it shares): the same spec always gives the same files,
// adding a kernel moves no other, and one more shard moves about 1/N of them.
std::string shard_file_name(const std::string& stem, std::size_t shard);
// Whether `file` is one of <stem>'s shards, for any count (stale ones are removed).
bool is_shard_file_name(const std::string& stem, const std::string& file);
// GenerateOptions::shards = kAutoShards: as many shards as keep each at about
// kShardSourceBytes of kernel code (one file below that). Each translation
// unit pays about 2 s of headers (immintrin.h and the runtime's) before its
// kernels; a 512 KiB shard compiles in about 6 s with g++ -O2 in under
// 400 MB. Half that size made the -j2 build of 1,000 kernels 1.5x slower for
// a 64-host critical path only 12% shorter (bench/scale, docs/benchmarks.md).
inline constexpr std::size_t kAutoShards = 0;
inline constexpr std::size_t kShardSourceBytes = 512 * 1024;
inline constexpr std::size_t kMaxShards = 4096;

struct GenerateOptions {
  std::string stem = "kernels";       // output names: <stem>.h, <stem>.cpp
  std::size_t shards = 1;             // translation units of kernels: 1 (all in <stem>.cpp), N, or kAutoShards
  std::string source_name = "<spec>"; // named in the banner (no absolute paths)
  bool emit_runtime = false;          // also return the runtime headers, under bcastgen/
  // Measured facts per kernel name (wisdom_for_spec, or tune's candidates),
  // and the wisdom file's name for the banner ("": none).
  std::map<std::string, KernelTuning> tuning;
  std::string wisdom_name;
};

struct GeneratedFiles {
  std::map<std::string, std::string> files;  // relative path -> content
  std::vector<KernelPlan> plans;
  // Per kernel: the earlier kernel whose variants it calls (the same code),
  // or "" for one with its own.
  std::vector<std::string> shares_code_with;
  // The number of shards, and per kernel the shard it is in (all 0 for one file).
  std::size_t shards = 1;
  std::vector<std::size_t> shard_of;
};

// Plans every kernel of a checked spec, from its shapes, and renders the files.
GeneratedFiles generate(const CheckedSpec& spec, const GenerateOptions& options);
// The same for an unchecked spec: check_spec first (throws SpecError).
GeneratedFiles generate(const Spec& spec, const GenerateOptions& options);

}  // namespace bcastgen::gen
