// The inspect checks (generator/clang/) on code strings, in-process, as
// clang-tidy's unit tests run a check: a clean kernel passes; a run-time
// loop bound, stride, subscript or block argument is reported with the
// kernel, the variant and the line; intrinsics outside the variant's ISA or
// target, and stores that do not cover the output, are mismatches.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bcastgen/clang/format.h"
#include "bcastgen/clang/inspect.h"
#include "bcastgen/cpu.h"
#include "intrinsic_families.h"  // generator/clang/src

namespace {

using bcastgen::clangtool::Finding;
using bcastgen::clangtool::InspectReport;
using bcastgen::clangtool::KernelReport;
using bcastgen::clangtool::SourceInput;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// The 1-based line of the first occurrence of `marker` in `code`.
unsigned line_of(const std::string& code, const std::string& marker) {
  const std::size_t at = code.find(marker);
  EXPECT_NE(at, std::string::npos) << marker;
  unsigned line = 1;
  for (std::size_t i = 0; i < at; ++i) line += code[i] == '\n';
  return line;
}

const char* kPrelude = R"(#include <cstdint>
#include <cstring>
#include <immintrin.h>
#define BCASTGEN_KERNEL(tag) __attribute__((annotate(tag)))
)";

InspectReport inspect_code(const std::string& body) {
  SourceInput input;
  input.path = "/inspect-test/kernel.cpp";
  input.code = kPrelude + body;
  return bcastgen::clangtool::inspect(input);
}

const KernelReport& only_kernel(const InspectReport& r) {
  EXPECT_TRUE(r.parsed) << (r.diagnostics.empty() ? "" : r.diagnostics.front());
  EXPECT_EQ(r.kernels.size(), 1u) << bcastgen::clangtool::render_text(r);
  static const KernelReport none;
  return r.kernels.empty() ? none : r.kernels.front();
}

// A clean kernel: metadata, an AVX2 variant with a tail and a scalar one.
const std::string kClean = R"(
namespace add_shape {
inline constexpr int64_t out[2] = {4, 20};
inline constexpr int64_t out_numel = 80;
}
namespace add_impl {
namespace {
__attribute__((target("avx2,fma"))) BCASTGEN_KERNEL("bcastgen.kernel:add:avx2")
void avx2(const float* a, const float* b, float* out) {
  for (std::int64_t i0 = 0; i0 < 4; ++i0) {
    const float* a1 = a + i0 * 20;
    float* out1 = out + i0 * 20;
    const __m256 vb = _mm256_set1_ps(b[i0]);
    for (std::int64_t j = 0; j < 16; j += 8) _mm256_storeu_ps(out1 + j, _mm256_add_ps(_mm256_loadu_ps(a1 + j), vb));
    for (int k = 16; k < 20; ++k) out1[k] = a1[k] + b[i0];
  }
}
BCASTGEN_KERNEL("bcastgen.kernel:add:scalar")
void scalar(const float* a, const float* b, float* out) {
  for (std::int64_t i0 = 0; i0 < 4; ++i0) {
    for (std::int64_t j = 0; j < 20; ++j) out[i0 * 20 + j] = a[i0 * 20 + j] + b[i0];
  }
}
}  // namespace
}  // namespace add_impl
void add(const float* a, const float* b, float* out) { add_impl::avx2(a, b, out); add_impl::scalar(a, b, out); }
)";

TEST(Inspect, CleanKernelPasses) {
  const InspectReport r = inspect_code(kClean);
  const KernelReport& k = only_kernel(r);
  EXPECT_TRUE(r.ok()) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(k.name, "add");
  ASSERT_EQ(k.variants.size(), 2u);
  const auto& avx2 = k.variants[0];
  EXPECT_EQ(avx2.name, "avx2");
  EXPECT_EQ(avx2.target, "avx2,fma");
  EXPECT_EQ(avx2.depth, 2);
  ASSERT_EQ(avx2.loops.size(), 3u);
  EXPECT_EQ(avx2.loops[0].var, "i0");
  EXPECT_EQ(avx2.loops[0].trips, 4);
  EXPECT_EQ(avx2.loops[1].var, "j");
  EXPECT_EQ(avx2.loops[1].trips, 2);
  EXPECT_EQ(avx2.loops[1].step, 8);
  EXPECT_EQ(avx2.loops[2].trips, 4);
  EXPECT_EQ(avx2.loops[2].depth, 2);
  ASSERT_TRUE(avx2.intrinsics.count("avx2"));
  EXPECT_EQ(avx2.intrinsics.at("avx2"),
            (std::vector<std::string>{"_mm256_add_ps", "_mm256_loadu_ps", "_mm256_set1_ps", "_mm256_storeu_ps"}));
  EXPECT_EQ(avx2.stored, 80);
  EXPECT_FALSE(avx2.streams);
  EXPECT_TRUE(k.variants[1].intrinsics.empty());
  EXPECT_EQ(k.variants[1].stored, 80);
  EXPECT_EQ(k.out_numel, 80);
  EXPECT_EQ(k.shape_checks.back(), "every variant stores 80 elements = out_numel");
}

