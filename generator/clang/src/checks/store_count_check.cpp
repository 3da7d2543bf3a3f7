#include "store_count_check.h"

#include <optional>
#include <vector>

#include "../ast_util.h"
#include "../intrinsic_families.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

namespace {

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
bool ends(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Bytes per lane of an intrinsic, from its suffix.
int lane_bytes(const std::string& name) {
  for (auto [suffix, bytes] : {std::pair{"_epi8", 1}, {"_epi16", 2}, {"_epi32", 4}, {"_epi64", 8}, {"_ps", 4},
                               {"_pd", 8}, {"_ph", 2}}) {
    if (ends(name, suffix)) return bytes;
  }
  return 0;
}

// Bytes an x86 or NEON store intrinsic writes, when known.
// Whether a store intrinsic is masked: AVX-512's _mask_ forms take a lane
// mask, AVX2's vmaskmov a vector (its argument 1 either way).
bool masked(const std::string& name) { return has(name, "_mask_") || has(name, "_maskstore_"); }

// Bytes an unmasked x86 or NEON store intrinsic writes, when known.
std::optional<std::int64_t> store_bytes(const std::string& name) {
  if (name.rfind("vst1q_", 0) == 0) return 16;
  if (name.rfind("vst1_", 0) == 0) return 8;
  if (has(name, "storel_") || has(name, "storeh_") || ends(name, "store_sd") || ends(name, "_si64")) return 8;
  if (ends(name, "store_ss") || ends(name, "_si32")) return 4;
  if (ends(name, "_si16")) return 2;
  if (name.rfind("_mm512_", 0) == 0) return 64;
  if (name.rfind("_mm256_", 0) == 0) return 32;
  if (name.rfind("_mm_", 0) == 0) return 16;
  return std::nullopt;
}

std::int64_t element_bytes(clang::ASTContext& context, const clang::ParmVarDecl* out) {
  const clang::QualType t = out->getType()->getPointeeType();
  if (t->isVoidType() || t->isIncompleteType()) return 1;
  return context.getTypeSizeInChars(t).getQuantity();
}

}  // namespace

void StoreCountCheck::registerMatchers(MatchFinder& finder) {
  auto in_function = forFunction(functionDecl().bind("fn"));
  finder.addMatcher(callExpr(expansion_in_analyzed_file(), in_function).bind("call"), this);
  finder.addMatcher(binaryOperator(expansion_in_analyzed_file(), isAssignmentOperator(), in_function).bind("assign"),
                    this);
  // An element of class type (bcastgen::f16, bf16) is assigned by its
  // (trivial) operator=.
  finder.addMatcher(
      cxxOperatorCallExpr(expansion_in_analyzed_file(), hasOverloadedOperatorName("="), in_function).bind("assign_op"),
      this);
}

void StoreCountCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  // A template's own body has types that are not known (their sizes
  // cannot be asked); each instantiation is matched with its own.
  if (fn && fn->isDependentContext()) return;
  StoreFact f;
  if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call")) {
    check_call(context, fn, call, f);
  } else {
    const clang::Expr* assign = result.Nodes.getNodeAs<clang::BinaryOperator>("assign");
    const clang::Expr* lhs = nullptr;
    if (assign) {
      lhs = llvm::cast<clang::BinaryOperator>(assign)->getLHS();
    } else if (const auto* op = result.Nodes.getNodeAs<clang::CXXOperatorCallExpr>("assign_op")) {
      if (op->getNumArgs() != 2) return;
      assign = op;
      lhs = op->getArg(0);
    }
    if (!lhs) return;
    lhs = lhs->IgnoreParenImpCasts();
    if (!llvm::isa<clang::ArraySubscriptExpr>(lhs) && !llvm::isa<clang::UnaryOperator>(lhs)) return;
    const clang::ParmVarDecl* out = output_root(lhs);
    if (!out) return;
    f.what = "assignment";
    f.root_param = static_cast<int>(out->getFunctionScopeIndex());
    f.where = where_of(context, assign->getExprLoc());
    f.loop = enclosing_loop(context, assign);
    const std::int64_t bytes = context.getTypeSizeInChars(lhs->getType()).getQuantity();
    if (bytes % element_bytes(context, out) == 0) f.elements = bytes / element_bytes(context, out);
  }
  if (!f.what.empty()) facts_of(fn, context).stores.push_back(f);
}

void StoreCountCheck::check_call(clang::ASTContext& context, const clang::FunctionDecl* fn, const clang::CallExpr* call,
                                 StoreFact& f) {
  const std::string name = written_callee(context, call);
  const bool copy = name == "memcpy" || name == "__builtin_memcpy";
  // x86's stores name themselves (_mm256_storeu_ps, _mm512_stream_ps); NEON's are vst*.
  const bool intrinsic = !intrinsic_family(name).empty() &&
                         (((has(name, "store") || has(name, "stream")) && !has(name, "load")) || name.rfind("vst", 0) == 0);
  const clang::ParmVarDecl* out = nullptr;
  if ((copy || intrinsic) && call->getNumArgs() > 0) {
    out = output_root(call->getArg(0));
  } else {  // another call that is handed the output: its writes are not counted here
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const clang::SourceManager& sm = context.getSourceManager();
    if (callee && callee->getDefinition() && in_analyzed_file(sm, callee->getDefinition()->getLocation())) {
      return;  // an analyzed function: analysis.cpp counts its stores at the call
    }
    for (const clang::Expr* arg : call->arguments()) {
      if (arg->getType()->isPointerType() && (out = output_root(arg))) break;
    }
    if (!out) return;
    f.what = name.empty() ? "a call" : name;
    f.root_param = static_cast<int>(out->getFunctionScopeIndex());
    f.where = where_of(context, call->getBeginLoc());
    f.loop = enclosing_loop(context, call);
    return;  // elements unknown
  }
  if (!out) return;
  f.what = name;
  f.root_param = static_cast<int>(out->getFunctionScopeIndex());
  f.where = where_of(context, call->getBeginLoc());
  f.loop = enclosing_loop(context, call);
  f.stream = has(name, "_stream_");
  f.element_bytes = element_bytes(context, out);
  std::optional<std::int64_t> bytes;
  if (copy && call->getNumArgs() == 3) {
    if (auto n = call->getArg(2)->getIntegerConstantExpr(context)) bytes = n->getExtValue();
  } else if (intrinsic && masked(name)) {
    if (call->getNumArgs() < 2) return;
    f.mask_words = has(name, "_maskstore_");
    f.lane_bytes = lane_bytes(name);
    const clang::Expr* mask = call->getArg(1)->IgnoreParenImpCasts();
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(mask);
    const auto* param = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
    if (param && param->getDeclContext() == fn) {
      f.mask_param = static_cast<int>(param->getFunctionScopeIndex());  // known at the calls
    } else {
      bytes = masked_store_bytes(f.mask_words, f.lane_bytes, arg_value(context, mask));
    }
  } else if (intrinsic) {
    bytes = store_bytes(name);
  }
  if (bytes && *bytes % f.element_bytes == 0) f.elements = *bytes / f.element_bytes;
}

}  // namespace bcastgen::clangtool
