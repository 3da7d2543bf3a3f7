// Mustache rendering of the templates in templates/, strict about names.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace bcastgen::gen {

// The values a template is rendered with: strings, flags and lists of
// nested values. Knowing its own keys lets render() reject unknown tags.
class Values {
 public:
  Values& set(const std::string& key, std::string value);
  Values& set(const std::string& key, const char* value) { return set(key, std::string(value)); }
  Values& set(const std::string& key, std::int64_t value) { return set(key, std::to_string(value)); }
  Values& flag(const std::string& key, bool value);
  Values& list(const std::string& key, std::vector<Values> items);
  // Names a key that only appears inside a section that may be empty here,
  // so the strict tag check still knows it.
  Values& declare(const std::string& key);

  void collect_keys(std::set<std::string>& keys) const;
  const std::map<std::string, std::variant<std::string, bool, std::vector<Values>>>& entries() const {
    return entries_;
  }

 private:
  std::map<std::string, std::variant<std::string, bool, std::vector<Values>>> entries_;
  std::set<std::string> declared_;
};

// Renders templates/<name>. Every tag must name a value present somewhere
// in `values`, else InvalidArgument ("unknown placeholder") is thrown, so a
// typo in a template cannot silently emit nothing.
std::string render(const std::string& name, const Values& values);

// Same, for template text not compiled into the tool (tests).
std::string render_text(const std::string& name, const std::string& text, const Values& values);

}  // namespace bcastgen::gen
