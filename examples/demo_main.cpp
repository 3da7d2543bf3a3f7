// Runs every kernel generated from examples/demo.yaml on this CPU's best
// ISA and checks it against the runtime's reference implementation.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bcastgen/reference.h"
#include "demo.h"

int main() {
  int failures = 0;
  std::printf("active isa: %s\n", bcastgen::isa_name(bcastgen::active_isa()));
  for (const bcastgen::KernelEntry& k : demo::demo_kernels()) {
    const bcastgen::Shape a(k.a.dims, k.a.dims + k.a.rank), b(k.b.dims, k.b.dims + k.b.rank);
    const bcastgen::Shape out(k.out.dims, k.out.dims + k.out.rank);
    const int out_size = bcastgen::dtype_size(bcastgen::result_dtype(k.op, k.dtype));
    std::vector<float> a_data(static_cast<std::size_t>(bcastgen::checked_numel(a)));
    std::vector<float> b_data(static_cast<std::size_t>(bcastgen::checked_numel(b)));
    for (std::size_t i = 0; i < a_data.size(); ++i) a_data[i] = static_cast<float>(i % 17) - 8.0f;
    for (std::size_t i = 0; i < b_data.size(); ++i) b_data[i] = static_cast<float>(i % 5) * 0.5f;
    const std::size_t out_bytes = static_cast<std::size_t>(bcastgen::checked_numel(out) * out_size);
    std::vector<unsigned char> got(out_bytes), want(out_bytes);
    const auto t0 = std::chrono::steady_clock::now();
    k.run(bcastgen::active_isa(), a_data.data(), b_data.data(), got.data());
    const auto t1 = std::chrono::steady_clock::now();
    if (k.op == bcastgen::Op::Broadcast) {
      const bcastgen::Shape mapping(k.axes_mapping.dims, k.axes_mapping.dims + k.axes_mapping.rank);
      bcastgen::reference::broadcast_to(k.dtype, k.mode, a_data.data(), a, b, k.axis, mapping, want.data());
    } else {
      bcastgen::reference::binary(k.op, k.dtype, k.rule, k.axis, a_data.data(), a, b_data.data(), b, want.data());
    }
    const bool ok = got == want;
    failures += ok ? 0 : 1;
    std::printf("%-10s %-10s %-28s %s  (%.1f us, first call)\n", k.name, bcastgen::op_name(k.op),
                bcastgen::shape_text(k.out).c_str(), ok ? "matches the reference" : "MISMATCH",
                std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return failures == 0 ? 0 : 1;
}
