#include "bcastgen/gen/vocabulary.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "bcastgen/gen/embedded.h"

namespace bcastgen::gen {

const std::string& embedded_file(const std::string& name) {
  const auto& files = embedded_files();
  auto it = files.find(name);
  if (it == files.end()) throw Error("internal: no embedded file '" + name + "'");
  return it->second;
}

const Vocabulary& Vocabulary::builtin() {
  static const Vocabulary v = parse(embedded_file("templates/vocabulary.yaml"));
  return v;
}

const std::vector<TypeForm>& type_forms() {
  static const std::vector<TypeForm> forms = {
      {"load", &TypeVocabulary::load, {"p"}, true},
      {"load_tail", &TypeVocabulary::load_tail, {"p", "t"}, false},
      {"store", &TypeVocabulary::store, {"p", "v"}, true},
      {"store_tail", &TypeVocabulary::store_tail, {"p", "t", "v"}, false},
      {"store_first", &TypeVocabulary::store_first, {"n", "p", "v"}, false, 1},
      {"stream", &TypeVocabulary::stream, {"p", "v"}, false},
      {"store_nan_exact", &TypeVocabulary::store_nan_exact, {"p", "v"}, false},
      {"stream_nan_exact", &TypeVocabulary::stream_nan_exact, {"p", "v"}, false},
      {"store_exact", &TypeVocabulary::store_exact, {"p", "v"}, false},
      {"stream_exact", &TypeVocabulary::stream_exact, {"p", "v"}, false},
      {"store_pair", &TypeVocabulary::store_pair, {"p", "a", "b"}, false},
      {"stream_pair", &TypeVocabulary::stream_pair, {"p", "a", "b"}, false},
      {"splat", &TypeVocabulary::splat, {"x"}, true},
      {"permute", &TypeVocabulary::permute, {"v", "i"}, false},
      {"load_strided", &TypeVocabulary::load_strided, {"p", "s"}, false},
      {"load_strided_tail", &TypeVocabulary::load_strided_tail, {"p", "s", "t"}, false},
      {"transpose_tile", &TypeVocabulary::transpose_tile, {"p", "s", "a", "b"}, false},
      {"select", &TypeVocabulary::select, {"c", "x", "y"}, true},
      {"load_cmp", &TypeVocabulary::load_cmp, {"p"}, true},
      {"load_cmp_tail", &TypeVocabulary::load_cmp_tail, {"p", "t"}, false},
      {"splat_cmp", &TypeVocabulary::splat_cmp, {"x"}, true},
      {"store_bool", &TypeVocabulary::store_bool, {"p", "m"}, true},
      {"store_bool_tail", &TypeVocabulary::store_bool_tail, {"p", "t", "m"}, false},
      {"store_bool4", &TypeVocabulary::store_bool4, {"p", "a", "b", "c", "d"}, false},
      {"blend_tail", &TypeVocabulary::blend_tail, {"t", "x", "y"}, false},
      {"lanes_down", &TypeVocabulary::lanes_down, {"h", "x"}, false, 1},
      {"first_lane", &TypeVocabulary::first_lane, {"x"}, false},
  };
  return forms;
}

namespace {

// The placeholders each form may use (the emitter supplies exactly these).
using Placeholders = std::map<std::string, std::string>;
Placeholders placeholders(std::initializer_list<const char*> names) {
  Placeholders p;
  for (const char* n : names) p[n] = "";
  return p;
}

// A call of the wrapper `name`, qualified by the alias of its ISA's
// namespace (kWrapperAlias), with its parameters and template parameters:
// v::add_f32(a, b), v::cast_i8_f32<s>(x).
Form call(const std::string& name, const std::vector<const char*>& params,
          const std::vector<const char*>& template_params = {}) {
  Form f;
  f.function = std::string(kWrapperAlias) + "::" + name;
  f.params.assign(params.begin(), params.end());
  f.template_params.assign(template_params.begin(), template_params.end());
  return f;
}

// A form's call of its wrapper: its first template_args arguments as the
// template's (store_first_f32<n>(p, v)).
Form form_call(const TypeForm& form, const std::string& wrapper) {
  const auto split = form.args.begin() + static_cast<std::ptrdiff_t>(form.template_args);
  return call(wrapper, {split, form.args.end()}, {form.args.begin(), split});
}

// A register type of a dtype: a C++ type name.
struct TypeName {
  const char* key;
  std::string TypeVocabulary::*field;
  bool required;
};
const std::vector<TypeName>& type_names() {
  static const std::vector<TypeName> names = {
      {"vec", &TypeVocabulary::vec, true},
      {"cmp", &TypeVocabulary::cmp, true},
      {"mask", &TypeVocabulary::mask, false},
  };
  return names;
}

// A map node's value as a string; `where` names it in errors.
std::string scalar_of(const YAML::Node& n, const std::string& where) {
  if (!n.IsScalar()) throw InvalidArgument("vocabulary: " + where + " must be a string");
  return n.Scalar();
}

// A list of names: [add, subtract]; each a lower-case identifier.
std::vector<std::string> names_of(const YAML::Node& n, const std::string& where) {
  if (!n.IsSequence()) throw InvalidArgument("vocabulary: " + where + " must be a list of names");
  std::vector<std::string> names;
  for (const auto& item : n) {
    const std::string name = scalar_of(item, where);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos) {
      throw InvalidArgument("vocabulary: " + where + ": '" + name + "' is not a name");
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InvalidArgument("vocabulary: " + where + ": '" + name + "' is listed twice");
    }
    names.push_back(name);
  }
  return names;
}

// In a unary list, every function whose form is Vector (the shared
// algorithms of simd/math_f32.inl, unary_functions.h).
constexpr const char* kSimdMath = "simd_math";

// The unary function a vocabulary list names: its row of kUnaryInfo.
UnaryOp unary_named(const std::string& name, const std::string& where) {
  for (const UnaryInfo& u : kUnaryInfo) {
    if (name == u.name) return u.op;
  }
  throw InvalidArgument("vocabulary: " + where + ": unknown unary function '" + name + "'");
}

// Vectors per call of a math function in a step of four: 1 (one call per
// vector), or 2 or 4, the widths of simd/math_pack.inl's namespaces x2, x4.
int pack_width_of(const YAML::Node& n, const std::string& where) {
  const std::string text = scalar_of(n, where);
  if (text != "1" && text != "2" && text != "4") {
    throw InvalidArgument("vocabulary: " + where + ": '" + text +
                          "' is not a number of vectors per call (valid: 1, 2, 4; simd/math_pack.inl has x2 and x4)");
  }
  return std::stoi(text);
}

// The form must be non-empty and use only its placeholders.
void check_form(const std::string& form, const Placeholders& allowed, const std::string& where) {
  if (form.empty()) throw InvalidArgument("vocabulary: " + where + " is empty");
  try {
    (void)expand(form, allowed);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument("vocabulary: " + where + ": " + e.what());
  }
}

// A mapping node, rejecting anything else. By value: the callers pass
// temporaries (root["isas"]) and iterate the result.
YAML::Node mapping(const YAML::Node& n, const std::string& where) {
  if (!n.IsMap()) throw InvalidArgument("vocabulary: " + where + " must be a mapping");
  return n;
}

// {function: vectors per call}, each a math function of simd/math_f32.inl.
std::map<UnaryOp, int> pack_widths_of(const YAML::Node& n, const std::string& where) {
  std::map<UnaryOp, int> widths;
  for (const auto& g : mapping(n, where)) {
    const std::string name = g.first.as<std::string>(), fn_where = where + "." + name;
    const UnaryOp op = unary_named(name, where);
    if (unary_info(op).max_ulp == 0) {
      throw InvalidArgument("vocabulary: " + fn_where + ": '" + name +
                            "' is exact, not a math function of simd/math_f32.inl");
    }
    widths[op] = pack_width_of(g.second, fn_where);
  }
  return widths;
}

}  // namespace

