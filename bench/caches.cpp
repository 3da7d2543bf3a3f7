// Per-core data cache sizes, for the report's "level" column (which cache a
// case's working set fits in). In order of preference, per level:
//  1. sysfs: $BENCH_SYSFS_ROOT/devices/system/cpu/cpu0/cache/index*/{level,type,size}
//     (BENCH_SYSFS_ROOT defaults to /sys; point it at an empty directory to
//     test the fallbacks);
//  2. sysconf(_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE)
//     (glibc reads CPUID itself; BENCH_SKIP_SYSCONF=1 skips it, to test 3);
//  3. CPUID: leaf 4 (Intel) or 0x8000001D (AMD with topology extensions),
//     else AMD's legacy leaves 0x80000005 (L1d) and 0x80000006 (L2, L3).
// Some hypervisors report sizes no core has (an L3 of 508 MiB): they are
// returned as reported; report.py shows them with a note.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define BENCH_HAVE_CPUID 1
#endif

namespace bench {
namespace {

std::map<int, std::int64_t> from_sysfs() {
  std::map<int, std::int64_t> sizes;
  const char* env = std::getenv("BENCH_SYSFS_ROOT");
  const std::string base = std::string(env && *env ? env : "/sys") + "/devices/system/cpu/cpu0/cache/index";
  for (int i = 0; i < 16; ++i) {
    std::ifstream fl(base + std::to_string(i) + "/level"), ft(base + std::to_string(i) + "/type"),
        fs(base + std::to_string(i) + "/size");
    int level = 0;
    std::string type, size;
    if (!(fl >> level) || !(ft >> type) || !(fs >> size) || size.empty()) continue;
    if (type == "Instruction") continue;
    std::int64_t mult = 1;
    if (size.back() == 'K') mult = 1024;
    if (size.back() == 'M') mult = 1024 * 1024;
    const std::int64_t n = std::atoll(size.c_str()) * mult;
    if (n > 0) sizes[level] = n;
  }
  return sizes;
}

std::map<int, std::int64_t> from_sysconf() {
  std::map<int, std::int64_t> sizes;
  const char* skip = std::getenv("BENCH_SKIP_SYSCONF");
  if (skip && std::string(skip) == "1") return sizes;
  const int names[3] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
  for (int level = 1; level <= 3; ++level) {
    const long n = sysconf(names[level - 1]);
    if (n > 0) sizes[level] = n;
  }
  return sizes;
}

std::map<int, std::int64_t> from_cpuid(std::string* leaf) {
  std::map<int, std::int64_t> sizes;
#ifdef BENCH_HAVE_CPUID
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d) == 0) return sizes;
  const unsigned max_leaf = a;
  const bool amd = b == 0x68747541;  // "Auth"enticAMD
  unsigned max_ext = 0;
  if (__get_cpuid(0x80000000, &a, &b, &c, &d)) max_ext = a;
  // Deterministic cache parameters: the same layout in leaf 4 and 0x8000001D.
  auto deterministic = [&](unsigned leaf_id) {
    for (unsigned i = 0; i < 16; ++i) {
      __cpuid_count(leaf_id, i, a, b, c, d);
      const unsigned type = a & 31;
      if (type == 0) break;
      if (type == 2) continue;  // instruction cache
      const int level = static_cast<int>((a >> 5) & 7);
      const std::int64_t bytes = static_cast<std::int64_t>((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
                                 ((b & 0xfff) + 1) * (static_cast<std::int64_t>(c) + 1);
      if (bytes > 0) sizes[level] = bytes;
    }
  };
  if (!amd && max_leaf >= 4) {
    deterministic(4);
    *leaf = "cpuid 4";
  }
  if (sizes.empty() && amd && max_ext >= 0x8000001D) {
    __cpuid(0x80000001, a, b, c, d);
    if (c & (1u << 22)) {  // topology extensions
      deterministic(0x8000001D);
      *leaf = "cpuid 0x8000001D";
    }
  }
  if (sizes.empty() && amd && max_ext >= 0x80000006) {
    __cpuid(0x80000005, a, b, c, d);
    if ((c >> 24) != 0) sizes[1] = static_cast<std::int64_t>(c >> 24) * 1024;
    __cpuid(0x80000006, a, b, c, d);
    if ((c >> 16) != 0) sizes[2] = static_cast<std::int64_t>(c >> 16) * 1024;
    if ((d >> 18) != 0) sizes[3] = static_cast<std::int64_t>(d >> 18) * 512 * 1024;
    *leaf = "cpuid 0x80000005/6";
  }
#else
  (void)leaf;
#endif
  return sizes;
}

}  // namespace

std::vector<CacheLevel> detect_caches() {
  const std::map<int, std::int64_t> sysfs = from_sysfs(), sysconf_sizes = from_sysconf();
  std::string leaf;
  const std::map<int, std::int64_t> cpuid = from_cpuid(&leaf);
  std::vector<CacheLevel> out;
  for (int level = 1; level <= 3; ++level) {
    if (sysfs.count(level)) {
      out.push_back({level, sysfs.at(level), "sysfs"});
    } else if (sysconf_sizes.count(level)) {
      out.push_back({level, sysconf_sizes.at(level), "sysconf"});
    } else if (cpuid.count(level)) {
      out.push_back({level, cpuid.at(level), leaf});
    }
  }
  return out;
}

}  // namespace bench
