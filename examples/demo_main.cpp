// Runs every kernel generated from examples/demo.yaml on this CPU's best
// ISA and checks it against the runtime's reference implementation.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bcastgen/reference.h"
#include "bcastgen/registry.h"
#include "demo.h"

int main() {
  int failures = 0;
  std::printf("active isa: %s\n", bcastgen::isa_name(bcastgen::active_isa()));
  for (const bcastgen::KernelEntry& k : demo::demo_kernels()) {
    // The demo's inputs are all f32: input 0 ramps over [-8, 8], the others over [0, 2].
    std::vector<std::vector<float>> data(k.input_count);
    std::vector<bcastgen::ExprOperand> operands;
    std::vector<std::string> names;
    std::vector<const void*> in;
    for (std::size_t j = 0; j < k.input_count; ++j) {
      const bcastgen::Shape shape = k.inputs[j].shape.to_shape();
      std::vector<float>& d = data[j];
      d.resize(static_cast<std::size_t>(bcastgen::checked_numel(shape)));
      for (std::size_t i = 0; i < d.size(); ++i) {
        d[i] = j == 0 ? static_cast<float>(i % 17) - 8.0f : static_cast<float>(i % 5) * 0.5f;
      }
      operands.push_back({d.data(), shape, k.inputs[j].dtype});
      names.emplace_back(k.inputs[j].name);
      in.push_back(d.data());
    }
    const bcastgen::Shape out = k.out.to_shape();
    const int out_size = bcastgen::dtype_size(k.out_dtype);
    const std::size_t out_bytes = static_cast<std::size_t>(bcastgen::checked_numel(out) * out_size);
    std::vector<unsigned char> got(out_bytes), want(out_bytes);
    const auto t0 = std::chrono::steady_clock::now();
    k.run(bcastgen::active_isa(), in.data(), got.data());
    const auto t1 = std::chrono::steady_clock::now();
    if (k.to_target) {
      const bcastgen::Shape mapping = k.axes_mapping.to_shape();
      bcastgen::reference::broadcast_to(k.inputs[0].dtype, k.mode, in[0], operands[0].shape, k.target.to_shape(),
                                        k.axis, mapping, want.data());
    } else {
      bcastgen::reference::evaluate(bcastgen::entry_dag(k), operands, k.rule, k.axis, want.data(), names);
    }
    const bool ok = got == want;
    failures += ok ? 0 : 1;
    std::printf("%-10s %-16s %-28s %s  (%.1f us, first call)\n", k.name, k.to_target ? "broadcast" : k.expr,
                bcastgen::shape_text(k.out).c_str(), ok ? "matches the reference" : "MISMATCH",
                std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return failures == 0 ? 0 : 1;
}
