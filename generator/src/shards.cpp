#include "shards.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "bcastgen/errors.h"
#include "bcastgen/gen/emit.h"

namespace bcastgen::gen {
namespace {

// 64-bit FNV-1a: the same on every host and compiler.
std::uint64_t name_hash(const std::string& name) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Lamping and Veach's jump consistent hash: a bucket in [0, buckets) such
// that going from N to N + 1 buckets moves only the keys that land in the
// new one (about 1/(N + 1) of them).
std::size_t jump_consistent_hash(std::uint64_t key, std::size_t buckets) {
  std::int64_t b = -1, j = 0;
  while (j < static_cast<std::int64_t>(buckets)) {
    b = j;
    key = key * 2862933555777941757ull + 1;
    j = static_cast<std::int64_t>(static_cast<double>(b + 1) *
                                  (static_cast<double>(std::int64_t{1} << 31) / static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<std::size_t>(b);
}

}  // namespace

std::size_t shard_count(std::size_t requested, std::size_t code_bytes) {
  if (requested > kMaxShards) throw InvalidArgument(fmt::format("shards: {} is more than {}", requested, kMaxShards));
  if (requested != kAutoShards) return requested;
  return std::clamp<std::size_t>((code_bytes + kShardSourceBytes - 1) / kShardSourceBytes, 1, kMaxShards);
}

std::vector<std::size_t> assign_shards(const std::vector<std::string>& owners, std::size_t shards) {
  std::vector<std::size_t> shard_of;
  shard_of.reserve(owners.size());
  for (const std::string& owner : owners) {
    shard_of.push_back(shards > 1 ? jump_consistent_hash(name_hash(owner), shards) : 0);
  }
  return shard_of;
}

std::string shard_file_name(const std::string& stem, std::size_t shard) {
  return fmt::format("{}_shard{}.cpp", stem, shard);
}

bool is_shard_file_name(const std::string& stem, const std::string& file) {
  const std::string prefix = stem + "_shard", suffix = ".cpp";
  if (file.size() <= prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  const std::string digits = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
  return digits.find_first_not_of("0123456789") == std::string::npos && (digits == "0" || digits[0] != '0');
}

}  // namespace bcastgen::gen
