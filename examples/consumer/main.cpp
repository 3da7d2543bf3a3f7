// A consumer of an installed bcastgen: runs every kernel generated from
// resnet50.yaml (by bcastgen_generate, at build time) on every ISA this CPU
// supports, and checks each result byte for byte against the runtime's
// reference implementation. Exit status 0 when all match.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bcastgen/reference.h"
#include "bcastgen/registry.h"
#include "resnet50.h"

namespace {

std::vector<float> ramp(const bcastgen::ShapeRef& s, int period, float scale, float offset) {
  std::vector<float> v(static_cast<std::size_t>(bcastgen::numel(s)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % period)) * scale + offset;
  return v;
}

}  // namespace

int main() {
  int checked = 0, failures = 0;
  std::printf("active isa: %s\n", bcastgen::isa_name(bcastgen::active_isa()));
  // Input patterns, one per parameter position (every kernel here is a binary op on a and b).
  const int periods[] = {23, 7};
  const float scales[] = {0.25f, 0.5f}, offsets[] = {-2.5f, -1.0f};
  for (const bcastgen::KernelEntry& k : resnet50::resnet50_kernels()) {
    // Inputs with negative and positive values, so ReLU (maximum with 0) does something.
    std::vector<std::vector<float>> data;
    std::vector<bcastgen::ExprOperand> operands;
    std::vector<const void*> in;
    std::vector<std::string> names;
    data.reserve(k.input_count);
    for (std::size_t i = 0; i < k.input_count; ++i) {
      const bcastgen::KernelInput& input = k.inputs[i];
      data.push_back(ramp(input.shape, periods[i % 2], scales[i % 2], offsets[i % 2]));
      operands.push_back({data.back().data(), input.shape.to_shape(), input.dtype});
      names.emplace_back(input.name);
    }
    for (const std::vector<float>& d : data) in.push_back(d.data());
    std::vector<float> want(static_cast<std::size_t>(bcastgen::numel(k.out)));
    bcastgen::reference::evaluate(bcastgen::entry_dag(k), operands, k.rule, k.axis, want.data(), names);
    for (bcastgen::Isa isa : bcastgen::kAllIsas) {
      if (!bcastgen::cpu_supports(isa)) continue;
      std::vector<float> got(want.size(), -12345.0f);
      const auto t0 = std::chrono::steady_clock::now();
      k.run(isa, in.data(), got.data());
      const auto t1 = std::chrono::steady_clock::now();
      const bool ok = got == want;
      ++checked;
      failures += ok ? 0 : 1;
      std::printf("%-24s %-18s %-7s %-18s %s  (%.1f us)\n", k.name, k.expr, bcastgen::isa_name(isa),
                  bcastgen::shape_text(k.out).c_str(), ok ? "matches the reference" : "MISMATCH",
                  std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }

  // The typed entry points, as application code calls them: the unchecked
  // function with fixed shapes, and the checked one, which validates views.
  std::vector<float> logits(1000, 1.0f), bias(1000, 0.5f), out(1000);
  resnet50::fc_bias(logits.data(), bias.data(), out.data());
  if (out[999] != 1.5f) {
    std::printf("fc_bias: got %g, want 1.5\n", static_cast<double>(out[999]));
    ++failures;
  }
  try {
    const bcastgen::Shape wrong{1, 999}, bias_shape{1000}, out_shape{1, 1000};
    resnet50::fc_bias_checked({logits.data(), wrong}, {bias.data(), bias_shape}, {out.data(), out_shape});
    std::printf("fc_bias_checked accepted a [1,999] input\n");
    ++failures;
  } catch (const std::exception& e) {
    std::printf("fc_bias_checked rejects a wrong shape: %s\n", e.what());
  }

  std::printf("%d kernel runs checked, %d mismatches\n", checked, failures);
  return failures == 0 ? 0 : 1;
}
