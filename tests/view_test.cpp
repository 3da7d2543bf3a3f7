// Checked-entry validation (bcastgen/view.h) and CPU dispatch (bcastgen/cpu.h).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/view.h"

namespace bg = bcastgen;
using bg::Shape;
using bg::ShapeRef;

// --- ShapeRef, shape_text --------------------------------------------------

TEST(View, ShapeRefFromShapeArrayAndPointer) {
  const Shape s{1, 64, 56, 56};
  const std::array<std::int64_t, 4> arr{1, 64, 56, 56};
  const std::int64_t raw[3] = {2, 3, 4};
  const ShapeRef from_shape = s, from_array = arr, from_ptr(raw, 3);
  EXPECT_EQ(from_shape.rank, 4u);
  EXPECT_EQ(from_shape.dims, s.data());
  EXPECT_EQ(from_array.rank, 4u);
  EXPECT_EQ(from_array[1], 64);
  EXPECT_EQ(from_ptr[2], 4);
  EXPECT_TRUE(from_shape == from_array);
  EXPECT_TRUE(from_shape != from_ptr);
  EXPECT_EQ(from_ptr.to_shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(bg::numel(from_array), 64 * 56 * 56);
  const std::array<std::int64_t, 0> scalar{};
  EXPECT_EQ(ShapeRef(scalar).rank, 0u);
  EXPECT_EQ(bg::numel(ShapeRef(scalar)), 1);
  EXPECT_TRUE(ShapeRef(scalar) == ShapeRef(Shape{}));
  const bg::TensorView<const float> tv{nullptr, arr};
  EXPECT_EQ(tv.shape.rank, 4u);
}

TEST(View, ShapeTextMatchesFormatShape) {
  for (const Shape& s : {Shape{}, Shape{0}, Shape{1, 64, 1, 1}, Shape{7, 1, 5}}) {
    EXPECT_EQ(bg::shape_text(s), bg::format_shape(s));
  }
  EXPECT_EQ(bg::shape_text(Shape{1, 63, 1, 1}), "[1,63,1,1]");
  EXPECT_EQ(bg::shape_text(Shape{}), "[]");
}

// --- check_shape -----------------------------------------------------------

TEST(View, CheckShapeAcceptsTheExpectedShape) {
  const std::array<std::int64_t, 4> expected{1, 64, 1, 1};
  EXPECT_NO_THROW(bg::check_shape("bias_add", "b", expected, Shape{1, 64, 1, 1}));
  EXPECT_NO_THROW(bg::check_shape("k", "a", Shape{}, Shape{}));
}

TEST(View, CheckShapeRejectsWithMessage) {
  const std::array<std::int64_t, 4> expected{1, 64, 1, 1};
  try {
    bg::check_shape("bias_add", "b", expected, Shape{1, 63, 1, 1});
    FAIL() << "no exception";
  } catch (const bg::ShapeMismatchError& e) {
    EXPECT_STREQ(e.what(), "kernel 'bias_add': operand b has shape [1,63,1,1], expected [1,64,1,1]");
    EXPECT_EQ(e.kernel(), "bias_add");
    EXPECT_EQ(e.operand(), "b");
  }
  // Rank differences too, even with the same element count.
  EXPECT_THROW(bg::check_shape("k", "a", Shape{64}, Shape{1, 64}), bg::ShapeMismatchError);
  EXPECT_THROW(bg::check_shape("k", "a", Shape{}, Shape{1}), bg::ShapeMismatchError);
  EXPECT_THROW(bg::check_shape("k", "out", Shape{2, 3}, Shape{3, 2}), bg::KernelError);
}

// --- check_not_null --------------------------------------------------------

TEST(View, CheckNotNull) {
  const float x = 0;
  EXPECT_NO_THROW(bg::check_not_null("bias_add", "a", &x, 1));
  EXPECT_NO_THROW(bg::check_not_null("bias_add", "a", nullptr, 0));  // empty operand
  try {
    bg::check_not_null("bias_add", "a", nullptr, 12);
    FAIL() << "no exception";
  } catch (const bg::NullPointerError& e) {
    EXPECT_STREQ(e.what(), "kernel 'bias_add': operand a is a null pointer");
    EXPECT_EQ(e.kernel(), "bias_add");
    EXPECT_EQ(e.operand(), "a");
  }
}

// --- check_alias -----------------------------------------------------------

TEST(View, CheckAliasDisjointIsFine) {
  float buf[16] = {};
  // Adjacent ranges do not overlap.
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf, 32, buf + 8, 32, false));
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf + 8, 32, buf, 32, false));
  // Empty ranges never overlap.
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf, 0, buf, 64, false));
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf, 64, buf + 4, 0, false));
}

TEST(View, CheckAliasExactInPlaceAllowed) {
  float buf[16] = {};
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf, 64, buf, 64, true));
}