TEST(Inspect, RuntimeLoopBoundIsReportedWithKernelAndLine) {
  const std::string code = R"(
namespace add_impl {
BCASTGEN_KERNEL("bcastgen.kernel:add:scalar")
void scalar(const float* a, const float* b, float* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = a[i] + b[i];
  }
}
}  // namespace add_impl
)";
  const InspectReport r = inspect_code(code);
  const KernelReport& k = only_kernel(r);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(k.findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  const Finding& f = k.findings[0];
  EXPECT_EQ(f.kernel, "add");
  EXPECT_EQ(f.variant, "scalar");
  EXPECT_EQ(f.check, "loop-bound");
  EXPECT_EQ(f.line, line_of(std::string(kPrelude) + code, "for (int i = 0; i < n"));
  EXPECT_TRUE(contains(f.message, "loop 'i'")) << f.message;
  EXPECT_TRUE(contains(f.message, "bound 'n' is not an integer constant expression")) << f.message;
  EXPECT_TRUE(contains(f.text(), "kernel.cpp:" + std::to_string(f.line) + ":")) << f.text();
  EXPECT_FALSE(k.variants[0].stored.has_value());
}

TEST(Inspect, RuntimeStrideIsReported) {
  const std::string code = R"(
namespace add_impl {
BCASTGEN_KERNEL("bcastgen.kernel:add:scalar")
void scalar(const float* a, const float* b, float* out, std::int64_t stride) {
  for (int i = 0; i < 8; ++i) {
    const float* a1 = a + i * stride;
    out[i] = a1[0] + b[i];
  }
}
}  // namespace add_impl
)";
  const InspectReport r = inspect_code(code);
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(k.findings[0].check, "offset");
  EXPECT_EQ(k.findings[0].line, line_of(std::string(kPrelude) + code, "a + i * stride"));
  EXPECT_TRUE(contains(k.findings[0].message, "'a + i * stride'")) << k.findings[0].message;
  EXPECT_TRUE(contains(k.findings[0].message, "parameter 'stride'")) << k.findings[0].message;
}

