// Which of a kernel's timed plans `bcastgen tune` keeps: the rule, apart
// from the timing, so that it can be checked on figures of one's choosing,
// and where the timing places the buffers.
#pragma once

#include <cstddef>
#include <vector>

namespace bcastgen::gen {

// The placements each trial is timed at, as the bytes between the starts of
// successive streams (buffers from 64 KiB) modulo 4 KiB, or 2 MiB from
// 1 MiB on; a trial's time is the mean over them. A loop whose loads run
// into the addresses of stores still in flight modulo 4 KiB can lose a third
// of its speed at one placement and nothing at the next (AVX-512 on Zen 4 at
// 64 bytes), so the mean should be what a kernel takes on average over where
// its buffers land: the points are k * 576 (9 lines) for k = 0..7, one in
// each eighth of the 4 KiB, also at twice the step (a third stream's
// distance from the first). 0 is one: every stream at the same address
// bits, as separately mmap'd arrays come. (Until 2026-12-01 they were 0, 64,
// 320 and 2048, which charged a plan slow at 64 bytes only for a quarter of
// all placements.)
inline constexpr std::size_t kTuneStaggers[] = {0, 576, 1152, 1728, 2304, 2880, 3456, 4032};

// per_pass[pass][trial]: each trial's time in each pass of the tune driver.
// `kinds` is the trial of the plan the CPU kind's row gives and `twin` the
// same code timed again as one more trial (an A/A pair: what two timings of
// one plan differ by in that pass). Returns the trial to write: the fastest
// by its median over the passes if, in every pass, it is faster than both
// timings of the kind's plan by more than keep_within (a fraction), else
// `kinds`. The twin is never returned.
std::size_t tuned_choice(const std::vector<std::vector<double>>& per_pass, std::size_t kinds, std::size_t twin,
                         double keep_within);

// The median of each trial over the passes.
std::vector<double> median_per_trial(const std::vector<std::vector<double>>& per_pass);

}  // namespace bcastgen::gen