std::string pack_namespace(int width) { return std::string(kWrapperAlias) + "::x" + std::to_string(width); }

Form packed_call(const Form& call, int width) {
  const std::string alias = std::string(kWrapperAlias) + "::";
  if (call.function.rfind(alias, 0) != 0) {
    throw Error("internal: a pattern form ('" + call.pattern + "') is not a wrapper call");
  }
  Form packed = call;
  packed.function = pack_namespace(width) + "::" + call.function.substr(alias.size());
  return packed;
}

Vocabulary Vocabulary::parse(const std::string& yaml_text) {
  Vocabulary v;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InvalidArgument(std::string("vocabulary: ") + e.what());
  }
  mapping(root, "the document");
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (key != "isas" && key != "types" && key != "ops" && key != "literal_ops" && key != "unary" && key != "casts") {
      throw InvalidArgument("vocabulary: unknown section '" + key +
                            "' (valid: isas, types, ops, literal_ops, unary, casts)");
    }
  }
  for (const char* required : {"isas", "types"}) {
    if (!root[required]) throw InvalidArgument(std::string("vocabulary: no '") + required + "' section");
  }
  // A vector ISA of the ISA table; `where` names the section for errors.
  auto isa_of = [](const std::string& name, const std::string& where) {
    Isa isa;
    if (!parse_isa(name, &isa)) {
      throw InvalidArgument("vocabulary: " + where + ": unknown isa '" + name + "' (valid: " + isa_names() + ")");
    }
    if (isa_info(isa).vector_bytes == 0) {
      throw InvalidArgument("vocabulary: " + where + ": isa '" + name + "' has no vectors (ISA table)");
    }
    return isa;
  };
  auto dtype_of = [](const std::string& name, const std::string& where) {
    DType t;
    if (!parse_dtype(name, &t)) throw InvalidArgument("vocabulary: " + where + ": unknown dtype '" + name + "'");
    return t;
  };
  std::map<Isa, std::pair<std::string, std::string>> bases;  // isa -> (base name, where)
  // A `partial: true` row as read: its own fields and forms (`seen`).
  struct PartialRow {
    Isa isa;
    DType dtype;
    TypeVocabulary own;
    std::set<std::string> seen;
    std::string where;
  };
  std::vector<PartialRow> partial_rows;
  // The ISAs with a base, each after its base (a base may extend another:
  // avx512fp16 extends avx512bf16, which extends avx512), so that a base's
  // entries are complete before an ISA copies them. Set once the bases are.
  std::vector<Isa> extending;
  // Copies the base's entries of `forms` (keyed by (isa, dtype, ...)) to
  // `isa`, but for the dtypes it lists itself (`own`) and the entries it
  // already has. Inserting into a map leaves its iterators valid, and the
  // copies are skipped as not the base's.
  auto inherit_one = [&v](Isa isa, auto& forms, auto own) {
    const Isa base = *v.isas_[isa].base;
    for (const auto& [key, form] : forms) {
      if (std::get<0>(key) != base || own(isa, key)) continue;
      auto derived = key;
      std::get<0>(derived) = isa;
      forms.emplace(derived, form);
    }
  };
  auto inherit = [&](auto& forms, auto own) {
    for (Isa isa : extending) inherit_one(isa, forms, own);
  };
  for (const auto& kv : mapping(root["isas"], "isas")) {
    const std::string name = kv.first.as<std::string>(), where = "isas." + name;
    IsaVocabulary iv;
    if (kv.second.IsMap() && kv.second["base"]) {
      bases[isa_of(name, where)] = {scalar_of(kv.second["base"], where + ".base"), where + ".base"};
    }
    const std::map<std::string, std::pair<std::string*, Placeholders>> fields = {
        {"index", {&iv.index, {}}},
        {"index_const", {&iv.index_const, placeholders({"words"})}},
        {"mask_const", {&iv.mask_const, placeholders({"words", "bits"})}},
        {"mask_first", {&iv.mask_first, placeholders({"mask", "n"})}}};
    for (const auto& f : mapping(kv.second, where)) {
      const std::string key = f.first.as<std::string>();
      if (key == "base") continue;
      if (key == "math_pack") {
        iv.math_pack = pack_width_of(f.second, where + "." + key);
        continue;
      }
      if (key == "math_pack_of") {
        iv.math_pack_of = pack_widths_of(f.second, where + "." + key);
        continue;
      }
      if (key == "math_pack_on") {
        for (const auto& c : mapping(f.second, where + "." + key)) {
          const std::string name = c.first.as<std::string>(), cpu_where = where + "." + key + "." + name;
          CpuKind cpu;
          if (!parse_cpu_kind(name, &cpu)) {
            throw InvalidArgument("vocabulary: " + cpu_where + ": unknown CPU kind '" + name +
                                  "' (valid: " + cpu_kind_names() + ")");
          }
          iv.math_pack_on[cpu] = pack_widths_of(c.second, cpu_where);
        }
        continue;
      }
      auto field = fields.find(key);
      if (field == fields.end()) {
        throw InvalidArgument("vocabulary: " + where + ": unknown field '" + key +
                              "' (valid: base, index, index_const, mask_const, mask_first, math_pack, math_pack_of, "
                              "math_pack_on; the rest is in the "
                              "ISA table)");
      }
      *field->second.first = scalar_of(f.second, where + "." + key);
      if (!field->second.second.empty()) check_form(*field->second.first, field->second.second, where + "." + key);
    }
    v.isas_[isa_of(name, where)] = iv;
  }
  for (const auto& [isa, base] : bases) {
    const Isa b = isa_of(base.first, base.second);
    if (!v.isa(b)) throw InvalidArgument("vocabulary: " + base.second + ": '" + base.first + "' is not an isa of 'isas'");
    // (The ISA table's implications have no cycles, so neither do bases.)
    if (b == isa || !isa_includes(isa, b)) {
      throw InvalidArgument("vocabulary: " + base.second + ": '" + base.first + "' is not an ISA that " +
                            isa_name(isa) + " implies (ISA table)");
    }
    v.isas_[isa].base = b;
  }
  auto depth = [&v](Isa isa) {
    int d = 0;
    for (auto b = v.isas_[isa].base; b; b = v.isas_[*b].base) ++d;
    return d;
  };
  for (const auto& [isa, iv] : v.isas_) {
    if (iv.base) extending.push_back(isa);
  }
  std::stable_sort(extending.begin(), extending.end(), [&](Isa a, Isa b) { return depth(a) < depth(b); });
  for (Isa isa : extending) {  // the math packs of the base, unless its own
    IsaVocabulary& iv = v.isas_[isa];
    if (iv.math_pack != 0 || !iv.math_pack_of.empty() || !iv.math_pack_on.empty()) continue;
    iv.math_pack = v.isas_[*iv.base].math_pack;
    iv.math_pack_of = v.isas_[*iv.base].math_pack_of;
    iv.math_pack_on = v.isas_[*iv.base].math_pack_on;
  }
  for (Isa isa : extending) {  // the gathered blocks of the base's dtypes
    IsaVocabulary& iv = v.isas_[isa];
    if (!iv.index.empty()) continue;
    const IsaVocabulary& base = v.isas_[*iv.base];
    iv.index = base.index;
    iv.index_const = base.index_const;
    iv.mask_const = base.mask_const;
  }
  for (Isa isa : extending) {  // the base's run-time masks, unless its own
    IsaVocabulary& iv = v.isas_[isa];
    if (iv.mask_first.empty()) iv.mask_first = v.isas_[*iv.base].mask_first;
  }
  for (const auto& isa_kv : mapping(root["types"], "types")) {
    const std::string isa_text = isa_kv.first.as<std::string>();
    const Isa isa = isa_of(isa_text, "types." + isa_text);
    if (!v.isa(isa)) throw InvalidArgument("vocabulary: types." + isa_text + ": the isa has no entry in 'isas'");
    for (const auto& t_kv : mapping(isa_kv.second, "types." + isa_text)) {
      const std::string where = "types." + isa_text + "." + t_kv.first.as<std::string>();
      TypeVocabulary tv;
      std::set<std::string> seen;
      const std::string dtype_text = t_kv.first.as<std::string>();
      const DType dtype = dtype_of(dtype_text, where);
      tv.lane_bytes = dtype_lane_size(dtype);
      tv.suffix = dtype_text;
      if (t_kv.second.IsMap() && t_kv.second["suffix"]) {
        tv.suffix = scalar_of(t_kv.second["suffix"], where + ".suffix");
        if (tv.suffix.empty() || tv.suffix.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos) {
          throw InvalidArgument("vocabulary: " + where + ".suffix: '" + tv.suffix + "' is not a name");
        }
      }
      if (t_kv.second.IsMap() && t_kv.second["lane_bytes"]) {
        const std::string text = scalar_of(t_kv.second["lane_bytes"], where + ".lane_bytes");
        if (text != "2" && text != "4" && text != "8" && text != "1") {
          throw InvalidArgument("vocabulary: " + where + ".lane_bytes must be 1, 2, 4 or 8, got '" + text + "'");
        }
        tv.lane_bytes = std::stoi(text);
      }
      const bool partial = t_kv.second.IsMap() && t_kv.second["partial"];
      if (partial) {
        const std::string text = scalar_of(t_kv.second["partial"], where + ".partial");
        if (text != "true") throw InvalidArgument("vocabulary: " + where + ".partial must be true, got '" + text + "'");
        if (!v.isas_[isa].base) {
          throw InvalidArgument("vocabulary: " + where + ".partial: the isa has no base to take the other forms from");
        }
      }
      for (const auto& f : mapping(t_kv.second, where)) {
        const std::string key = f.first.as<std::string>();
        if (key == "suffix" || key == "lane_bytes" || key == "partial") continue;
        if (key == "forms") {
          for (const std::string& form : names_of(f.second, where + ".forms")) {
            auto tf = std::find_if(type_forms().begin(), type_forms().end(),
                                   [&](const TypeForm& x) { return form == x.key; });
            if (tf == type_forms().end()) throw InvalidArgument("vocabulary: " + where + ": unknown form '" + form + "'");
            tv.*(tf->field) = form_call(*tf, form + "_" + tv.suffix);
            seen.insert(form);
          }
          continue;
        }
        auto tn = std::find_if(type_names().begin(), type_names().end(),
                               [&](const TypeName& x) { return key == x.key; });
        if (tn == type_names().end()) {
          throw InvalidArgument("vocabulary: " + where + ": unknown field '" + key +
                                "' (valid: vec, cmp, mask, forms, lane_bytes, suffix, partial)");
        }
        tv.*(tn->field) = scalar_of(f.second, where + "." + key);
        if ((tv.*(tn->field)).empty()) throw InvalidArgument("vocabulary: " + where + "." + key + " is empty");
        seen.insert(key);
      }
      if (partial) {  // completed from the base's row below, once every row is read
        // The forms that write values of the dtype (not store_bool, which
        // writes a compare result).
        static const std::set<std::string> kValueStores = {
            "store",       "store_tail",   "store_first", "stream",      "store_nan_exact", "stream_nan_exact",
            "store_exact", "stream_exact", "store_pair",  "stream_pair"};
        for (const std::string& key : seen) {
          if (!kValueStores.count(key)) {
            throw InvalidArgument("vocabulary: " + where + ": a partial row has only stores of the dtype, not '" +
                                  key + "' (the planner takes it for a kernel whose result is of the dtype)");
          }
        }
        partial_rows.push_back({isa, dtype, tv, seen, where});
        continue;
      }
      for (const TypeName& tn : type_names()) {
        if (tn.required && !seen.count(tn.key)) {
          throw InvalidArgument("vocabulary: " + where + ": missing field '" + tn.key + "'");
        }
      }
      for (const TypeForm& tf : type_forms()) {
        if (tf.required && !seen.count(tf.key)) {
          throw InvalidArgument("vocabulary: " + where + ": missing form '" + tf.key + "'");
        }
      }
      // Masked tails need the mask type and the masked forms (the partial gather block too).
      if (isa_info(isa).mask_tail) {
        for (const char* key : {"mask", "load_tail", "store_tail", "store_bool_tail", "load_cmp_tail"}) {
          if (!seen.count(key)) {
            throw InvalidArgument("vocabulary: " + where + ": missing '" + key + "' (the isa's tails are masked)");
          }
        }
      }
      v.types_[{isa, dtype}] = tv;
      if (v.isas_[isa].base) v.own_types_.insert({isa, dtype});
    }
  }
  // A partial row: its base's row with the forms it lists.
  auto complete_partial = [&](const PartialRow& row) {
    const TypeVocabulary* base = v.type(*v.isas_[row.isa].base, row.dtype);
    if (!base) throw InvalidArgument("vocabulary: " + row.where + ".partial: the base has no row of the dtype");
    TypeVocabulary tv = *base;
    tv.suffix = row.own.suffix;
    for (const TypeName& tn : type_names()) {
      if (row.seen.count(tn.key)) tv.*(tn.field) = row.own.*(tn.field);
    }
    for (const TypeForm& tf : type_forms()) {
      if (row.seen.count(tf.key)) tv.*(tf.field) = row.own.*(tf.field);
    }
    // The base's plain partial store writes the base's values: a row with a
    // masked store of its own (one that rounds) and none of those has none.
    if (row.seen.count("store_tail") && !row.seen.count("store_first")) tv.store_first = Form{};
    v.types_[{row.isa, row.dtype}] = tv;
    v.own_types_.insert({row.isa, row.dtype});
    v.partial_types_.insert({row.isa, row.dtype});
  };
  // An ISA with a base has the base's vectors of every other dtype, and of
  // a partial row every form the row does not list; each after its base.
  for (Isa isa : extending) {
    inherit_one(isa, v.types_, [&](Isa i, const auto& key) { return v.overrides(i, std::get<1>(key)); });
    for (const PartialRow& row : partial_rows) {
      if (row.isa == isa) complete_partial(row);
    }
  }
  // ops.<isa>.<dtype>: [op, ...], literal_ops.<isa>.<dtype>: [form, ...],
  // unary.<isa>.<dtype>: [function, ...] and
  // casts.<isa>.<from>: [to, ...], for a dtype that `types` has. The
  // wrapper of a name is <name>_<dtype> (cast_<from>_<to>).
  auto read_lists = [&](const char* section, auto&& add) {
    if (!root[section]) return;
    for (const auto& isa_kv : mapping(root[section], section)) {
      const std::string isa_where = std::string(section) + "." + isa_kv.first.as<std::string>();
      const Isa isa = isa_of(isa_kv.first.as<std::string>(), isa_where);
      for (const auto& t_kv : mapping(isa_kv.second, isa_where)) {
        const std::string where = isa_where + "." + t_kv.first.as<std::string>();
        const DType t = dtype_of(t_kv.first.as<std::string>(), where);
        if (!v.type(isa, t)) throw InvalidArgument("vocabulary: " + where + ": the dtype has no entry in 'types'");
        for (const std::string& name : names_of(t_kv.second, where)) add(isa, t, name, where);
      }
    }
  };
  read_lists("ops", [&](Isa isa, DType t, const std::string& name, const std::string& where) {
    Op op;
    if (!parse_op(name, &op)) throw InvalidArgument("vocabulary: " + where + ": unknown op '" + name + "'");
    v.ops_[{isa, t, op}] = call(name + "_" + v.type(isa, t)->suffix, {"a", "b"});
  });
  read_lists("literal_ops", [&](Isa isa, DType t, const std::string& name, const std::string& where) {
    static const std::map<std::string, std::pair<Op, LiteralForm>> kForms = {
        {"maximum_number", {Op::Maximum, LiteralForm::Number}},
        {"minimum_number", {Op::Minimum, LiteralForm::Number}},
        {"maximum_zero", {Op::Maximum, LiteralForm::Zero}},
        {"minimum_zero", {Op::Minimum, LiteralForm::Zero}}};
    auto f = kForms.find(name);
    if (f == kForms.end()) {
      throw InvalidArgument("vocabulary: " + where + ": unknown literal op '" + name +
                            "' (valid: maximum_number, minimum_number, maximum_zero, minimum_zero)");
    }
    const auto [op, form] = f->second;
    const std::string wrapper = name + "_" + v.type(isa, t)->suffix;
    v.literal_ops_[{isa, t, op, form}] = form == LiteralForm::Number ? call(wrapper, {"n", "x"}) : call(wrapper, {"x"});
  });
  read_lists("unary", [&](Isa isa, DType t, const std::string& name, const std::string& where) {
    auto add = [&](UnaryOp op) {
      v.unary_[{isa, t, op}] = call(std::string(unary_name(op)) + "_" + v.type(isa, t)->suffix, {"x"});
    };
    if (name != kSimdMath) return add(unary_named(name, where));
    for (const UnaryInfo& u : kUnaryInfo) {
      if (u.form == UnaryForm::Vector) add(u.op);
    }
  });
  // Between numbers of one width, with bool (a compare result of the
  // lanes), or between widths (a node r times wider takes r registers): a
  // widening cast gives part $s$ of its result from one register $x$, a
  // narrowing one takes r registers, $x$ being their list. To itself is no cast.
  read_lists("casts", [&](Isa isa, DType from, const std::string& name, const std::string& where) {
    const DType to = dtype_of(name, where);
    if (!v.type(isa, to)) throw InvalidArgument("vocabulary: " + where + "." + name + ": no such entry in 'types'");
    if (to == from) throw InvalidArgument("vocabulary: " + where + "." + name + ": a cast to the same dtype");
    const std::string wrapper = "cast_" + v.type(isa, from)->suffix + "_" + v.type(isa, to)->suffix;
    const bool widens = from != DType::Bool && to != DType::Bool && v.lane_bytes(isa, to) > v.lane_bytes(isa, from);
    v.casts_[{isa, from, to}] = call(wrapper, {"x"}, widens ? std::vector<const char*>{"s"} : std::vector<const char*>{});
  });
  // And the base's ops, functions and casts of the dtypes it does not list
  // or lists as partial (an entry the ISA lists itself stays its own).
  auto replaces = [&](Isa isa, DType t) { return v.overrides(isa, t) && !v.partial_types_.count({isa, t}); };
  auto own_dtype = [&](Isa isa, const auto& key) { return replaces(isa, std::get<1>(key)); };
  inherit(v.ops_, own_dtype);
  inherit(v.literal_ops_, own_dtype);
  inherit(v.unary_, own_dtype);
  inherit(v.casts_, [&](Isa isa, const auto& key) {
    return replaces(isa, std::get<1>(key)) || replaces(isa, std::get<2>(key));
  });
  return v;
}