// A peeled row (plan.h, IsaPlan::peel) moves its pointers by the output's
// offset in its line, an address modulo a constant: that shift is named,
// not reported, and the loops and offsets after it stay constant; an
// address used any other way (divided, not reduced) is still a run-time
// offset, in a block function too.
TEST(Inspect, PeeledRowsMoveByTheOutputsOffsetInItsLine) {
  const std::string code = R"(
namespace scale_impl {
__attribute__((target("avx512f,bmi2"))) BCASTGEN_KERNEL("bcastgen.kernel:scale:avx512")
void avx512(const float* a, float* out) {
  for (std::int64_t i0 = 0; i0 < 6; ++i0) {
    const float* a1 = a + i0 * 196;
    float* out1 = out + i0 * 196;
    const std::int64_t head = static_cast<std::int64_t>((0 - reinterpret_cast<std::uintptr_t>(out1)) % 64 / 4);
    const __mmask16 h = static_cast<__mmask16>(_bzhi_u64(~0ull, static_cast<unsigned>(head)));
    _mm512_mask_storeu_ps(out1, h, _mm512_maskz_loadu_ps(h, a1));
    const float* a_line = a1 + head;
    float* out_line = out1 + head;
    for (std::int64_t j = 0; j < 176; j += 16) _mm512_storeu_ps(out_line + j, _mm512_loadu_ps(a_line + j));
    const __mmask16 t = static_cast<__mmask16>(_bzhi_u64(~0ull, static_cast<unsigned>(20 - head)));
    _mm512_mask_storeu_ps(out_line + 176, t, _mm512_maskz_loadu_ps(t, a_line + 176));
  }
}
__attribute__((always_inline)) BCASTGEN_KERNEL("bcastgen.block:scale:scalar")
inline void scalar_block(std::int64_t i0, const float* a, float* out) {
  const std::int64_t skew = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) / 64);
  for (std::int64_t j = 0; j < 98; ++j) out[i0 * 196 + j] = a[j + skew];
  for (std::int64_t j = 98; j < 196; ++j) out[i0 * 196 + j] = a[j];
}
BCASTGEN_KERNEL("bcastgen.kernel:scale:scalar")
void scalar(const float* a, float* out) {
  for (std::int64_t i0 = 0; i0 < 6; ++i0) scalar_block(i0, a, out);
}
}  // namespace scale_impl
)";
  const InspectReport r = inspect_code(code);
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.variants.size(), 2u);
  const auto& peeled = k.variants[0];
  EXPECT_TRUE(contains(peeled.peel, "a pointer's offset in its 64-byte line")) << peeled.peel;
  EXPECT_FALSE(peeled.stored.has_value());
  EXPECT_TRUE(contains(peeled.stored_note, "a peeled row's masked head and rest")) << peeled.stored_note;
  for (const auto& l : peeled.loops) EXPECT_TRUE(l.trips.has_value()) << l.var;
  EXPECT_TRUE(k.variants[1].peel.empty());
  // Only the scalar block's skewed subscript is a finding, though the block's
  // pointer parameters are bound to static arguments.
  ASSERT_EQ(k.findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(k.findings[0].check, "offset");
  EXPECT_EQ(k.findings[0].variant, "scalar");
  EXPECT_TRUE(contains(k.findings[0].message, "'a[j + skew]'")) << k.findings[0].message;
  EXPECT_TRUE(contains(k.findings[0].message, "is an address")) << k.findings[0].message;
}

TEST(Inspect, RuntimeSubscriptsAreReported) {
  const InspectReport r = inspect_code(R"(
int table[4];
namespace k_impl {
BCASTGEN_KERNEL("bcastgen.kernel:k:scalar")
void scalar(const float* a, const float* b, float* out) {
  std::int64_t n = 3;
  for (int i = 0; i < 4; ++i) out[i] = a[table[i]] + b[i * n];
}
}  // namespace k_impl
)");
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.findings.size(), 2u) << bcastgen::clangtool::render_text(r);
  EXPECT_TRUE(contains(k.findings[0].message + k.findings[1].message, "'table[i]' reads memory"));
  EXPECT_TRUE(contains(k.findings[0].message + k.findings[1].message, "'n' is a variable that is not const"));
}

// A split kernel: the variant calls a block with its loop counter (fine);
// a driver passing a run-time value to the same block is reported.
TEST(Inspect, BlockParametersTakeTheCallersArguments) {
  const std::string code = R"(
namespace k_shape { inline constexpr std::int64_t out_numel = 32; }
namespace k_impl {
namespace {
inline void block(std::int64_t i0, const float* a, float* out) {
  for (int j = 0; j < 8; ++j) out[i0 * 8 + j] = a[i0 * 8 + j];
}
BCASTGEN_KERNEL("bcastgen.kernel:k:scalar")
void scalar(const float* a, const float* b, float* out) {
  (void)b;
  for (std::int64_t i0 = 0; i0 < 4; ++i0) block(i0, a, out);
}
BCASTGEN_KERNEL("bcastgen.kernel:k:bad")
void bad(const float* a, const float* b, float* out, std::int64_t first) {
  (void)b;
  block(first, a, out);
}
}  // namespace
}  // namespace k_impl
void k(const float* a, float* out) { k_impl::scalar(a, a, out); k_impl::bad(a, a, out, 0); }
)";
  const InspectReport r = inspect_code(code);
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.variants.size(), 2u);
  EXPECT_EQ(k.variants[0].depth, 2);
  ASSERT_EQ(k.variants[0].loops.size(), 2u);
  EXPECT_EQ(k.variants[0].loops[1].function, "block");
  EXPECT_EQ(k.variants[0].stored, 32);
  // bad: two offsets in block use i0, which bad() passes from its parameter; it also stores 8, not 32.
  std::size_t offsets = 0, shapes = 0;
  for (const Finding& f : k.findings) {
    EXPECT_EQ(f.variant, "bad") << f.text();
    offsets += f.check == "offset";
    shapes += f.check == "shape";
    if (f.check == "offset") {
      EXPECT_TRUE(contains(f.message, "parameter 'i0' of block is passed a run-time value")) << f.message;
    }
  }
  EXPECT_EQ(offsets, 2u) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(shapes, 1u) << bcastgen::clangtool::render_text(r);
}

