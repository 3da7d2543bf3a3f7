// The per-ISA vector vocabulary (templates/vocabulary.yaml), loaded once:
// which vector forms exist, each a call of a wrapper of the ISA's SIMD
// header (runtime/include/bcastgen/simd/<isa>.h) with named parameters,
// v::add_f32(a, b), whose arguments the emitter gives by name (expand()).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/cpu_kinds.h"
#include "bcastgen/expr.h"
#include "bcastgen/types.h"

namespace bcastgen::gen {

// The alias through which generated code calls an ISA's wrappers: each
// vector block opens with `namespace v = bcastgen::simd::avx512;` and calls
// `v::add_f32(...)`. Qualified, so that no name the user gives a kernel
// (`add_f32`, `load_f32`, `x4`) hides a wrapper, as a kernel entry point of
// the user's namespace hid them from an unqualified call under
// `using namespace`. A block-scope alias is itself hidden by nothing.
inline constexpr const char* kWrapperAlias = "v";

// A vector form: a call of a wrapper, its function ("v::add_f32") and its
// template parameters and parameters by name, printed by expand() with the
// emitter's values; or, for the identity cast and the ISA constants the
// vocabulary file writes out (index_const, mask_const, mask_first), a
// pattern with $name$ placeholders. Empty: the ISA has no such form.
struct Form {
  std::string function;
  std::vector<std::string> template_params, params;
  std::string pattern;  // when `function` is empty
  bool empty() const { return function.empty() && pattern.empty(); }
  bool operator==(const Form& o) const {
    return function == o.function && template_params == o.template_params && params == o.params &&
           pattern == o.pattern;
  }
  bool operator!=(const Form& o) const { return !(*this == o); }
};
// The form as written: "v::add_f32(a, b)", "v::store_first_f32<n>(p, v)", or its pattern.
std::string form_text(const Form& form);

// v::exp_f32(x) -> v::x4::exp_f32(x): a wrapper call of the math functions
// over `width` vectors at once (simd/math_pack.inl's namespaces x2 and x4,
// inside the ISA's).
Form packed_call(const Form& call, int width);
// The namespace of those wrappers and of their vector tuple f32v: "v::x4".
std::string pack_namespace(int width);

// The constants of one vector ISA that are not per dtype. (Its target
// attribute, width and tail kind are facts of its row in kIsaInfo, cpu.h.)
struct IsaVocabulary {
  // For gathered blocks (plan.h, Access::Gather); empty when the ISA has none.
  std::string index;        // register type of a permute's index vector
  std::string index_const;  // an index vector from $words$: 32-bit lane numbers
  std::string mask_const;   // a lane mask from $words$ (-1/0 per 32-bit word) or $bits$ (one bit per lane)
  // The tail mask (of type $mask$) of the first $n$ lanes, n known only at
  // run time: the masked head of a peeled row (plan.h, IsaPlan::peel).
  // Empty where the ISA has none: its rows are not peeled.
  std::string mask_first;
  // How many vectors a step of four gives each call of an f32 math function
  // (simd/math_pack.inl's namespaces x2 and x4, whose operations alternate
  // between the vectors): `math_pack` for every function, `math_pack_of`
  // for those that differ, as measured (over four, some spill), and
  // `math_pack_on` for those that differ in the plans for one CPU kind
  // (cpu_kinds.h), as measured there. 0 where the ISA's header has no
  // packs: one call per vector.
  int math_pack = 0;
  std::map<UnaryOp, int> math_pack_of;
  std::map<CpuKind, std::map<UnaryOp, int>> math_pack_on;
  // The vectors per call for `op` in a plan for `cpu` (1: one call per vector).
  int math_pack_width(UnaryOp op, CpuKind cpu) const {
    if (const auto on = math_pack_on.find(cpu); on != math_pack_on.end()) {
      if (const auto it = on->second.find(op); it != on->second.end()) return it->second;
    }
    const auto it = math_pack_of.find(op);
    return it != math_pack_of.end() ? it->second : math_pack > 0 ? math_pack : 1;
  }
  // The ISA this one extends ("base: avx512"): it has the base's forms for
  // every dtype it does not list in `types`, and its own for those it does
  // (for a `partial` row, only the forms it lists).
  std::optional<Isa> base;
};

// Register types and memory forms of one dtype on one ISA ("" where it has none).
struct TypeVocabulary {
  std::string vec, mask, cmp;
  // Bytes of one lane in a register: the dtype's lane size (a 16-bit float
  // held as its f32 value takes 4), or 2 for native 16-bit float lanes.
  int lane_bytes = 0;
  // Its wrappers' names end in _<suffix>: the dtype's name, unless the row
  // says otherwise (native f16 forms are _ph, beside the base's _f16).
  std::string suffix;
  Form load, store, stream, splat, load_tail, store_tail, store_bool, store_bool_tail;
  Form permute;  // $v$ rearranged by the index vector $i$ (32-bit lane numbers)
  // The lanes at $p$, $p$ + $s$, $p$ + 2 $s$, ... ($s$ a constant element
  // stride, lanes x $s$ within int32), and the same of the lanes of tail
  // mask $t$: an input read through a transpose or a stepped slice.
  Form load_strided, load_strided_tail;
  // A tile of an input read through a transpose: the lines at $p$, $p$ +
  // $s$, ..., one cache line of elements each and as many lines, written
  // transposed to buffer $b$ (row r: $p$[r], $p$[r + $s$], ...), with the
  // lines at $a$, $a$ + $s$, ... prefetched for a later tile (IsaPlan::tiles).
  Form transpose_tile;
  // store and stream of lanes whose NaNs are already NaNs of the type
  // (KernelPlan::root_nans_exact): the rounding skips its NaN fixup.
  Form store_nan_exact, stream_nan_exact;
  // store and stream of lanes that hold values of the type
  // (KernelPlan::root_in_type): no rounding at all.
  Form store_exact, stream_exact;
  // store and stream of two adjacent vectors, $a$ at $p$ and $b$ right
  // after it, as one wider write (a pair rounds with one instruction where
  // the ISA has it: vcvtne2ps2bf16). Optional; they round as store does.
  Form store_pair, stream_pair;
  // store_tail of a partial vector whose length $n$ (lanes, 0 < n < the
  // vector's) is a constant of the plan: plain stores of the first $n$
  // lanes of $v$ at $p$, where the ISA's masked store is slow (AVX2's
  // vmaskmov on AMD). Optional; the emitter takes it over store_tail.
  Form store_first;
  // store_bool of four adjacent compare results, $a$ at $p$, then $b$, $c$
  // and $d$, as one write where narrowing them together is cheaper than
  // four stores of a few bytes (AVX2's 32-bit lanes: two vpackssdw, a
  // vpacksswb and one 32-byte store). Optional.
  Form store_bool4;
  // Expressions: where's select ($c$ a cmp, $x$ where set, $y$ where not),
  // and a bool input read as a cmp of this type's lanes (load_cmp from $p$,
  // load_cmp_tail under mask $t$, splat_cmp from a bool scalar $x$).
  Form select, load_cmp, load_cmp_tail, splat_cmp;
  // The lanes of $x$ under tail mask $t$, those of $y$ elsewhere: the
  // partial vector of a row kernel's reduction (rows.cpp) updates only the
  // partials of the row's elements.
  Form blend_tail;
  // The tree of a row kernel's partials inside one register: lane i of
  // lanes_down is lane i + $h$ of $x$ (for i < $h$; the others do not
  // matter), and first_lane is lane 0 of $x$ as a scalar. Optional: without
  // them the lanes are stored and combined by bcastgen::row_tree.
  Form lanes_down, first_lane;
};

// A memory, splat or select form of a dtype: a field of TypeVocabulary,
// the key that names it in the table, and the arguments of its wrapper.
struct TypeForm {
  const char* key;
  Form TypeVocabulary::*field;
  std::vector<const char*> args;
  bool required;  // every vector type has it (else: where the ISA or a feature needs it)
  // The first this many of args are template arguments: constants of the
  // plan, fixed when the wrapper is compiled (store_first's lane count).
  std::size_t template_args = 0;
};
// Every form of TypeVocabulary but its register types: what the loader reads
// and checks, and what a test walks to see each form's wrapper exists.
const std::vector<TypeForm>& type_forms();

// The two forms of max/min with a literal operand (literal_ops): Number,
// the op of ($n$, $x$) for n never NaN; Zero, the op of ($x$, +0.0).
enum class LiteralForm { Number, Zero };

class Vocabulary {
 public:
  // The table compiled into the tool.
  static const Vocabulary& builtin();
  // Parses a table (tests use their own); throws InvalidArgument naming the
  // entry for an unknown section, ISA, dtype, op, function, form or field, a
  // name listed twice or not an identifier, or a missing required form.
  static Vocabulary parse(const std::string& yaml_text);

