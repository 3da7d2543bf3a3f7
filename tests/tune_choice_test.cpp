// bcastgen tune's rule for replacing the CPU kind's plan (tune_choice.h), on
// figures chosen so that each clause decides, and the placements it times at.
#include <gtest/gtest.h>

#include <iterator>
#include <stdexcept>
#include <vector>

#include "bcastgen/gen/tune_choice.h"

namespace {

using bcastgen::gen::median_per_trial;
using bcastgen::gen::tuned_choice;
using Passes = std::vector<std::vector<double>>;

// Trials: 0 the kind's plan, 1 and 2 others, 3 the kind's plan again.
constexpr std::size_t kKinds = 0, kTwin = 3;

TEST(TuneChoice, AFasterPlanInEveryPassReplacesTheKinds) {
  const Passes p = {{100, 95, 99, 101}, {102, 96, 100, 100}, {99, 94, 98, 100}};
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.01), 1u);
}

TEST(TuneChoice, AGainNoLargerThanTheTwinsSpreadKeepsTheKinds) {
  // Trial 1 is 5% faster than the kind's first timing in every pass, but in
  // the second pass the same code timed again was as fast.
  const Passes p = {{100, 95, 99, 100}, {100, 95, 99, 95.5}, {100, 95, 99, 101}};
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.01), kKinds);
  // With the twin's second timing at 97, trial 1 clears it by more than 1%.
  Passes q = p;
  q[1][3] = 97;
  EXPECT_EQ(tuned_choice(q, kKinds, kTwin, 0.01), 1u);
}

TEST(TuneChoice, AWinInSomePassesOnlyKeepsTheKinds) {
  const Passes p = {{100, 95, 99, 100}, {100, 101, 99, 100}, {100, 95, 99, 100}};
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.01), kKinds);
}

TEST(TuneChoice, AGainWithinKeepWithinKeepsTheKinds) {
  const Passes p = {{100, 98, 99, 100}, {100, 98, 99, 100}, {100, 98, 99, 100}};
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.03), kKinds);
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.01), 1u);
}

TEST(TuneChoice, TheTwinIsNeverTheChoice) {
  // The twin timed fastest: the choice is among the real trials, by their
  // medians (trial 2 at 96 beats trial 1's median of 97).
  const Passes p = {{100, 97, 96, 80}, {100, 90, 96, 80}, {100, 97, 95, 80}};
  EXPECT_EQ(median_per_trial(p), (std::vector<double>{100, 97, 96, 80}));
  EXPECT_EQ(tuned_choice(p, kKinds, kTwin, 0.01), kKinds);  // nothing beats the twin's 80
  const Passes q = {{100, 97, 96, 99}, {100, 90, 96, 99}, {100, 97, 95, 99}};
  EXPECT_EQ(tuned_choice(q, kKinds, kTwin, 0.01), 2u);
}

// The mean over placements stands for where a kernel's buffers may land:
// the distance of the second stream from the first (one step) and of the
// third (two steps), modulo 4 KiB, put one point in each eighth of the page,
// on cache lines, with 0 (separately mmap'd arrays) among them.
TEST(TuneChoice, PlacementsSpreadEvenlyOverTheFourKiB) {
  constexpr std::size_t kPage = 4096, kParts = std::size(bcastgen::gen::kTuneStaggers);
  EXPECT_EQ(bcastgen::gen::kTuneStaggers[0], 0u);
  for (std::size_t steps : {1, 2}) {
    std::vector<int> per_part(kParts, 0);
    for (std::size_t s : bcastgen::gen::kTuneStaggers) {
      const std::size_t d = s * steps % kPage;
      EXPECT_EQ(d % 64, 0u) << s;
      ++per_part[d * kParts / kPage];
    }
    EXPECT_EQ(per_part, std::vector<int>(kParts, 1)) << steps << " step(s)";
  }
}

TEST(TuneChoice, BadIndicesThrow) {
  const Passes p = {{100, 95, 99, 100}};
  EXPECT_THROW(tuned_choice(p, 4, kTwin, 0.01), std::invalid_argument);
  EXPECT_THROW(tuned_choice(p, kKinds, kKinds, 0.01), std::invalid_argument);
  EXPECT_THROW(tuned_choice({}, kKinds, kTwin, 0.01), std::invalid_argument);
}

}  // namespace
