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
  // Static or Param, but for a pointer's offset in its line, which a peeled
  // row reads at run time: what it is (empty: none). Bounded by the line,
  // it moves the row's pointers, not its loops or constant offsets.
  std::string peel;
  static Staticness runtime(std::string why) { return {Runtime, {}, std::move(why), {}}; }
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

// A constant argument, as far as a masked store needs it to count lanes.
struct ArgValue {
  std::optional<std::int64_t> integer;  // an integer constant: an AVX-512 lane mask
  std::vector<std::int64_t> words;      // the 32-bit words of a constant vector: an AVX2 vmaskmov mask
};

// A call to a function defined in the main file (a block of a split kernel)
// or in a SIMD header (bcastgen/simd/<isa>.h: a vector form).
struct CallFact {
  const clang::FunctionDecl* callee = nullptr;
  const clang::Stmt* loop = nullptr;  // the enclosing loop in the caller
  Where where;
  std::vector<Staticness> args;  // integer arguments; pointers count as static
  std::vector<ArgValue> values;  // every argument's constant value, where it has one
  // Per argument: the caller's parameter it points into when it is an
  // output pointer (output_root), else -1. A callee's store through its
  // parameter i writes the output only where argument i does (a SIMD
  // wrapper's store to a local spill array is no output store).
  std::vector<int> pointer_roots;
};

struct IntrinsicFact {
  std::string name, family;  // family: avx512, avx2, sse, bmi, neon
  Where where;
};

// A store to the output (a pointer parameter to non-const data).
struct StoreFact {
  const clang::Stmt* loop = nullptr;
  int root_param = -1;  // the function's parameter the store writes through
  Where where;
  std::string what;                     // the intrinsic, "memcpy" or "assignment"
  std::optional<std::int64_t> elements; // empty: width not known
  bool stream = false;
  // A masked store whose mask is parameter `mask_param` of its function (a
  // SIMD wrapper's store_tail): counted at each call, from the argument.
  int mask_param = -1;
  bool mask_words = false;        // the mask is vmaskmov's vector (else lane bits)
  int lane_bytes = 0;             // bytes per lane of the store
  std::int64_t element_bytes = 1; // bytes per output element
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
