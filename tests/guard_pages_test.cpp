// Kernels never leave their operands: every kernel of the generated tables
// (all_kernel_tables(): the test specs tests/kernels/*.yaml, or the random
// differential specs), on every ISA this CPU runs, with every operand put
// against an inaccessible page (mmap + mprotect PROT_NONE) at both ends:
//   - End:   the operand's last byte is the last byte of a page, and the next
//            page is PROT_NONE (catches reads/writes past the end: tails);
//   - Start: the operand starts at a page start, and the page before it is
//            PROT_NONE (catches reads/writes before the start).
// Both the whole-kernel entry and the split-loop ranges are run. A stray
// access raises SIGSEGV, which kills (and so fails) the test; a handler
// first names the kernel, ISA and placement. Results are also compared with
// the reference, since the placements make operands misaligned.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <string>
#include <memory>
#include <vector>

#include "bcastgen/reference.h"
#include "kernel_reference.h"
#include "bcastgen/registry.h"
#include "kernel_table_list.h"  // all_kernel_tables(), defined by the linked kernel library

namespace {

using bcastgen::DType;
using bcastgen::Isa;
using bcastgen::KernelEntry;
using bcastgen::Op;

enum class Side { End, Start };

const std::size_t kPage = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

// `bytes` of read-write memory with a PROT_NONE page on both sides, placed
// against one of them.
class Guarded {
 public:
  Guarded(std::size_t bytes, Side side) {
    const std::size_t data_pages = std::max<std::size_t>(1, (bytes + kPage - 1) / kPage);
    size_ = (data_pages + 2) * kPage;
    void* m = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      ADD_FAILURE() << "mmap of " << size_ << " bytes failed";
      return;
    }
    base_ = static_cast<unsigned char*>(m);
    mprotect(base_, kPage, PROT_NONE);
    mprotect(base_ + (data_pages + 1) * kPage, kPage, PROT_NONE);
    data_ = side == Side::Start ? base_ + kPage : base_ + (data_pages + 1) * kPage - bytes;
  }
  ~Guarded() {
    if (base_) munmap(base_, size_);
  }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  unsigned char* data() const { return data_; }

 private:
  unsigned char* base_ = nullptr;
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

// What is running, for the SIGSEGV handler (async-signal-safe write only).
char g_current[512] = "";

void on_segv(int sig) {
  const char head[] = "\nguard_pages_test: SIGSEGV (an access outside an operand) in ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, g_current, strlen(g_current));
  (void)!write(2, "\n", 1);
  signal(sig, SIG_DFL);
  raise(sig);
}


// Small, valid values for every dtype (bool: 0 or 1; integer exponents
// small), so that every op is defined and fast.
void fill(DType t, unsigned char* p, std::int64_t n) {
  const int size = bcastgen::dtype_size(t);
  for (std::int64_t i = 0; i < n; ++i) {
    unsigned char* e = p + i * size;
    const int v = static_cast<int>(i % 5) + 1;
    if (t == DType::F32) {
      const float f = static_cast<float>(v) * 0.75f;
      std::memcpy(e, &f, 4);
    } else if (t == DType::F64) {
      const double d = v * 0.75;
      std::memcpy(e, &d, 8);
    } else if (t == DType::Bool) {
      *e = static_cast<unsigned char>(v & 1);
    } else {
      std::memset(e, 0, static_cast<std::size_t>(size));
      *e = static_cast<unsigned char>(v);  // little endian
    }
  }
}

// Runs kernel `k` on `isa` with its operands against guard pages on `side`;
// returns a failure description or "" (a stray access never returns).
std::string run_guarded(const KernelEntry& k, Isa isa, Side side) {
  const DType out_t = k.out_dtype;
  const std::int64_t no = bcastgen::checked_numel(shape_of(k.out));
  const auto bytes = [](std::int64_t n, DType t) { return static_cast<std::size_t>(n * bcastgen::dtype_size(t)); };
  std::vector<std::unique_ptr<Guarded>> in;
  std::vector<const void*> ptrs;
  for (std::size_t i = 0; i < k.input_count; ++i) {
    const std::int64_t n = bcastgen::checked_numel(shape_of(k.inputs[i].shape));
    in.push_back(std::make_unique<Guarded>(bytes(n, k.inputs[i].dtype), side));
    fill(k.inputs[i].dtype, in.back()->data(), n);
    ptrs.push_back(in.back()->data());
  }
  Guarded out(bytes(no, out_t), side);
  std::vector<unsigned char> want(bytes(no, out_t) + 1);
  // A row kernel (reductions) sums in f32 in a fixed order: the scalar
  // variant's bits are the ones to match (generated_kernels_test compares
  // them with the reference within reference::row_tolerance).
  if (bcastgen::has_reductions(bcastgen::entry_dag(k))) {
    k.run(Isa::Scalar, ptrs.data(), want.data());
  } else {
    reference_of(k, ptrs, want.data());
  }
  k.run(isa, ptrs.data(), out.data());
  if (first_difference(out_t, out.data(), want.data(), no) >= 0) return "whole kernel: result differs from the reference";
  // The split loop, in two ranges (or one when it cannot be split).
  std::memset(out.data(), 0, bytes(no, out_t));
  const std::int64_t mid = k.outer_extent / 2;
  k.run_range(isa, mid, k.outer_extent, ptrs.data(), out.data());
  k.run_range(isa, 0, mid, ptrs.data(), out.data());
  if (first_difference(out_t, out.data(), want.data(), no) >= 0) return "ranges: result differs from the reference";
  return "";
}

struct Case {
  const char* spec;
  bcastgen::KernelTable table;
  Isa isa;
};

class GuardPages : public ::testing::TestWithParam<Case> {};

TEST_P(GuardPages, NoAccessOutsideAnyOperand) {
  const Case& c = GetParam();
  if (!runs_here(c.isa)) GTEST_SKIP() << "this CPU cannot run " << bcastgen::isa_name(c.isa);
  ASSERT_GT(c.table.size, 0u);
  signal(SIGSEGV, on_segv);
  signal(SIGBUS, on_segv);
  for (const KernelEntry& k : c.table) {
    for (Side side : {Side::End, Side::Start}) {
      snprintf(g_current, sizeof g_current, "kernel %s of %s (%s -> %s) on %s, operands against the guard page at their %s",
               k.name, c.spec, k.expr, bcastgen::dtype_name(k.out_dtype), bcastgen::isa_name(c.isa),
               side == Side::End ? "end" : "start");
      const std::string failure = run_guarded(k, c.isa, side);
      EXPECT_EQ(failure, "") << g_current;
    }
  }
  g_current[0] = '\0';
  signal(SIGSEGV, SIG_DFL);
  signal(SIGBUS, SIG_DFL);
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& [spec, table] : all_kernel_tables()) {
    for (Isa isa : bcastgen::kAllIsas) cases.push_back({spec, table(), isa});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Specs, GuardPages, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.spec) + "_" + bcastgen::isa_name(info.param.isa);
                         });

}  // namespace
