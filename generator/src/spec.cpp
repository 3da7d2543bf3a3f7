#include "bcastgen/gen/spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace bcastgen::gen {
namespace {

const std::set<std::string_view>& cpp_keywords() {
  static const std::set<std::string_view> k = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  return k;
}

// "a, b, c", or "a, b<last_sep>c".
std::string join_names(const std::vector<std::string>& names, const char* last_sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    s += (i == 0 ? "" : i + 1 == names.size() ? last_sep : ", ") + names[i];
  }
  return s;
}

template <class Range, class NameFn>
std::string valid_list(const Range& all, NameFn name) {
  std::vector<std::string> names;
  for (auto e : all) names.push_back(name(e));
  return join_names(names);
}

// The rules of elementwise kernels: every rule but bidirectional, the
// Broadcast op's.
std::vector<std::string> elementwise_rule_names() {
  std::vector<std::string> names;
  for (Rule r : kAllRules) {
    if (r != Rule::Bidirectional) names.emplace_back(rule_name(r));
  }
  return names;
}

// Collects diagnostics while walking the YAML tree.
class SpecReader {
 public:
  explicit SpecReader(std::string file) : file_(std::move(file)) {}

  Spec read(const YAML::Node& root) {
    Spec spec;
    if (!root || root.IsNull()) {
      add(root, "", "empty spec: expected a map with 'kernels'");
      return spec;
    }
    if (!root.IsMap()) {
      add(root, "", "the spec must be a map with 'namespace', 'isa' and 'kernels'");
      return spec;
    }
    std::set<std::string> keys;
    for (const auto& kv : root) {
      std::string key;
      if (!field_key(kv.first, "", &keys, &key)) continue;
      if (key != "namespace" && key != "isa" && key != "kernels" && key != "stream_threshold_bytes" &&
          key != "max_elements") {
        add(kv.first, "", "unknown field '" + key +
                              "' (valid: namespace, isa, kernels, stream_threshold_bytes, max_elements)");
      }
    }
    if (auto ns = root["namespace"]) {
      if (string_field(ns, "", "namespace", &spec.ns)) check_namespace(ns, spec.ns);
    }
    if (auto isa = root["isa"]) read_isas(isa, &spec.isas);
    else spec.isas = default_isas();
    if (auto t = root["stream_threshold_bytes"]) {
      if (int_field(t, "", "stream_threshold_bytes", &spec.stream_threshold_bytes) && spec.stream_threshold_bytes < 0) {
        add(t, "", "'stream_threshold_bytes' must be 0 or more, got " + std::to_string(spec.stream_threshold_bytes));
      }
    }
    if (auto t = root["max_elements"]) {
      if (int_field(t, "", "max_elements", &spec.max_elements) && spec.max_elements < 1) {
        add(t, "", "'max_elements' must be 1 or more, got " + std::to_string(spec.max_elements));
      }
    }
    // A bad setting is reported once; the kernels are checked with the default.
    if (spec.max_elements < 1) spec.max_elements = Spec{}.max_elements;
    if (spec.stream_threshold_bytes < 0) spec.stream_threshold_bytes = Spec{}.stream_threshold_bytes;

    const YAML::Node kernels = root["kernels"];
    if (!kernels) {
      add(root, "", "missing field 'kernels'");
    } else if (!kernels.IsSequence()) {
      add(kernels, "", "'kernels' must be a list");
    } else if (kernels.size() == 0) {
      add(kernels, "", "empty spec: 'kernels' lists no kernel");
    } else {
      for (const auto& k : kernels) {
        const std::size_t before = diags_.size();
        spec.kernels.push_back(read_kernel(k));
        if (diags_.size() != before) reported_.insert(spec.kernels.size() - 1);
      }
    }
    return spec;
  }

  std::vector<Diagnostic>& diagnostics() { return diags_; }
  // Indices of kernels that already have a diagnostic.
  const std::set<std::size_t>& reported() const { return reported_; }

