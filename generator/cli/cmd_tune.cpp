// `bcastgen tune SPEC -o WISDOM`: each kernel of a spec planned as every
// candidate (the order of a main-loop step's loads and stores, the unroll,
// and, where its rows can be peeled to the output's lines, the peel), built
// by the system compiler into one driver with the candidates side by side,
// timed on this machine in each vector variant it runs, and what won
// written to a wisdom file (wisdom.h) that `bcastgen generate --wisdom`
// plans with. As FFTW's wisdom:
// the timing is done once, on the machine the kernels are for, and the
// generation that reads the file stays deterministic.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bcastgen/cpu.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/gen/tune_choice.h"
#include "bcastgen/gen/wisdom.h"
#include "render.h"
#include "commands.h"
#include "process.h"

namespace bcastgen::cli {
namespace {

namespace fs = std::filesystem;

struct Candidate {
  bool interleave;
  int unroll;
  bool peel;
  std::string name() const {
    return fmt::format("{} x{}{}", interleave ? "interleaved" : "grouped", unroll, peel ? " peeled" : "");
  }
};

// Both orders at the two unrolls that make sense for streaming kernels (4
// vectors per step is every kind's today; 2 halves the registers a step
// holds), with rows unpeeled and peeled. A peeled candidate is built only if
// some kernel's plan peels in it, and timed only in the variants that peel:
// elsewhere its code is its unpeeled twin's (plan.cpp: rows that start at
// one offset in the lines, patterns, held rows, ISAs without a run-time mask).
const std::vector<Candidate>& candidates() {
  static const std::vector<Candidate> kAll = {{false, 4, false}, {true, 4, false}, {false, 2, false},
                                              {true, 2, false},  {false, 4, true}, {true, 4, true},
                                              {false, 2, true},  {true, 2, true}};
  return kAll;
}

// The plans of each candidate: plans[candidate][kernel]; empty for a
// candidate that is not built.
using CandidatePlans = std::vector<std::vector<gen::KernelPlan>>;

bool peels(const gen::KernelPlan& plan, Isa isa) {
  for (const gen::IsaPlan& ip : plan.isas) {
    if (ip.isa == isa) return ip.peel;
  }
  return false;
}

constexpr std::size_t kPlacements = std::size(gen::kTuneStaggers);  // tune_choice.h says why these

// One timed call: a candidate plan run in one of its variants.
struct Trial {
  std::size_t candidate;
  Isa isa;
  std::string name() const { return candidates()[candidate].name() + " " + isa_name(isa); }
};

// The variants of a kernel this CPU runs that are worth timing against each
// other: the one the dispatcher picks (first), then every narrower vector
// variant (on an AVX-512 CPU, the avx2 one: Zen 4 runs its 256-bit code
// faster on some kernels).
std::vector<Isa> variants_to_time(const gen::KernelPlan& plan, Isa active) {
  std::vector<Isa> runnable;
  for (const gen::IsaPlan& ip : plan.isas) {
    if (isa_includes(active, ip.isa)) runnable.push_back(ip.isa);
  }
  sort_most_specific_first(&runnable);
  std::vector<Isa> timed;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    const auto ip = std::find_if(plan.isas.begin(), plan.isas.end(),
                                 [&](const gen::IsaPlan& x) { return x.isa == runnable[i]; });
    if (i == 0 || ip->vector) timed.push_back(runnable[i]);
  }
  return timed;
}

// Kernel k's trials: each built candidate in each variant to time, but a
// peeled candidate only where its plan peels.
std::vector<Trial> trials_of(const CandidatePlans& plans, std::size_t k, Isa active) {
  std::vector<Trial> trials;
  for (Isa isa : variants_to_time(plans.front()[k], active)) {
    for (std::size_t c = 0; c < candidates().size(); ++c) {
      if (plans[c].empty() || (candidates()[c].peel && !peels(plans[c][k], isa))) continue;
      trials.push_back({c, isa});
    }
  }
  return trials;
}

// How the driver fills an input of this dtype (tune_driver.cpp.mustache's kind).
int fill_kind(DType t) {
  if (t == DType::F16) return 1;
  if (t == DType::Bf16) return 2;
  if (t == DType::Bool) return 3;
  return dtype_info(t).is_float ? 0 : 4;
}

// trials_per_kernel[k]: kernel k's trials, in the order the driver runs and
// prints them.
std::string driver_source(const CandidatePlans& plans, const std::vector<std::vector<Trial>>& trials_per_kernel) {
  std::vector<gen::Values> headers, kernels;
  for (std::size_t c = 0; c < candidates().size(); ++c) {
    if (!plans[c].empty()) headers.push_back(gen::Values().set("header", fmt::format("c{}.h", c)));
  }
  for (std::size_t kernel = 0; kernel < plans.front().size(); ++kernel) {
    const gen::KernelPlan& p = plans.front()[kernel];
    const gen::KernelSpec& k = p.spec;
    std::vector<gen::Values> inputs, calls;
    std::string args;
    for (std::size_t i = 0; i < k.inputs.size(); ++i) {
      inputs.push_back(gen::Values()
                           .set("index", static_cast<std::int64_t>(i))
                           .set("type", dtype_info(k.inputs[i].dtype).cpp_type)
                           .set("count", checked_numel(k.inputs[i].shape))
                           .set("fill", static_cast<std::int64_t>(fill_kind(k.inputs[i].dtype))));
      args += fmt::format("in{}, ", i);
    }
    for (const Trial& t : trials_per_kernel.at(kernel)) {
      calls.push_back(gen::Values().set(
          "call", fmt::format("bcastgen_tune_c{}::{}_isa(bcastgen::Isa::{}, {}static_cast<{}*>(out));", t.candidate,
                              k.name, isa_enumerator(t.isa), args, dtype_info(p.out_dtype).cpp_type)));
    }
    kernels.push_back(gen::Values()
                          .set("name", k.name)
                          .list("inputs", inputs)
                          .declare("index").declare("type").declare("count").declare("fill")
                          .list("candidates", calls)
                          .set("out_bytes", checked_numel(p.shapes.out) * dtype_size(p.out_dtype)));
  }
  gen::Values v;
  v.list("headers", headers).list("kernels", kernels).set("staggers", fmt::format("{}", fmt::join(gen::kTuneStaggers, ", ")));
  return gen::render("tune_driver.cpp.mustache", v);
}

// The driver's "time KERNEL TRIAL STAGGER NS" lines: ns[kernel][trial],
// the mean over the placements (tune_driver.cpp.mustache's kStaggers).
std::map<std::string, std::vector<double>> parse_times(const std::string& text) {
  std::map<std::string, std::vector<std::vector<double>>> at;  // [kernel][trial][placement]
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string tag, name;
    std::size_t c = 0, stagger = 0;
    double t = 0;
    if (!(words >> tag >> name >> c >> stagger >> t) || tag != "time" || c >= 64) {
      throw ToolFailure("the tune driver printed an unexpected line: " + line, text);
    }
    auto& v = at[name];
    if (v.size() <= c) v.resize(c + 1);
    v[c].push_back(t);
  }
  std::map<std::string, std::vector<double>> ns;
  for (const auto& [name, trials] : at) {
    for (const std::vector<double>& t : trials) {
      // -1: not timed at every placement (checked by the caller).
      ns[name].push_back(t.size() != kPlacements ? -1.0
                                                 : std::accumulate(t.begin(), t.end(), 0.0) /
                                                       static_cast<double>(kPlacements));
    }
  }
  return ns;
}

