// Whether an integer expression is fixed when the code is generated.
//
// Static: integer constant expressions, loop counters (their loops' bounds
// are checked on their own), const locals initialized from static values,
// and arithmetic of these. Param: the same, but it also uses parameters of
// the function: static only if every call passes static values. Runtime:
// anything else: a non-const variable, a memory read, a call.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include "facts.h"

namespace bcastgen::clangtool {

Staticness classify(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::Expr* e);

}  // namespace bcastgen::clangtool
