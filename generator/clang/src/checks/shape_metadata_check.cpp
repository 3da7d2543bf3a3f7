#include "shape_metadata_check.h"

#include <regex>
#include <sstream>

#include <clang/AST/APValue.h>
#include <clang/Basic/SourceManager.h>

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

namespace {

// The integers of a constant std::array, in order, whatever its layout.
bool flatten(const clang::APValue& v, std::vector<std::int64_t>& out) {
  switch (v.getKind()) {
    case clang::APValue::Int: out.push_back(v.getInt().getExtValue()); return true;
    case clang::APValue::Array:
      for (unsigned i = 0; i < v.getArrayInitializedElts(); ++i) {
        if (!flatten(v.getArrayInitializedElt(i), out)) return false;
      }
      return v.getArrayInitializedElts() == v.getArraySize() || (v.hasArrayFiller() && flatten(v.getArrayFiller(), out));
    case clang::APValue::Struct:
      for (unsigned i = 0; i < v.getStructNumFields(); ++i) {
        if (!flatten(v.getStructField(i), out)) return false;
      }
      return true;
    default: return false;
  }
}

}  // namespace

void ShapeMetadataCheck::registerMatchers(MatchFinder& finder) {
  finder.addMatcher(varDecl(hasAnyName("out_numel", "out"), hasDeclContext(namespaceDecl(matchesName("_shape$")).bind("ns")))
                        .bind("var"),
                    this);
}

void ShapeMetadataCheck::check(const MatchFinder::MatchResult& result) {
  const auto* var = result.Nodes.getNodeAs<clang::VarDecl>("var");
  const std::string ns = result.Nodes.getNodeAs<clang::NamespaceDecl>("ns")->getNameAsString();
  ShapeMeta& meta = facts_.shapes[ns.substr(0, ns.size() - std::string("_shape").size())];
  const clang::APValue* value = var->evaluateValue();
  if (!value) return;
  std::vector<std::int64_t> ints;
  if (!flatten(*value, ints)) return;
  if (var->getName() == "out_numel" && ints.size() == 1) meta.out_numel = ints[0];
  if (var->getName() == "out") meta.out = ints;
}

void ShapeMetadataCheck::finish(clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  const std::string text = sm.getBufferData(sm.getMainFileID()).str();
  static const std::regex row(R"(^//\s+i\d+\s+(-?\d+)\s)");
  for (const KernelTag& tag : facts_.tags) {
    ShapeMeta& meta = facts_.shapes[tag.kernel];
    if (meta.table_found) continue;
    // The banner: a "// ===" line, then "// <kernel>: ...".
    const std::string head = "\n// " + tag.kernel + ": ";
    for (std::size_t at = text.find(head); at != std::string::npos; at = text.find(head, at + 1)) {
      if (at == 0) continue;
      const std::size_t prev = text.rfind('\n', at - 1);
      if (text.compare(prev == std::string::npos ? 0 : prev + 1, 6, "// ===") != 0) continue;
      std::istringstream lines(text.substr(at + 1, 8000));
      std::string line;
      unsigned line_no = sm.getLineNumber(sm.getMainFileID(), static_cast<unsigned>(at + 1));
      for (std::getline(lines, line); std::getline(lines, line);) {
        ++line_no;
        if (line.rfind("// ===", 0) == 0 || line.rfind("namespace", 0) == 0) break;
        std::smatch m;
        if (std::regex_search(line, m, row)) {
          if (!meta.table_found) meta.table_where.line = line_no;
          meta.table_found = true;
          meta.table_extents.push_back(std::stoll(m[1]));
        } else if (line.find("(no loops:") != std::string::npos) {
          meta.table_found = true;
          meta.table_where.line = line_no;
          meta.table_elements = line.find("no elements") != std::string::npos ? 0 : 1;
          break;
        } else if (meta.table_found) {
          break;
        }
      }
      if (meta.table_found && !meta.table_elements) {
        std::int64_t product = 1;
        bool overflow = false;
        for (std::int64_t e : meta.table_extents) overflow |= __builtin_mul_overflow(product, e, &product);
        if (!overflow) meta.table_elements = product;
      }
      break;
    }
  }
}

}  // namespace bcastgen::clangtool