struct TuneArgs {
  std::string spec, out, cpu = "native";
  double keep_within = 0.01;
  int passes = 3;
  bool keep_temp = false;
};

int tune(const TuneArgs& args) {
  const fs::path spec_path(args.spec);
  gen::CheckedSpec spec = gen::parse_checked_spec(gen::read_file(args.spec), args.spec);
  spec.set_cpu(parse_cpu_option(args.cpu));
  const CpuKind kind = spec.spec().cpu;
  // Each candidate plan is timed in the variant this machine dispatches to
  // and in the narrower vector variants it runs (variants_to_time); the
  // order and unroll measured with the winner are the file's for every ISA.
  const Isa isa = active_isa();
  const CpuKindInfo& row = cpu_kind_info(kind);

  const TempDir dir("bcastgen-tune-", args.keep_temp);
  std::vector<fs::path> sources;
  CandidatePlans plans(candidates().size());
  // As the kind's row plans them, without tuning: the plans generate
  // --wisdom fingerprints, and whose dispatched variant is the kind's trial.
  std::vector<gen::KernelPlan> untuned;
  const gen::PlanOptions untuned_options = gen::plan_options(spec.spec());
  for (std::size_t k = 0; k < spec.spec().kernels.size(); ++k) {
    untuned.push_back(gen::plan_kernel(spec.spec().kernels[k], spec.shapes()[k], untuned_options));
  }
  std::size_t built = 0;
  for (std::size_t c = 0; c < candidates().size(); ++c) {
    const Candidate& cand = candidates()[c];
    gen::CheckedSpec cs = spec;
    cs.set_namespace(fmt::format("bcastgen_tune_c{}", c));
    gen::GenerateOptions o;
    o.stem = fmt::format("c{}", c);
    o.source_name = spec_path.filename().string();
    o.emit_runtime = c == 0;  // the runtime headers once: the build needs no installed bcastgen
    for (const gen::KernelSpec& k : cs.spec().kernels) {
      o.tuning[k.name] = gen::KernelTuning{cand.interleave, cand.unroll, std::nullopt, "tune", "candidate", cand.peel};
    }
    gen::GeneratedFiles files = gen::generate(cs, o);
    const bool any_peels = std::any_of(files.plans.begin(), files.plans.end(), [](const gen::KernelPlan& p) {
      return std::any_of(p.isas.begin(), p.isas.end(), [](const gen::IsaPlan& ip) { return ip.peel; });
    });
    if (cand.peel && !any_peels) continue;  // every kernel as its unpeeled twin
    plans[c] = files.plans;
    ++built;
    gen::write_files(dir.path().string(), files.files);
    sources.push_back(dir / (o.stem + ".cpp"));
  }
  // Each kernel's trial of the plan the kind's row gives (untuned): its
  // order, unroll and peel, in the variant the dispatcher picks from that
  // plan's. It stays unless another is faster in every pass (tune_choice.h).
  // The same trial again ends each kernel's list: its A/A twin.
  std::vector<std::vector<Trial>> trials_per_kernel;
  std::vector<std::size_t> kinds(untuned.size(), 0);
  for (std::size_t k = 0; k < untuned.size(); ++k) {
    std::vector<Trial>& trials = trials_per_kernel.emplace_back(trials_of(plans, k, isa));
    const Isa kinds_variant = variants_to_time(untuned[k], isa).front();
    const bool kinds_peel = peels(untuned[k], kinds_variant);
    for (std::size_t c = 0; c < trials.size(); ++c) {
      const Candidate& cand = candidates()[trials[c].candidate];
      if (cand.interleave == row.interleave && cand.unroll == row.unroll && cand.peel == kinds_peel &&
          trials[c].isa == kinds_variant) {
        kinds[k] = c;
      }
    }
    const Trial twin = trials[kinds[k]];
    trials.push_back(twin);
  }
  gen::write_files(dir.path().string(), {{"driver.cpp", driver_source(plans, trials_per_kernel)}});
  sources.insert(sources.begin(), dir / "driver.cpp");
  std::cerr << "bcastgen: tune: " << plans.front().size() << " kernel(s) x " << built
            << " candidate plans, planned for " << row.name << ", timed in the variant this CPU dispatches to (up to "
            << isa_name(isa) << ") and in the narrower vector ones it runs; compiling\n";
  compile_program(sources, dir.path(), dir / "driver", "the tune driver");
  // Passes of the whole driver: this VM's L3 and DRAM drift by several per
  // cent within minutes, so a fact must hold in every pass (below).
  std::vector<std::map<std::string, std::vector<double>>> passes;
  for (int pass = 0; pass < args.passes; ++pass) {
    const fs::path out_log = dir / "driver.out", err_log = dir / "driver.err";
    const std::string failure = run_process({(dir / "driver").string()}, out_log, err_log);
    const std::string text = gen::read_file(out_log.string());
    if (!failure.empty()) {
      throw ToolFailure("the tune driver " + failure + " (candidate plans whose outputs differ are a bcastgen bug)",
                        text + gen::read_file(err_log.string()));
    }
    passes.push_back(parse_times(text));
  }

  gen::Wisdom w;
  w.cpu = kind;
  const CpuIdentity& id = host_cpu_identity();
  w.machine = fmt::format("{} family {} model {}", id.vendor.empty() ? "unknown" : id.vendor, id.family, id.model);
  w.spec = spec_path.filename().string();
  // The kind's own facts in the dispatched variant win unless another trial
  // is faster than both of their timings by more than keep_within in every
  // pass (tune_choice.h). The times reported are the medians of the passes.
  for (std::size_t k = 0; k < plans.front().size(); ++k) {
    const gen::KernelPlan& p = plans.front()[k];
    const std::vector<Trial>& trials = trials_per_kernel[k];
    const std::size_t twin = trials.size() - 1;
    std::vector<std::vector<double>> per_pass;  // [pass][trial]
    for (const auto& pass : passes) {
      const auto it = pass.find(p.spec.name);
      if (it == pass.end() || it->second.size() != trials.size() ||
          std::count(it->second.begin(), it->second.end(), -1.0) > 0) {
        throw ToolFailure("the tune driver did not time every candidate of kernel '" + p.spec.name + "'");
      }
      per_pass.push_back(it->second);
    }
    const std::vector<double> t = gen::median_per_trial(per_pass);
    const std::size_t best = gen::tuned_choice(per_pass, kinds[k], twin, args.keep_within);
    std::string measured;
    for (std::size_t c = 0; c < twin; ++c) {
      measured += fmt::format("{}{} {:.0f} ns", measured.empty() ? "" : ", ", trials[c].name(), t[c]);
    }
    measured += fmt::format("; {} again (the kind's plan, timed twice) {:.0f} ns", trials[twin].name(), t[twin]);
    gen::WisdomEntry e;
    e.fingerprint = gen::kernel_fingerprint(untuned[k]);
    e.tuning.interleave = candidates()[trials[best].candidate].interleave;
    e.tuning.unroll = candidates()[trials[best].candidate].unroll;
    // The peel, where it was measured: kernels whose rows cannot peel keep
    // the kind's fact (it changes nothing for them).
    if (std::any_of(trials.begin(), trials.end(), [](const Trial& t) { return candidates()[t.candidate].peel; })) {
      e.tuning.peel = candidates()[trials[best].candidate].peel;
    }
    // A narrower variant than the widest timed won: CPUs with wider vectors
    // run it too. Else every variant stays (a wider one this CPU lacks was
    // not measured, so it is not left out).
    if (trials[best].isa != trials.front().isa) e.tuning.isa = trials[best].isa;
    e.tuning.measured = fmt::format("{} on {}, medians of {} passes of the means of {} placements: {}",
                                    trials[best].name(), w.machine, args.passes, kPlacements, measured);
    w.kernels[p.spec.name] = e;
    std::cout << fmt::format("{:<24} {:<23} {}\n", p.spec.name, trials[best].name(), measured);
  }
  const fs::path out(args.out);
  const std::string out_dir = out.has_parent_path() ? out.parent_path().string() : ".";
  gen::write_files(out_dir, {{out.filename().string(), gen::wisdom_text(w)}});
  std::cerr << "bcastgen: tune: wisdom for " << w.kernels.size() << " kernel(s) written to " << args.out << "\n";
  return gen::kExitOk;
}

}  // namespace

Action register_tune(CLI::App& app) {
  auto args = std::make_shared<TuneArgs>();
  auto* cmd = app.add_subcommand(
      "tune", "time candidate plans of each kernel of a spec on this machine and write what won to a wisdom file "
              "for `generate --wisdom`");
  cmd->add_option("SPEC", args->spec, "the spec file (YAML or JSON)")->required();
  cmd->add_option("-o,--output", args->out, "the wisdom file to write")->required();
  cmd->add_option("--cpu", args->cpu, "the CPU kind the kernels are planned for (default native: this machine's)")
      ->capture_default_str();
  cmd->add_option("--keep-within", args->keep_within,
                  "keep the CPU kind's own order, unroll and peel unless another is faster than both of their timings "
                  "(the kind's plan is timed twice) by more than this fraction in every pass")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--passes", args->passes,
                  "times the driver runs; a candidate must win in every pass to replace the kind's facts")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  cmd->add_flag("--keep-temp", args->keep_temp, "keep the temporary build directory and print its path");
  return [args] {
    try {
      return tune(*args);
    } catch (const ToolFailure& e) {
      return report_tool_failure(e, args->keep_temp);
    }
  };
}

}  // namespace bcastgen::cli