TEST(Inspect, WhileLoopHasNoConstantTripCount) {
  const InspectReport r = inspect_code(R"(
namespace k_impl {
BCASTGEN_KERNEL("bcastgen.kernel:k:scalar")
void scalar(const float* a, const float* b, float* out) {
  int i = 0;
  while (i < 4) { out[0] = a[0] + b[0]; ++i; }
}
}  // namespace k_impl
)");
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(k.findings[0].check, "loop-bound");
  EXPECT_TRUE(contains(k.findings[0].message, "a while loop")) << k.findings[0].message;
}

TEST(Inspect, IntrinsicsMustMatchTheVariantAndItsTarget) {
  const InspectReport r = inspect_code(R"(
namespace k_impl {
__attribute__((target("avx2"))) BCASTGEN_KERNEL("bcastgen.kernel:k:avx2")
void avx2(const float* a, const float* b, float* out) {
  (void)b;
  _mm512_storeu_ps(out, _mm512_loadu_ps(a));
}
BCASTGEN_KERNEL("bcastgen.kernel:k:avx512")
void avx512(const float* a, const float* b, float* out) {
  (void)b;
  _mm512_storeu_ps(out, _mm512_loadu_ps(a));
}
}  // namespace k_impl
)");
  const KernelReport& k = only_kernel(r);
  std::string all;
  for (const Finding& f : k.findings) all += f.text() + "\n";
  EXPECT_EQ(k.findings.size(), 4u) << all;
  EXPECT_TRUE(contains(all, "(avx2): _mm512_storeu_ps (avx512) does not belong in the avx2 variant")) << all;
  EXPECT_TRUE(contains(all, "(avx512): _mm512_loadu_ps (avx512) needs a target attribute that enables avx512; "
                            "avx512 has none")) << all;
}

TEST(Inspect, MaskedStoresMemcpyAndStreamsAreCounted) {
  const InspectReport r = inspect_code(R"(
namespace k_shape { inline constexpr std::int64_t out_numel = 37; }
namespace k_impl {
__attribute__((target("avx512f,avx512bw,avx512vl,avx2,bmi2"))) BCASTGEN_KERNEL("bcastgen.kernel:k:avx512")
void avx512(const float* a, const float* b, bool* out) {
  for (int j = 0; j < 32; j += 16) {
    const __mmask16 m = _mm512_cmp_ps_mask(_mm512_loadu_ps(a + j), _mm512_loadu_ps(b + j), _CMP_GT_OQ);
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + j), _mm_maskz_set1_epi8(m, 1));
  }
  const __mmask16 tail = 0x1f;
  const std::uint64_t bits = _pdep_u64(3, 0x0101010101010101ull);
  std::memcpy(out + 32, &bits, 2);
  _mm_mask_storeu_epi8(out + 34, tail & 0x7, _mm_set1_epi8(1));
}
}  // namespace k_impl
)");
  const KernelReport& k = only_kernel(r);
  EXPECT_TRUE(k.findings.empty()) << bcastgen::clangtool::render_text(r);
  ASSERT_EQ(k.variants.size(), 1u);
  EXPECT_EQ(k.variants[0].stored, 37);
  EXPECT_TRUE(k.variants[0].streams);
  const auto& avx512 = k.variants[0].intrinsics.at("avx512");
  EXPECT_NE(std::find(avx512.begin(), avx512.end(), "_mm512_cmp_ps_mask"), avx512.end());  // the macro, not the builtin
  EXPECT_EQ(k.variants[0].intrinsics.at("bmi"), std::vector<std::string>{"_pdep_u64"});
  EXPECT_EQ(k.variants[0].intrinsics.at("sse"), (std::vector<std::string>{"_mm_set1_epi8", "_mm_stream_si128"}));
}

