// What the peers of bench/rows/rows_bench.py (onednn_rows.cpp,
// xnnpack_rows.cpp, halide_rows.cpp) share: raw f32 files in and out, and the timing that
// prints their one JSON line. Each passes its own name for the messages.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace peer {

[[noreturn]] inline void fail(const char* name, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", name, message.c_str());
  std::exit(2);
}

// n floats, 64-byte aligned, zeroed, with `pad` bytes readable past them.
inline float* alloc_floats(const char* name, std::size_t n, std::size_t pad = 0) {
  const std::size_t bytes = (n * sizeof(float) + pad + 63) / 64 * 64 + 64;
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr) fail(name, "out of memory");
  std::memset(p, 0, bytes);
  return static_cast<float*>(p);
}

inline float* read_floats(const char* name, const char* path, std::size_t n, std::size_t pad = 0) {
  float* p = alloc_floats(name, n, pad);
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) fail(name, std::string("cannot open ") + path);
  const std::size_t got = std::fread(p, sizeof(float), n, f);
  const bool extra = std::fgetc(f) != EOF;
  std::fclose(f);
  if (got != n || extra) fail(name, std::string(path) + " does not hold " + std::to_string(n) + " floats");
  return p;
}

inline void write_floats(const char* name, const char* path, const float* p, std::size_t n) {
  std::FILE* f = std::fopen(path, "wb");
  if (f == nullptr) fail(name, std::string("cannot create ") + path);
  const bool ok = std::fwrite(p, sizeof(float), n, f) == n;
  if (std::fclose(f) != 0 || !ok) fail(name, std::string("cannot write ") + path);
}

// Times `call`: the batch size doubles until a batch takes 1 ms, then
// `samples` batches run; prints {mode, median_ns, samples_ns, reps, impl},
// median_ns the median batch's time per call.
template <class Call>
void time_and_print(const std::string& mode, const std::string& impl, int samples, Call&& call) {
  using Clock = std::chrono::steady_clock;
  auto batch = [&](long reps) {
    const auto t0 = Clock::now();
    for (long i = 0; i < reps; ++i) call();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  };
  long reps = 1;
  double t = batch(reps);
  while (t < 1e6 && reps < (1L << 30)) {
    reps *= 2;
    t = batch(reps);
  }
  std::vector<double> per_call;
  for (int i = 0; i < std::max(samples, 1); ++i) per_call.push_back(batch(reps) / static_cast<double>(reps));
  std::vector<double> sorted = per_call;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  std::printf("{\"mode\": \"%s\", \"median_ns\": %.1f, \"samples_ns\": [", mode.c_str(), sorted[sorted.size() / 2]);
  for (std::size_t i = 0; i < per_call.size(); ++i) std::printf("%s%.1f", i ? ", " : "", per_call[i]);
  std::printf("], \"reps\": %ld, \"impl\": \"%s\"}\n", reps, impl.c_str());
}

}  // namespace peer