 private:
  void add(const YAML::Node& at, const std::string& kernel, std::string message, bool rule_failure = false) {
    Diagnostic d;
    d.file = file_;
    if (at.IsDefined()) {
      const YAML::Mark m = at.Mark();
      if (m.line >= 0) d.pos = {m.line + 1, m.column + 1};
    }
    d.kernel = kernel;
    d.message = std::move(message);
    d.rule_failure = rule_failure;
    diags_.push_back(std::move(d));
  }

  // A map key: a plain string, given once. yaml-cpp neither rejects a list
  // as a key (converting it throws) nor a repeated key (lookups see the first).
  bool field_key(const YAML::Node& k, const std::string& kernel, std::set<std::string>* seen, std::string* out) {
    if (!k.IsScalar()) {
      add(k, kernel, "a field name must be a string, got " + describe(k));
      return false;
    }
    *out = k.Scalar();
    if (!seen->insert(*out).second) {
      add(k, kernel, "field '" + *out + "' is given twice");
      return false;
    }
    return true;
  }

  bool string_field(const YAML::Node& n, const std::string& kernel, const char* field, std::string* out) {
    if (!n.IsScalar()) {
      add(n, kernel, std::string("'") + field + "' must be a string");
      return false;
    }
    *out = n.Scalar();
    return true;
  }

  bool int_field(const YAML::Node& n, const std::string& kernel, const char* field, std::int64_t* out) {
    if (n.IsScalar() && n.Tag() != "!") {
      try {
        *out = n.as<std::int64_t>();
        return true;
      } catch (const YAML::Exception&) {
      }
    }
    add(n, kernel, std::string("'") + field + "' must be an integer, got " + describe(n));
    return false;
  }

  static std::string describe(const YAML::Node& n) {
    if (n.IsSequence()) return "a list";
    if (n.IsMap()) return "a map";
    if (n.IsNull()) return "nothing";
    if (n.Tag() == "!") return "the string \"" + n.Scalar() + "\"";
    return "'" + n.Scalar() + "'";
  }

  bool shape_field(const YAML::Node& n, const std::string& kernel, const char* field, Shape* out) {
    if (!n.IsSequence()) {
      add(n, kernel, std::string("'") + field + "' must be a list of dims like [1, 64, 56, 56], got " + describe(n));
      return false;
    }
    bool ok = true;
    out->clear();
    for (std::size_t i = 0; i < n.size(); ++i) {
      std::int64_t d = 0;
      const std::string what = std::string(field) + "[" + std::to_string(i) + "]";
      if (!int_field(n[i], kernel, what.c_str(), &d)) {
        ok = false;
      } else if (d < 0) {
        add(n[i], kernel, std::string("'") + field + "' has negative dim " + std::to_string(d) + " at position " +
                              std::to_string(i));
        ok = false;
      }
      out->push_back(d);
    }
    return ok;
  }