const IsaVocabulary* Vocabulary::isa(Isa isa) const {
  auto it = isas_.find(isa);
  return it == isas_.end() ? nullptr : &it->second;
}

const TypeVocabulary* Vocabulary::type(Isa isa, DType t) const {
  auto it = types_.find({isa, t});
  return it == types_.end() ? nullptr : &it->second;
}

int Vocabulary::lane_bytes(Isa isa, DType t) const {
  const TypeVocabulary* tv = type(isa, t);
  return tv ? tv->lane_bytes : dtype_lane_size(t);
}

bool Vocabulary::overrides(Isa isa, DType t) const { return own_types_.count({isa, t}) != 0; }

bool Vocabulary::overrides_only_stores(Isa isa, DType t) const { return partial_types_.count({isa, t}) != 0; }

std::optional<Form> Vocabulary::op(Isa isa, DType t, Op op) const {
  auto it = ops_.find({isa, t, op});
  if (it == ops_.end()) return std::nullopt;
  return it->second;
}

std::optional<Form> Vocabulary::literal_op(Isa isa, DType t, Op op, LiteralForm form) const {
  auto it = literal_ops_.find({isa, t, op, form});
  if (it == literal_ops_.end()) return std::nullopt;
  return it->second;
}

std::optional<Form> Vocabulary::cast(Isa isa, DType from, DType to) const {
  if (from == to) {
    Form same;
    same.pattern = "$x$";
    return same;
  }
  auto it = casts_.find({isa, from, to});
  if (it == casts_.end()) return std::nullopt;
  return it->second;
}

