#include "parse.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>

#include "bcastgen/gen/embedded.h"

#ifndef BCASTGEN_CLANG_RESOURCE_DIR
#error "BCASTGEN_CLANG_RESOURCE_DIR must name the installed clang's resource directory"
#endif

namespace bcastgen::clangtool {
namespace {

// Renders each diagnostic as clang would (through TextDiagnosticPrinter) and
// keeps it, with its level and location, for the caller to attribute.
class Collector : public clang::DiagnosticConsumer {
 public:
  Collector() : options_(new clang::DiagnosticOptions), stream_(buffer_), printer_(stream_, options_.get()) {}

  void BeginSourceFile(const clang::LangOptions& lang, const clang::Preprocessor* pp) override {
    printer_.BeginSourceFile(lang, pp);
    in_file_ = true;
  }
  void EndSourceFile() override {
    printer_.EndSourceFile();
    in_file_ = false;
  }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == clang::DiagnosticsEngine::Ignored || level == clang::DiagnosticsEngine::Remark) return;
    Diagnostic d;
    d.level = level >= clang::DiagnosticsEngine::Error ? Diagnostic::Error
              : level == clang::DiagnosticsEngine::Warning ? Diagnostic::Warning
                                                            : Diagnostic::Note;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    d.message = std::string(message);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const clang::SourceManager& sm = info.getSourceManager();
      const clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(info.getLocation()));
      if (p.isValid()) {
        d.file = p.getFilename();
        d.line = p.getLine();
        d.column = p.getColumn();
      }
    }
    if (in_file_) {
      buffer_.clear();
      printer_.HandleDiagnostic(level, info);
      stream_.flush();
      d.rendered = buffer_;
    } else {  // outside a source file (driver): no snippet to show
      d.rendered = std::string(d.level == Diagnostic::Error ? "error: " : "warning: ") + d.message + "\n";
    }
    diagnostics.push_back(std::move(d));
  }

  std::vector<Diagnostic> diagnostics;

 private:
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options_;
  std::string buffer_;
  llvm::raw_string_ostream stream_;
  clang::TextDiagnosticPrinter printer_;
  bool in_file_ = false;
};

}  // namespace

Parsed::Parsed() = default;
Parsed::Parsed(Parsed&&) noexcept = default;
Parsed::~Parsed() = default;

std::vector<std::string> base_args() {
  return {"-xc++", "-std=c++17", "-resource-dir=" BCASTGEN_CLANG_RESOURCE_DIR, "-Wall", "-Wextra",
          "-ferror-limit=100"};
}

Parsed parse(const SourceInput& input) {
  Parsed out;
  std::vector<std::string> args = base_args();
  args.insert(args.end(), input.args.begin(), input.args.end());
  args.push_back(std::string("-I") + kEmbeddedIncludeDir);

  out.mapped = std::make_unique<clang::tooling::FileContentMappings>();
  clang::tooling::FileContentMappings& mapped = *out.mapped;
  for (const auto& [path, content] : input.files) mapped.emplace_back(path, content);
  const std::string prefix = "runtime/include/";
  for (const auto& [name, content] : gen::embedded_files()) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string path = std::string(kEmbeddedIncludeDir) + "/" + name.substr(prefix.size());
    if (!input.files.count(path)) mapped.emplace_back(path, content);
  }

  auto collector = std::make_unique<Collector>();
  out.ast = clang::tooling::buildASTFromCodeWithArgs(
      input.code, args, input.path, "bcastgen", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), mapped, collector.get());
  out.diagnostics = std::move(collector->diagnostics);
  collector->diagnostics.clear();
  for (const Diagnostic& d : out.diagnostics) {
    if (d.level == Diagnostic::Error) ++out.errors;
    if (d.level == Diagnostic::Warning) ++out.warnings;
  }
  out.sink = std::move(collector);
  return out;
}

}  // namespace bcastgen::clangtool
