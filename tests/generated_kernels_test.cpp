// Every kernel of the test specs (tests/kernels/*.yaml), on every ISA this
// CPU runs, against the runtime's reference implementation: same bytes
// (floats: same value, or both NaN), nothing written past the output, and
// in-place outputs where the Array API allows them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bcastgen/reference.h"
#include "bcastgen/registry.h"
#include "kernel_reference.h"
#include "kernel_table_list.h"  // all_kernel_tables(), defined by the linked kernel library

namespace {

using bcastgen::DType;
using bcastgen::Isa;
using bcastgen::KernelEntry;
using bcastgen::Op;


// Deterministic inputs with the values that matter: zeros (divisors), signs,
// extremes, NaN, -0, infinities and the smallest subnormal for floats, 0/1
// for bool; small exponents for integer power; shift counts around the bit
// width (in range, past it, negative).
// `finite`: no NaN or infinity (a row kernel's row would be all NaN;
// rows_test.cpp propagates them).
std::vector<unsigned char> make_input(DType t, Op op, std::int64_t n, std::mt19937_64& rng, bool exponent,
                                      bool finite = false) {
  const int size = bcastgen::dtype_size(t);
  std::vector<unsigned char> buf(static_cast<std::size_t>(n * size));
  for (std::int64_t i = 0; i < n; ++i) {
    unsigned char* p = buf.data() + i * size;
    const std::uint64_t r = rng();
    if (t == DType::F32 || t == DType::F64) {
      double v = static_cast<double>(static_cast<std::int64_t>(r % 2001) - 1000) / 37.0;
      if (r % 53 == 0 && !finite) v = std::nan("");
      if (r % 29 == 0) v = 0.0;
      if (r % 31 == 0) v = -0.0;
      if (r % 41 == 0 && !finite) v = (r & 64) ? HUGE_VAL : -HUGE_VAL;
      if (r % 47 == 0) v = t == DType::F32 ? static_cast<double>(std::numeric_limits<float>::denorm_min())
                                           : std::numeric_limits<double>::denorm_min();
      if (t == DType::F32) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
        // NaNs whose payload is only in the low half, or all ones: a bf16
        // rounding that skipped its NaN fixup would make them inf or zero.
        if (r % 53 == 0 && (r & 256) && !finite) {
          const std::uint32_t bits = (r & 512) ? 0x7F800001u : 0xFFFFFFFFu;
          std::memcpy(p, &bits, 4);
        }
      } else {
        std::memcpy(p, &v, 8);
      }
    } else if (bcastgen::is_half(t)) {
      // Any bit pattern (NaNs, subnormals, infinities), or values that round:
      // x/37 near 0, the largest finites and the smallest subnormal.
      std::uint16_t h = static_cast<std::uint16_t>(rng());
      const double v = static_cast<double>(static_cast<std::int64_t>(r % 2001) - 1000) / 37.0;
      if (r % 2 == 0) h = t == DType::F16 ? bcastgen::half_from<bcastgen::f16>(v).bits
                                          : bcastgen::half_from<bcastgen::bf16>(v).bits;
      if (r % 29 == 0) h = 0x8000;
      if (r % 31 == 0 && !finite) h = t == DType::F16 ? 0x7bff : 0x7f7f;
      if (r % 37 == 0) h = 0x0001;
      std::memcpy(p, &h, 2);
    } else if (t == DType::Bool) {
      *p = static_cast<unsigned char>(r & 1);
    } else {
      std::uint64_t v = rng();
      if (r % 7 == 0) v = 0;
      if (exponent && op == Op::Power) v = r % 6;  // wraparound is tested elsewhere; keep powers readable
      if (exponent && (op == Op::BitwiseLeftShift || op == Op::BitwiseRightShift)) {
        v = static_cast<std::uint64_t>(static_cast<std::int64_t>(r % static_cast<std::uint64_t>(size * 8 + 6)) - 3);
      }
      std::memcpy(p, &v, static_cast<std::size_t>(size));
    }
  }
  return buf;
}

constexpr std::size_t kGuard = 256;  // sentinel bytes after the output
constexpr unsigned char kSentinel = 0xA5;

// How input k is used, for make_input: the op of a binary node that reads
// it, and whether as that op's second operand (an exponent or shift count).
std::pair<Op, bool> input_use(const bcastgen::ExprDag& dag, std::size_t k) {
  for (const bcastgen::ExprNode& n : dag.nodes) {
    if (n.kind != bcastgen::ExprKind::Binary) continue;
    for (std::size_t a = 0; a < n.args.size(); ++a) {
      const bcastgen::ExprNode& arg = dag.nodes[n.args[a]];
      if (arg.kind == bcastgen::ExprKind::Input && arg.input == k) return {n.op, a == 1};
    }
  }
  return {Op::Add, false};
}