TEST(View, CheckAliasRejectsPartialOverlap) {
  float buf[16] = {};
  try {
    bg::check_alias("bias_add", "a", buf, 32, buf + 4, 32, true);  // same shape, shifted by 4 floats
    FAIL() << "no exception";
  } catch (const bg::AliasError& e) {
    EXPECT_EQ(e.kernel(), "bias_add");
    EXPECT_EQ(e.operand(), "a");
    EXPECT_NE(std::string(e.what()).find("kernel 'bias_add': operand a"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("partially overlaps"), std::string::npos) << e.what();
  }
  // Off by one byte, either direction.
  auto* bytes = reinterpret_cast<unsigned char*>(buf);
  EXPECT_THROW(bg::check_alias("k", "a", bytes, 32, bytes + 31, 32, true), bg::AliasError);
  EXPECT_THROW(bg::check_alias("k", "a", bytes + 31, 32, bytes, 32, true), bg::AliasError);
  // An input inside the output, and the output inside an input.
  EXPECT_THROW(bg::check_alias("k", "a", buf, 64, buf + 2, 8, false), bg::AliasError);
  EXPECT_THROW(bg::check_alias("k", "a", buf + 2, 8, buf, 64, false), bg::AliasError);
}

TEST(View, CheckAliasRejectsInputOfAnotherShape) {
  float buf[16] = {};
  // b is broadcast ([1,4] into [4,4]): even the same start address is an error.
  try {
    bg::check_alias("bias_add", "b", buf, 64, buf, 16, false);
    FAIL() << "no exception";
  } catch (const bg::AliasError& e) {
    EXPECT_EQ(e.operand(), "b");
    EXPECT_NE(std::string(e.what()).find("shape differs"), std::string::npos) << e.what();
  }
  // Same bytes, but the caller says the shapes differ (e.g. [4,4] vs [16]).
  EXPECT_THROW(bg::check_alias("k", "b", buf, 64, buf, 64, false), bg::AliasError);
  // Same start and shape, different byte sizes (f32 input, bool output).
  EXPECT_THROW(bg::check_alias("k", "a", buf, 16, buf, 64, true), bg::AliasError);
}

TEST(View, CheckAliasFromShapes) {
  float buf[16] = {};
  const Shape out{4, 4}, b{1, 4};
  EXPECT_NO_THROW(bg::check_alias("k", "a", buf, out, 4, buf, out, 4));
  EXPECT_NO_THROW(bg::check_alias("k", "b", buf, out, 4, nullptr, Shape{0, 4}, 4));
  try {
    bg::check_alias("bias_add", "b", buf, out, 4, buf + 12, b, 4);
    FAIL() << "no exception";
  } catch (const bg::AliasError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel 'bias_add': operand b"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[1,4]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[4,4]"), std::string::npos) << msg;
  }
  // [4,4] input at the output's address, but a bool output: 16 vs 64 bytes.
  EXPECT_THROW(bg::check_alias("k", "a", buf, out, 1, buf, out, 4), bg::AliasError);
}

// --- cpu.h -------------------------------------------------------------------

namespace {

// An independent oracle: the kernel's view of the CPU flags.
bool cpuinfo_flags(std::set<std::string>* flags) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string w;
    while (words >> w) flags->insert(w);
    return true;
  }
  return false;
}

bool expected_isa(bg::Isa* out) {
#if defined(__x86_64__)
  std::set<std::string> f;
  if (!cpuinfo_flags(&f)) return false;
  auto has = [&](const char* x) { return f.count(x) != 0; };
  if (has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl")) {
    // AVX512-FP16 counts only with AVX512-BF16 (the avx512fp16 row needs both).
    *out = !has("avx512_bf16") ? bg::Isa::Avx512 : has("avx512_fp16") ? bg::Isa::Avx512Fp16 : bg::Isa::Avx512Bf16;
  } else if (has("avx2") && has("fma") && has("bmi1") && has("bmi2")) {
    *out = bg::Isa::Avx2;
  } else {
    *out = bg::Isa::Scalar;
  }
  return true;
#else
  *out = bg::Isa::Scalar;
  return true;
#endif
}

const char* env_isa() {
  const char* v = std::getenv("BCASTGEN_ISA");
  return v != nullptr && *v != '\0' ? v : nullptr;
}

// Clears any forced ISA after each test.
class Cpu : public ::testing::Test {
 protected:
  void TearDown() override { bg::clear_forced_isa(); }
};

}  // namespace

TEST_F(Cpu, IsaNamesRoundTrip) {
  for (bg::Isa isa : {bg::Isa::Scalar, bg::Isa::Avx2, bg::Isa::Avx512}) {
    bg::Isa parsed = bg::Isa::Scalar;
    ASSERT_TRUE(bg::parse_isa(bg::isa_name(isa), &parsed)) << bg::isa_name(isa);
    EXPECT_EQ(parsed, isa);
  }
  EXPECT_STREQ(bg::isa_name(bg::Isa::Scalar), "scalar");
  EXPECT_STREQ(bg::isa_name(bg::Isa::Avx2), "avx2");
  EXPECT_STREQ(bg::isa_name(bg::Isa::Avx512), "avx512");
  bg::Isa isa = bg::Isa::Avx2;
  EXPECT_FALSE(bg::parse_isa("AVX2", &isa));
  EXPECT_FALSE(bg::parse_isa("sse4", &isa));
  EXPECT_FALSE(bg::parse_isa("", &isa));
  EXPECT_EQ(isa, bg::Isa::Avx2);  // untouched on failure
}

