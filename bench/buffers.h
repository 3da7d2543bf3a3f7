// bcastgen benchmarks: the buffers every peer of a case reads and writes.
//
// Buffers of 1 MiB and more get transparent huge pages, as NumPy's large
// arrays do (THP is in "madvise" mode on Debian): without this the C++ peers,
// not NumPy, would pay the TLB misses of 4 KiB pages on the DRAM- and
// L3-sized cases. They start at staggered offsets (a multiple of 64 bytes
// past a 2 MiB boundary), so that a case's operands do not all share their
// low address bits, as arrays carved from one heap or arena do not. (Each
// array glibc maps afresh does start at the same offset in its page, as in
// NumPy's and ONNX Runtime's processes; on the Intel Xeon of 2026-12-01 that
// distance of 0 was one of the fast ones for F1, and the default step's 320
// bytes one of the slow ones, by about 10% for every C++ peer alike.) So do
// buffers from 64 KiB, past a 4 KiB boundary: the allocator maps each of
// them at the same offset in a page, which put the L2-sized cases' operands
// at one address modulo 4 KiB (in bcastgen tune's driver, case 2's slowest
// placement on the Intel Xeon, 1.2x the others for every plan; here the
// move changed no case beyond a run's noise). Smaller buffers are 64-byte
// aligned, as the frameworks' allocators give them.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace bench {

struct AlignedFree {
  std::size_t offset = 0;  // of the buffer within its allocation
  void operator()(unsigned char* p) const { std::free(p - offset); }
};
using Buffer = std::unique_ptr<unsigned char, AlignedFree>;

// 64-byte aligned, at least 64 bytes.
inline Buffer aligned_buffer(std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t{2} << 20, kPage = 4096;
  if (bytes < (std::size_t{64} << 10)) {
    void* p = std::aligned_alloc(64, std::max<std::size_t>((bytes + 63) / 64 * 64, 64));
    if (p == nullptr) throw std::bad_alloc();
    return Buffer(static_cast<unsigned char*>(p));
  }
  const bool huge = bytes >= (std::size_t{1} << 20);
  static unsigned counter = 0, page_counter = 0;  // apart, so that the huge ones' offsets stay as they were
  // BENCH_STAGGER_BYTES (a multiple of 64; default 4416 = 4096 + 320) sets the
  // step: bench/plan_ab/run.sh sweeps it to time plans at other placements. A
  // bad value stops the run rather than timing the default under its name.
  static const std::size_t step = [] {
    const char* v = std::getenv("BENCH_STAGGER_BYTES");
    if (v == nullptr) return std::size_t{4096 + 64 * 5};
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n < 0 || n % 64 != 0) {
      std::fprintf(stderr, "BENCH_STAGGER_BYTES='%s': not a non-negative multiple of 64\n", v);
      std::exit(2);
    }
    return static_cast<std::size_t>(n);
  }();
  const std::size_t align = huge ? kHuge : kPage;
  const std::size_t offset = huge ? (counter++ % 8) * step : (page_counter++ % 8) * step % kPage;
  const std::size_t size = (bytes + offset + align - 1) / align * align;
  void* p = std::aligned_alloc(align, size);
  if (p == nullptr) throw std::bad_alloc();
  if (huge) madvise(p, size, MADV_HUGEPAGE);  // advice only: failure is harmless
  return Buffer(static_cast<unsigned char*>(p) + offset, AlignedFree{offset});
}

// n zeroed elements of T in an aligned_buffer, for the code that held a std::vector.
template <class T>
class AlignedArray {
 public:
  explicit AlignedArray(std::size_t n) : buf_(aligned_buffer(n * sizeof(T))), n_(n) {
    std::memset(buf_.get(), 0, n * sizeof(T));
  }
  T* data() { return reinterpret_cast<T*>(buf_.get()); }
  const T* data() const { return reinterpret_cast<const T*>(buf_.get()); }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }

 private:
  Buffer buf_;
  std::size_t n_;
};

}  // namespace bench
