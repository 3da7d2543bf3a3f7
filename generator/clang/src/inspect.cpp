// `bcastgen inspect`: parse, collect the checks' facts, analyze.
#include "bcastgen/clang/inspect.h"

#include <filesystem>

#include <clang/Frontend/ASTUnit.h>

#include "analysis.h"
#include "check.h"
#include "parse.h"

namespace bcastgen::clangtool {

std::string Finding::text() const {
  std::string s = file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": kernel '" + kernel + "'";
  if (!variant.empty()) s += " (" + variant + ")";
  return s + ": " + message + " [" + check + "]";
}

InspectReport inspect(const SourceInput& input) {
  InspectReport report;
  report.file = input.path;
  SourceInput absolute = input;
  absolute.path = std::filesystem::absolute(input.path).lexically_normal().string();
  const Parsed parsed = parse(absolute);
  for (const Diagnostic& d : parsed.diagnostics) {
    if (d.level == Diagnostic::Error) report.diagnostics.push_back(d.rendered);
  }
  report.parsed = parsed.ast != nullptr && parsed.errors == 0;
  if (!report.parsed) return report;
  const Facts facts = collect_facts(parsed.ast->getASTContext(), input.path);
  report.kernels = analyze(facts);
  return report;
}

}  // namespace bcastgen::clangtool
