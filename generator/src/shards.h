// Which translation unit each kernel of a sharded output goes to
// (GenerateOptions::shards; docs/guide/generated-code.md, "Shards").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bcastgen::gen {

// The shard count: `requested`, or for kAutoShards one shard per
// kShardSourceBytes of `code_bytes` (at least one). Throws InvalidArgument
// above kMaxShards.
std::size_t shard_count(std::size_t requested, std::size_t code_bytes);

// Per kernel, its shard in [0, shards): a consistent hash of the name of
// the kernel whose code it runs (`owners[i]`), so that kernels sharing code
// share a translation unit, the same names always land in the same shards,
// and one shard more moves only the kernels that land in the new one.
std::vector<std::size_t> assign_shards(const std::vector<std::string>& owners, std::size_t shards);

// About the source bytes of a kernel beside its variants' bodies (its entry
// points, checks, table entry and C entries), and of each variant's block
// and drivers: with the bodies' sizes, the estimate of the code that
// kAutoShards divides before any of it is emitted (bench/scale: within 5%
// of the emitted size on the random specs).
inline constexpr std::size_t kEntryPointBytes = 9000;
inline constexpr std::size_t kVariantDriverBytes = 600;

}  // namespace bcastgen::gen
