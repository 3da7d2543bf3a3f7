// What a peer library offers for one case of any kind: the one interface of
// the benchmark's C++ peers (bench_main.cpp's single ops and fused cases,
// math_bench.cpp's functions, half_bench.cpp's 16-bit floats). A peer
// prepares its buffers and plans outside the timed region and returns the
// call to time, or no call and the reason (the harness prints "n/a" with it).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace bench {

struct PeerRun {
  std::function<void()> run;  // empty: not supported
  std::string na;             // the reason, when `run` is empty
  std::string note;           // e.g. the implementation oneDNN picked
  // Fused cases (fused.h): the bytes one call reads and writes, counting each
  // library call of a chain (0: one pass, the fused kernel's traffic), and
  // the number of calls.
  std::size_t bytes = 0;
  int passes = 1;

  PeerRun() = default;
  // A call to time, from any callable (a peer's `return [=] { ... };`).
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, PeerRun> &&
                                              std::is_invocable_v<std::decay_t<F>&>>>
  PeerRun(F&& f) : run(std::forward<F>(f)) {}  // NOLINT: implicit on purpose

  explicit operator bool() const { return static_cast<bool>(run); }
  void operator()() const { run(); }
};

inline PeerRun not_available(std::string why) {
  PeerRun p;
  p.na = std::move(why);
  return p;
}

}  // namespace bench
