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
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "peer_io.h"

namespace {

constexpr const char* kName = "xnnpack_rows";

[[noreturn]] void fail(const std::string& message) { peer::fail(kName, message); }

// XNNPACK's kernels may read (never write) past the end of a row by up to
// XNN_EXTRA_BYTES: every buffer is padded by that much.
float* read_floats(const char* path, std::size_t n) { return peer::read_floats(kName, path, n, XNN_EXTRA_BYTES); }
float* alloc_floats(std::size_t n) { return peer::alloc_floats(kName, n, XNN_EXTRA_BYTES); }
void write_floats(const char* path, const float* p, std::size_t n) { peer::write_floats(kName, path, p, n); }

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

  peer::time_and_print(mode, "softmax_nc_f32, no threadpool", samples, call);

  xnn_delete_operator(op);
  xnn_deinitialize();
  return 0;
}