TEST(Inspect, Avx2MaskedStoresCountTheLanesTheirMaskSets) {
  // vmaskmov stores the lanes whose mask word has its top bit set: 6 of 8
  // floats, then 2 of 4 doubles (64-bit lanes read the upper word of each pair).
  const InspectReport r = inspect_code(R"(
namespace k_shape { inline constexpr std::int64_t out_numel = 14; }
namespace k_impl {
__attribute__((target("avx2,fma"))) BCASTGEN_KERNEL("bcastgen.kernel:k:avx2")
void avx2(const float* a, const float* b, float* out) {
  const __m256i tail = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
  _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(a), _mm256_loadu_ps(b)));
  _mm256_maskstore_ps(out + 8, tail, _mm256_maskload_ps(a + 8, tail));
}
}  // namespace k_impl
namespace d_shape { inline constexpr std::int64_t out_numel = 3; }
namespace d_impl {
__attribute__((target("avx2,fma"))) BCASTGEN_KERNEL("bcastgen.kernel:d:avx2")
void avx2(const double* a, const double* b, double* out) {
  (void)b;
  _mm256_maskstore_pd(out, _mm256_setr_epi32(-1, -1, 0, -1, 0, 0, 0, 0), _mm256_loadu_pd(a));
}
}  // namespace d_impl
)");
  ASSERT_TRUE(r.parsed) << (r.diagnostics.empty() ? "" : r.diagnostics.front());
  ASSERT_EQ(r.kernels.size(), 2u) << bcastgen::clangtool::render_text(r);
  EXPECT_TRUE(r.kernels[0].findings.empty()) << bcastgen::clangtool::render_text(r);
  ASSERT_EQ(r.kernels[0].variants.size(), 1u);
  EXPECT_EQ(r.kernels[0].variants[0].stored, 14);
  // d's mask sets lanes 0 and 1 (words 1 and 3): 2 of the 3 elements.
  ASSERT_EQ(r.kernels[1].findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  EXPECT_TRUE(contains(r.kernels[1].findings[0].message, "stores 2 output elements, but out_numel is 3"))
      << r.kernels[1].findings[0].message;
}

TEST(Inspect, StoresThatMissElementsAreAMismatch) {
  const InspectReport r = inspect_code(R"(
namespace k_shape {
inline constexpr std::int64_t out[1] = {8};
inline constexpr std::int64_t out_numel = 8;
}
namespace k_impl {
BCASTGEN_KERNEL("bcastgen.kernel:k:scalar")
void scalar(const float* a, const float* b, float* out) {
  for (int j = 0; j < 7; ++j) out[j] = a[j] + b[j];
}
}  // namespace k_impl
)");
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.findings.size(), 1u) << bcastgen::clangtool::render_text(r);
  EXPECT_EQ(k.findings[0].check, "shape");
  EXPECT_TRUE(contains(k.findings[0].message, "stores 7 output elements, but out_numel is 8")) << k.findings[0].message;
}

TEST(Inspect, HeaderAndLoopTableMustAgreeWithOutNumel) {
  const std::string code = R"(
namespace k_shape {
inline constexpr std::int64_t out[2] = {2, 4};
inline constexpr std::int64_t out_numel = 9;
}
// ===========================================================================
// k: add f32
//
// Loop nest after dropping size-1 axes and coalescing (strides in elements):
//   loop        extent           a           b         out
//   i0               3           4           4           4
//   i1               4           1           1           1   inner: vector-vector
//
// ===========================================================================
namespace k_impl {
BCASTGEN_KERNEL("bcastgen.kernel:k:scalar")
void scalar(const float* a, const float* b, float* out) {
  for (int j = 0; j < 9; ++j) out[j] = a[j] + b[j];
}
}  // namespace k_impl
)";
  const InspectReport r = inspect_code(code);
  const KernelReport& k = only_kernel(r);
  ASSERT_EQ(k.findings.size(), 2u) << bcastgen::clangtool::render_text(r);
  EXPECT_TRUE(contains(k.findings[0].message, "header: out [2,4] has 8 elements, but out_numel is 9"));
  EXPECT_TRUE(contains(k.findings[1].message, "loop table: 3 x 4 = 12 elements, but out_numel is 9"));
  EXPECT_EQ(k.findings[1].line, line_of(std::string(kPrelude) + code, "//   i0"));
}

