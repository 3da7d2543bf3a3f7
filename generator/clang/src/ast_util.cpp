#include "ast_util.h"

#include <regex>
#include <utility>

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace bcastgen::clangtool {

void Staticness::merge(const Staticness& other) {
  if (kind == Runtime) return;
  if (other.kind == Runtime) {
    *this = other;
    return;
  }
  if (other.kind == Param) {
    kind = Param;
    params.insert(other.params.begin(), other.params.end());
  }
  if (peel.empty()) peel = other.peel;
}

const LoopFact* FunctionFacts::loop(const clang::Stmt* s) const {
  for (const LoopFact& l : loops) {
    if (l.stmt == s) return &l;
  }
  return nullptr;
}

Where where_of(const clang::ASTContext& context, clang::SourceLocation loc) {
  Where w;
  if (loc.isInvalid()) return w;
  const clang::SourceManager& sm = context.getSourceManager();
  const clang::SourceLocation file_loc = sm.getFileLoc(loc);
  w.line = sm.getSpellingLineNumber(file_loc);
  w.column = sm.getSpellingColumnNumber(file_loc);
  w.offset = sm.getFileOffset(file_loc);
  return w;
}

std::string text_of(const clang::ASTContext& context, const clang::Stmt* s, std::size_t max) {
  const clang::SourceManager& sm = context.getSourceManager();
  const clang::SourceLocation b = sm.getFileLoc(s->getBeginLoc()), e = sm.getFileLoc(s->getEndLoc());
  if (b.isInvalid() || e.isInvalid() || sm.getFileID(b) != sm.getFileID(e) || e < b) return "<expr>";
  const llvm::StringRef raw =
      clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(b, e), sm, context.getLangOpts());
  std::string text;
  bool space = false;
  for (char c : raw) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !text.empty();
      continue;
    }
    if (space) text += ' ';
    space = false;
    text += c;
  }
  if (text.size() > max) text = text.substr(0, max - 3) + "...";
  return text;
}

const clang::Stmt* enclosing_loop(clang::ASTContext& context, const clang::Stmt* s) {
  clang::DynTypedNodeList parents = context.getParents(*s);
  for (int guard = 0; guard < 256 && !parents.empty(); ++guard) {
    const clang::DynTypedNode& p = parents[0];
    if (const auto* st = p.get<clang::Stmt>()) {
      if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(st)) return st;
      parents = context.getParents(*st);
    } else if (const auto* d = p.get<clang::Decl>()) {
      if (llvm::isa<clang::FunctionDecl>(d)) return nullptr;
      parents = context.getParents(*d);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool is_loop_counter(clang::ASTContext& context, const clang::VarDecl* var) {
  for (const clang::DynTypedNode& p : context.getParents(*var)) {
    const auto* decl_stmt = p.get<clang::DeclStmt>();
    if (!decl_stmt) continue;
    for (const clang::DynTypedNode& q : context.getParents(*decl_stmt)) {
      const auto* loop = q.get<clang::ForStmt>();
      if (loop && loop->getInit() == decl_stmt) return true;
    }
  }
  return false;
}

const clang::ParmVarDecl* output_root(const clang::Expr* p) {
  for (int guard = 0; p && guard < 64; ++guard) {
    p = p->IgnoreParenCasts();
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p)) {
      if (!b->isAdditiveOp()) return nullptr;
      const bool lhs_pointer = b->getLHS()->getType()->isPointerType() || b->getLHS()->getType()->isArrayType();
      p = lhs_pointer ? b->getLHS() : b->getRHS();
    } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(p)) {
      if (u->getOpcode() != clang::UO_AddrOf && u->getOpcode() != clang::UO_Deref) return nullptr;
      p = u->getSubExpr();
    } else if (const auto* sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(p)) {
      p = sub->getBase();
    } else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(p)) {
      if (const auto* parm = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl())) {
        const clang::QualType t = parm->getType();
        return t->isPointerType() && !t->getPointeeType().isConstQualified() ? parm : nullptr;
      }
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!var || !var->isLocalVarDecl() || !var->getType()->isPointerType() || !var->getInit()) return nullptr;
      p = var->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool in_analyzed_file(const clang::SourceManager& sm, clang::SourceLocation loc) {
  const clang::SourceLocation at = sm.getExpansionLoc(loc);
  if (sm.isInMainFile(at)) return true;
  // The SIMD headers and the shared forms they include (math_f32.inl, half_f32.inl).
  static const std::regex simd_header("bcastgen/simd/[a-z0-9_]+\\.(h|inl)$");
  const clang::FileEntry* file = sm.getFileEntryForID(sm.getFileID(at));
  return file && std::regex_search(file->getName().str(), simd_header);
}

namespace {

// The 32-bit words of a constant vector: _mm256_setr_epi32(w0, ..., w7) or
// _mm_setr_epi32(...) with constant arguments. Empty when it is anything else.
std::vector<std::int64_t> setr_epi32_words(const clang::ASTContext& context, const clang::Expr* e) {
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

}  // namespace

ArgValue arg_value(clang::ASTContext& context, const clang::Expr* e) {
  ArgValue v;
  e = e->IgnoreParenImpCasts();
  if (const auto i = e->getIntegerConstantExpr(context)) {
    v.integer = i->getExtValue();
    return v;
  }
  // A local constant, written as its initializer.
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->getType().isConstQualified() || !var->getInit()) return v;
    e = var->getInit()->IgnoreParenImpCasts();
  }
  v.words = setr_epi32_words(context, e);
  return v;
}

std::optional<std::int64_t> masked_store_bytes(bool words, int lane_bytes, const ArgValue& mask) {
  if (lane_bytes <= 0) return std::nullopt;
  if (!words) {
    if (!mask.integer) return std::nullopt;
    return static_cast<std::int64_t>(__builtin_popcountll(static_cast<unsigned long long>(*mask.integer))) * lane_bytes;
  }
  if (lane_bytes < 4 || mask.words.empty()) return std::nullopt;
  const std::size_t per_lane = static_cast<std::size_t>(lane_bytes / 4);
  std::int64_t stored = 0;
  for (std::size_t top = per_lane - 1; top < mask.words.size(); top += per_lane) stored += mask.words[top] < 0 ? lane_bytes : 0;
  return stored;
}

std::string written_callee(const clang::ASTContext& context, const clang::CallExpr* call) {
  const clang::SourceManager& sm = context.getSourceManager();
  const clang::SourceLocation begin = call->getBeginLoc();
  if (begin.isMacroID() && !sm.isMacroArgExpansion(begin)) {
    clang::Token token;
    if (!clang::Lexer::getRawToken(sm.getFileLoc(begin), token, sm, context.getLangOpts()) &&
        token.is(clang::tok::raw_identifier)) {
      return token.getRawIdentifier().str();
    }
  }
  if (const clang::FunctionDecl* fn = call->getDirectCallee()) return fn->getNameAsString();
  return "";
}

}  // namespace bcastgen::clangtool
