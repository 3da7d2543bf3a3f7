#include "bcastgen/gen/vocabulary.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <tuple>

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

Vocabulary Vocabulary::parse(const std::string& yaml_text) {
  Vocabulary v;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InvalidArgument(std::string("vocabulary: ") + e.what());
  }
  auto isa_of = [](const std::string& name) {
    Isa isa;
    if (!parse_isa(name, &isa)) throw InvalidArgument("vocabulary: unknown isa '" + name + "'");
    return isa;
  };
  auto dtype_of = [](const std::string& name) {
    DType t;
    if (!parse_dtype(name, &t)) throw InvalidArgument("vocabulary: unknown dtype '" + name + "'");
    return t;
  };
  for (const auto& kv : root["isas"]) {
    IsaVocabulary iv;
    iv.target = kv.second["target"].as<std::string>();
    iv.bytes = kv.second["bytes"].as<int>();
    iv.mask_tail = kv.second["tail"].as<std::string>() == "mask";
    const std::pair<const char*, std::string*> optional[] = {
        {"index", &iv.index}, {"index_const", &iv.index_const}, {"mask_const", &iv.mask_const}};
    for (const auto& [key, field] : optional) {
      if (kv.second[key]) *field = kv.second[key].as<std::string>();
    }
    v.isas_[isa_of(kv.first.as<std::string>())] = iv;
  }
  for (const auto& isa_kv : root["types"]) {
    const Isa isa = isa_of(isa_kv.first.as<std::string>());
    for (const auto& t_kv : isa_kv.second) {
      TypeVocabulary tv;
      const std::map<std::string, std::string*> fields = {
          {"vec", &tv.vec},           {"mask", &tv.mask},
          {"cmp", &tv.cmp},           {"load", &tv.load},
          {"store", &tv.store},       {"stream", &tv.stream},
          {"splat", &tv.splat},       {"load_tail", &tv.load_tail},
          {"store_tail", &tv.store_tail}, {"store_bool", &tv.store_bool},
          {"store_bool_tail", &tv.store_bool_tail}, {"permute", &tv.permute},
          {"select", &tv.select},     {"load_cmp", &tv.load_cmp},
          {"load_cmp_tail", &tv.load_cmp_tail}, {"splat_cmp", &tv.splat_cmp}};
      for (const auto& f : t_kv.second) {
        const std::string key = f.first.as<std::string>();
        auto field = fields.find(key);
        if (field == fields.end()) throw InvalidArgument("vocabulary: unknown type field '" + key + "'");
        *field->second = f.second.as<std::string>();
      }
      v.types_[{isa, dtype_of(t_kv.first.as<std::string>())}] = tv;
    }
  }
  for (const auto& isa_kv : root["ops"]) {
    const Isa isa = isa_of(isa_kv.first.as<std::string>());
    for (const auto& t_kv : isa_kv.second) {
      const DType t = dtype_of(t_kv.first.as<std::string>());
      for (const auto& o : t_kv.second) {
        Op op;
        if (!parse_op(o.first.as<std::string>(), &op)) {
          throw InvalidArgument("vocabulary: unknown op '" + o.first.as<std::string>() + "'");
        }
        v.ops_[{isa, t, op}] = o.second.as<std::string>();
      }
    }
  }
  for (const auto& isa_kv : root["unary"]) {
    const Isa isa = isa_of(isa_kv.first.as<std::string>());
    for (const auto& t_kv : isa_kv.second) {
      const DType t = dtype_of(t_kv.first.as<std::string>());
      for (const auto& o : t_kv.second) {
        const std::string name = o.first.as<std::string>();
        const UnaryInfo* found = nullptr;
        for (const UnaryInfo& u : kUnaryInfo) found = name == u.name ? &u : found;
        if (!found) throw InvalidArgument("vocabulary: unknown unary function '" + name + "'");
        v.unary_[{isa, t, found->op}] = o.second.as<std::string>();
      }
    }
  }
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

std::optional<std::string> Vocabulary::op(Isa isa, DType t, Op op) const {
  auto it = ops_.find({isa, t, op});
  if (it == ops_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Vocabulary::unary(Isa isa, DType t, UnaryOp u) const {
  auto it = unary_.find({isa, t, u});
  if (it == unary_.end()) return std::nullopt;
  return it->second;
}

std::string expand(const std::string& pattern, const std::map<std::string, std::string>& values) {
  std::string out;
  std::set<std::string> used;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{' || i + 1 >= pattern.size() || pattern[i + 1] == ' ') {
      out += pattern[i];
      continue;
    }
    const std::size_t close = pattern.find('}', i);
    const std::string name = pattern.substr(i + 1, close == std::string::npos ? 0 : close - i - 1);
    const bool is_name = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
    if (!is_name) {  // a brace of C++ code, e.g. "{ const ... }"
      out += pattern[i];
      continue;
    }
    auto it = values.find(name);
    if (it == values.end()) throw InvalidArgument("unknown placeholder {" + name + "} in '" + pattern + "'");
    out += it->second;
    used.insert(name);
    i = close;
  }
  return out;
}

}  // namespace bcastgen::gen
