// `bcastgen generate --verify`: every flag set parsed in parallel, the
// inspect checks on the baseline, diagnostics headed by their kernel.
#include "bcastgen/clang/verify.h"

#include "bcastgen/cpu.h"

#include <chrono>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <clang/Frontend/ASTUnit.h>

#include "analysis.h"
#include "bcastgen/errors.h"
#include "check.h"
#include "parse.h"
#include "symbols.h"

namespace bcastgen::clangtool {
namespace {

constexpr const char* kRoot = "/<bcastgen-verify>";

// The kernel whose code holds `line`: the last `namespace <k>_impl {` or
// `namespace <k>_shape {` above it, until the file's kernel table.
std::string kernel_at(const std::string& content, unsigned line) {
  static const std::regex ns(R"(^namespace (\w+)_(impl|shape) \{)");
  std::istringstream in(content);
  std::string text, current;
  for (unsigned n = 1; n <= line && std::getline(in, text); ++n) {
    std::smatch m;
    if (text.rfind("namespace ", 0) == 0 && std::regex_search(text, m, ns)) current = m[1];
    if (text.rfind("bcastgen::KernelTable ", 0) == 0) current.clear();
  }
  return current;
}

std::string strip_root(std::string s) {
  const std::string root = std::string(kRoot) + "/";
  for (std::size_t at = s.find(root); at != std::string::npos; at = s.find(root, at)) s.erase(at, root.size());
  return s;
}

std::string joined(const std::vector<std::string>& flags) {
  std::string s;
  for (const std::string& f : flags) s += (s.empty() ? "" : " ") + f;
  return s;
}

struct Pass {
  std::vector<std::string> flags;
  // Linted too, for this ISA's variants only: an ISA whose intrinsics the
  // compiler declares only under its -m flags (a row with a `compiler`
  // condition, as avx512fp16 under Clang 14), absent from the baseline.
  std::string lint_isa;
  std::vector<Diagnostic> diagnostics;
  std::vector<Finding> findings;
  bool driver_failed = false;
};

// Whether verify parses the file for this ISA: one of this host's
// architecture with a target attribute.
bool verified_here(const IsaInfo& r) { return r.arch == kHostArch && *r.target != '\0'; }

// Its target attribute's features as -m flags ("avx2,fma" -> -mavx2 -mfma).
std::vector<std::string> m_flags(const IsaInfo& r) {
  std::vector<std::string> flags;
  for (const std::string& feature : isa_target_features(r.isa)) flags.push_back("-m" + feature);
  return flags;
}

}  // namespace

std::vector<std::vector<std::string>> verify_flag_sets() {
  // No flags, then each ISA verified here with its -m flags.
  std::vector<std::vector<std::string>> sets{{}};
  for (const IsaInfo& r : kIsaInfo) {
    if (verified_here(r)) sets.push_back(m_flags(r));
  }
  return sets;
}

VerifyResult verify_generated(const std::map<std::string, std::string>& files, const std::string& main_file) {
  const auto start = std::chrono::steady_clock::now();
  const auto main = files.find(main_file);
  if (main == files.end()) throw InvalidArgument("verify: no generated file named '" + main_file + "'");
  SourceInput input;
  input.path = std::string(kRoot) + "/" + main_file;
  input.code = main->second;
  for (const auto& [path, content] : files) {
    if (path != main_file) input.files[std::string(kRoot) + "/" + path] = content;
  }

  std::vector<Pass> passes;
  passes.push_back({{}, "", {}, {}, false});  // the baseline, as verify_flag_sets() lists them
  for (const IsaInfo& r : kIsaInfo) {
    if (verified_here(r)) passes.push_back({m_flags(r), *r.compiler != '\0' ? r.name : "", {}, {}, false});
  }
  auto run = [&input, &main_file](Pass& pass, bool lint) {
    SourceInput in = input;
    in.args = {std::string("-I") + kRoot};
    in.args.insert(in.args.end(), pass.flags.begin(), pass.flags.end());
    const Parsed parsed = parse(in);
    pass.diagnostics = parsed.diagnostics;
    pass.driver_failed = parsed.ast == nullptr;
    if ((lint || !pass.lint_isa.empty()) && parsed.ast && parsed.errors == 0) {
      for (const KernelReport& k : analyze(collect_facts(parsed.ast->getASTContext(), main_file))) {
        for (const Finding& f : k.findings) {
          if (lint || gen::variant_isa_name(f.variant) == pass.lint_isa) pass.findings.push_back(f);
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < passes.size(); ++i) threads.emplace_back(run, std::ref(passes[i]), false);
  run(passes[0], true);
  for (std::thread& t : threads) t.join();

  VerifyResult result;
  std::ostringstream report;
  std::set<std::string> seen, kernels;
  for (const Pass& pass : passes) {
    const std::string with = pass.flags.empty() ? "" : " (with " + joined(pass.flags) + ")";
    if (pass.driver_failed) {
      result.ok = false;
      report << "bcastgen: verify" << with << ": clang could not start:\n";
    }
    bool shown = false;  // notes follow the diagnostic they belong to
    for (const Diagnostic& d : pass.diagnostics) {
      if (d.level == Diagnostic::Note) {
        if (shown) report << strip_root(d.rendered);
        continue;
      }
      shown = seen.insert(d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ":" + d.message).second;
      if (!shown) continue;
      result.ok = false;
      std::string kernel;
      const std::string rel = d.file.rfind(std::string(kRoot) + "/", 0) == 0 ? d.file.substr(std::string(kRoot).size() + 1) : "";
      if (const auto f = files.find(rel); f != files.end()) kernel = kernel_at(f->second, d.line);
      if (!kernel.empty()) kernels.insert(kernel);
      report << "bcastgen: verify" << with << ": "
             << (kernel.empty() ? std::string(rel.empty() ? "in the runtime headers" : "outside any kernel")
                                : "kernel '" + kernel + "'")
             << ":\n"
             << strip_root(d.rendered);
    }
    for (const Finding& f : pass.findings) {
      result.ok = false;
      kernels.insert(f.kernel);
      report << "bcastgen: verify: kernel '" << f.kernel << "': " << f.text() << "\n";
    }
  }
  result.report = report.str();
  result.kernels.assign(kernels.begin(), kernels.end());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace bcastgen::clangtool
