// The vocabulary (templates/vocabulary.yaml) and the SIMD headers
// (runtime/include/bcastgen/simd/<isa>.h) name the same wrappers: every
// form a row lists has its wrapper, and every wrapper is listed, so a header
// holds no dead code and a row no name that fails only when a kernel uses it.
// What each wrapper computes is checked through the kernels that call it
// (generated_kernels_test, the 512-DAG differential test).
#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <set>
#include <string>

#include "bcastgen/cpu.h"
#include "bcastgen/expr.h"
#include "bcastgen/gen/embedded.h"
#include "bcastgen/gen/vocabulary.h"

namespace bg = bcastgen;
using bg::gen::Vocabulary;

namespace {

// v::add_f32(a, b) -> "add_f32", v::cast_f32_f64<s>(x) -> "cast_f32_f64";
// nothing for no form or a pattern ("$x$": no call). Every call is qualified
// by the alias.
void add_name(std::set<std::string>& names, const bg::gen::Form& form) {
  if (form.function.empty()) return;
  const std::string alias = std::string(bg::gen::kWrapperAlias) + "::";
  EXPECT_EQ(form.function.rfind(alias, 0), 0u) << form_text(form) << " is not called through " << alias;
  names.insert(form.function.substr(alias.size()));
}

std::set<std::string> vocabulary_names(bg::Isa isa) {
  const Vocabulary& v = Vocabulary::builtin();
  std::set<std::string> names;
  for (bg::DType t : bg::kAllDTypes) {
    const bg::gen::TypeVocabulary* tv = v.type(isa, t);
    if (!tv) continue;
    for (const bg::gen::TypeForm& form : bg::gen::type_forms()) add_name(names, tv->*form.field);
    for (const bg::OpInfo& o : bg::kOpInfo) {
      add_name(names, v.op(isa, t, o.op).value_or(bg::gen::Form{}));
      for (auto form : {bg::gen::LiteralForm::Number, bg::gen::LiteralForm::Zero}) {
        add_name(names, v.literal_op(isa, t, o.op, form).value_or(bg::gen::Form{}));
      }
    }
    for (const bg::UnaryInfo& u : bg::kUnaryInfo) add_name(names, v.unary(isa, t, u.op).value_or(bg::gen::Form{}));
    for (bg::DType to : bg::kAllDTypes) {
      if (to != t) add_name(names, v.cast(isa, t, to).value_or(bg::gen::Form{}));
    }
  }
  return names;
}

// A runtime header's text without its `namespace detail` blocks: helpers,
// not wrappers.
std::string without_detail(const std::string& header) {
  return std::regex_replace(bg::gen::embedded_file("runtime/include/" + header),
                            std::regex("\nnamespace detail \\{\n[\\s\\S]*?\n\\}  // namespace detail\n"), "\n");
}

// The functions a SIMD header defines: each starts its line with the ISA's
// attribute macro, BCASTGEN_SIMD_<ISA> <type> <name>(.
std::set<std::string> header_names(const bg::IsaInfo& row) {
  std::set<std::string> names;
  // The names of the functions `text` defines with attribute macro `macro`.
  auto add_definitions = [&](const std::string& text, const std::string& macro) {
    const std::regex def("(^|\\n)" + macro + " [^(\\n]*?([a-z0-9_]+)\\(");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), def); it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(names.insert((*it)[2]).second) << row.name << ": " << (*it)[2] << " is defined twice";
    }
  };
  // The wrappers `text` makes from the table of unary functions: each
  // BCASTGEN_UNARY_FUNCTIONS(ROW) passes a row's name (and, as ROW's last
  // argument, a dtype suffix) to a macro by the row's form, whose Vector case
  // defines <name>_<suffix> (the suffix that argument or spelled there).
  auto add_table_expansions = [&](const std::string& text) {
    const std::regex expansion("\\nBCASTGEN_UNARY_FUNCTIONS\\((\\w+)\\)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), expansion); it != std::sregex_iterator(); ++it) {
      std::smatch row, vector_case;
      const std::regex row_def("#define " + (*it)[1].str() + "\\([^)]*\\) *\\\\\n *(\\w+)_##form\\(name(, (\\w+))?\\)");
      ASSERT_TRUE(std::regex_search(text, row, row_def)) << row.str() << ": no definition of " << (*it)[1];
      const std::regex vector_def("#define " + row[1].str() + "_Vector\\([^)]*\\)[ \\\\]*\\n[^\\n]* name##_(##\\w+|\\w+)\\(");
      ASSERT_TRUE(std::regex_search(text, vector_case, vector_def)) << "no Vector case of " << row[1];
      const std::string suffix = row[3].matched ? row[3].str() : vector_case[1].str();
      for (const bg::UnaryInfo& u : bg::kUnaryInfo) {
        if (u.form != bg::UnaryForm::Vector) continue;
        EXPECT_TRUE(names.insert(std::string(u.name) + "_" + suffix).second) << u.name << "_" << suffix << " twice";
      }
    }
  };
  const std::string text = without_detail(row.header);
  std::string upper = row.name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  add_definitions(text, "BCASTGEN_SIMD_" + upper);
  add_table_expansions(text);
  // The shared math algorithms and 16-bit float forms, included into the ISA's namespace.
  for (const std::string shared :
       {"bcastgen/simd/math_f32.inl", "bcastgen/simd/half_f32.inl", "bcastgen/simd/half_native_math.inl"}) {
    if (text.find("#include \"" + shared + "\"") != std::string::npos) {
      add_definitions(without_detail(shared), "BCASTGEN_SIMD_FN");
      add_table_expansions(without_detail(shared));
    }
  }
  return names;
}

TEST(SimdWrappers, EveryVectorIsaHasAHeader) {
  for (const bg::IsaInfo& r : bg::kIsaInfo) {
    EXPECT_EQ(*r.header != '\0', r.vector_bytes > 0) << r.name;
    if (*r.header) {
      EXPECT_EQ(std::string(r.header), std::string("bcastgen/simd/") + r.name + ".h");
    }
  }
}

// An ISA with a base (avx512fp16) names its own wrappers and its bases' of
// the dtypes it does not list (avx512fp16's base avx512bf16 extends
// avx512): its header defines only the former.
TEST(SimdWrappers, TheVocabularyAndTheHeadersNameTheSameWrappers) {
  for (const bg::IsaInfo& r : bg::kIsaInfo) {
    if (!*r.header) continue;
    const std::set<std::string> listed = vocabulary_names(r.isa), defined = header_names(r);
    const std::optional<bg::Isa> base = Vocabulary::builtin().isa(r.isa)->base;
    std::set<std::string> inherited;
    for (auto b = base; b; b = Vocabulary::builtin().isa(*b)->base) {
      const std::set<std::string> names = header_names(bg::isa_info(*b));
      inherited.insert(names.begin(), names.end());
    }
    EXPECT_GT(defined.size(), base ? 0u : 100u) << r.name;  // the scan found the definitions
    for (const std::string& n : listed) {
      EXPECT_TRUE(defined.count(n) || inherited.count(n)) << r.name << ": no wrapper " << n << " in " << r.header;
    }
    for (const std::string& n : defined) {
      EXPECT_TRUE(listed.count(n)) << r.name << ": " << n << " in " << r.header << " is named by no vocabulary row";
    }
  }
}

}  // namespace
