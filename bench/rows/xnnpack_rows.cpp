// Peer for bench/rows/rows_bench.py: XNNPACK (Debian's libxnnpack-dev, the
// 2022-02 snapshot) on the Softmax rows, f32, operator API, no threadpool
// (one thread), as bench/peer_xnnpack.cpp uses it. The operator is created
// and set up outside the timed region (users cache it); a timed call is
// xnn_run_operator alone.
//
//   g++ -O2 -std=c++17 xnnpack_rows.cpp -o xnnpack_rows -lXNNPACK
//   xnnpack_rows MODE ROWS COLS SAMPLES OUT.bin IN.bin
//
// MODE (input, raw f32 little-endian, row-major [ROWS, COLS]):
//   softmax   x   xnn_create_softmax_nc_f32(channels = COLS, input_stride =
//                 COLS, output_stride = COLS, flags 0) and
//                 xnn_setup_softmax_nc_f32(batch_size = ROWS, no threadpool):
//                 softmax over the last axis
//
// This snapshot's API: create(channels, input_stride, output_stride, flags,
// &op), then setup(op, batch_size, input, output, threadpool); newer
// XNNPACK splits setup into reshape and setup, and this file would need
// changing for it. libXNNPACK.so.0 pulls in libpthreadpool and libcpuinfo
// itself (its DT_NEEDED), so -lXNNPACK links it.
//
// Writes the first call's output to OUT.bin, then times: the batch size
// doubles until a batch takes 1 ms, then SAMPLES batches run; prints one JSON
// line {mode, median_ns, samples_ns, reps, impl}, median_ns the median
// batch's time per call. On an XNNPACK error prints {mode, error} and exits 1.
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "xnnpack_rows: %s\n", message.c_str());
  std::exit(2);
}

float* alloc_floats(std::size_t n) {
  // XNNPACK's kernels may read (never write) past the end of a row by up to
  // XNN_EXTRA_BYTES: pad every buffer by at least that much.
  const std::size_t bytes = (n * sizeof(float) + XNN_EXTRA_BYTES + 63) / 64 * 64 + 64;
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr) fail("out of memory");
  std::memset(p, 0, bytes);
  return static_cast<float*>(p);
}

float* read_floats(const char* path, std::size_t n) {
  float* p = alloc_floats(n);
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) fail(std::string("cannot open ") + path);
  const std::size_t got = std::fread(p, sizeof(float), n, f);
  const bool extra = std::fgetc(f) != EOF;
  std::fclose(f);
  if (got != n || extra) fail(std::string(path) + " does not hold " + std::to_string(n) + " floats");
  return p;
}

void write_floats(const char* path, const float* p, std::size_t n) {
  std::FILE* f = std::fopen(path, "wb");
  if (f == nullptr) fail(std::string("cannot create ") + path);
  const bool ok = std::fwrite(p, sizeof(float), n, f) == n;
  if (std::fclose(f) != 0 || !ok) fail(std::string("cannot write ") + path);
}

int xnn_error(const std::string& mode, const char* what, xnn_status st) {
  std::printf("{\"mode\": \"%s\", \"error\": \"%s failed, xnn_status %d\"}\n", mode.c_str(), what,
              static_cast<int>(st));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) fail("usage: xnnpack_rows MODE ROWS COLS SAMPLES OUT.bin IN.bin");
  const std::string mode = argv[1];
  const long rows = std::atol(argv[2]), cols = std::atol(argv[3]);
  const int samples = std::atoi(argv[4]);
  const char* out_path = argv[5];
  if (mode != "softmax") fail("unknown mode " + mode + " (only softmax)");
  if (rows <= 0 || cols <= 0) fail("ROWS and COLS must be positive");
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);

  const float* in = read_floats(argv[6], n);
  float* out = alloc_floats(n);

  xnn_status st = xnn_initialize(nullptr);
  if (st != xnn_status_success) return xnn_error(mode, "xnn_initialize", st);
  xnn_operator_t op = nullptr;
  const std::size_t channels = static_cast<std::size_t>(cols);
  st = xnn_create_softmax_nc_f32(channels, /*input_stride=*/channels, /*output_stride=*/channels, /*flags=*/0, &op);
  if (st != xnn_status_success) return xnn_error(mode, "xnn_create_softmax_nc_f32", st);
  st = xnn_setup_softmax_nc_f32(op, static_cast<std::size_t>(rows), in, out, /*threadpool=*/nullptr);
  if (st != xnn_status_success) return xnn_error(mode, "xnn_setup_softmax_nc_f32", st);

  auto call = [&] { return xnn_run_operator(op, /*threadpool=*/nullptr); };
  st = call();
  if (st != xnn_status_success) return xnn_error(mode, "xnn_run_operator", st);
  write_floats(out_path, out, n);

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
  std::printf("], \"reps\": %ld, \"impl\": \"softmax_nc_f32, no threadpool\"}\n", reps);

  xnn_delete_operator(op);
  xnn_deinitialize();
  return 0;
}
