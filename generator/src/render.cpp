#include "render.h"

#include <kainjow/mustache.hpp>

#include <regex>

#include "bcastgen/errors.h"
#include "bcastgen/gen/embedded.h"

namespace bcastgen::gen {
namespace {

kainjow::mustache::data to_data(const Values& v) {
  kainjow::mustache::data d;
  for (const auto& [key, value] : v.entries()) {
    if (const auto* s = std::get_if<std::string>(&value)) {
      d.set(key, *s);
    } else if (const auto* b = std::get_if<bool>(&value)) {
      d.set(key, *b ? kainjow::mustache::data::type::bool_true : kainjow::mustache::data::type::bool_false);
    } else {
      kainjow::mustache::data items{kainjow::mustache::data::type::list};
      for (const auto& item : std::get<std::vector<Values>>(value)) items.push_back(to_data(item));
      d.set(key, items);
    }
  }
  return d;
}

}  // namespace

Values& Values::set(const std::string& key, std::string value) {
  entries_[key] = std::move(value);
  return *this;
}

Values& Values::flag(const std::string& key, bool value) {
  entries_[key] = value;
  return *this;
}

Values& Values::list(const std::string& key, std::vector<Values> items) {
  entries_[key] = std::move(items);
  return *this;
}

Values& Values::declare(const std::string& key) {
  declared_.insert(key);
  return *this;
}

void Values::collect_keys(std::set<std::string>& keys) const {
  keys.insert(declared_.begin(), declared_.end());
  for (const auto& [key, value] : entries_) {
    keys.insert(key);
    if (const auto* items = std::get_if<std::vector<Values>>(&value)) {
      for (const auto& item : *items) item.collect_keys(keys);
    }
  }
}

std::string render_text(const std::string& name, const std::string& text, const Values& values) {
  std::set<std::string> keys;
  values.collect_keys(keys);
  static const std::regex tag(R"(\{\{\{?\s*[#^/&]?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}?\}\})");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string key = (*it)[1];
    if (!keys.count(key)) throw InvalidArgument("template " + name + ": unknown placeholder '" + key + "'");
  }
  kainjow::mustache::mustache tmpl(text);
  if (!tmpl.is_valid()) throw InvalidArgument("template " + name + ": " + tmpl.error_message());
  std::string out = tmpl.render(to_data(values));
  if (!tmpl.is_valid()) throw InvalidArgument("template " + name + ": " + tmpl.error_message());
  return out;
}

std::string render(const std::string& name, const Values& values) {
  return render_text(name, embedded_file("templates/" + name), values);
}

}  // namespace bcastgen::gen
