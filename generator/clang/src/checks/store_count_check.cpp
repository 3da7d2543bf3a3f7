#include "store_count_check.h"

#include <optional>
#include <vector>

#include "../ast_util.h"

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

// The 32-bit words of a constant vector mask: _mm256_setr_epi32(w0, ..., w7)
// or _mm_setr_epi32(...) with constant arguments, written in place or as the
// initializer of a local constant. Empty when it is anything else.
std::vector<std::int64_t> setr_epi32_words(clang::ASTContext& context, const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->getType().isConstQualified() || !var->getInit()) return {};
    e = var->getInit()->IgnoreParenImpCasts();
  }
  const auto* call = llvm::dyn_cast<clang::CallExpr>(e);
  if (!call) return {};
  const std::string name = written_callee(context, call);
  if (name != "_mm256_setr_epi32" && name != "_mm_setr_epi32") return {};
  std::vector<std::int64_t> words;
  for (const clang::Expr* arg : call->arguments()) {
    const auto w = arg->getIntegerConstantExpr(context);
    if (!w) return {};
    words.push_back(w->getExtValue());
  }
  return words;
}

// Bytes an x86 or NEON store intrinsic writes, when known.
std::optional<std::int64_t> store_bytes(clang::ASTContext& context, const std::string& name, const clang::CallExpr* call) {
  if (has(name, "_mask_")) {  // _mm512_mask_storeu_ps(p, mask, v): the mask's set lanes
    if (call->getNumArgs() < 2 || lane_bytes(name) == 0) return std::nullopt;
    const auto mask = call->getArg(1)->getIntegerConstantExpr(context);
    if (!mask) return std::nullopt;
    return static_cast<std::int64_t>(mask->countPopulation()) * lane_bytes(name);
  }
  if (has(name, "_maskstore_")) {  // AVX2 vmaskmov: a lane is stored when its top bit is set
    const int lane = lane_bytes(name);
    if (call->getNumArgs() < 2 || lane < 4) return std::nullopt;
    const std::vector<std::int64_t> words = setr_epi32_words(context, call->getArg(1));
    if (words.empty()) return std::nullopt;
    const std::size_t per_lane = static_cast<std::size_t>(lane / 4);
    std::int64_t stored = 0;
    for (std::size_t top = per_lane - 1; top < words.size(); top += per_lane) stored += words[top] < 0 ? lane : 0;
    return stored;
  }
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
  finder.addMatcher(callExpr(isExpansionInMainFile(), in_function).bind("call"), this);
  finder.addMatcher(binaryOperator(isExpansionInMainFile(), isAssignmentOperator(), in_function).bind("assign"), this);
}

void StoreCountCheck::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  StoreFact f;
  if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call")) {
    check_call(context, call, f);
  } else if (const auto* assign = result.Nodes.getNodeAs<clang::BinaryOperator>("assign")) {
    const clang::Expr* lhs = assign->getLHS()->IgnoreParenImpCasts();
    if (!llvm::isa<clang::ArraySubscriptExpr>(lhs) && !llvm::isa<clang::UnaryOperator>(lhs)) return;
    const clang::ParmVarDecl* out = output_root(lhs);
    if (!out) return;
    f.what = "assignment";
    f.where = where_of(context, assign->getExprLoc());
    f.loop = enclosing_loop(context, assign);
    const std::int64_t bytes = context.getTypeSizeInChars(lhs->getType()).getQuantity();
    if (bytes % element_bytes(context, out) == 0) f.elements = bytes / element_bytes(context, out);
  }
  if (!f.what.empty()) facts_of(fn, context).stores.push_back(f);
}

void StoreCountCheck::check_call(clang::ASTContext& context, const clang::CallExpr* call, StoreFact& f) {
  const std::string name = written_callee(context, call);
  const bool copy = name == "memcpy" || name == "__builtin_memcpy";
  const bool intrinsic = !intrinsic_family(name).empty() && (has(name, "store") || has(name, "stream")) &&
                         !has(name, "load");
  const clang::ParmVarDecl* out = nullptr;
  if ((copy || intrinsic) && call->getNumArgs() > 0) {
    out = output_root(call->getArg(0));
  } else {  // another call that is handed the output: its writes are not counted here
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const clang::SourceManager& sm = context.getSourceManager();
    if (callee && callee->getDefinition() && sm.isInMainFile(sm.getExpansionLoc(callee->getDefinition()->getLocation()))) {
      return;  // a function of this file: analysis.cpp counts its stores at the call
    }
    for (const clang::Expr* arg : call->arguments()) {
      if (arg->getType()->isPointerType() && (out = output_root(arg))) break;
    }
    if (!out) return;
    f.what = name.empty() ? "a call" : name;
    f.where = where_of(context, call->getBeginLoc());
    f.loop = enclosing_loop(context, call);
    return;  // elements unknown
  }
  if (!out) return;
  f.what = name;
  f.where = where_of(context, call->getBeginLoc());
  f.loop = enclosing_loop(context, call);
  f.stream = has(name, "_stream_");
  std::optional<std::int64_t> bytes;
  if (copy && call->getNumArgs() == 3) {
    if (auto n = call->getArg(2)->getIntegerConstantExpr(context)) bytes = n->getExtValue();
  } else if (intrinsic) {
    bytes = store_bytes(context, name, call);
  }
  const std::int64_t per = element_bytes(context, out);
  if (bytes && *bytes % per == 0) f.elements = *bytes / per;
}

}  // namespace bcastgen::clangtool
