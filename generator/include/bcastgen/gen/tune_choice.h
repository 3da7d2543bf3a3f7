// Which of a kernel's timed plans `bcastgen tune` keeps: the rule, apart
// from the timing, so that it can be checked on figures of one's choosing.
#pragma once

#include <cstddef>
#include <vector>

namespace bcastgen::gen {

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