  void check_namespace(const YAML::Node& n, const std::string& ns) {
    // "a::b" is allowed; every part must be an identifier.
    std::size_t start = 0;
    for (;;) {
      const std::size_t end = ns.find("::", start);
      const std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!is_cpp_identifier(part)) {
        add(n, "", "namespace '" + ns + "' is not a valid C++ namespace ('" + part + "')");
        return;
      }
      if (end == std::string::npos) return;
      start = end + 2;
    }
  }

  void read_isas(const YAML::Node& n, std::vector<Isa>* out) {
    if (!n.IsSequence() || n.size() == 0) {
      add(n, "", "'isa' must be a non-empty list such as [avx512, avx2, scalar]");
      return;
    }
    for (const auto& item : n) {
      Isa isa;
      if (!item.IsScalar() || !parse_isa(item.Scalar(), &isa)) {
        add(item, "", "unknown isa " + describe(item) + " (valid: avx512, avx2, scalar)");
      } else if (std::find(out->begin(), out->end(), isa) != out->end()) {
        add(item, "", std::string("isa '") + isa_name(isa) + "' is listed twice");
      } else {
        out->push_back(isa);
      }
    }
    std::sort(out->begin(), out->end(), [](Isa x, Isa y) { return static_cast<int>(x) > static_cast<int>(y); });
  }

  KernelSpec read_kernel(const YAML::Node& n) {
    KernelSpec k;
    if (n.IsDefined()) k.pos = {n.Mark().line + 1, n.Mark().column + 1};
    if (!n.IsMap()) {
      add(n, "", "each kernel must be a map with name, op, dtype, rule, a and b");
      return k;
    }
    if (auto name = n["name"]) {
      if (string_field(name, "", "name", &k.name) && !is_cpp_identifier(k.name)) {
        add(name, "", "kernel name '" + k.name + "' is not a valid C++ identifier" +
                          (cpp_keywords().count(k.name) ? " (it is a keyword)" : ""));
      }
    } else {
      add(n, "", "missing field 'name'");
    }
    const std::string& kn = k.name;
    bool known_op = false;
    if (auto op = n["op"]) {
      std::string s;
      if (string_field(op, kn, "op", &s)) {
        known_op = parse_op(s, &k.op);
        if (!known_op) add(op, kn, "unknown op '" + s + "' (valid: " + valid_list(kAllOps, op_name) + ")");
      }
    } else {
      add(n, kn, "missing field 'op'");
    }
    const bool is_broadcast = known_op && k.op == Op::Broadcast;
    std::set<std::string> allowed = {"name", "op", "dtype", "a"};
    if (is_broadcast) allowed.insert({"mode", "target", "axis", "axes_mapping"});
    else allowed.insert({"rule", "b", "axis"});
    std::set<std::string> keys;
    for (const auto& kv : n) {
      std::string key;
      if (!field_key(kv.first, kn, &keys, &key)) continue;
      if (!allowed.count(key)) {
        std::vector<std::string> names(allowed.begin(), allowed.end());
        add(kv.first, kn, "unknown field '" + key + "' for " + (is_broadcast ? "a broadcast" : "a binary") +
                              " kernel (valid: " + join_names(names) + ")");
      }
    }
    bool known_dtype = false;
    if (auto dt = n["dtype"]) {
      std::string s;
      if (string_field(dt, kn, "dtype", &s)) {
        known_dtype = parse_dtype(s, &k.dtype);
        if (!known_dtype) add(dt, kn, "unknown dtype '" + s + "' (valid: " + valid_list(kAllDTypes, dtype_name) + ")");
      }
      if (known_op && known_dtype && !op_supports(k.op, k.dtype)) {
        add(dt, kn, std::string("op '") + op_name(k.op) + "' does not support dtype '" + dtype_name(k.dtype) +
                        "' (valid: " + supported_dtypes_text(k.op) + ")");
      }
    } else {
      add(n, kn, "missing field 'dtype'");
    }
    bool has_rule = true;
    if (is_broadcast) {
      if (auto m = n["mode"]) {
        std::string s;
        if (string_field(m, kn, "mode", &s) && !parse_mode(s, &k.mode)) {
          add(m, kn, "unknown mode '" + s + "' (valid: numpy, explicit, bidirectional, pdpd)");
          has_rule = false;
        }
      } else {
        add(n, kn, "missing field 'mode'");
        has_rule = false;
      }
    } else if (auto r = n["rule"]) {
      std::string s;
      if (string_field(r, kn, "rule", &s) && !parse_rule(s, &k.rule)) {
        add(r, kn, "unknown rule '" + s + "' (valid: " + join_names(elementwise_rule_names()) + ")");
        has_rule = false;
      } else if (k.rule == Rule::Bidirectional) {
        add(r, kn, "rule 'bidirectional' is for the broadcast op (op: broadcast, mode: bidirectional); "
                   "elementwise kernels use " + join_names(elementwise_rule_names(), " or "));
        has_rule = false;
      }
    } else {
      add(n, kn, "missing field 'rule'");
      has_rule = false;
    }
    if (auto ax = n["axis"]) {
      int_field(ax, kn, "axis", &k.axis);
      const bool takes_axis = is_broadcast ? k.mode == BroadcastMode::Pdpd : rule_takes_axis(k.rule);
      if (has_rule && !takes_axis) add(ax, kn, "'axis' applies only to rules pdpd and paddle, and mode pdpd");
    }
    if (auto am = n["axes_mapping"]) {
      if (!shape_field(am, kn, "axes_mapping", &k.axes_mapping)) {
        k.axes_mapping.clear();
        has_rule = false;  // reported: checking the shapes with it would only repeat the problem
      }
      if (has_rule && k.mode != BroadcastMode::Explicit) add(am, kn, "'axes_mapping' applies only to mode explicit");
    } else if (is_broadcast && has_rule && k.mode == BroadcastMode::Explicit) {
      add(n, kn, "mode explicit needs 'axes_mapping'");
      has_rule = false;
    }
    bool shapes_ok = true;
    const char* b_field = is_broadcast ? "target" : "b";
    for (auto [field, shape] : {std::pair<const char*, Shape*>{"a", &k.a}, {b_field, &k.b}}) {
      if (auto s = n[field]) shapes_ok = shape_field(s, kn, field, shape) && shapes_ok;
      else {
        add(n, kn, std::string("missing field '") + field + "'");
        shapes_ok = false;
      }
    }
    if (shapes_ok && has_rule && known_op) check_shapes(n, k);
    return k;
  }

  // Applies the rule engine; reports at the 'b'/'target' field.
  void check_shapes(const YAML::Node& n, const KernelSpec& k) {
    const bool is_broadcast = k.op == Op::Broadcast;
    const YAML::Node at = n[is_broadcast ? "target" : "b"];
    try {
      if (is_broadcast) broadcast_to(k.mode, k.a, k.b, k.axis, k.axes_mapping);
      else broadcast_shapes(k.rule, k.a, k.b, k.axis);
    } catch (const BroadcastError& e) {
      add(at, k.name, e.what(), /*rule_failure=*/true);
    } catch (const OverflowError& e) {
      // An element count above 64 bits: at `a` when it is a's own, else at b/target.
      bool in_a = false;
      try {
        checked_numel(k.a);
      } catch (const OverflowError&) {
        in_a = true;
      }
      add(in_a ? n["a"] : at, k.name, e.what());
    } catch (const InvalidArgument& e) {
      const char* field = is_broadcast && k.mode == BroadcastMode::Explicit ? "axes_mapping" : "axis";
      add(n[field].IsDefined() ? n[field] : at, k.name, e.what());
    }
  }

  std::string file_;
  std::vector<Diagnostic> diags_;
  std::set<std::size_t> reported_;
};

}  // namespace

