// Two loops timed in alternating rounds in one process, for
// math/ab_driver.cpp (two builds of a kernel), and math_bench --versus and
// bcastgen_bench --versus (bcastgen's loop and a peer's): the host's drift,
// which moves whole runs by 10% to 30% here, hits both sides of a round
// alike, so the ratio of a round's times is steadier than either side's.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace bench {

// Calls per timed block: 2 of a DRAM-sized loop, 300 in cache.
inline int alternate_calls(long elements) { return elements >= 8L * 128 * 3072 ? 2 : 300; }

template <class Run>
double nanoseconds_per_call(const Run& run, int calls) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) run();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / calls;
}

// Medians of a's and b's ns per element and of the ratio b / a, with the
// ratio's quartiles, over 41 rounds after a warm-up of each.
struct Alternation {
  double a, b, ratio, ratio_q1, ratio_q3;
};

template <class RunA, class RunB>
Alternation alternate(const RunA& a, const RunB& b, long elements) {
  const int calls = alternate_calls(elements);
  nanoseconds_per_call(a, calls);
  nanoseconds_per_call(b, calls);
  std::vector<double> ta, tb, ratio;
  for (int round = 0; round < 41; ++round) {
    const double x = nanoseconds_per_call(a, calls), y = nanoseconds_per_call(b, calls);
    ta.push_back(x / static_cast<double>(elements));
    tb.push_back(y / static_cast<double>(elements));
    ratio.push_back(y / x);
  }
  for (std::vector<double>* v : {&ta, &tb, &ratio}) std::sort(v->begin(), v->end());
  return {ta[20], tb[20], ratio[20], ratio[10], ratio[30]};
}

}  // namespace bench
