// `bcastgen inspect`: reads generated kernels back through Clang's AST and
// checks what the generator promises about them. No LLVM type appears here,
// so the CLI and the tests need no Clang headers.
//
// A kernel variant is a function tagged BCASTGEN_KERNEL("bcastgen.kernel:
// <kernel>:<variant>") (clang's annotate attribute). The functions a variant
// calls that are defined in the same file (e.g. the `<variant>_block` of a
// split kernel) are inspected in the context of the call: their integer
// parameters take the values of the caller's arguments.
//
// Per variant: the loop nest (every trip count an integer constant
// expression), offsets (subscripts and pointer arithmetic built only from
// constants and loop counters), the SIMD intrinsics by family, whether its
// stores stream, and how many output elements it stores. Per kernel, the
// shape metadata of the header and of the comment table against the loops.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bcastgen::clangtool {

// A file to parse, with what it includes kept in memory.
struct SourceInput {
  std::string path;   // the main file's path (real or virtual); messages name it
  std::string code;   // its content
  // Further files, by absolute path, that exist only in memory (a header, the
  // runtime headers). The runtime headers compiled into bcastgen are always
  // available on the include path, after `args`' -I directories.
  std::map<std::string, std::string> files;
  std::vector<std::string> args;  // extra compiler arguments (-I, -D, -m...)
};

// A problem with one kernel: a run-time loop bound or offset, or a mismatch.
struct Finding {
  std::string kernel, variant;  // variant empty: the kernel as a whole
  std::string check;            // loop-bound, offset, isa, shape
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
  std::string text() const;  // "file:line:col: kernel 'k' (variant): message [check]"
};

struct LoopRow {
  int depth = 1;          // 1: outermost loop of the variant
  std::string var;        // the loop counter
  std::string function;   // where the loop is written (a callee, for split kernels)
  unsigned line = 0;
  std::optional<std::int64_t> begin, end, step, trips;  // empty when not constant
  std::string cmp = "<";                                // counter `cmp` end
  std::string problem;                                  // why the trip count is not constant
};

struct VariantReport {
  std::string name, function, target;  // target: the target attribute's features
  unsigned line = 0;
  std::vector<LoopRow> loops;  // pre-order: each loop after the loop around it
  int depth = 0;               // deepest nesting
  std::map<std::string, std::vector<std::string>> intrinsics;  // family -> names, sorted
  bool streams = false;                   // non-temporal stores (_stream_)
  std::optional<std::int64_t> stored;     // output elements stored, when countable
  std::string stored_note;                // why not countable
  // A peeled row: the pointer's offset in its line that moves the row's
  // pointers at run time (static_expr.cpp), and where; empty: none.
  std::string peel;
};

struct KernelReport {
  std::string name;
  std::vector<VariantReport> variants;   // in source order (a sharing kernel: its owner's)
  std::string shares;                    // the kernel whose variants it calls ("bcastgen.shares"), or ""
  std::vector<std::string> range_drivers;  // "bcastgen.range" functions (not linted)
  std::optional<std::int64_t> out_numel;   // <kernel>_shape::out_numel
  std::optional<std::vector<std::int64_t>> out_shape;  // <kernel>_shape::out
  std::vector<std::string> shape_checks;   // what was compared, one line each
  std::vector<Finding> findings;
};

struct InspectReport {
  std::string file;
  bool parsed = false;                  // false: the file does not compile
  std::vector<std::string> diagnostics; // compiler errors, rendered
  std::vector<KernelReport> kernels;    // in source order
  // Inline, as all of these types' code: the tool reads reports that
  // bcastgen-clang.so made (plugin.h) without linking Clang.
  std::size_t finding_count() const {
    std::size_t n = 0;
    for (const KernelReport& k : kernels) n += k.findings.size();
    return n;
  }
  bool ok() const { return parsed && finding_count() == 0; }
};

// Parses `input` with -std=c++17 -fsyntax-only (and the installed clang's
// resource directory) and inspects every tagged kernel.
InspectReport inspect(const SourceInput& input);

std::string render_text(const InspectReport& report);
nlohmann::json render_json(const InspectReport& report);

}  // namespace bcastgen::clangtool
