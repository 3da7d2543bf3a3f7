// bcastgen tune's choice between timed plans (tune_choice.h).
#include "bcastgen/gen/tune_choice.h"

#include <algorithm>
#include <stdexcept>

namespace bcastgen::gen {

std::vector<double> median_per_trial(const std::vector<std::vector<double>>& per_pass) {
  if (per_pass.empty()) throw std::invalid_argument("tune: no passes");
  std::vector<double> t(per_pass.front().size());
  for (std::size_t c = 0; c < t.size(); ++c) {
    std::vector<double> v;
    for (const auto& pass : per_pass) v.push_back(pass.at(c));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    t[c] = v[v.size() / 2];
  }
  return t;
}

std::size_t tuned_choice(const std::vector<std::vector<double>>& per_pass, std::size_t kinds, std::size_t twin,
                         double keep_within) {
  const std::vector<double> t = median_per_trial(per_pass);
  if (kinds >= t.size() || twin >= t.size() || kinds == twin) throw std::invalid_argument("tune: bad trial index");
  std::size_t best = kinds;
  for (std::size_t c = 0; c < t.size(); ++c) {
    if (c != twin && t[c] < t[best]) best = c;
  }
  // Noise must not flip a fact from run to run: in every pass the winner
  // must beat the faster of the kind's plan's two timings by more than
  // keep_within, so that a gain no larger than what one plan's own timings
  // differ by in that pass does not count.
  const bool always_faster = std::all_of(per_pass.begin(), per_pass.end(), [&](const std::vector<double>& pass) {
    return pass[best] * (1 + keep_within) < std::min(pass[kinds], pass[twin]);
  });
  return always_faster ? best : kinds;
}

}  // namespace bcastgen::gen
