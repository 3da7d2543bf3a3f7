// Runs one kernel of the instruction count (count-instructions.sh) REPS
// times under qemu: bcastgen's NEON variant (generated/demo.cpp) or
// XNNPACK's operator for the same op and shapes (Debian's arm64 build,
// which picks its NEON microkernels). The script counts the instructions of
// a run with REPS = 1 and one with REPS = 3: their difference over two runs
// is what one call costs, set-up excluded.
//
//   instructions_driver bcastgen|xnnpack bias_add|mean_sub REPS
#include <xnnpack.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "demo.h"

namespace {

struct Case {
  std::vector<size_t> a, b;  // shapes; the output is a's
  bool add;                  // else subtract
};

// examples/demo.yaml's bias_add and mean_sub.
bool find_case(const std::string& name, Case* c) {
  if (name == "bias_add")
    *c = {{1, 64, 56, 56}, {1, 64, 1, 1}, true};
  else if (name == "mean_sub")
    *c = {{1, 224, 224, 3}, {3}, false};
  else
    return false;
  return true;
}

size_t numel(const std::vector<size_t>& s) {
  size_t n = 1;
  for (size_t d : s) n *= d;
  return n;
}

int run_xnnpack(const Case& c, const float* a, const float* b, float* out, int reps) {
  if (xnn_initialize(nullptr) != xnn_status_success) return 2;
  xnn_operator_t op = nullptr;
  const float lo = -INFINITY, hi = INFINITY;  // no clamp (XNNPACK still applies its min/max)
  if ((c.add ? xnn_create_add_nd_f32(lo, hi, 0, &op) : xnn_create_subtract_nd_f32(lo, hi, 0, &op)) !=
      xnn_status_success) {
    return 2;
  }
  const xnn_status st =
      c.add ? xnn_setup_add_nd_f32(op, c.a.size(), c.a.data(), c.b.size(), c.b.data(), a, b, out, nullptr)
            : xnn_setup_subtract_nd_f32(op, c.a.size(), c.a.data(), c.b.size(), c.b.data(), a, b, out, nullptr);
  if (st != xnn_status_success) return 2;
  for (int r = 0; r < reps; ++r) xnn_run_operator(op, nullptr);
  xnn_delete_operator(op);
  return 0;
}

void run_bcastgen(const Case& c, const float* a, const float* b, float* out, int reps) {
  for (int r = 0; r < reps; ++r) {
    if (c.add)
      demo::bias_add_isa(bcastgen::Isa::Neon, a, b, out);
    else
      demo::mean_sub_isa(bcastgen::Isa::Neon, a, b, out);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Case c;
  if (argc != 4 || !find_case(argv[2], &c)) {
    std::fprintf(stderr, "usage: %s bcastgen|xnnpack bias_add|mean_sub REPS\n", argv[0]);
    return 2;
  }
  const std::string peer = argv[1];
  const int reps = std::atoi(argv[3]);
  std::vector<float> a(numel(c.a)), b(numel(c.b)), out(numel(c.a));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 251) * 0.25f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) - 7.5f;
  if (peer == "xnnpack") {
    if (run_xnnpack(c, a.data(), b.data(), out.data(), reps) != 0) return 3;
  } else if (peer == "bcastgen") {
    run_bcastgen(c, a.data(), b.data(), out.data(), reps);
  } else {
    return 2;
  }
  // Both must compute the same thing: the last element, checked by the script.
  std::printf("%.9g\n", static_cast<double>(out.back()));
  return 0;
}
