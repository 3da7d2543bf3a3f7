#include "kernel_tag_check.h"

#include <clang/AST/Attr.h>

#include "../ast_util.h"

namespace bcastgen::clangtool {

using namespace clang::ast_matchers;

void KernelTagCheck::registerMatchers(MatchFinder& finder) {
  finder.addMatcher(functionDecl(isExpansionInMainFile(), isDefinition(), hasAttr(clang::attr::Annotate)).bind("fn"),
                    this);
}

void KernelTagCheck::check(const MatchFinder::MatchResult& result) {
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  for (const auto* attr : fn->specific_attrs<clang::AnnotateAttr>()) {
    const std::string tag = attr->getAnnotation().str();
    const std::string prefix = "bcastgen.";
    if (tag.compare(0, prefix.size(), prefix) != 0) continue;
    const std::size_t colon1 = tag.find(':'), colon2 = tag.find(':', colon1 + 1);
    if (colon1 == std::string::npos || colon2 == std::string::npos) continue;
    KernelTag t;
    t.kind = tag.substr(prefix.size(), colon1 - prefix.size());
    t.kernel = tag.substr(colon1 + 1, colon2 - colon1 - 1);
    t.variant = tag.substr(colon2 + 1);
    t.fn = fn;
    t.where = where_of(*result.Context, fn->getLocation());
    facts_.tags.push_back(t);
    facts_of(fn, *result.Context);
  }
}

}  // namespace bcastgen::clangtool
