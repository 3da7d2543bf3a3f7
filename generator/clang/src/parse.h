// Building a Clang AST in-process from source held in memory: the installed
// clang's resource directory (immintrin.h, the builtin headers), the runtime
// headers compiled into bcastgen, and every diagnostic captured as text.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bcastgen/clang/inspect.h"

namespace clang {
class ASTUnit;
class DiagnosticConsumer;
}

namespace bcastgen::clangtool {

struct Diagnostic {
  enum Level { Note, Warning, Error } level = Error;
  std::string file;  // as clang names it
  unsigned line = 0, column = 0;
  std::string message;
  std::string rendered;  // clang's text: location, message, source line, caret
};

struct Parsed {
  // Declared before `ast`, which reports to the sink and reads the mapped
  // files (not copied) for as long as it lives.
  std::unique_ptr<clang::DiagnosticConsumer> sink;
  std::unique_ptr<std::vector<std::pair<std::string, std::string>>> mapped;
  std::unique_ptr<clang::ASTUnit> ast;  // null if the driver failed outright
  std::vector<Diagnostic> diagnostics;
  int errors = 0, warnings = 0;
  Parsed();
  Parsed(Parsed&&) noexcept;
  ~Parsed();
};

// Where the embedded runtime headers appear: "<dir>/bcastgen/*.h".
inline constexpr const char* kEmbeddedIncludeDir = "/<bcastgen-runtime>";

// The arguments every parse uses, before `input.args`.
std::vector<std::string> base_args();

// -fsyntax-only on input.code, named input.path.
Parsed parse(const SourceInput& input);

}  // namespace bcastgen::clangtool