  const IsaVocabulary* isa(Isa isa) const;
  const TypeVocabulary* type(Isa isa, DType t) const;
  // The lane size of dtype t on the ISA (TypeVocabulary::lane_bytes where
  // it has vectors of t, else dtype_lane_size).
  int lane_bytes(Isa isa, DType t) const;
  // Whether the ISA extends a base and has its own forms for t, all or some
  // (a `partial` row): a kernel with no such node is the base's kernel, so
  // the planner leaves the ISA out.
  bool overrides(Isa isa, DType t) const;
  // Whether those forms are only stores (a `partial` row, which may list
  // nothing else): they matter only to a kernel whose result is of dtype t.
  bool overrides_only_stores(Isa isa, DType t) const;
  // The vector form of an op (parameters a, b), if this ISA has one for the dtype.
  std::optional<Form> op(Isa isa, DType t, Op op) const;
  // The form of maximum or minimum with a literal operand, if the ISA has
  // one for the dtype (LiteralForm).
  std::optional<Form> literal_op(Isa isa, DType t, Op op, LiteralForm form) const;
  // The vector form of a unary function (parameter x), if there is one.
  std::optional<Form> unary(Isa isa, DType t, UnaryOp u) const;
  // The vector form of cast(x, to) for x of dtype `from`, if there is one
  // (the pattern "$x$" for from == to). Bool is a compare result of the
  // lanes. Between widths, where a node of a type r times wider than the
  // lanes' takes r registers: a widening cast makes part s of its result
  // from one register x (v::cast_i8_f32<s>(x)), a narrowing one joins the r
  // registers listed in x (v::cast_f64_f32(x) with x = "a, b").
  std::optional<Form> cast(Isa isa, DType from, DType to) const;
  // The names of the ISA headers (immintrin.h, arm_neon.h) that generated
  // code spells unqualified, from the global namespace: every register type
  // ("__m512", "float32x4_t"), the intrinsics of the constant forms
  // ("_mm512_setr_epi32", "_bzhi_u64") and the ISA table's fences
  // ("_mm_sfence"). A kernel may not bear one: its
  // entry point, in the user's namespace, would hide it.
  std::set<std::string> global_names() const;
  // The wrappers generated code calls (kWrapperAlias::<name>): every name
  // of every form, op, function and cast of every ISA ("add_f32",
  // "cast_i8_f32", "load_tail_f32").
  std::set<std::string> wrapper_names() const;

