// The CPU-kind table (bcastgen/cpu_kinds.h): rows and names, which row a
// CPUID identity falls in, this CPU's identity against /proc/cpuinfo, and
// what a kind changes in plans, specs, explain and the generated files.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "bcastgen/cpu_kinds.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/explain.h"
#include "bcastgen/gen/manifest.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/spec.h"

namespace {

namespace bg = bcastgen;
namespace gen = bcastgen::gen;
using bg::CpuKind;
using bg::Isa;

TEST(CpuKinds, EveryRowNamesItselfAndParsesBack) {
  std::set<std::string> names;
  for (const bg::CpuKindInfo& r : bg::kCpuKindInfo) {
    CpuKind parsed = CpuKind::Generic;
    ASSERT_TRUE(bg::parse_cpu_kind(r.name, &parsed)) << r.name;
    EXPECT_EQ(parsed, r.kind);
    EXPECT_TRUE(names.insert(r.name).second) << "two rows named " << r.name;
    EXPECT_STRNE(r.why, "") << r.name << ": a tuning fact needs its measurement";
    EXPECT_NE(bg::cpu_kind_names().find(r.name), std::string::npos);
  }
  CpuKind k;
  EXPECT_FALSE(bg::parse_cpu_kind("Zen4", &k));
  EXPECT_FALSE(bg::parse_cpu_kind("native", &k)) << "native is the command line's, resolved there";
}

// Identities as CPUID reports them (AMD's and Intel's model lists).
TEST(CpuKinds, CpuIdIdentitiesFallInTheirRows) {
  struct Case {
    const char* vendor;
    unsigned family, model;
    CpuKind want;
  };
  const Case cases[] = {
      {"AuthenticAMD", 0x19, 0x01, CpuKind::Zen3},   // Milan
      {"AuthenticAMD", 0x19, 0x21, CpuKind::Zen3},   // Vermeer
      {"AuthenticAMD", 0x19, 0x11, CpuKind::Zen4},   // Genoa
      {"AuthenticAMD", 0x19, 0xA0, CpuKind::Zen4},   // Bergamo
      {"AuthenticAMD", 0x19, 0x61, CpuKind::Zen4},   // Raphael
      {"AuthenticAMD", 0x1A, 0x02, CpuKind::Zen5},   // Turin
      {"AuthenticAMD", 0x17, 0x31, CpuKind::Generic},  // Zen 2: no row
      {"GenuineIntel", 6, 0x8F, CpuKind::IntelXeon},   // Sapphire Rapids
      {"GenuineIntel", 6, 0xCF, CpuKind::IntelXeon},   // Emerald Rapids
      {"GenuineIntel", 6, 0x6A, CpuKind::IntelXeon},   // Ice Lake-SP
      {"GenuineIntel", 6, 0x55, CpuKind::IntelXeon},   // Skylake-SP
      {"GenuineIntel", 6, 0x9A, CpuKind::Generic},     // Alder Lake: no row
      {"GenuineIntel", 0x19, 0x11, CpuKind::Generic},  // another vendor's family
      {"", 0, 0, CpuKind::Generic},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(bg::cpu_kind_of({c.vendor, c.family, c.model}), c.want)
        << c.vendor << " family " << c.family << " model " << c.model;
  }
}

// The oracle is the kernel's reading of CPUID: /proc/cpuinfo's vendor_id,
// cpu family and model (decimal, the display values).
TEST(CpuKinds, HostIdentityIsWhatTheKernelReports) {
  if (bg::kHostArch != bg::Arch::X86_64) GTEST_SKIP() << "CPUID identities are x86's";
  std::ifstream in("/proc/cpuinfo");
  if (!in) GTEST_SKIP() << "no /proc/cpuinfo here";
  std::string line, vendor;
  long family = -1, model = -1;
  while (std::getline(in, line) && (vendor.empty() || family < 0 || model < 0)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const std::string value = line.substr(colon + 2 <= line.size() ? colon + 2 : line.size());
    if (key == "vendor_id") vendor = value;
    else if (key == "cpu family") family = std::stol(value);
    else if (key == "model") model = std::stol(value);
  }
  if (vendor.empty() || family < 0 || model < 0) GTEST_SKIP() << "/proc/cpuinfo lacks vendor_id, cpu family or model";
  const bg::CpuIdentity& id = bg::host_cpu_identity();
  EXPECT_EQ(id.vendor, vendor);
  EXPECT_EQ(static_cast<long>(id.family), family);
  EXPECT_EQ(static_cast<long>(id.model), model);
  std::cout << "this CPU: " << vendor << " family " << family << " model " << model << ": kind "
            << bg::cpu_kind_name(bg::detect_cpu_kind()) << "\n";
}

gen::Spec spec_for(CpuKind cpu) {
  gen::Spec spec = gen::parse_spec(
      "kernels:\n"
      "  - {name: k, inputs: {a: [8, 768], b: [768]}, expr: a * b}\n"
      "  - {name: short_row, inputs: {a: [8, 24], b: [24]}, expr: a * b}\n",
      "cpu.yaml");
  spec.cpu = cpu;
  return spec;
}

bool has_variant(const gen::KernelPlan& p, Isa isa) {
  return std::any_of(p.isas.begin(), p.isas.end(), [&](const gen::IsaPlan& ip) { return ip.isa == isa; });
}

// zen4's fact: a plain stream runs its avx2 variant on AVX-512 CPUs (the
// avx512 one is left out and the avx2 one says why); what is not a plain
// stream keeps its avx512 variant; generic keeps every variant, and so does
// a tuned kernel (its variants are as measured).
TEST(CpuKinds, ZenFourRunsStreamsInItsAvx2Variant) {
  const char* const kText =
      "kernels:\n"
      "  - {name: stream, inputs: {a: [8, 768], b: [768]}, expr: a * b}\n"
      "  - {name: relu_u8, inputs: {a: {shape: [8, 768], dtype: u8}}, expr: a + a}\n"
      "  - {name: compare, inputs: {a: [8, 768], b: [768]}, expr: a > b}\n"
      "  - {name: function, inputs: {a: [8, 768]}, expr: exp(a)}\n"
      "  - {name: fast_function, inputs: {a: [8, 768]}, expr: fast_sigmoid(a)}\n"
      "  - {name: pattern, inputs: {x: [1, 40, 40, 3], m: [3]}, expr: x - m}\n"
      "  - {name: half, dtype: bf16, inputs: {a: [8, 768], b: [768]}, expr: a * b}\n";
  const gen::Spec spec = gen::parse_spec(kText, "w.yaml");
  for (CpuKind cpu : {CpuKind::Generic, CpuKind::Zen4}) {
    gen::PlanOptions opt = gen::plan_options(spec);
    opt.cpu = cpu;
    for (const gen::KernelSpec& k : spec.kernels) {
      SCOPED_TRACE(k.name + " for " + bg::cpu_kind_name(cpu));
      const gen::KernelPlan p = gen::plan_kernel(k, opt);
      EXPECT_EQ(p.cpu, cpu);
      const bool narrowed = cpu == CpuKind::Zen4 && (k.name == "stream" || k.name == "relu_u8");
      EXPECT_EQ(has_variant(p, Isa::Avx512), !narrowed);
      ASSERT_TRUE(has_variant(p, Isa::Avx2));
      for (const gen::IsaPlan& ip : p.isas) {
        EXPECT_EQ(ip.why.find("runs on avx512 CPUs too, whose variant is left out: a stream, which zen4 runs as "
                              "fast or faster in 32-byte vectors") != std::string::npos,
                  narrowed && ip.isa == Isa::Avx2)
            << ip.why;
        const std::vector<Isa> runs_for = narrowed && ip.isa == Isa::Avx2 ? std::vector<Isa>{Isa::Avx512}
                                                                          : std::vector<Isa>{};
        EXPECT_EQ(ip.runs_for, runs_for) << bg::isa_name(ip.isa);
        EXPECT_FALSE(ip.interleave);
        if (ip.period == 0) {  // a pattern has its own unroll
          EXPECT_EQ(ip.unroll, ip.vector ? bg::cpu_kind_info(cpu).unroll : 1);
        }
      }
      gen::PlanOptions tuned = opt;
      tuned.tuning =
          gen::KernelTuning{true, 4, std::nullopt, "wisdom w.json", "interleaved x4 avx512 1 ns", std::nullopt};
      const gen::KernelPlan t = gen::plan_kernel(k, tuned);
      EXPECT_TRUE(has_variant(t, Isa::Avx512));
      // The manifest (and explain --json) list the ISAs a variant runs for.
      const nlohmann::json pj = gen::plan_json(p);  // kept: a range over a temporary's member would dangle
      for (const nlohmann::json& ij : pj["isas"]) {
        EXPECT_EQ(ij.contains("runs_for"), narrowed && ij["isa"] == "avx2") << ij.dump();
        if (ij.contains("runs_for")) {
          EXPECT_EQ(ij["runs_for"], nlohmann::json::array({"avx512"}));
        }
      }
      // The tuned order: each vector's loads, nodes and store together, where a main loop exists.
      for (const gen::IsaPlan& ip : t.isas) {
        EXPECT_EQ(ip.interleave, ip.vector && (ip.main_trips > 0 || ip.held_vectors > 0) && ip.unroll > 1)
            << bg::isa_name(ip.isa);
        EXPECT_EQ(ip.why.find("together (tuned)") != std::string::npos, ip.interleave) << ip.why;
      }
    }
    const gen::KernelPlan p = gen::plan_kernel(spec.kernels[0], opt);
    const std::string text = gen::explain_plan_text(p);
    EXPECT_NE(text.find(std::string("cpu       ") + bg::cpu_kind_name(cpu) + " ("), std::string::npos) << text;
    EXPECT_EQ(text.find("streaming kernels in vectors of at most 32 bytes") != std::string::npos,
              cpu == CpuKind::Zen4)
        << text;
    EXPECT_EQ(gen::plan_json(p)["cpu"], bg::cpu_kind_name(cpu));
  }
}

// intel-xeon's fact: rows that start at different offsets in the output's
// lines are peeled to the next line, in the avx512 variants (the ISA with a
// run-time mask form) and only where every input is a stream or a splat;
// rows on lines (so also every streaming output), patterns, compares into
// bool and rows shorter than a step are not; no other kind peels. The plan line, explain,
// the manifest and the code say so.
TEST(CpuKinds, IntelXeonPeelsRowsToTheOutputsLines) {
  const char* const kText =
      "kernels:\n"
      "  - {name: se_scale, inputs: {x: [32, 256, 14, 14], s: [32, 256, 1, 1]}, expr: x * s}\n"
      "  - {name: u8_rows, inputs: {a: {shape: [5, 300], dtype: u8}, b: {shape: [300], dtype: u8}}, expr: a + b}\n"
      "  - {name: on_lines, inputs: {a: [8, 768], b: [768]}, expr: a * b}\n"
      "  - {name: pattern, inputs: {x: [1, 40, 40, 3], m: [3]}, expr: x - m}\n"
      "  - {name: compare, inputs: {a: [8, 196], b: [196]}, expr: a > b}\n"
      "  - {name: short_row, inputs: {a: [8, 40], b: [8, 1]}, expr: a * b}\n";
  const gen::Spec spec = gen::parse_spec(kText, "p.yaml");
  for (const bg::CpuKindInfo& row : bg::kCpuKindInfo) {
    gen::PlanOptions opt = gen::plan_options(spec);
    opt.cpu = row.kind;
    for (const gen::KernelSpec& k : spec.kernels) {
      SCOPED_TRACE(k.name + " for " + row.name);
      const gen::KernelPlan p = gen::plan_kernel(k, opt);
      for (const gen::IsaPlan& ip : p.isas) {
        const bool avx512 = bg::isa_includes(ip.isa, Isa::Avx512);
        const bool peels = row.kind == CpuKind::IntelXeon && avx512 && (k.name == "se_scale" || k.name == "u8_rows");
        EXPECT_EQ(ip.peel, peels) << bg::isa_name(ip.isa) << ": " << ip.why;
        EXPECT_EQ(ip.why.find("a masked vector up to the next line") != std::string::npos, peels) << ip.why;
      }
      const bool any = std::any_of(p.isas.begin(), p.isas.end(), [](const gen::IsaPlan& ip) { return ip.peel; });
      const nlohmann::json j = gen::plan_json(p);
      for (const auto& ij : j["isas"]) {
        if (ij["isa"] == "avx512") {
          EXPECT_EQ(ij["peel"], any) << ij.dump();
        }
      }
    }
    EXPECT_EQ(row.peel_rows, row.kind == CpuKind::IntelXeon);
    const std::string text = gen::explain_plan_text(gen::plan_kernel(spec.kernels[0], opt));
    EXPECT_EQ(text.find("rows peeled to the output's lines") != std::string::npos, row.peel_rows) << text;
  }
  // The rows of 196 floats start at 4 offsets in a 64-byte line.
  gen::PlanOptions opt = gen::plan_options(spec);
  opt.cpu = CpuKind::IntelXeon;
  const gen::KernelPlan p = gen::plan_kernel(spec.kernels[0], opt);
  for (const gen::IsaPlan& ip : p.isas) {
    if (ip.peel) {
      EXPECT_NE(ip.why.find("row 196, whose starts fall at 4 offsets in the output's 64-byte lines"), std::string::npos)
          << ip.why;
    }
  }
}

// A kernel's tuned peel (bcastgen tune, a wisdom file's "peel") replaces the
// kind's fact: peeled on every kind where the plan can peel, unpeeled even on
// intel-xeon; the plan line says it was tuned. Rows on the lines never peel.
TEST(CpuKinds, TunedPeelReplacesTheKindsFact) {
  const char* const kText =
      "kernels:\n"
      "  - {name: se_scale, inputs: {x: [32, 256, 14, 14], s: [32, 256, 1, 1]}, expr: x * s}\n"
      "  - {name: on_lines, inputs: {a: [8, 768], b: [768]}, expr: a * b}\n";
  const gen::Spec spec = gen::parse_spec(kText, "p.yaml");
  for (const bg::CpuKindInfo& row : bg::kCpuKindInfo) {
    for (const bool peel : {false, true}) {
      gen::PlanOptions opt = gen::plan_options(spec);
      opt.cpu = row.kind;
      opt.tuning = gen::KernelTuning{false, 4, std::nullopt, "wisdom w.json", "grouped x4 1 ns", peel};
      for (const gen::KernelSpec& k : spec.kernels) {
        SCOPED_TRACE(k.name + " for " + row.name + (peel ? ", tuned peeled" : ", tuned unpeeled"));
        const gen::KernelPlan p = gen::plan_kernel(k, opt);
        bool any = false;
        for (const gen::IsaPlan& ip : p.isas) {
          const bool peels = peel && bg::isa_includes(ip.isa, Isa::Avx512) && k.name == "se_scale";
          EXPECT_EQ(ip.peel, peels) << bg::isa_name(ip.isa) << ": " << ip.why;
          any = any || ip.peel;
          if (ip.peel) {
            EXPECT_NE(ip.why.find("each storing one line, and the rest masked (tuned)"), std::string::npos) << ip.why;
          }
          if (ip.vector) {
            EXPECT_NE(ip.why.find("; order, unroll and peel from wisdom w.json (grouped x4 1 ns)"), std::string::npos)
                << ip.why;
          }
        }
        EXPECT_EQ(any, peel && k.name == "se_scale");
      }
    }
  }
}

TEST(CpuKinds, GeneratedCodeNamesItsKindAndItsOrder) {
  gen::GenerateOptions o;
  o.stem = "cpu";
  o.source_name = "cpu.yaml";
  const gen::GeneratedFiles generic = gen::generate(spec_for(CpuKind::Generic), o);
  const gen::GeneratedFiles zen4 = gen::generate(spec_for(CpuKind::Zen4), o);
  const std::string& g = generic.files.at("cpu.cpp");
  const std::string& z = zen4.files.at("cpu.cpp");
  EXPECT_EQ(g.find("--cpu"), std::string::npos) << "generic output keeps its banner";
  EXPECT_NE(z.find("Regenerate with: bcastgen generate cpu.yaml -o <dir> --cpu zen4\n"), std::string::npos);
  EXPECT_NE(z.find("// Planned for CPU kind zen4 ("), std::string::npos);
  EXPECT_NE(g.find("\"bcastgen.kernel:k:avx512\""), std::string::npos);
  EXPECT_EQ(z.find("\"bcastgen.kernel:k:avx512\""), std::string::npos);
  // Interleaved, as tuned: the second vector's load comes after the first vector's store.
  auto second_load_after_first_store = [](const std::string& code) {
    const auto loop = code.find("// 12 iterations of 64 elements");
    const auto store = code.find("store_f32(", loop);
    const auto load = code.find("load_f32(in0_1 + j + 16)", loop);
    EXPECT_NE(loop, std::string::npos);
    EXPECT_NE(store, std::string::npos);
    EXPECT_NE(load, std::string::npos);
    return load > store;
  };
  gen::GenerateOptions tuned = o;
  tuned.tuning["k"] =
      gen::KernelTuning{true, 4, std::nullopt, "wisdom w.json", "interleaved x4 avx512 1 ns", std::nullopt};
  EXPECT_FALSE(second_load_after_first_store(g));
  EXPECT_TRUE(second_load_after_first_store(gen::generate(spec_for(CpuKind::Generic), tuned).files.at("cpu.cpp")));
  // Deterministic: the same spec and kind give the same bytes.
  EXPECT_EQ(gen::generate(spec_for(CpuKind::Zen4), o).files, zen4.files);
}

TEST(CpuKinds, SpecNamesAKindOrGetsAClearError) {
  EXPECT_EQ(gen::parse_spec("cpu: zen4\nkernels: [{name: k, inputs: {a: [4]}, expr: a}]\n", "s.yaml").cpu,
            CpuKind::Zen4);
  EXPECT_EQ(gen::parse_spec("kernels: [{name: k, inputs: {a: [4]}, expr: a}]\n", "s.yaml").cpu, CpuKind::Generic);
  try {
    gen::parse_spec("cpu: zen9\nkernels: [{name: k, inputs: {a: [4]}, expr: a}]\n", "s.yaml");
    FAIL() << "cpu: zen9 was accepted";
  } catch (const gen::SpecError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("s.yaml:1:6"), std::string::npos) << what;
    EXPECT_NE(what.find("unknown cpu 'zen9' (valid: generic, intel-xeon, zen3, zen4, zen5)"), std::string::npos)
        << what;
  }
}

}  // namespace
