// The code of one kernel, written by small per-entity generators (as
// protoc's per-message generators): the ISA variants, their dispatch, the
// public entry points, the kernel table's entry, the checked entry and the
// C entry points. Each lays out one template of templates/ through the one
// strict renderer (render.h: an unknown placeholder is an error), with the
// names of symbols.h and the parameter lists of emit_signature.h.
#pragma once

#include <string>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"
#include "render.h"

namespace bcastgen::gen {

// What a kernel contributes to each generated file.
struct KernelCode {
  Values declarations;    // header.h and c_header.h's values of this kernel
  std::string code;       // its C++ definitions (kernel.cpp.mustache)
  std::string table_row;  // its bcastgen::KernelEntry in the file's kernel table
  std::string c_entry;    // its C entry points
};

struct KernelFileNames {
  std::string ns;        // the spec's C++ namespace
  std::string c_prefix;  // the C entry points' prefix
  std::string table_fn;  // the file's kernel table function
};

KernelCode emit_kernel(const KernelPlan& plan, const Vocabulary& vocabulary, const KernelFileNames& names);

}  // namespace bcastgen::gen
