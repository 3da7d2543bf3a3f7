// `bcastgen tune SPEC -o WISDOM`: each kernel of a spec planned as every
// candidate (the order of a main-loop step's loads and stores, and the
// unroll), built by the system compiler into one driver with the candidates
// side by side, timed on this machine, and what won written to a wisdom file
// (wisdom.h) that `bcastgen generate --wisdom` plans with. As FFTW's wisdom:
// the timing is done once, on the machine the kernels are for, and the
// generation that reads the file stays deterministic.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bcastgen/cpu.h"
#include "bcastgen/gen/emit.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/spec.h"
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
  std::string name() const { return fmt::format("{} x{}", interleave ? "interleaved" : "grouped", unroll); }
};

// Both orders at the two unrolls that make sense for streaming kernels (4
// vectors per step is every kind's today; 2 halves the registers a step holds).
const std::vector<Candidate>& candidates() {
  static const std::vector<Candidate> kAll = {{false, 4}, {true, 4}, {false, 2}, {true, 2}};
  return kAll;
}

// How the driver fills an input of this dtype (tune_driver.cpp.mustache's kind).
int fill_kind(DType t) {
  if (t == DType::F16) return 1;
  if (t == DType::Bf16) return 2;
  if (t == DType::Bool) return 3;
  return dtype_info(t).is_float ? 0 : 4;
}

std::string driver_source(const std::vector<gen::KernelPlan>& plans, std::size_t n_candidates) {
  std::vector<gen::Values> headers, kernels;
  for (std::size_t c = 0; c < n_candidates; ++c) {
    headers.push_back(gen::Values().set("header", fmt::format("c{}.h", c)));
  }
  for (const gen::KernelPlan& p : plans) {
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
    for (std::size_t c = 0; c < n_candidates; ++c) {
      calls.push_back(gen::Values().set(
          "call", fmt::format("bcastgen_tune_c{}::{}({}static_cast<{}*>(out));", c, k.name, args,
                              dtype_info(p.out_dtype).cpp_type)));
    }
    kernels.push_back(gen::Values()
                          .set("name", k.name)
                          .list("inputs", inputs)
                          .declare("index").declare("type").declare("count").declare("fill")
                          .list("candidates", calls)
                          .set("out_bytes", checked_numel(p.shapes.out) * dtype_size(p.out_dtype)));
  }
  gen::Values v;
  v.list("headers", headers).list("kernels", kernels);
  return gen::render("tune_driver.cpp.mustache", v);
}

// The driver's "time KERNEL CANDIDATE NS" lines: ns[kernel][candidate].
std::map<std::string, std::vector<double>> parse_times(const std::string& text, std::size_t n_candidates) {
  std::map<std::string, std::vector<double>> ns;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string tag, name;
    std::size_t c = 0;
    double t = 0;
    if (!(words >> tag >> name >> c >> t) || tag != "time" || c >= n_candidates) {
      throw ToolFailure("the tune driver printed an unexpected line: " + line, text);
    }
    auto& v = ns[name];
    v.resize(n_candidates, -1);
    v[c] = t;
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
  // The driver calls the dispatching entries: the variant this machine
  // picks is the one timed, and the facts measured with it are the file's
  // for every ISA.
  const Isa isa = active_isa();
  const CpuKindInfo& row = cpu_kind_info(kind);

  const TempDir dir("bcastgen-tune-", args.keep_temp);
  std::vector<fs::path> sources;
  std::vector<gen::KernelPlan> plans;
  // Of the plans without tuning, as generate --wisdom checks them.
  const std::map<std::string, std::string> fingerprints = gen::kernel_fingerprints(spec);
  for (std::size_t c = 0; c < candidates().size(); ++c) {
    gen::CheckedSpec cs = spec;
    cs.set_namespace(fmt::format("bcastgen_tune_c{}", c));
    gen::GenerateOptions o;
    o.stem = fmt::format("c{}", c);
    o.source_name = spec_path.filename().string();
    o.emit_runtime = c == 0;  // the runtime headers once: the build needs no installed bcastgen
    for (const gen::KernelSpec& k : cs.spec().kernels) {
      o.tuning[k.name] = gen::KernelTuning{candidates()[c].interleave, candidates()[c].unroll, "tune", "candidate"};
    }
    gen::GeneratedFiles files = gen::generate(cs, o);
    if (c == 0) plans = files.plans;
    gen::write_files(dir.path().string(), files.files);
    sources.push_back(dir / (o.stem + ".cpp"));
  }
  gen::write_files(dir.path().string(), {{"driver.cpp", driver_source(plans, candidates().size())}});
  sources.insert(sources.begin(), dir / "driver.cpp");
  std::cerr << "bcastgen: tune: " << plans.size() << " kernel(s) x " << candidates().size()
            << " candidate plans, planned for " << row.name << ", timed in the variant this CPU dispatches to (up to "
            << isa_name(isa) << "); compiling\n";
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
    passes.push_back(parse_times(text, candidates().size()));
  }

  gen::Wisdom w;
  w.cpu = kind;
  const CpuIdentity& id = host_cpu_identity();
  w.machine = fmt::format("{} family {} model {}", id.vendor.empty() ? "unknown" : id.vendor, id.family, id.model);
  w.spec = spec_path.filename().string();
  // The kind's own facts win unless another candidate is more than
  // keep_within faster in every pass: noise must not flip a fact from run
  // to run. The times reported are the medians of the passes.
  std::size_t kinds = 0;
  for (std::size_t c = 0; c < candidates().size(); ++c) {
    if (candidates()[c].interleave == row.interleave && candidates()[c].unroll == row.unroll) kinds = c;
  }
  for (const gen::KernelPlan& p : plans) {
    std::vector<std::vector<double>> per_pass;  // [pass][candidate]
    for (const auto& pass : passes) {
      const auto it = pass.find(p.spec.name);
      if (it == pass.end() || std::count(it->second.begin(), it->second.end(), -1.0) > 0) {
        throw ToolFailure("the tune driver did not time every candidate of kernel '" + p.spec.name + "'");
      }
      per_pass.push_back(it->second);
    }
    std::vector<double> t(candidates().size());
    for (std::size_t c = 0; c < t.size(); ++c) {
      std::vector<double> v;
      for (const auto& pp : per_pass) v.push_back(pp[c]);
      std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
      t[c] = v[v.size() / 2];
    }
    std::size_t best = static_cast<std::size_t>(std::min_element(t.begin(), t.end()) - t.begin());
    const bool always_faster = std::all_of(per_pass.begin(), per_pass.end(), [&](const std::vector<double>& pp) {
      return pp[best] * (1 + args.keep_within) < pp[kinds];
    });
    if (!always_faster) best = kinds;
    std::string measured;
    for (std::size_t c = 0; c < t.size(); ++c) {
      measured += fmt::format("{}{} {:.0f} ns", measured.empty() ? "" : ", ", candidates()[c].name(), t[c]);
    }
    gen::WisdomEntry e;
    e.fingerprint = fingerprints.at(p.spec.name);
    e.tuning.interleave = candidates()[best].interleave;
    e.tuning.unroll = candidates()[best].unroll;
    e.tuning.measured = fmt::format("{} on {}, medians of {} passes: {}", candidates()[best].name(), w.machine,
                                    args.passes, measured);
    w.kernels[p.spec.name] = e;
    std::cout << fmt::format("{:<24} {:<16} {}\n", p.spec.name, candidates()[best].name(), measured);
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
                  "keep the CPU kind's own order and unroll unless another is faster by more than this fraction "
                  "in every pass")
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
