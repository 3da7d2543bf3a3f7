// The code of one kernel, written by small per-entity generators (as
// protoc's per-message generators): the ISA variants, their dispatch, the
// public entry points, the kernel table's entry, the checked entry and the
// C entry points. Each lays out one template of templates/ through the one
// strict renderer (render.h: an unknown placeholder is an error), with the
// names of symbols.h and the parameter lists of emit_signature.h.
#pragma once

#include <string>
#include <vector>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "render.h"

namespace bcastgen::gen {

// What a kernel contributes to each generated file.
struct KernelCode {
  Values declarations;    // header.h and c_header.h's values of this kernel
  std::string declaration;  // its C++ declarations in header.h (declarations.h.mustache)
  std::string code;       // its C++ definitions (kernel.cpp.mustache)
  std::string table_row;  // its bcastgen::KernelEntry in the file's kernel table
  std::string c_entry;    // its C entry points
};

struct KernelFileNames {
  std::string ns;        // the spec's C++ namespace
  std::string c_prefix;  // the C entry points' prefix
  std::string table_fn;  // the file's kernel table function
  // A sharded output: the kernel table in `source_file` lists the type-erased
  // entries and rows of every shard, which then have external linkage.
  bool sharded = false;
  std::string source_file;
};

// A kernel's variant bodies (emit_variant_body), one per variant in the
// plan's order (each ISA, then its streaming twin). Kernels with equal keys
// have the same variant code, whatever their names and shapes: the same
// expression and dtypes, coalesced nest, per-ISA decisions and stores.
struct VariantBodies {
  std::vector<std::string> bodies;
  std::string key;
};
VariantBodies variant_bodies(const KernelPlan& plan, const Vocabulary& vocabulary);

// `shared_with`: "" for a kernel with its own variants, or the earlier
// kernel of the same file whose variants (equal keys) this one calls.
KernelCode emit_kernel(const KernelPlan& plan, const VariantBodies& bodies, const KernelFileNames& names,
                       const std::string& shared_with = "");

}  // namespace bcastgen::gen