// Runs one kernel on one ISA; returns a failure description or "".
std::string check_kernel(const KernelEntry& k, Isa isa, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const bcastgen::ExprDag dag = bcastgen::entry_dag(k);
  const DType out_t = k.out_dtype;
  const bcastgen::Shape out_shape = shape_of(k.out);
  const std::int64_t out_n = bcastgen::checked_numel(out_shape);
  const std::size_t out_bytes = static_cast<std::size_t>(out_n * bcastgen::dtype_size(out_t));
  // A row kernel (reductions): finite inputs, the reference within
  // row_tolerance (its sums are in long double), and the same bits as the
  // scalar variant (every variant sums in one fixed order).
  const bool rows = bcastgen::has_reductions(dag);
  std::vector<std::vector<unsigned char>> inputs;
  std::vector<const void*> ptrs;
  for (std::size_t i = 0; i < k.input_count; ++i) {
    const auto [op, exponent] = input_use(dag, i);
    inputs.push_back(make_input(k.inputs[i].dtype, op, bcastgen::checked_numel(shape_of(k.inputs[i].shape)), rng,
                                exponent, rows));
  }
  for (const auto& in : inputs) ptrs.push_back(in.data());
  std::vector<unsigned char> want(out_bytes + 1), got(out_bytes + kGuard, kSentinel);
  reference_of(k, ptrs, want.data());
  k.run(isa, ptrs.data(), got.data());
  if (rows) {
    if (const std::int64_t i = bcastgen::reference::first_far_element(out_t, got.data(), want.data(), out_n);
        i >= 0) {
      return "element " + std::to_string(i) + " of " + std::to_string(out_n) + " is farther from the reference " +
             "than reference::row_tolerance";
    }
    std::vector<unsigned char> scalar(out_bytes);
    k.run(Isa::Scalar, ptrs.data(), scalar.data());
    if (const std::int64_t i = first_difference(out_t, got.data(), scalar.data(), out_n); i >= 0) {
      return "element " + std::to_string(i) + " of " + std::to_string(out_n) + " differs from the scalar variant's";
    }
    // The bits themselves (first_difference lets a NaN be any NaN).
    if (std::memcmp(got.data(), scalar.data(), out_bytes) != 0) return "the bits differ from the scalar variant's";
    // The ranges and in-place runs below must give these same bits.
    want.assign(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(out_bytes));
    want.push_back(0);
  } else if (const std::int64_t i = first_difference(out_t, got.data(), want.data(), out_n); i >= 0) {
    return "element " + std::to_string(i) + " of " + std::to_string(out_n) + " differs from the reference";
  }
  for (std::size_t i = out_bytes; i < got.size(); ++i) {
    if (got[i] != kSentinel) return "wrote past the output at byte " + std::to_string(i);
  }
  // Ranges: any partition of the split loop, run in any order, equals one call.
  {
    std::vector<std::int64_t> cuts = {0, k.outer_extent};
    const int pieces = static_cast<int>(rng() % 5);
    for (int i = 0; i < pieces && k.outer_extent > 1; ++i) {
      cuts.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(k.outer_extent + 1)));
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) ranges.emplace_back(cuts[i], cuts[i + 1]);
    std::shuffle(ranges.begin(), ranges.end(), rng);
    std::vector<unsigned char> parts(out_bytes + kGuard, kSentinel);
    for (const auto& [begin, end] : ranges) k.run_range(isa, begin, end, ptrs.data(), parts.data());
    // Element by element as against the reference (a NaN's sign and payload
    // are not specified: a sum of NaNs keeps whichever operand the code
    // generator put first), then the guard bytes.
    if (const std::int64_t i = first_difference(out_t, parts.data(), got.data(), out_n); i >= 0) {
      return "running the split loop in " + std::to_string(ranges.size()) + " ranges of " +
             std::to_string(k.outer_extent) + " differs from one call at element " + std::to_string(i);
    }
    for (std::size_t i = out_bytes; i < parts.size(); ++i) {
      if (parts[i] != kSentinel) {
        return "running the split loop in ranges wrote past the output at byte " + std::to_string(i);
      }
    }
  }
  // In place: an input of the output's shape and type may be the output,
  // unless it is read through a layout (a transpose or a reversed slice
  // reads elements the loop has already written: the checked entry refuses).
  for (std::size_t which = 0; which < k.input_count; ++which) {
    if (shape_of(k.inputs[which].shape) != out_shape || k.inputs[which].dtype != out_t) continue;
    if (k.inputs[which].layout_steps != 0) continue;
    std::vector<unsigned char> buf = inputs[which];
    std::vector<const void*> aliased = ptrs;
    aliased[which] = buf.data();
    k.run(isa, aliased.data(), buf.data());
    if (const std::int64_t i = first_difference(out_t, buf.data(), want.data(), out_n); i >= 0) {
      return std::string("in place on ") + k.inputs[which].name + ": element " + std::to_string(i) + " differs";
    }
  }
  return "";
}

struct Case {
  const char* spec;
  bcastgen::KernelTable table;
  Isa isa;
};

class GeneratedKernels : public ::testing::TestWithParam<Case> {};

TEST_P(GeneratedKernels, MatchReference) {
  const Case& c = GetParam();
  if (!runs_here(c.isa)) GTEST_SKIP() << "this CPU cannot run " << bcastgen::isa_name(c.isa);
  ASSERT_GT(c.table.size, 0u);
  std::uint64_t seed = 1;
  for (const KernelEntry& k : c.table) {
    const std::string failure = check_kernel(k, c.isa, seed++);
    EXPECT_EQ(failure, "") << "kernel " << k.name << " (" << k.expr << " -> "
                           << bcastgen::dtype_name(k.out_dtype) << ") on " << bcastgen::isa_name(c.isa)
                           << "; regenerate with: bcastgen generate tests/kernels/" << c.spec << ".yaml -o <dir>";
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& [spec, table] : all_kernel_tables()) {
    for (Isa isa : bcastgen::kAllIsas) cases.push_back({spec, table(), isa});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Specs, GeneratedKernels, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.spec) + "_" + bcastgen::isa_name(info.param.isa);
                         });

}  // namespace