TEST(Inspect, CodeThatDoesNotCompileIsNotInspected) {
  const InspectReport r = inspect_code("void f() { undeclared(); }\n");
  EXPECT_FALSE(r.parsed);
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_TRUE(contains(r.diagnostics[0], "undeclared")) << r.diagnostics[0];
}

TEST(Inspect, JsonHasTheLoopsAndFindings) {
  const nlohmann::json j = bcastgen::clangtool::render_json(inspect_code(kClean));
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["kernels"][0]["name"], "add");
  EXPECT_EQ(j["kernels"][0]["variants"][0]["loops"][1]["trips"], 2);
  EXPECT_EQ(j["kernels"][0]["variants"][0]["stored"], 80);
  EXPECT_EQ(j["problems"], 0);
}

TEST(Format, StyleIsCloseToTheEmittedLayoutAndIdempotent) {
  const std::string messy = "namespace k {\nvoid f(const float* a,float *out){for(int i=0;i<4;++i){out[i]=a[i];}}\n}\n";
  const std::string once = bcastgen::clangtool::format_source(messy, "k.cpp");
  EXPECT_EQ(once,
            "namespace k {\nvoid f(const float* a, float* out) {\n  for (int i = 0; i < 4; ++i) {\n"
            "    out[i] = a[i];\n  }\n}\n}\n");
  EXPECT_EQ(bcastgen::clangtool::format_source(once, "k.cpp"), once);
  EXPECT_TRUE(contains(bcastgen::clangtool::format_style_yaml(), "ColumnLimit: 120"));
}

// The linter's family table (generator/clang/src/intrinsic_families.h) and
// the ISA table's `families` column name the same families.
TEST(IntrinsicFamilies, EveryFamilyAnIsaNamesHasARowAndEveryRowAnIsa) {
  std::set<std::string> rows, named;
  for (const bcastgen::clangtool::IntrinsicFamily& f : bcastgen::clangtool::kIntrinsicFamilies) rows.insert(f.name);
  for (const bcastgen::IsaInfo& r : bcastgen::kIsaInfo) {
    for (const std::string& family : bcastgen::isa_families(r.isa)) {
      EXPECT_TRUE(rows.count(family)) << r.name << " names family " << family << ", which has no row";
      named.insert(family);
    }
  }
  EXPECT_EQ(named, rows);
}

// Names as the intrinsics headers spell them (immintrin.h, arm_neon.h).
TEST(IntrinsicFamilies, NamesFallInTheirFamilies) {
  using bcastgen::clangtool::intrinsic_family;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"_mm512_add_ps", "avx512"},      {"_mm256_mask_add_ps", "avx512"}, {"_mm_maskz_loadu_ps", "avx512"},
      {"_mm_cmp_ps_mask", "avx512"},    {"_mm256_cmp_epi32_mask", "avx512"}, {"_kand_mask16", "avx512"},
      {"_cvtmask16_u32", "avx512"},     {"_cvtu32_mask16", "avx512"},     {"_load_mask16", "avx512"},
      {"_mm256_add_ps", "avx2"},        {"_mm_fmadd_ps", "avx2"},         {"_mm_fnmadd_ps", "avx2"},
      {"_mm_add_ps", "sse"},            {"_mm_storeu_si128", "sse"},      {"_pdep_u64", "bmi"},
      {"_tzcnt_u32", "bmi"},            {"vaddq_f32", "neon"},            {"vld1q_u8", "neon"},
      {"vcvtq_f32_s32", "neon"},        {"vbfdotq_f32", "neon"},          {"memcpy", ""},
      {"vector_add", ""},               {"_mm", ""},                      {"", ""}};
  for (const auto& [name, family] : cases) EXPECT_EQ(intrinsic_family(name), family) << name;
  using bcastgen::clangtool::target_enables;
  EXPECT_TRUE(target_enables("avx512f,avx512bw,avx512dq,avx512vl,f16c,bmi,bmi2", "avx512"));
  EXPECT_FALSE(target_enables("avx2,fma,f16c,bmi,bmi2", "avx512"));
  EXPECT_TRUE(target_enables("avx2,fma,f16c,bmi,bmi2", "avx2"));
  EXPECT_TRUE(target_enables("fma", "avx2"));
  EXPECT_FALSE(target_enables("", "bmi"));
  EXPECT_TRUE(target_enables("", "sse"));
}

}  // namespace
