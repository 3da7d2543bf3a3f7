#include "intrinsic_families.h"

#include <algorithm>
#include <mutex>
#include <regex>
#include <unordered_map>
#include <vector>

#include "bcastgen/cpu.h"  // detail::split_commas, as the ISA table's lists

namespace bcastgen::clangtool {

std::string intrinsic_family(const std::string& name) {
  if (name.empty() || (name[0] != '_' && name[0] != 'v')) return "";  // no family's names start otherwise
  static const std::vector<std::regex> patterns = [] {
    std::vector<std::regex> p;
    for (const IntrinsicFamily& f : kIntrinsicFamilies) p.emplace_back(f.pattern, std::regex::optimize);
    return p;
  }();
  // A file calls the same few intrinsics thousands of times: each name is matched once.
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = known.find(name); it != known.end()) return it->second;
  std::string family;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (std::regex_match(name, patterns[i])) {
      family = kIntrinsicFamilies[i].name;
      break;
    }
  }
  known.emplace(name, family);
  return family;
}

bool target_enables(const std::string& target, const std::string& family) {
  for (const IntrinsicFamily& f : kIntrinsicFamilies) {
    if (family != f.name) continue;
    const std::vector<std::string> enablers = bcastgen::detail::split_commas(f.enabled_by);
    return enablers.empty() || std::any_of(enablers.begin(), enablers.end(), [&](const std::string& e) {
             return target.find(e) != std::string::npos;
           });
  }
  return true;
}

}  // namespace bcastgen::clangtool