std::optional<Form> Vocabulary::unary(Isa isa, DType t, UnaryOp u) const {
  auto it = unary_.find({isa, t, u});
  if (it == unary_.end()) return std::nullopt;
  return it->second;
}

namespace {

// The identifiers of a piece of C++ code, but for its $placeholders$,
// keywords and qualified names' later parts ("static_cast<$mask$>(_bzhi_u64(~0ull, ...))"
// -> _bzhi_u64; "0ull" is a number).
void add_identifiers(const std::string& code, std::set<std::string>* out) {
  static const std::set<std::string> kKeywords = {"static_cast", "unsigned", "int", "long", "short", "char",
                                                  "const", "signed"};
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < code.size();) {
    if (!word(code[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < code.size() && word(code[j])) ++j;
    const std::string id = code.substr(i, j - i);
    const bool placeholder = i > 0 && code[i - 1] == '$' && j < code.size() && code[j] == '$';
    const bool qualified = i > 0 && code[i - 1] == ':';
    if (!placeholder && !qualified && !std::isdigit(static_cast<unsigned char>(id[0])) && !kKeywords.count(id)) {
      out->insert(id);
    }
    i = j;
  }
}

// v::add_f32(a, b) -> "add_f32"; nothing for no form or a pattern (no call).
void add_wrapper(const Form& form, std::set<std::string>* out) {
  const std::string alias = std::string(kWrapperAlias) + "::";
  if (form.function.rfind(alias, 0) == 0) out->insert(form.function.substr(alias.size()));
}

}  // namespace

std::set<std::string> Vocabulary::global_names() const {
  std::set<std::string> names;
  for (const IsaInfo& row : kIsaInfo) add_identifiers(row.nt_fence, &names);  // "_mm_sfence()"
  for (const auto& [isa, iv] : isas_) {
    if (!iv.index.empty()) names.insert(iv.index);
    for (const std::string* form : {&iv.index_const, &iv.mask_const, &iv.mask_first}) add_identifiers(*form, &names);
  }
  for (const auto& [key, tv] : types_) {
    for (const std::string* type : {&tv.vec, &tv.cmp, &tv.mask}) {
      if (!type->empty()) names.insert(*type);
    }
  }
  return names;
}

std::set<std::string> Vocabulary::wrapper_names() const {
  std::set<std::string> names;
  for (const auto& [key, tv] : types_) {
    for (const TypeForm& form : type_forms()) add_wrapper(tv.*form.field, &names);
  }
  for (const auto& [key, form] : ops_) add_wrapper(form, &names);
  for (const auto& [key, form] : literal_ops_) add_wrapper(form, &names);
  for (const auto& [key, form] : unary_) add_wrapper(form, &names);
  for (const auto& [key, form] : casts_) add_wrapper(form, &names);
  return names;
}

std::string expand(const std::string& pattern, const std::map<std::string, std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$') {
      out += pattern[i];
      continue;
    }
    const std::size_t close = pattern.find('$', i + 1);
    if (close == std::string::npos) throw InvalidArgument("unterminated placeholder in '" + pattern + "'");
    const std::string name = pattern.substr(i + 1, close - i - 1);
    const auto it = values.find(name);
    if (it == values.end()) throw InvalidArgument("unknown placeholder $" + name + "$ in '" + pattern + "'");
    out += it->second;
    i = close;
  }
  return out;
}

std::string form_text(const Form& form) {
  if (form.function.empty()) return form.pattern;
  std::map<std::string, std::string> names;
  for (const auto* params : {&form.template_params, &form.params}) {
    for (const std::string& p : *params) names[p] = p;
  }
  return expand(form, names);
}

std::string expand(const Form& form, const std::map<std::string, std::string>& values) {
  if (form.function.empty()) return expand(form.pattern, values);
  auto list = [&](const std::vector<std::string>& params) {
    std::string s;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const auto it = values.find(params[i]);
      if (it == values.end()) throw InvalidArgument("no value for parameter " + params[i] + " of " + form.function);
      s += (i ? ", " : "") + it->second;
    }
    return s;
  };
  return form.function + (form.template_params.empty() ? "" : "<" + list(form.template_params) + ">") + "(" +
         list(form.params) + ")";
}

}  // namespace bcastgen::gen
