// The ISA table (bcastgen/cpu.h): what ISAs imply, how names parse and
// list, and that the generated dispatch is by inclusion, not by order; and
// the vocabulary's load-time checks against it (templates/vocabulary.yaml).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "bcastgen/cpu.h"
#include "bcastgen/gen/embedded.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/gen/vocabulary.h"

namespace {

namespace bg = bcastgen;
using bg::Isa;
using bg::gen::Vocabulary;

// --- The table -------------------------------------------------------------

TEST(IsaTable, EveryRowNamesItselfAndParsesBack) {
  std::set<std::string> names;
  for (const bg::IsaInfo& r : bg::kIsaInfo) {
    Isa parsed = Isa::Scalar;
    ASSERT_TRUE(bg::parse_isa(r.name, &parsed)) << r.name;
    EXPECT_EQ(parsed, r.isa);
    EXPECT_TRUE(names.insert(r.name).second) << "two rows named " << r.name;
    EXPECT_EQ(&bg::isa_info(r.isa), &r);
    // A vector ISA compiles for one architecture, with a header; it has a
    // target attribute exactly when it needs CPU features beyond its
    // architecture's baseline (NEON, in every AArch64 CPU, needs neither).
    if (r.vector_bytes > 0) {
      EXPECT_NE(r.arch, bg::Arch::Any) << r.name;
      EXPECT_STRNE(r.header, "") << r.name;
      EXPECT_EQ(*r.target != '\0', r.features != 0u) << r.name;
    }
  }
  EXPECT_EQ(bg::kAllIsas.size(), bg::kIsaCount);
}

TEST(IsaTable, InclusionIsWhatTheRowsImply) {
  for (Isa have : bg::kAllIsas) {
    EXPECT_TRUE(bg::isa_includes(have, have)) << bg::isa_name(have);
    EXPECT_TRUE(bg::isa_includes(have, Isa::Scalar)) << bg::isa_name(have);
  }
  EXPECT_TRUE(bg::isa_includes(Isa::Avx512, Isa::Avx2));
  EXPECT_FALSE(bg::isa_includes(Isa::Avx2, Isa::Avx512));
  EXPECT_FALSE(bg::isa_includes(Isa::Scalar, Isa::Avx2));
  // Most specific first: what messages and the default ISA list use.
  EXPECT_TRUE(bg::isa_includes(Isa::Avx512Fp16, Isa::Avx512));
  EXPECT_FALSE(bg::isa_includes(Isa::Avx512, Isa::Avx512Fp16));
  EXPECT_FALSE(bg::isa_includes(Isa::Neon, Isa::Avx2));
  EXPECT_FALSE(bg::isa_includes(Isa::Avx512, Isa::Neon));
  EXPECT_TRUE(bg::isa_includes(Isa::NeonFp16, Isa::Neon));
  EXPECT_FALSE(bg::isa_includes(Isa::Neon, Isa::NeonFp16));
  // AVX512-BF16 extends AVX-512, and every AVX512-FP16 CPU has it.
  EXPECT_TRUE(bg::isa_includes(Isa::Avx512Bf16, Isa::Avx512));
  EXPECT_FALSE(bg::isa_includes(Isa::Avx512, Isa::Avx512Bf16));
  EXPECT_TRUE(bg::isa_includes(Isa::Avx512Fp16, Isa::Avx512Bf16));
  EXPECT_FALSE(bg::isa_includes(Isa::Avx512Bf16, Isa::Avx512Fp16));
  EXPECT_EQ(bg::isa_names(), "avx512fp16, avx512bf16, avx512, neonfp16, avx2, neon, scalar");
  EXPECT_EQ(bg::gen::default_isas(), (std::vector<Isa>{Isa::Avx512Fp16, Isa::Avx512Bf16, Isa::Avx512, Isa::NeonFp16,
                                                       Isa::Avx2, Isa::Neon, Isa::Scalar}));
  std::vector<Isa> isas{Isa::Scalar, Isa::Avx512, Isa::Avx2, Isa::Avx512Bf16, Isa::Avx512Fp16};
  bg::sort_most_specific_first(&isas);
  EXPECT_EQ(isas, (std::vector<Isa>{Isa::Avx512Fp16, Isa::Avx512Bf16, Isa::Avx512, Isa::Avx2, Isa::Scalar}));
}

TEST(IsaTable, TargetAndFamiliesSplitIntoTheirParts) {
  EXPECT_EQ(bg::isa_target_features(Isa::Avx2), (std::vector<std::string>{"avx2", "fma", "f16c", "bmi", "bmi2"}));
  EXPECT_TRUE(bg::isa_target_features(Isa::Scalar).empty());
  EXPECT_EQ(bg::isa_families(Isa::Avx2), (std::vector<std::string>{"avx2", "sse", "bmi"}));
}

// Every ISA that the CPU supports has all the features of the ISAs it implies.
TEST(IsaTable, SupportIsClosedUnderImplication) {
  for (Isa have : bg::kAllIsas) {
    if (!bg::cpu_supports(have)) continue;
    for (Isa want : bg::kAllIsas) {
      if (!bg::isa_includes(have, want)) continue;
      EXPECT_TRUE(bg::cpu_supports(want)) << bg::isa_name(have) << " " << bg::isa_name(want);
    }
  }
  EXPECT_TRUE(bg::cpu_supports(bg::detected_isa()));
  for (Isa isa : bg::kAllIsas) {
    if (!bg::cpu_supports(isa)) continue;
    EXPECT_TRUE(bg::isa_includes(bg::detected_isa(), isa)) << bg::isa_name(isa);
  }
}

// --- Generated code follows the table ----------------------------------------

std::string generated_source(const std::string& yaml) {
  const bg::gen::Spec spec = bg::gen::parse_spec(yaml, "t.yaml");
  bg::gen::GenerateOptions o;
  o.stem = "t";
  o.source_name = "t.yaml";
  return bg::gen::generate(spec, o).files.at("t.cpp");
}

TEST(IsaTable, DispatchIsByInclusionAndVariantsSitUnderTheirArchitecture) {
  const std::string src = generated_source(R"(
kernels:
  - name: add
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
)");
  // No comparison of ISA numbers: a variant runs where the CPU's ISA includes it.
  EXPECT_EQ(src.find("static_cast<int>(isa)"), std::string::npos);
  EXPECT_NE(src.find("if (bcastgen::isa_includes(isa, bcastgen::Isa::Avx512)) return avx512;"), std::string::npos);
  // Each x86 variant between its guard and the matching #endif; the scalar one outside any.
  for (const char* v : {"avx2", "avx512"}) {
    const std::regex guarded(std::string("#if defined\\(__x86_64__\\) \\|\\| defined\\(_M_X64\\)\\n// ") + v +
                             ": iteration i0");
    EXPECT_TRUE(std::regex_search(src, guarded)) << v;
  }
  const std::size_t scalar = src.find("// scalar: iteration i0");
  ASSERT_NE(scalar, std::string::npos);
  EXPECT_NE(src.rfind("#endif", scalar), std::string::npos);
  EXPECT_LT(src.rfind("#if defined(__x86_64__)", scalar), src.rfind("#endif", scalar));
  // The x86 SIMD wrappers, under the same guard as the variants that call them.
  EXPECT_NE(src.find("#if defined(__x86_64__) || defined(_M_X64)\n#include \"bcastgen/simd/avx512.h\"\n"
                     "#include \"bcastgen/simd/avx2.h\"\n#endif"),
            std::string::npos);
  EXPECT_NE(src.find("namespace v = bcastgen::simd::avx2;"), std::string::npos);
}

// avx512fp16 extends avx512 with native f16 lanes: only a kernel with an
// f16 node gets its variant, under the architecture's guard and the
// compiler's (Clang 14 declares the intrinsics only with -mavx512fp16), and
// its dispatch tries it first.
TEST(IsaTable, TheFp16VariantIsForF16KernelsUnderItsCompilerGuard) {
  const std::string src = generated_source(R"(
kernels:
  - name: add16
    dtype: f16
    inputs: {a: [4, 64], b: [64]}
    expr: a * b + a
  - name: add32
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
)");
  const std::string guard = "#if (defined(__x86_64__) || defined(_M_X64)) && ((!defined(__clang__) && __GNUC__ >= 12) || "
                            "defined(__AVX512FP16__))\n";
  EXPECT_NE(src.find(guard + "#include \"bcastgen/simd/avx512fp16.h\"\n#endif"), std::string::npos);
  EXPECT_NE(src.find(guard + "// avx512fp16: iteration i0"), std::string::npos);
  EXPECT_NE(src.find("bcastgen.kernel:add16:avx512fp16"), std::string::npos);
  EXPECT_EQ(src.find("bcastgen.kernel:add32:avx512fp16"), std::string::npos);
  EXPECT_NE(src.find("namespace v = bcastgen::simd::avx512fp16;"), std::string::npos);
  EXPECT_NE(src.find("= v::multiply_ph(t0_"), std::string::npos);  // native f16 forms, 32 lanes
  EXPECT_NE(src.find("= v::add_ph(t2_"), std::string::npos);
  EXPECT_NE(src.find("32 lanes x unroll 4"), std::string::npos);
  EXPECT_NE(src.find(guard + "  if (bcastgen::isa_includes(isa, bcastgen::Isa::Avx512Fp16)) return avx512fp16;\n#endif\n"
                             "#if defined(__x86_64__) || defined(_M_X64)\n"
                             "  if (bcastgen::isa_includes(isa, bcastgen::Isa::Avx512)) return avx512;"),
            std::string::npos);
}

// avx512bf16 extends avx512 with only bf16's rounding stores: a kernel
// gets its variant where its result is bf16, and that variant stores with
// the _pbh forms and computes with AVX-512's. A bf16 input read into an f32
// result gives no variant of its own.
TEST(IsaTable, TheBf16VariantIsForKernelsWithARoundedBf16Result) {
  const std::string src = generated_source(R"(
kernels:
  - name: addbf
    dtype: bf16
    inputs: {a: [4, 70], b: [70]}
    expr: a * b + a
  - name: widen
    inputs: {a: {shape: [4, 70], dtype: bf16}, b: [70]}
    expr: cast(a, f32) + b
)");
  EXPECT_NE(src.find("#include \"bcastgen/simd/avx512bf16.h\""), std::string::npos);
  EXPECT_NE(src.find("bcastgen.kernel:addbf:avx512bf16"), std::string::npos);
  EXPECT_EQ(src.find("bcastgen.kernel:widen:avx512bf16"), std::string::npos);
  EXPECT_NE(src.find("namespace v = bcastgen::simd::avx512bf16;"), std::string::npos);
  EXPECT_NE(src.find("= v::multiply_bf16(t0_"), std::string::npos);  // AVX-512's forms, rounded to bf16
  // The main loop's 4 vectors store as two pairs (one vcvtne2ps2bf16 each), the tail alone.
  EXPECT_NE(src.find("store_pair_pbh(out_1 + j, t"), std::string::npos);
  EXPECT_NE(src.find("store_pair_pbh(out_1 + j + 32, t"), std::string::npos);
  EXPECT_EQ(src.find("store_pbh(out_1 + j"), std::string::npos);
  EXPECT_NE(src.find("store_tail_pbh("), std::string::npos);
  EXPECT_NE(src.find("  if (bcastgen::isa_includes(isa, bcastgen::Isa::Avx512Bf16)) return avx512bf16;\n"
                     "  if (bcastgen::isa_includes(isa, bcastgen::Isa::Avx512)) return avx512;"),
            std::string::npos);
}

// AVX2 writes four adjacent compare results of 32-bit lanes with one
// store_bool4 (three packs, a vpermd and one 32-byte store) where a step
// has four whole vectors; the vectors after the main loop, fewer than four,
// store alone, and 64-bit lanes (no such form) store each vector. What the
// stores write is checked by generated_kernels_test (ops_compare.yaml,
// interleaved.yaml) against the reference.
TEST(IsaTable, TheAvx2VariantStoresFourCompareResultsAsOne) {
  const std::string src = generated_source(R"(
isa: [avx2, scalar]
kernels:
  - name: gt
    inputs: {a: [4, 70], b: [70]}
    expr: a > b
  - name: ge_tail
    dtype: i32
    inputs: {x: [2, 5, 48], b: [2, 1, 48]}
    expr: x >= b
  - name: gt_f64
    dtype: f64
    inputs: {a: [4, 70], b: [70]}
    expr: a > b
)");
  const auto kernel = [&](const std::string& name) {
    const std::size_t at = src.find("namespace " + name + "_impl");
    return at == std::string::npos ? std::string() : src.substr(at, src.find("}  // namespace", at) - at);
  };
  const std::string gt = kernel("gt"), ge_tail = kernel("ge_tail"), gt_f64 = kernel("gt_f64");
  EXPECT_NE(gt.find("store_bool4_f32(out_1 + j, t2_0, t2_1, t2_2, t2_3);"), std::string::npos) << gt;
  EXPECT_EQ(gt.find("store_bool_f32("), std::string::npos) << gt;
  EXPECT_NE(ge_tail.find("store_bool4_i32(out_2 + j, t2_0, t2_1, t2_2, t2_3);"), std::string::npos) << ge_tail;
  EXPECT_NE(ge_tail.find("store_bool_i32(out_2 + 32, t2_t0);"), std::string::npos) << ge_tail;
  EXPECT_NE(ge_tail.find("store_bool_i32(out_2 + 40, t2_t1);"), std::string::npos) << ge_tail;
  EXPECT_NE(gt_f64.find("store_bool_f64(out_1 + j, t2_0);"), std::string::npos) << gt_f64;
  EXPECT_EQ(gt_f64.find("store_bool4"), std::string::npos) << gt_f64;
}

// AVX2 stores a gathered block's partial vector by plain stores of its
// first lanes (store_first, a count the plan fixes), not vmaskmov (slow on
// AMD); the block's `tail` mask then exists only where an input is loaded
// per vector under it. What the stores write: avx2_store_test, and
// generated_kernels_test (shapes.yaml, fused.yaml) through the kernels.
TEST(IsaTable, TheAvx2VariantStoresAPartialBlockVectorByItsFirstLanes) {
  const std::string src = generated_source(R"(
isa: [avx2, scalar]
kernels:
  - name: gathered
    inputs: {a: [8, 1, 6, 1], b: [7, 1, 5]}
    expr: a + b
  - name: streamed
    inputs: {a: [2, 2], b: [2, 1]}
    expr: a + b
)");
  const auto kernel = [&](const std::string& name) {
    const std::size_t at = src.find("namespace " + name + "_impl");
    return at == std::string::npos ? std::string() : src.substr(at, src.find("}  // namespace", at) - at);
  };
  const std::string gathered = kernel("gathered"), streamed = kernel("streamed");
  EXPECT_NE(gathered.find("store_first_f32<6>(out_2 + 24, t2_v3);"), std::string::npos) << gathered;
  EXPECT_EQ(gathered.find("store_tail_f32("), std::string::npos) << gathered;
  EXPECT_EQ(gathered.find(" tail = "), std::string::npos) << gathered;  // no mask left unused
  EXPECT_NE(streamed.find("store_first_f32<4>(out, t2_v0);"), std::string::npos) << streamed;
  EXPECT_NE(streamed.find("load_tail_f32(in0, tail);"), std::string::npos) << streamed;
  EXPECT_NE(streamed.find("const __m256i tail = _mm256_setr_epi32(-1, -1, -1, -1, 0, 0, 0, 0);"), std::string::npos)
      << streamed;
}

// avx512fp16's base is avx512bf16 (whose base is avx512): a kernel with an
// f16 node and a bf16 result gets an avx512fp16 variant with native f16
// forms and avx512bf16's bf16 stores; with avx512bf16 left out of the
// spec's list, a bf16 kernel without f16 gets an avx512fp16 variant (it
// differs from avx512's), and with it in the list it does not.
TEST(IsaTable, TheFp16VariantStoresBf16AsAvx512Bf16Does) {
  const std::string both = generated_source(R"(
kernels:
  - name: mix
    inputs: {a: {shape: [4, 64], dtype: f16}, b: {shape: [64], dtype: bf16}}
    expr: cast(a * a, bf16) + b
  - name: bf_only
    dtype: bf16
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
)");
  const auto variant = [](const std::string& src, const std::string& name) {
    const std::size_t at = src.find("inline void " + name + "_block(");
    return at == std::string::npos ? std::string() : src.substr(at, src.find("\n}\n", at) - at);
  };
  const std::size_t mix = both.find("namespace mix_impl");
  ASSERT_NE(mix, std::string::npos);
  const std::string fp16 = variant(both.substr(mix), "avx512fp16");
  EXPECT_NE(fp16.find("= v::multiply_ph(t0_"), std::string::npos) << fp16;
  EXPECT_NE(fp16.find("store_pbh(out_1 + "), std::string::npos) << fp16;
  EXPECT_EQ(both.find("bcastgen.kernel:bf_only:avx512fp16"), std::string::npos);
  EXPECT_NE(both.find("bcastgen.kernel:bf_only:avx512bf16"), std::string::npos);
  const std::string without_bf16 = generated_source(R"(
isa: [avx512fp16, avx512, scalar]
kernels:
  - name: bf_only
    dtype: bf16
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
  - name: f32_only
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
)");
  EXPECT_NE(without_bf16.find("bcastgen.kernel:bf_only:avx512fp16"), std::string::npos);
  EXPECT_NE(without_bf16.find("store_pair_pbh(out_1 + j, t"), std::string::npos);
  EXPECT_EQ(without_bf16.find("bcastgen.kernel:f32_only:avx512fp16"), std::string::npos);  // avx512's again
}

TEST(IsaTable, ScalarOnlyOutputIncludesNoIntrinsicsHeader) {
  const std::string src = generated_source(R"(
isa: [scalar]
kernels:
  - name: add
    inputs: {a: [4, 64], b: [64]}
    expr: a + b
)");
  EXPECT_EQ(src.find("bcastgen/simd/"), std::string::npos);
  EXPECT_EQ(src.find("bcastgen::simd"), std::string::npos);
  EXPECT_EQ(src.find("__x86_64__"), std::string::npos);
}

// --- The vocabulary is checked when loaded -----------------------------------

const std::string& builtin_text() { return bg::gen::embedded_file("templates/vocabulary.yaml"); }

// The builtin text with `from` replaced once by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string s = builtin_text();
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

void expect_rejected(const std::string& text, const std::string& words) {
  try {
    (void)Vocabulary::parse(text);
    ADD_FAILURE() << "accepted; expected an error with: " << words;
  } catch (const bg::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(VocabularyCheck, TheBuiltinTableLoads) {
  const Vocabulary& v = Vocabulary::builtin();
  for (const bg::IsaInfo& r : bg::kIsaInfo) EXPECT_EQ(v.isa(r.isa) != nullptr, r.vector_bytes > 0) << r.name;
}

TEST(VocabularyCheck, SectionsAreRequiredAndKnown) {
  expect_rejected("ops: {}\n", "no 'isas' section");
  expect_rejected("isas: {}\n", "no 'types' section");
  expect_rejected("[1, 2]\n", "the document must be a mapping");
  expect_rejected(builtin_text() + "\nfunctions: {}\n", "unknown section 'functions'");
  expect_rejected(edited("    f32: [maximum_number,", "    f32: [maximum_literal,"),
                  "literal_ops.avx512.f32: unknown literal op 'maximum_literal'");
}

TEST(VocabularyCheck, IsaFactsBelongToTheTable) {
  expect_rejected(edited("  avx2:\n    index: __m256i", "  avx2:\n    bytes: 32\n    index: __m256i"),
                  "isas.avx2: unknown field 'bytes'");
  expect_rejected(edited("isas:\n  avx512:", "isas:\n  scalar: {}\n  avx512:"), "isa 'scalar' has no vectors");
  expect_rejected(edited("isas:\n  avx512:", "isas:\n  sse9: {}\n  avx512:"), "unknown isa 'sse9'");
}

TEST(VocabularyCheck, TypeRowsAreComplete) {
  const std::string f32_forms = "forms: [load, load_tail, store, store_tail, stream, splat, permute, select, load_cmp,";
  // A required form missing.
  expect_rejected(edited(f32_forms, "forms: [load, load_tail, store, store_tail, stream, splat, permute, load_cmp,"),
                  "types.avx512.f32: missing form 'select'");
  // A masked-tail ISA needs the masked forms.
  expect_rejected(edited(f32_forms, "forms: [load, store, store_tail, stream, splat, permute, select, load_cmp,"),
                  "types.avx512.f32: missing 'load_tail' (the isa's tails are masked)");
  expect_rejected(edited("      vec: __m512\n", "      vec: __m512\n      widen: x\n"),
                  "types.avx512.f32: unknown field 'widen' (valid: vec, cmp, mask, forms, lane_bytes, suffix, partial)");
  expect_rejected(edited("forms: [load, load_tail,", "forms: [load, load_wide,"),
                  "types.avx512.f32: unknown form 'load_wide'");
  expect_rejected(edited("      vec: __m512\n", "      vec: \"\"\n"), "types.avx512.f32.vec is empty");
}

TEST(VocabularyCheck, RowsAreListsOfNames) {
  expect_rejected(edited("    f32: [add, subtract,", "    f32: [add, add,"), "ops.avx512.f32: 'add' is listed twice");
  expect_rejected(edited("    f32: [add, subtract,", "    f32: [\"add(a, b)\", subtract,"),
                  "ops.avx512.f32: 'add(a, b)' is not a name");
  expect_rejected(edited("    f32: [add, subtract,", "    f32: [plus, subtract,"), "ops.avx512.f32: unknown op 'plus'");
  expect_rejected(edited("f32: &f32_lane_functions\n      [neg, abs,", "f32: &f32_lane_functions\n      [negate, abs,"),
                  "unary.avx512.f32: unknown unary function 'negate'");
  expect_rejected(edited("    f32: [add, subtract,", "    f32: add\n    f33: [subtract,"),
                  "ops.avx512.f32 must be a list of names");
}

// The math packs are an ISA's opt-in (AVX2's, measured there): vectors
// per call for every function, per function where it differs, and per CPU
// kind and function where a kind's plans differ.
TEST(VocabularyCheck, MathPackIsAnIsasOptIn) {
  const Vocabulary& v = Vocabulary::builtin();
  const bg::gen::IsaVocabulary& avx2 = *v.isa(Isa::Avx2);
  const bg::CpuKind generic = bg::CpuKind::Generic, zen4 = bg::CpuKind::Zen4;
  EXPECT_EQ(avx2.math_pack, 4);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastTanh, generic), 4);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastGeluTanh, generic), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::Log1p, generic), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastExpm1, generic), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::Expm1, generic), 1);
  // Zen 4's own: the fast log family and fast_gelu over two; the rest as generic.
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastLog, generic), 4);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastLog, zen4), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastLog10, zen4), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastGelu, zen4), 2);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastGelu, generic), 4);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastTanh, zen4), 4);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::Expm1, zen4), 1);
  EXPECT_EQ(avx2.math_pack_width(bg::UnaryOp::FastLog, bg::CpuKind::Zen3), 4);
  // AVX-512's, from an A/B on an Intel Xeon: four, but for the three that
  // lost over four and fast_gelu_tanh over two; every kind alike.
  const bg::gen::IsaVocabulary& avx512 = *v.isa(Isa::Avx512);
  EXPECT_EQ(avx512.math_pack, 4);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::Gelu, generic), 4);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::FastLog, zen4), 4);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::Log1p, generic), 1);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::FastLog1p, bg::CpuKind::IntelXeon), 1);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::FastErf, generic), 1);
  EXPECT_EQ(avx512.math_pack_width(bg::UnaryOp::FastGeluTanh, generic), 2);
  // An ISA with a base and no packs of its own has the base's.
  EXPECT_EQ(v.isa(Isa::Avx512Fp16)->math_pack_width(bg::UnaryOp::Log1p, generic), 1);
  const Vocabulary packed = Vocabulary::parse(
      edited("    math_pack: 4\n    math_pack_of: {log1p: 1,", "    math_pack: 2\n    math_pack_on: {zen5: {erf: 4}}\n    math_pack_of: {log1p: 1,"));
  EXPECT_EQ(packed.isa(Isa::Avx512Fp16)->math_pack_width(bg::UnaryOp::Exp, generic), 2);
  EXPECT_EQ(packed.isa(Isa::Avx512Fp16)->math_pack_width(bg::UnaryOp::Erf, bg::CpuKind::Zen5), 4);
  // (the first `math_pack: 4` of the text is avx512's)
  expect_rejected(edited("math_pack: 4", "math_pack: x4"),
                  "isas.avx512.math_pack: 'x4' is not a number of vectors per call (valid: 1, 2, 4");
  expect_rejected(edited("math_pack: 4", "math_pack: 3"), "isas.avx512.math_pack: '3' is not a number");
  expect_rejected(edited("fast_gelu_tanh: 2,", "fast_gelu_tanhh: 2,"),
                  "isas.avx2.math_pack_of: unknown unary function 'fast_gelu_tanhh'");
  expect_rejected(edited("log10: 1}", "log10: 1, ceil: 2}"), "isas.avx2.math_pack_of.ceil: 'ceil' is exact");
  expect_rejected(edited("expm1: 1,", "expm1: 8,"), "isas.avx2.math_pack_of.expm1: '8' is not a number");
  const std::string avx2_pack_of = "math_pack_of: {log1p: 2, fast_gelu_tanh: 2, fast_expm1: 2, expm1: 1, log: 1, log2: 1, log10: 1}";
  expect_rejected(edited(avx2_pack_of, "math_pack_of: [exp]"), "isas.avx2.math_pack_of must be a mapping");
  // math_pack_on: a CPU kind of cpu_kinds.h, then as math_pack_of.
  expect_rejected(edited("math_pack_on: {zen4:", "math_pack_on: {zen9:"),
                  "isas.avx2.math_pack_on.zen9: unknown CPU kind 'zen9' (valid: generic, intel-xeon, zen3, zen4, zen5)");
  expect_rejected(edited("math_pack_on: {zen4: {fast_log: 2,", "math_pack_on: {zen4: {fast_log: 3,"),
                  "isas.avx2.math_pack_on.zen4.fast_log: '3' is not a number of vectors per call");
  expect_rejected(edited("math_pack_on: {zen4: {fast_log: 2,", "math_pack_on: {zen4: {floor: 2,"),
                  "isas.avx2.math_pack_on.zen4.floor: 'floor' is exact");
  expect_rejected(edited("math_pack_on: {zen4: {fast_log: 2,", "math_pack_on: {zen4: {fast_logg: 2,"),
                  "isas.avx2.math_pack_on.zen4: unknown unary function 'fast_logg'");
  expect_rejected(edited("math_pack_on: {zen4: {fast_log: 2, fast_log2: 2, fast_log10: 2, fast_gelu: 2}}", "math_pack_on: [zen4]"),
                  "isas.avx2.math_pack_on must be a mapping");
}

