// Peer for bench/rows/rows_bench.py: Halide 14 (halide_rows_generator.cpp),
// one ahead-of-time pipeline per case, built by bench/rows/CMakeLists.txt,
// which writes halide_rows.h: their headers and the list
// HALIDE_ROWS_CASES(X), X(case, rows, cols). The
// buffers are wrapped outside the timed region; a timed call is one call of
// the pipeline.
//
//   halide_rows CASE ROWS COLS SAMPLES OUT.bin X.bin [R.bin] [G.bin] [B.bin]
//
// The inputs are those of the case, in rows_bench.py's order (x, r, g, b;
// absent ones are not read by its pipeline). Prints one JSON line as
// peer_io.h does.
#include <HalideBuffer.h>

#include <cstdlib>
#include <string>

#include "halide_rows.h"
#include "peer_io.h"

namespace {

constexpr const char* kName = "halide_rows";
using Pipeline = int (*)(halide_buffer_t*, halide_buffer_t*, halide_buffer_t*, halide_buffer_t*, halide_buffer_t*);

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) peer::fail(kName, "usage: halide_rows CASE ROWS COLS SAMPLES OUT.bin X.bin [R.bin] [G.bin] [B.bin]");
  const std::string name = argv[1];
  const int rows = std::atoi(argv[2]), cols = std::atoi(argv[3]), samples = std::atoi(argv[4]);
  Pipeline p = nullptr;
  int fixed_rows = 0, fixed_cols = 0;  // the pipeline's extents (bench/rows/CMakeLists.txt)
#define BENCH_HALIDE_ROWS_PICK_(NAME, ROWS, COLS) \
  if (name == #NAME) p = &hl_##NAME, fixed_rows = ROWS, fixed_cols = COLS;
  HALIDE_ROWS_CASES(BENCH_HALIDE_ROWS_PICK_)
#undef BENCH_HALIDE_ROWS_PICK_
  if (p == nullptr) peer::fail(kName, "no pipeline for case " + name);
  if (rows != fixed_rows || cols != fixed_cols) {
    peer::fail(kName, "case " + name + " is " + std::to_string(rows) + " x " + std::to_string(cols) +
                          " but its pipeline was built for " + std::to_string(fixed_rows) + " x " +
                          std::to_string(fixed_cols) + " (bench/rows/CMakeLists.txt)");
  }
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  // x, then r if the case has it ([rows, cols]), then g and b ([cols]).
  const int given = argc - 6;
  float* x = peer::read_floats(kName, argv[6], n);
  float* r = x;
  int next = 7;
  if (given == 4) r = peer::read_floats(kName, argv[next++], n);
  float* g = next < argc ? peer::read_floats(kName, argv[next++], static_cast<std::size_t>(cols)) : x;
  float* b = next < argc ? peer::read_floats(kName, argv[next++], static_cast<std::size_t>(cols)) : x;
  float* y = peer::alloc_floats(kName, n);
  Halide::Runtime::Buffer<float> bx(x, cols, rows), br(r, cols, rows), bg(g, cols), bb(b, cols), by(y, cols, rows);
  auto call = [&] {
    if (p(bx.raw_buffer(), br.raw_buffer(), bg.raw_buffer(), bb.raw_buffer(), by.raw_buffer()) != 0) {
      peer::fail(kName, "the pipeline returned an error");
    }
  };
  call();
  peer::write_floats(kName, argv[5], y, n);
  peer::time_and_print(name, "halide " + name, samples, call);
  return 0;
}
