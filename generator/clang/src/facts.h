// What the checks record about one translation unit, function by function.
// The checks (checks/*) only record; analysis.cpp puts each kernel variant
// together from the functions it calls and decides what is a finding.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class Stmt;
}  // namespace clang

namespace bcastgen::clangtool {

struct Where {
  unsigned line = 0, column = 0;
  unsigned offset = 0;  // in the main file: orders facts as the source does
};

// Whether an integer expression is known when the code is generated.
struct Staticness {
  enum Kind { Static, Param, Runtime } kind = Static;
  std::set<unsigned> params;  // Param: the function parameters it depends on
  std::string culprit;        // Runtime: what makes it so ("'n' is a parameter")
  static Staticness runtime(std::string why) { return {Runtime, {}, std::move(why)}; }
  // Runtime wins, then parameters (united), then static.
  void merge(const Staticness& other);
};

struct LoopFact {
  const clang::Stmt* stmt = nullptr;
  const clang::Stmt* parent = nullptr;  // the enclosing loop in the same function
  std::string var;
  Where where;
  std::optional<std::int64_t> begin, end, step, trips;
  std::string cmp = "<";  // how the counter is compared with `end`
  std::string problem;    // empty: an integer constant trip count
};

// A subscript or a pointer offset.
struct OffsetFact {
  Where where;
  std::string text;  // the expression, as written
  Staticness index;
  std::vector<std::string> param_names;  // of the function, for messages
};

// A call to a function defined in the main file (a block of a split kernel).
struct CallFact {
  const clang::FunctionDecl* callee = nullptr;
  const clang::Stmt* loop = nullptr;  // the enclosing loop in the caller
  Where where;
  std::vector<Staticness> args;  // integer arguments; pointers count as static
};

struct IntrinsicFact {
  std::string name, family;  // family: avx512, avx2, sse, bmi, neon
  Where where;
};

// A store to the output (a pointer parameter to non-const data).
struct StoreFact {
  const clang::Stmt* loop = nullptr;
  Where where;
  std::string what;                     // the intrinsic, "memcpy" or "assignment"
  std::optional<std::int64_t> elements; // empty: width not known
  bool stream = false;
};

struct FunctionFacts {
  const clang::FunctionDecl* fn = nullptr;
  std::string name;
  std::string target;  // the target attribute's features, "" if none
  Where where;
  std::vector<LoopFact> loops;
  std::vector<OffsetFact> offsets;
  std::vector<CallFact> calls;
  std::vector<IntrinsicFact> intrinsics;
  std::vector<StoreFact> stores;
  const LoopFact* loop(const clang::Stmt* s) const;
};

// BCASTGEN_KERNEL("bcastgen.<kind>:<kernel>:<variant>")
struct KernelTag {
  std::string kind, kernel, variant;  // kind: kernel, block, range
  const clang::FunctionDecl* fn = nullptr;
  Where where;
};

// The shape metadata the generator emitted for a kernel.
struct ShapeMeta {
  std::optional<std::int64_t> out_numel;         // <kernel>_shape::out_numel
  std::optional<std::vector<std::int64_t>> out;  // <kernel>_shape::out
  bool table_found = false;                      // the comment's loop table
  std::vector<std::int64_t> table_extents;
  std::optional<std::int64_t> table_elements;    // their product, or 0/1 for "(no loops: ...)"
  Where table_where;
};

struct Facts {
  std::string file;  // the main file, as messages name it
  std::vector<KernelTag> tags;
  std::map<const clang::FunctionDecl*, FunctionFacts> functions;
  std::map<std::string, ShapeMeta> shapes;  // by kernel name
};

}  // namespace bcastgen::clangtool
