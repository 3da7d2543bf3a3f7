#include "render.h"

#include <kainjow/mustache.hpp>

#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>

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

namespace {

// A template, checked and parsed once: the names its tags use, and the
// parsed form that renders.
struct ParsedTemplate {
  std::string name;
  std::set<std::string> tags;
  kainjow::mustache::mustache mustache;
  ParsedTemplate(const std::string& n, const std::string& text) : name(n), mustache(text) {
    static const std::regex tag(R"(\{\{\{?\s*[#^/&]?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}?\}\})");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
      tags.insert((*it)[1]);
    }
    if (!mustache.is_valid()) throw InvalidArgument("template " + name + ": " + mustache.error_message());
  }
};

std::string render_parsed(ParsedTemplate& t, const Values& values) {
  std::set<std::string> keys;
  values.collect_keys(keys);
  for (const std::string& tag : t.tags) {
    if (!keys.count(tag)) throw InvalidArgument("template " + t.name + ": unknown placeholder '" + tag + "'");
  }
  std::string out = t.mustache.render(to_data(values));
  if (!t.mustache.is_valid()) throw InvalidArgument("template " + t.name + ": " + t.mustache.error_message());
  return out;
}

}  // namespace

std::string render_text(const std::string& name, const std::string& text, const Values& values) {
  ParsedTemplate t(name, text);
  return render_parsed(t, values);
}

std::string render(const std::string& name, const Values& values) {
  // Each embedded template is parsed once per thread (generate() may run on
  // several threads of an AOT compiler at once): a 1,000-kernel spec renders
  // about 20,000 times.
  thread_local std::map<std::string, std::unique_ptr<ParsedTemplate>> parsed;
  std::unique_ptr<ParsedTemplate>& t = parsed[name];
  if (!t) t = std::make_unique<ParsedTemplate>(name, embedded_file("templates/" + name));
  return render_parsed(*t, values);
}

}  // namespace bcastgen::gen