// A form's placeholders are $name$: every `$` delimits one, so the braces
// of C++ code (a pattern's or a value's) are text; an unknown name or a lone
// `$` names the pattern.
TEST(VocabularyCheck, ExpandFillsDollarPlaceholdersAndLeavesBracesAlone) {
  EXPECT_EQ(bg::gen::expand("{ v::f($a$, $b$); }", {{"a", "x0"}, {"b", "t{1}"}}), "{ v::f(x0, t{1}); }");
  EXPECT_EQ(bg::gen::expand("$x$", {{"x", "$y$"}}), "$y$");  // values are not expanded again
  for (const char* bad : {"v::f($c$)", "v::f($a)"}) {
    try {
      bg::gen::expand(bad, {{"a", "x"}});
      ADD_FAILURE() << bad << " was expanded";
    } catch (const bg::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

// A form as written (form_text): "v::add_f32(a, b)"; "<none>" for no form.
std::string text(const bg::gen::Form& f) { return bg::gen::form_text(f); }
std::string text(const std::optional<bg::gen::Form>& f) { return f ? bg::gen::form_text(*f) : "<none>"; }

// Each row names a wrapper by convention: form_dtype, cast_from_to, called
// through the alias of the ISA's namespace (kWrapperAlias).
TEST(VocabularyCheck, FormsCallTheirWrappers) {
  const Vocabulary& v = Vocabulary::builtin();
  EXPECT_EQ(text(v.type(Isa::Avx512, bg::DType::F32)->store_tail), "v::store_tail_f32(p, t, v)");
  EXPECT_EQ(text(v.type(Isa::Avx2, bg::DType::U8)->select), "v::select_u8(c, x, y)");
  EXPECT_EQ(text(v.op(Isa::Avx2, bg::DType::I16, bg::Op::Maximum)), "v::maximum_i16(a, b)");
  EXPECT_EQ(text(v.unary(Isa::Avx512, bg::DType::F64, bg::UnaryOp::Sqrt)), "v::sqrt_f64(x)");
  // store_first's lane count is a template argument, fixed per call.
  EXPECT_EQ(text(v.type(Isa::Avx2, bg::DType::I64)->store_first), "v::store_first_i64<n>(p, v)");
  EXPECT_TRUE(v.type(Isa::Avx512, bg::DType::F32)->store_first.empty());  // its masked stores are fast
  EXPECT_EQ(text(v.type(Isa::Avx2, bg::DType::F32)->store_bool4), "v::store_bool4_f32(p, a, b, c, d)");
  EXPECT_TRUE(v.type(Isa::Avx2, bg::DType::F64)->store_bool4.empty());
}

// A partial row that rounds its masked store (store_tail) has no
// store_first of the base's, which would store the base's values unrounded.
TEST(VocabularyCheck, APartialRowDropsTheBasesPlainPartialStore) {
  const Vocabulary v = Vocabulary::parse(
      edited("store_bool_tail, store_exact, stream_exact]", "store_bool_tail, store_exact, stream_exact, store_first]"));
  EXPECT_EQ(text(v.type(Isa::Avx512, bg::DType::Bf16)->store_first), "v::store_first_bf16<n>(p, v)");
  EXPECT_TRUE(v.type(Isa::Avx512Bf16, bg::DType::Bf16)->store_first.empty());
}

// A partial row (avx512bf16's bf16) replaces only the stores it lists:
// every other form, op, function and cast of the dtype is the base's.
TEST(VocabularyCheck, APartialRowTakesTheRestFromItsBase) {
  const Vocabulary& v = Vocabulary::builtin();
  const bg::gen::TypeVocabulary* own = v.type(Isa::Avx512Bf16, bg::DType::Bf16);
  const bg::gen::TypeVocabulary* base = v.type(Isa::Avx512, bg::DType::Bf16);
  ASSERT_TRUE(own && base);
  EXPECT_EQ(text(own->store), "v::store_pbh(p, v)");
  EXPECT_EQ(text(own->store_tail), "v::store_tail_pbh(p, t, v)");
  EXPECT_EQ(text(own->stream), "v::stream_pbh(p, v)");
  EXPECT_EQ(text(own->store_pair), "v::store_pair_pbh(p, a, b)");
  EXPECT_EQ(text(own->stream_pair), "v::stream_pair_pbh(p, a, b)");
  EXPECT_TRUE(base->store_pair.empty());  // AVX-512 has no one-instruction pair: its stores stay single
  EXPECT_EQ(own->load, base->load);
  EXPECT_EQ(own->store_exact, base->store_exact);  // values of the type: no rounding, nothing to replace
  EXPECT_EQ(own->vec, "__m512");
  EXPECT_EQ(text(v.op(Isa::Avx512Bf16, bg::DType::Bf16, bg::Op::Add)), "v::add_bf16(a, b)");
  EXPECT_EQ(text(v.unary(Isa::Avx512Bf16, bg::DType::Bf16, bg::UnaryOp::Exp)), "v::exp_bf16(x)");
  EXPECT_EQ(text(v.cast(Isa::Avx512Bf16, bg::DType::Bf16, bg::DType::F16)), "v::cast_bf16_f16(x)");
  EXPECT_EQ(text(v.type(Isa::Avx512Bf16, bg::DType::F32)->store), "v::store_f32(p, v)");
  EXPECT_TRUE(v.overrides(Isa::Avx512Bf16, bg::DType::Bf16));
  EXPECT_TRUE(v.overrides_only_stores(Isa::Avx512Bf16, bg::DType::Bf16));
  EXPECT_FALSE(v.overrides(Isa::Avx512Bf16, bg::DType::F32));
  EXPECT_FALSE(v.overrides_only_stores(Isa::Avx512Fp16, bg::DType::F16));
  // avx512fp16 extends avx512bf16: its bf16 row is that one, completed, and the rest AVX-512's.
  EXPECT_EQ(v.isa(Isa::Avx512Fp16)->base, Isa::Avx512Bf16);
  EXPECT_EQ(v.type(Isa::Avx512Fp16, bg::DType::Bf16)->store, own->store);
  EXPECT_EQ(v.type(Isa::Avx512Fp16, bg::DType::Bf16)->load, base->load);
  EXPECT_EQ(text(v.op(Isa::Avx512Fp16, bg::DType::Bf16, bg::Op::Add)), "v::add_bf16(a, b)");
  EXPECT_EQ(text(v.type(Isa::Avx512Fp16, bg::DType::F16)->store), "v::store_ph(p, v)");
  EXPECT_EQ(v.isa(Isa::Avx512Fp16)->index_const, v.isa(Isa::Avx512)->index_const);
  EXPECT_FALSE(v.overrides(Isa::Avx512Fp16, bg::DType::Bf16));
}

TEST(VocabularyCheck, APartialRowNeedsABaseAndListsOnlyStores) {
  const std::string row = "    bf16:\n      partial: true\n      suffix: pbh\n      forms: [store, store_tail, stream, store_pair, stream_pair]\n";
  expect_rejected(edited(row, "    bf16:\n      partial: yes\n      suffix: pbh\n      forms: [store]\n"),
                  "types.avx512bf16.bf16.partial must be true, got 'yes'");
  expect_rejected(edited(row, "    bf16:\n      partial: true\n      suffix: pbh\n      forms: [store, load]\n"),
                  "types.avx512bf16.bf16: a partial row has only stores of the dtype, not 'load'");
  expect_rejected(edited(row, "    bf16:\n      partial: true\n      suffix: pbh\n      forms: [store, store_bool]\n"),
                  "types.avx512bf16.bf16: a partial row has only stores of the dtype, not 'store_bool'");
  expect_rejected(edited("  avx512bf16:\n    base: avx512\n", "  avx512bf16: {}\n"),
                  "types.avx512bf16.bf16.partial: the isa has no base to take the other forms from");
}

// Within one width a cast maps a register to a register; a widening one
// makes part $s$ of its result, a narrowing one joins the listed registers.
TEST(VocabularyCheck, CastFormsByWidth) {
  const Vocabulary& v = Vocabulary::builtin();
  EXPECT_EQ(text(v.cast(Isa::Avx2, bg::DType::F32, bg::DType::F32)), "$x$");
  EXPECT_EQ(text(v.cast(Isa::Avx2, bg::DType::I32, bg::DType::F32)), "v::cast_i32_f32(x)");
  EXPECT_FALSE(v.cast(Isa::Avx2, bg::DType::U32, bg::DType::F32));  // no AVX2 form: lane by lane
  EXPECT_EQ(text(v.cast(Isa::Avx512, bg::DType::F32, bg::DType::F64)), "v::cast_f32_f64<s>(x)");
  EXPECT_EQ(text(v.cast(Isa::Avx2, bg::DType::F64, bg::DType::F32)), "v::cast_f64_f32(x)");
  EXPECT_EQ(text(v.cast(Isa::Avx2, bg::DType::Bool, bg::DType::F64)), "v::cast_bool_f64(x)");
  EXPECT_FALSE(v.cast(Isa::Avx2, bg::DType::I64, bg::DType::I8));  // a join of 8 registers: lane by lane
  const Vocabulary widened = Vocabulary::parse(edited("    f32: [i32, bool,", "    f32: [u64, i32, bool,"));
  EXPECT_EQ(text(widened.cast(Isa::Avx512, bg::DType::F32, bg::DType::U64)), "v::cast_f32_u64<s>(x)");
  expect_rejected(edited("    f32: [i32, bool,", "    f32: [f32, bool,"), "casts.avx512.f32.f32: a cast to the same dtype");
}

// A vocabulary without non-temporal stores: the planner must not plan them
// (it used to, and the emitter then read past an empty form).
TEST(VocabularyCheck, NoStreamFormMeansNoStreamingStores) {
  std::string text = builtin_text();
  text = std::regex_replace(text, std::regex(" stream,"), "");
  const Vocabulary voc = Vocabulary::parse(text);
  bg::gen::PlanOptions o;
  o.isas = {Isa::Avx512, Isa::Avx2};
  o.stream_threshold_bytes = 0;
  const auto k = bg::gen::binary_kernel("k", bg::Op::Add, bg::DType::F32, bg::Rule::Numpy, {64, 256}, {256});
  for (const auto& ip : bg::gen::plan_kernel(k, o, voc).isas) {
    EXPECT_TRUE(ip.vector) << bg::isa_name(ip.isa);
    EXPECT_FALSE(ip.stream) << bg::isa_name(ip.isa);
  }
  // With the builtin table the same kernel streams.
  for (const auto& ip : bg::gen::plan_kernel(k, o).isas) EXPECT_TRUE(ip.stream) << bg::isa_name(ip.isa);
}

}  // namespace
