// The CPU-kind table (bcastgen/cpu_kinds.h): rows and names, which row a
// CPUID identity falls in, this CPU's identity against /proc/cpuinfo, and
// what a kind changes in plans, specs, explain and the generated files.
#include <gtest/gtest.h>

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

// zen4's fact: each vector's loads, nodes and store together, where a main
// loop of several vectors exists; generic keeps the grouped order.
TEST(CpuKinds, ZenFourPlansInterleaveTheMainLoop) {
  for (CpuKind cpu : {CpuKind::Generic, CpuKind::Zen4}) {
    const gen::Spec spec = spec_for(cpu);
    gen::PlanOptions opt;
    opt.isas = spec.isas;
    opt.cpu = cpu;
    const gen::KernelPlan p = gen::plan_kernel(spec.kernels[0], opt);
    EXPECT_EQ(p.cpu, cpu);
    for (const gen::IsaPlan& ip : p.isas) {
      EXPECT_EQ(ip.interleave, ip.vector && cpu == CpuKind::Zen4) << bg::isa_name(ip.isa);
      EXPECT_EQ(ip.unroll, ip.vector ? bg::cpu_kind_info(cpu).unroll : 1);
      EXPECT_EQ(ip.why.find("together (zen4)") != std::string::npos, ip.interleave) << ip.why;
    }
    const std::string text = gen::explain_plan_text(p);
    EXPECT_NE(text.find(std::string("cpu       ") + bg::cpu_kind_name(cpu) + " ("), std::string::npos) << text;
    EXPECT_EQ(gen::plan_json(p)["cpu"], bg::cpu_kind_name(cpu));
    // A row without a main loop has nothing to interleave.
    for (const gen::IsaPlan& ip : gen::plan_kernel(spec.kernels[1], opt).isas) {
      if (ip.main_trips == 0) {
        EXPECT_FALSE(ip.interleave) << bg::isa_name(ip.isa);
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
  // Interleaved: the second vector's load comes after the first vector's store.
  auto second_load_after_first_store = [](const std::string& code) {
    const auto loop = code.find("// 12 iterations of 64 elements");
    const auto store = code.find("store_f32(", loop);
    const auto load = code.find("load_f32(in0_1 + j + 16)", loop);
    EXPECT_NE(loop, std::string::npos);
    EXPECT_NE(store, std::string::npos);
    EXPECT_NE(load, std::string::npos);
    return load > store;
  };
  EXPECT_FALSE(second_load_after_first_store(g));
  EXPECT_TRUE(second_load_after_first_store(z));
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