std::string Diagnostic::text() const {
  std::string s = file;
  if (pos.line > 0) s += ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
  s += ": ";
  if (!kernel.empty()) s += "kernel '" + kernel + "': ";
  return s + message;
}

static std::string join_diagnostics(const std::vector<Diagnostic>& diags) {
  std::string s;
  for (const auto& d : diags) s += (s.empty() ? "" : "\n") + d.text();
  return s;
}

SpecError::SpecError(std::vector<Diagnostic> diags) : Error(join_diagnostics(diags)), diags_(std::move(diags)) {}

bool SpecError::only_rule_failures() const {
  return std::all_of(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.rule_failure; });
}

std::vector<Isa> default_isas() {
#if defined(__x86_64__) || defined(_M_X64)
  return {Isa::Avx512, Isa::Avx2, Isa::Scalar};
#else
  return {Isa::Scalar};
#endif
}

bool is_cpp_identifier(std::string_view s) {
  if (s.empty() || cpp_keywords().count(s)) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  // Names with a double underscore, or _ and a capital, are reserved.
  if (s.find("__") != std::string_view::npos || (s.size() > 1 && s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z')) {
    return false;
  }
  return true;
}

// The checks shared by parsed and in-memory specs. Kernels in `skip` were
// already diagnosed while parsing; only name clashes are checked for them.
static std::vector<Diagnostic> spec_problems(const Spec& spec, const std::string& file,
                                             const std::set<std::size_t>& skip) {
  std::vector<Diagnostic> diags;
  auto add = [&](const KernelSpec* k, std::string msg, bool rule_failure = false) {
    Diagnostic d;
    d.file = file;
    if (k) {
      d.pos = k->pos;
      d.kernel = k->name;
    }
    d.message = std::move(msg);
    d.rule_failure = rule_failure;
    diags.push_back(std::move(d));
  };
  if (spec.kernels.empty()) add(nullptr, "empty spec: no kernels");
  if (spec.max_elements < 1) add(nullptr, "max_elements must be 1 or more, got " + std::to_string(spec.max_elements));
  if (spec.stream_threshold_bytes < 0) {
    add(nullptr, "stream_threshold_bytes must be 0 or more, got " + std::to_string(spec.stream_threshold_bytes));
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    const KernelSpec& k = spec.kernels[i];
    if (!k.name.empty() && !seen.insert(k.name).second) add(&k, "duplicate kernel name '" + k.name + "'");
    if (skip.count(i)) continue;
    if (!is_cpp_identifier(k.name)) add(&k, "kernel name '" + k.name + "' is not a valid C++ identifier");
    if (!op_supports(k.op, k.dtype)) {
      add(&k, std::string("op '") + op_name(k.op) + "' does not support dtype '" + dtype_name(k.dtype) +
                  "' (valid: " + supported_dtypes_text(k.op) + ")");
    }
    try {
      const BroadcastResult r = k.op == Op::Broadcast ? broadcast_to(k.mode, k.a, k.b, k.axis, k.axes_mapping)
                                                      : broadcast_shapes(k.rule, k.a, k.b, k.axis);
      bool too_big = false;
      for (const Shape* s : {&k.a, &k.b, &r.out}) {
        if (checked_numel(*s) > spec.max_elements) {
          add(&k, "shape " + format_shape(*s) + " has " + std::to_string(checked_numel(*s)) +
                      " elements, more than max_elements " + std::to_string(spec.max_elements));
          too_big = true;
          break;
        }
      }
      // Under a max_elements above 2^60, the output's bytes may not fit in 64 bits.
      std::int64_t bytes = 0;
      const DType out_t = result_dtype(k.op, k.dtype);
      if (!too_big && __builtin_mul_overflow(checked_numel(r.out), dtype_size(out_t), &bytes)) {
        add(&k, "output " + format_shape(r.out) + " of " + dtype_name(out_t) +
                    ": its size in bytes does not fit in 64 bits");
      }
    } catch (const BroadcastError& e) {
      add(&k, e.what(), true);
    } catch (const InvalidArgument& e) {
      add(&k, e.what());
    }
  }
  return diags;
}

void validate_spec(const Spec& spec, const std::string& file) {
  auto diags = spec_problems(spec, file, {});
  if (!diags.empty()) throw SpecError(std::move(diags));
}

Spec parse_spec(std::string_view text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    Diagnostic d;
    d.file = file;
    d.pos = {e.mark.line + 1, e.mark.column + 1};
    d.message = "malformed YAML: " + e.msg;
    throw SpecError({d});
  }
  SpecReader reader(file);
  Spec spec = reader.read(root);
  auto& diags = reader.diagnostics();
  if (!spec.kernels.empty() || diags.empty()) {  // an empty spec was reported by the reader
    for (auto& d : spec_problems(spec, file, reader.reported())) diags.push_back(std::move(d));
  }
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& x, const Diagnostic& y) {
    return x.pos.line < y.pos.line;
  });
  if (!diags.empty()) throw SpecError(std::move(diags));
  return spec;
}

}  // namespace bcastgen::gen
