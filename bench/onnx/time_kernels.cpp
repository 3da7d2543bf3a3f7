// Times every kernel of the generated tables listed in tables.h (written by
// bench/onnx/CMakeLists.txt: one `bcastgen onnx` output per model), on the ISA the
// CPU's dispatch picks, inputs uniform over [-4, 4), median of RUNS runs after
// warm-up. Beside each, the copy roof of its traffic: the time memcpy takes
// to move as many bytes (its parameters read once, its output written once),
// measured at the same size. Prints: table, kernel, median ns, roof ns, bytes.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/registry.h"
#include "tables.h"  // kTables: {name, table}

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double median_ns(int runs, F&& f) {
  for (int i = 0; i < 5; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto a = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::nano>(Clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + runs / 2, t.end());
  return t[static_cast<std::size_t>(runs / 2)];
}

std::size_t bytes_of(const bcastgen::ShapeRef& s, bcastgen::DType t) {
  std::size_t n = static_cast<std::size_t>(bcastgen::dtype_info(t).size);
  for (std::size_t k = 0; k < s.rank; ++k) n *= static_cast<std::size_t>(s.dims[k]);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 51;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  const bcastgen::Isa isa = bcastgen::detected_isa();
  for (const auto& [table_name, table] : kTables) {
    for (const bcastgen::KernelEntry& e : table()) {
      std::vector<std::vector<float>> in;
      std::vector<const void*> ptr;
      std::size_t traffic = 0;
      for (std::size_t k = 0; k < e.input_count; ++k) {
        const std::size_t b = bytes_of(e.inputs[k].shape, e.inputs[k].dtype);
        std::vector<float> v((b + 3) / 4);
        for (float& x : v) x = uniform(rng);
        in.push_back(std::move(v));
        traffic += b;
      }
      for (const auto& v : in) ptr.push_back(v.data());
      const std::size_t out_bytes = bytes_of(e.out, e.out_dtype);
      traffic += out_bytes;
      std::vector<char> out(out_bytes);
      const double t = median_ns(runs, [&] { e.run(isa, ptr.data(), out.data()); });
      // memcpy moves 2 bytes of traffic per byte copied (a read and a write).
      std::vector<char> src(traffic / 2 + 64, 1), dst(traffic / 2 + 64);
      const double roof = median_ns(runs, [&] { std::memcpy(dst.data(), src.data(), traffic / 2); });
      std::printf("%s\t%s\t%.0f\t%.0f\t%zu\t%s\n", table_name, e.name, t, roof, traffic, bcastgen::isa_name(isa));
    }
  }
  return 0;
}
