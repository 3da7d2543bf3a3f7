// Small AST helpers shared by the checks.
#pragma once

#include <optional>
#include <string>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>

#include "facts.h"

namespace bcastgen::clangtool {

// Where `loc` is written in the file (a macro argument where it is spelled,
// a macro body where the macro is used).
Where where_of(const clang::ASTContext& context, clang::SourceLocation loc);

// The source text of `e`, shortened to `max` characters.
std::string text_of(const clang::ASTContext& context, const clang::Stmt* s, std::size_t max = 60);

// The innermost for/while/do loop around `s` inside its function, or null.
const clang::Stmt* enclosing_loop(clang::ASTContext& context, const clang::Stmt* s);

// True when `var` is the counter of a for loop: declared in its init.
bool is_loop_counter(clang::ASTContext& context, const clang::VarDecl* var);

// The output parameter `p` points into, if any: p is, up to casts and
// offsets, a pointer parameter to non-const data, or a local pointer
// initialized from one. Null for inputs and local arrays.
const clang::ParmVarDecl* output_root(const clang::Expr* p);

// Whether `loc` is in a file whose functions are analyzed: the main file
// and the runtime's SIMD headers (bcastgen/simd/<isa>.h), whose wrappers
// the kernels call.
bool in_analyzed_file(const clang::SourceManager& sm, clang::SourceLocation loc);

// The matcher of the same: nodes expanded in an analyzed file.
inline auto expansion_in_analyzed_file() {
  using namespace clang::ast_matchers;
  return anyOf(isExpansionInMainFile(), isExpansionInFileMatching("bcastgen/simd/[a-z0-9_]+\\.h$"));
}

// The constant value of a call argument (see ArgValue), or nothing known.
ArgValue arg_value(clang::ASTContext& context, const clang::Expr* e);

// Bytes a masked store of `lane_bytes` lanes writes under a constant mask:
// the set lanes of an AVX-512 lane mask, or the lanes of an AVX2 vmaskmov
// mask whose top bit is set. Empty when the mask is not known.
std::optional<std::int64_t> masked_store_bytes(bool words, int lane_bytes, const ArgValue& mask);

// The name of the intrinsic or function a call is written as: the macro
// name when a macro such as _mm512_cmp_ps_mask expands to a builtin.
std::string written_callee(const clang::ASTContext& context, const clang::CallExpr* call);

}  // namespace bcastgen::clangtool