TEST_F(Cpu, DetectedIsaMatchesProcCpuinfo) {
  bg::Isa want;
  if (!expected_isa(&want)) GTEST_SKIP() << "no /proc/cpuinfo";
  EXPECT_EQ(bg::detected_isa(), want) << "detected " << bg::isa_name(bg::detected_isa()) << ", /proc/cpuinfo says "
                                      << bg::isa_name(want);
  EXPECT_EQ(bg::detected_isa(), bg::detected_isa());
  EXPECT_TRUE(bg::cpu_supports(bg::Isa::Scalar));
  EXPECT_TRUE(bg::cpu_supports(want));
  EXPECT_EQ(bg::cpu_supports(bg::Isa::Avx2), want != bg::Isa::Scalar);
  EXPECT_EQ(bg::cpu_supports(bg::Isa::Avx512), bg::isa_includes(want, bg::Isa::Avx512));
  EXPECT_EQ(bg::cpu_supports(bg::Isa::Avx512Bf16), bg::isa_includes(want, bg::Isa::Avx512Bf16));
  std::cout << "[ INFO     ] this CPU: " << bg::isa_name(want) << "\n";
}

TEST_F(Cpu, ActiveIsaDefaultsToDetected) {
  if (const char* v = env_isa()) GTEST_SKIP() << "BCASTGEN_ISA=" << v << " is set";
  EXPECT_EQ(bg::active_isa(), bg::detected_isa());
}

TEST_F(Cpu, ForceIsaRoundTrip) {
  bg::force_isa(bg::Isa::Scalar);
  EXPECT_EQ(bg::active_isa(), bg::Isa::Scalar);
  bg::force_isa(bg::detected_isa());
  EXPECT_EQ(bg::active_isa(), bg::detected_isa());
  if (bg::cpu_supports(bg::Isa::Avx2)) {
    bg::force_isa(bg::Isa::Avx2);
    EXPECT_EQ(bg::active_isa(), bg::Isa::Avx2);
  }
  bg::clear_forced_isa();
  if (!env_isa()) {
    EXPECT_EQ(bg::active_isa(), bg::detected_isa());
  }
}

TEST_F(Cpu, ForcingAnUnsupportedIsaThrows) {
  bool any = false;
  for (bg::Isa isa : {bg::Isa::Avx2, bg::Isa::Avx512}) {
    if (bg::cpu_supports(isa)) continue;
    any = true;
    bg::force_isa(isa);
    try {
      (void)bg::active_isa();
      ADD_FAILURE() << "forcing " << bg::isa_name(isa) << " on a CPU without it did not throw";
    } catch (const bg::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(bg::isa_name(isa)), std::string::npos) << e.what();
    }
  }
  if (!any) GTEST_SKIP() << "this CPU supports every ISA";
}

// BCASTGEN_ISA is read once per process: each case runs in a fresh process
// (threadsafe death-test style re-executes the binary), sets the variable
// before the first active_isa() call and reports through the exit code.
TEST(CpuEnv, EnvSelectsIsaAndIsReadOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("BCASTGEN_ISA", "scalar", 1);
        if (bg::active_isa() != bg::Isa::Scalar) std::exit(1);
        ::setenv("BCASTGEN_ISA", "avx512", 1);  // too late: already read
        if (bg::active_isa() != bg::Isa::Scalar) std::exit(2);
        bg::force_isa(bg::detected_isa());  // force_isa beats the environment
        if (bg::active_isa() != bg::detected_isa()) std::exit(3);
        bg::clear_forced_isa();
        if (bg::active_isa() != bg::Isa::Scalar) std::exit(4);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(CpuEnv, UnknownEnvValueThrows) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("BCASTGEN_ISA", "sse9", 1);
        try {
          (void)bg::active_isa();
        } catch (const bg::InvalidArgument& e) {
          std::exit(std::string(e.what()).find("sse9") != std::string::npos ? 0 : 2);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(CpuEnv, EmptyEnvValueMeansDetected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("BCASTGEN_ISA", "", 1);
        std::exit(bg::active_isa() == bg::detected_isa() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(CpuEnv, UnsupportedEnvIsaThrows) {
  if (bg::cpu_supports(bg::Isa::Avx512)) GTEST_SKIP() << "this CPU supports avx512";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("BCASTGEN_ISA", "avx512", 1);
        try {
          (void)bg::active_isa();
        } catch (const bg::InvalidArgument&) {
          std::exit(0);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}