 private:
  std::map<Isa, IsaVocabulary> isas_;
  std::map<std::pair<Isa, DType>, TypeVocabulary> types_;
  std::map<std::tuple<Isa, DType, Op>, Form> ops_;
  std::map<std::tuple<Isa, DType, Op, LiteralForm>, Form> literal_ops_;
  std::map<std::tuple<Isa, DType, UnaryOp>, Form> unary_;
  std::map<std::tuple<Isa, DType, DType>, Form> casts_;
  std::set<std::pair<Isa, DType>> own_types_;      // of an ISA with a base: the dtypes it lists itself
  std::set<std::pair<Isa, DType>> partial_types_;  // ... of those, the `partial: true` rows
};

// Substitutes the $name$ placeholders, as protoc's Printer its variables:
// `$` is no C++ character, so every one is a placeholder's delimiter and no
// brace of C++ code in a pattern needs telling apart. A placeholder that
// is not in `values`, or a lone `$`, is an error (InvalidArgument naming the pattern).
std::string expand(const std::string& pattern, const std::map<std::string, std::string>& values);
// A form with its arguments by name: a wrapper call printed as
// function<template args>(args), each in the order of its parameters; a
// pattern expanded as above. A parameter with no value is an error.
std::string expand(const Form& form, const std::map<std::string, std::string>& values);

}  // namespace bcastgen::gen
