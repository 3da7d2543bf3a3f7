// Roofs, measured in the same run as the cases: hand-written loops of
// c[i] = a[i] + b[i] (f32, 64-byte aligned, 4 vectors per iteration) at
// sizes that live in each level of the memory hierarchy, with normal and with
// streaming stores, and c[i] = a[i] + b[0] in the L2 and L3 (roof_loops.h).
// Each roof is measured with AVX2 and, where the CPU has it, AVX-512 vectors,
// as "NAME@ISA"; report.py takes the faster of the two as the machine's roof
// NAME.
#include <cstring>

#include "roof_loops.h"

namespace bench {

RoofArrays::RoofArrays(std::int64_t n_) : n(n_) {
  const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
  a = aligned_buffer(bytes);
  b = aligned_buffer(bytes);
  c = aligned_buffer(bytes);
  auto* pa = reinterpret_cast<float*>(a.get());
  auto* pb = reinterpret_cast<float*>(b.get());
  for (std::int64_t i = 0; i < n; ++i) {
    pa[i] = static_cast<float>(i % 509) * 0.25f;
    pb[i] = static_cast<float>(i % 311) * 0.5f;
  }
  std::memset(c.get(), 0, bytes);
}

namespace {

// A loop over a, b and c that moves `per_element` bytes of them per element.
Roof abc_roof(const RoofKernels& k, const std::string& name, std::int64_t n,
              void (*fn)(const float*, const float*, float*, std::int64_t), std::size_t per_element) {
  auto arr = std::make_shared<RoofArrays>(n);
  return {name + "@" + k.isa, n, static_cast<std::size_t>(n) * per_element,
          [arr, fn] { fn(arr->fa(), arr->fb(), arr->fc(), arr->n); }};
}

Roof add_roof(const RoofKernels& k, const std::string& name, std::int64_t n, bool stream) {
  return abc_roof(k, name, n, stream ? k.add_stream : k.add_store, 12);
}

// c = a + b[0]: a read and c written.
Roof copy_roof(const RoofKernels& k, const std::string& name, std::int64_t n) {
  return abc_roof(k, name, n, k.copy_store, 8);
}

Roof fill_roof(const RoofKernels& k, const std::string& name, std::int64_t n) {
  auto arr = std::make_shared<RoofArrays>(n);
  auto* fn = k.fill_stream;
  return {name + "@" + k.isa, n, static_cast<std::size_t>(n) * 4, [arr, fn] { fn(arr->fa(), arr->fc(), arr->n); }};
}

}  // namespace

std::vector<Roof> make_roofs() {
  std::vector<RoofKernels> isas = {avx2_roof_kernels()};
  if (__builtin_cpu_supports("avx512f")) isas.push_back(avx512_roof_kernels());
  std::vector<Roof> roofs;
  for (const RoofKernels& k : isas) {
    // The brief's three roofs. DRAM: case 1's size (3 x 16 MiB, beyond the L3).
    roofs.push_back(add_roof(k, "dram_add_store", 4194304, false));
    roofs.push_back(add_roof(k, "dram_add_stream", 4194304, true));
    // L1: 3 x 8 KiB, well inside a 32 or 48 KiB L1d.
    roofs.push_back(add_roof(k, "l1_add", 2048, false));
    // For the diagnosis only: L2 (3 x 64 KiB, inside 512 KiB or more), L3 (3 x 2 MiB,
    // beyond a 1 MiB L2, inside 32 MiB), and write-only streaming (case 13's 32 MiB output).
    roofs.push_back(add_roof(k, "l2_add", 16384, false));
    // L2 at 1.5 MiB (3 x 512 KiB), the footprint of cases 2, 3 and 12b: where the
    // L2 holds 2 MiB (Intel Xeon since Sapphire Rapids) they live there, and an
    // add loop at three quarters of it reaches less than at 192 KiB.
    roofs.push_back(add_roof(k, "l2_add_1536kib", 131072, false));
    // The same footprint read once and written once (2 x 768 KiB), as a bias add:
    // a store that is not streaming reads its line first, so this loop moves 3
    // lines for every 2 counted where the add moves 4 for 3. report.py judges a
    // case against the loop of its level nearest its footprint and mix.
    roofs.push_back(copy_roof(k, "l2_copy_1536kib", 196608));
    roofs.push_back(add_roof(k, "l3_add", 524288, false));
    roofs.push_back(copy_roof(k, "l3_copy", 786432));
    // L3 at 12 MiB (3 x 4 MiB), the footprint of cases 5, 10, F3 and F6: on a VM
    // that shares its L3 with other tenants, the add loop there reaches less than
    // at 6 MiB (Zen 4: 81 against 95 GB/s), so such a case is judged against this.
    // Each L3 footprint also has its copy loop (report.py: the nearest mix).
    roofs.push_back(add_roof(k, "l3_add_12mib", 1048576, false));
    roofs.push_back(copy_roof(k, "l3_copy_12mib", 1572864));
    roofs.push_back(fill_roof(k, "dram_fill_stream", 8388608));
  }
  return roofs;
}

}  // namespace bench
