// The names generated code gives a kernel's functions, namespaces and
// tables. Every suffix is spelled here and nowhere else: the templates get
// these names as values, and the manifest and the C entry points build
// theirs from the same functions.
#pragma once

#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace bcastgen::gen {

struct KernelSymbols {
  std::string unchecked;     // bn_relu: raw pointers, no checks
  std::string checked;       // bn_relu_checked: TensorViews, validated
  std::string range;         // bn_relu_range: iterations [begin, end) of the split loop
  std::string isa;           // bn_relu_isa: a chosen ISA (tests, benchmarks)
  std::string outer_extent;  // bn_relu_outer_extent: the C ABI's accessor of the split loop's extent
  std::string impl;          // namespace bn_relu_impl: the ISA variants and their selection
  std::string shape;         // namespace bn_relu_shape: the constexpr shapes
  std::string erased;        // bn_relu_erased: the kernel table's type-erased entry
  std::string range_erased;  // bn_relu_range_erased: and its range form
  std::string inputs;        // bn_relu_inputs: the kernel table's input rows
  std::string nodes;         // bn_relu_nodes: the kernel table's DAG rows
};

// `prefix` is "" inside the spec's C++ namespace and the C prefix
// ("<namespace>_") for the C entry points.
inline KernelSymbols kernel_symbols(const std::string& kernel, const std::string& prefix = "") {
  const std::string k = prefix + kernel;
  return {k,           k + "_checked", k + "_range",        k + "_isa",    k + "_outer_extent", k + "_impl",
          k + "_shape", k + "_erased", k + "_range_erased", k + "_inputs", k + "_nodes"};
}

// A C identifier from a stem or namespace ("my-model" -> "my_model", "a::b" -> "a_b").
inline std::string c_identifier(const std::string& name) {
  std::string s;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 2, "::") == 0) {
      s += '_';
      ++i;
    } else {
      s += std::isalnum(static_cast<unsigned char>(name[i])) ? name[i] : '_';
    }
  }
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "k" + s;
  return s;
}

// The C entry points' prefix of a spec's namespace: "a::b" -> "a_b_".
inline std::string c_prefix(const std::string& ns) { return c_identifier(ns) + "_"; }

// Every name kernel_symbols gives beside the kernel's own, with what it
// names: a kernel of the same spec may bear none of them (spec.cpp).
inline std::vector<std::pair<std::string, const char*>> kernel_symbol_roles(const std::string& kernel) {
  const KernelSymbols s = kernel_symbols(kernel);
  return {{s.checked, "checked entry point"},
          {s.range, "range entry point"},
          {s.isa, "entry point for a chosen ISA"},
          {s.outer_extent, "C accessor of the split loop's extent"},
          {s.impl, "namespace of the ISA variants"},
          {s.shape, "namespace of the shapes"},
          {s.erased, "type-erased table entry"},
          {s.range_erased, "type-erased range entry"},
          {s.inputs, "table of input rows"},
          {s.nodes, "table of expression nodes"}};
}

// The C function that gives the last error on this thread: "<prefix>last_error".
inline constexpr const char* kCLastError = "last_error";

// The prefix of the macros of the generated code and the runtime
// (BCASTGEN_KERNEL, BCASTGEN_SIMD_AVX512): no kernel name starts with it.
inline constexpr const char* kMacroPrefix = "BCASTGEN_";

// One ISA variant inside <kernel>_impl.
struct VariantSymbols {
  std::string function;  // avx512: the whole nest
  std::string block;     // avx512_block: one iteration of the split loop, inlined into both drivers
  std::string range;     // avx512_range: iterations [begin, end)
};

// The suffix of a variant's streaming-store twin: "<isa>_nt".
inline constexpr const char* kStreamingSuffix = "_nt";

// `isa` is the ISA's name.
inline VariantSymbols variant_symbols(const std::string& isa, bool streaming) {
  const std::string f = streaming ? isa + kStreamingSuffix : isa;
  return {f, f + "_block", f + "_range"};
}

// The ISA name of a variant function: "avx512" for "avx512" and "avx512_nt".
inline std::string variant_isa_name(std::string function) {
  const std::string suffix = kStreamingSuffix;
  if (function.size() > suffix.size() &&
      function.compare(function.size() - suffix.size(), suffix.size(), suffix) == 0) {
    function.resize(function.size() - suffix.size());
  }
  return function;
}

// The function that lists every kernel of a file (its stem as a C identifier).
inline std::string table_symbol(const std::string& stem_identifier) { return stem_identifier + "_kernels"; }

}  // namespace bcastgen::gen
