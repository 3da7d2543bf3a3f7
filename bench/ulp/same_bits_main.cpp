// same_bits.sh's driver: every 2^32 f32 bit pattern through lanes_old and
// lanes_new, in blocks; prints how many results differ in any bit. A NaN
// for a NaN counts as the same, as in simd_math_test (which NaN an
// operation passes on, and so its sign, can depend on the operand order the
// compiler picks for an fma), but those whose bits differ are counted too.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" void lanes_old(const float* x, float* y, long n);
extern "C" void lanes_new(const float* x, float* y, long n);

int main() {
  const long block = 1 << 20;
  std::vector<float> x(block), a(block), b(block);
  std::uint64_t differ = 0, nan_bits = 0;
  std::uint32_t first = 0;
  for (std::uint64_t base = 0; base < (std::uint64_t{1} << 32); base += block) {
    for (long i = 0; i < block; ++i) {
      const auto bits = static_cast<std::uint32_t>(base + i);
      std::memcpy(&x[i], &bits, sizeof bits);
    }
    lanes_old(x.data(), a.data(), block);
    lanes_new(x.data(), b.data(), block);
    for (long i = 0; i < block; ++i) {
      if (std::memcmp(&a[i], &b[i], sizeof(float)) == 0) continue;
      if (std::isnan(a[i]) && std::isnan(b[i]))
        ++nan_bits;
      else if (differ++ == 0)
        first = static_cast<std::uint32_t>(base + i);
    }
  }
  if (differ == 0) {
    std::printf("the same bits on all 2^32 inputs (NaN for NaN; %llu NaNs with other bits)\n",
                static_cast<unsigned long long>(nan_bits));
    return 0;
  }
  std::printf("%llu inputs differ (the first: bits 0x%08x)\n", static_cast<unsigned long long>(differ), first);
  return 1;
}
