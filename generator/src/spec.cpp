#include "bcastgen/gen/spec.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/vocabulary.h"
#include "bcastgen/reference.h"
#include "rows.h"
#include "symbols.h"

namespace bcastgen::gen {

// Kernel index -> the rule engine's result for it.
using KnownShapes = std::map<std::size_t, BroadcastInputs>;
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

// Why an input name cannot be used ("" if it can): it must be a C++
// identifier that no generated name uses (the output, the header's shape
// constants, the range and C entry points' parameters).
std::string input_name_problem(const std::string& name) {
  static const std::set<std::string> reserved = {"out", "target", "axes_mapping", "out_numel", "outer_extent",
                                                 "begin", "end", "isa"};
  if (!is_cpp_identifier(name)) return "input name '" + name + "' is not a valid C++ identifier";
  auto ends = [&](const char* suffix) {
    const std::string s(suffix);
    return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (reserved.count(name) || ends("_dims") || ends("_rank")) {
    return "input name '" + name + "' is reserved in generated code (out, target, axes_mapping, out_numel, "
           "outer_extent, begin, end, isa, and names ending in _dims or _rank)";
  }
  return "";
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
      if (key != "namespace" && key != "isa" && key != "cpu" && key != "kernels" && key != "stream_threshold_bytes" &&
          key != "max_elements" && key != "accuracy") {
        add(kv.first, "",
            "unknown field '" + key +
                "' (valid: namespace, isa, cpu, kernels, stream_threshold_bytes, max_elements, accuracy)");
      }
    }
    if (auto a = root["accuracy"]) accuracy_field(a, "", &fast_);
    if (auto ns = root["namespace"]) {
      if (string_field(ns, "", "namespace", &spec.ns)) check_namespace(ns, spec.ns);
    }
    if (auto isa = root["isa"]) read_isas(isa, &spec.isas);
    else spec.isas = default_isas();
    if (auto cpu = root["cpu"]) {
      if (!cpu.IsScalar() || !parse_cpu_kind(cpu.Scalar(), &spec.cpu)) {
        add(cpu, "", "unknown cpu " + describe(cpu) + " (valid: " + cpu_kind_names() + ")");
      }
    }
    if (auto t = root["stream_threshold_bytes"]) {
      std::int64_t bytes = 0;
      if (int_field(t, "", "stream_threshold_bytes", &bytes)) {
        if (bytes < 0) add(t, "", "'stream_threshold_bytes' must be 0 or more, got " + std::to_string(bytes));
        else spec.stream_threshold_bytes = bytes;
      }
    }
    if (auto t = root["max_elements"]) {
      if (int_field(t, "", "max_elements", &spec.max_elements) && spec.max_elements < 1) {
        add(t, "", "'max_elements' must be 1 or more, got " + std::to_string(spec.max_elements));
      }
    }
    // A bad setting is reported once; the kernels are checked with the default.
    if (spec.max_elements < 1) spec.max_elements = Spec{}.max_elements;

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
        last_shapes_.reset();
        spec.kernels.push_back(read_kernel(k));
        if (diags_.size() != before) reported_.insert(spec.kernels.size() - 1);
        else if (last_shapes_) shapes_[spec.kernels.size() - 1] = std::move(*last_shapes_);
      }
    }
    return spec;
  }

  std::vector<Diagnostic>& diagnostics() { return diags_; }
  // Indices of kernels that already have a diagnostic.
  const std::set<std::size_t>& reported() const { return reported_; }
  // The rule engine's result for each kernel whose shapes it checked.
  const KnownShapes& shapes() const { return shapes_; }

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
    const std::string problem = namespace_problem(ns);
    if (!problem.empty()) add(n, "", "namespace '" + ns + "' is not a valid C++ namespace (" + problem + ")");
  }

  void read_isas(const YAML::Node& n, std::vector<Isa>* out) {
    if (!n.IsSequence() || n.size() == 0) {
      add(n, "", "'isa' must be a non-empty list such as [" + isa_names() + "]");
      return;
    }
    for (const auto& item : n) {
      Isa isa;
      if (!item.IsScalar() || !parse_isa(item.Scalar(), &isa)) {
        add(item, "", "unknown isa " + describe(item) + " (valid: " + isa_names() + ")");
      } else if (std::find(out->begin(), out->end(), isa) != out->end()) {
        add(item, "", std::string("isa '") + isa_name(isa) + "' is listed twice");
      } else {
        out->push_back(isa);
      }
    }
    sort_most_specific_first(out);
  }

  KernelSpec read_kernel(const YAML::Node& n) {
    KernelSpec k;
    if (n.IsDefined()) k.pos = {n.Mark().line + 1, n.Mark().column + 1};
    if (!n.IsMap()) {
      add(n, "", "each kernel must be a map with name, op, dtype, rule, a and b (or name, inputs and expr)");
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
    if (!n["op"] && (n["expr"] || n["inputs"])) read_expr_kernel(n, k);
    else read_op_kernel(n, k);
    compute_field(n, k);
    return k;
  }

  // `accuracy: exact | fast`, the spec's default or an expression kernel's own.
  void accuracy_field(const YAML::Node& a, const std::string& kn, bool* fast) {
    std::string s;
    if (string_field(a, kn, "accuracy", &s) && !parse_accuracy(s, fast)) {
      add(a, kn, "unknown accuracy '" + s + "' (valid: " + kAccuracyChoices + ")");
    }
  }

  // `compute: dtype | f32`, for any kernel.
  void compute_field(const YAML::Node& n, KernelSpec& k) {
    const YAML::Node c = n["compute"];
    if (!c) return;
    std::string s;
    if (string_field(c, k.name, "compute", &s) && !parse_compute(s, &k.compute_f32)) {
      add(c, k.name, "unknown compute '" + s + "' (valid: " + kComputeChoices + ")");
    }
  }

  // The fields a kernel may have; reports the others.
  void check_fields(const YAML::Node& n, const std::string& kn, const std::set<std::string>& allowed,
                    const std::string& what) {
    std::set<std::string> keys;
    for (const auto& kv : n) {
      std::string key;
      if (!field_key(kv.first, kn, &keys, &key)) continue;
      if (!allowed.count(key)) {
        std::vector<std::string> names(allowed.begin(), allowed.end());
        add(kv.first, kn, "unknown field '" + key + "' for " + what + " (valid: " + join_names(names) + ")");
      }
    }
  }

  bool dtype_field(const YAML::Node& dt, const std::string& kn, const char* field, DType* out) {
    std::string s;
    if (!string_field(dt, kn, field, &s)) return false;
    if (parse_dtype(s, out)) return true;
    add(dt, kn, "unknown dtype '" + s + "' (valid: " + valid_list(kAllDTypes, dtype_name) + ")");
    return false;
  }

  // `rule` (elementwise rules only) and `axis`; false when the rule is unusable.
  bool rule_fields(const YAML::Node& n, KernelSpec& k, bool required) {
    const std::string& kn = k.name;
    bool has_rule = true;
    if (k.to_target) {
      // The Broadcast op has a mode, not a rule.
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
    } else if (required) {
      add(n, kn, "missing field 'rule'");
      has_rule = false;
    }
    if (auto ax = n["axis"]) {
      int_field(ax, kn, "axis", &k.axis);
      const bool takes_axis = k.to_target ? k.mode == BroadcastMode::Pdpd : rule_takes_axis(k.rule);
      if (has_rule && !takes_axis) add(ax, kn, "'axis' applies only to rules pdpd and paddle, and mode pdpd");
    }
    return has_rule;
  }

  // A kernel of one op: `op`, `dtype`, `rule` and shapes `a`, `b` (the
  // Broadcast op: `mode`, input `a` and `target`).
  void read_op_kernel(const YAML::Node& n, KernelSpec& k) {
    const std::string& kn = k.name;
    Op op = Op::Add;
    bool known_op = false;
    if (auto o = n["op"]) {
      std::string s;
      if (string_field(o, kn, "op", &s)) {
        known_op = parse_op(s, &op);
        if (!known_op) add(o, kn, "unknown op '" + s + "' (valid: " + valid_list(kAllOps, op_name) + ")");
      }
    } else {
      add(n, kn, "missing field 'op'");
    }
    k.to_target = known_op && op == Op::Broadcast;
    std::set<std::string> allowed = {"name", "op", "dtype", "a", "compute"};
    if (k.to_target) allowed.insert({"mode", "target", "axis", "axes_mapping"});
    else allowed.insert({"rule", "b", "axis"});
    check_fields(n, kn, allowed, k.to_target ? "a broadcast kernel" : "a binary kernel");
    DType dtype = DType::F32;
    bool known_dtype = false;
    if (auto dt = n["dtype"]) {
      known_dtype = dtype_field(dt, kn, "dtype", &dtype);
      if (known_op && known_dtype && !op_supports(op, dtype)) {
        add(dt, kn, std::string("op '") + op_name(op) + "' does not support dtype '" + dtype_name(dtype) +
                        "' (valid: " + supported_dtypes_text(op) + ")");
      }
    } else {
      add(n, kn, "missing field 'dtype'");
    }
    bool has_rule = true;
    if (k.to_target) {
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
      has_rule = rule_fields(n, k, false) && has_rule;
    } else {
      has_rule = rule_fields(n, k, true);
    }
    if (auto am = n["axes_mapping"]) {
      if (!shape_field(am, kn, "axes_mapping", &k.axes_mapping)) {
        k.axes_mapping.clear();
        has_rule = false;  // reported: checking the shapes with it would only repeat the problem
      }
      if (has_rule && k.mode != BroadcastMode::Explicit) add(am, kn, "'axes_mapping' applies only to mode explicit");
    } else if (k.to_target && has_rule && k.mode == BroadcastMode::Explicit) {
      add(n, kn, "mode explicit needs 'axes_mapping'");
      has_rule = false;
    }
    bool shapes_ok = true;
    Shape a, b;
    const char* b_field = k.to_target ? "target" : "b";
    for (auto [field, shape] : {std::pair<const char*, Shape*>{"a", &a}, {b_field, &b}}) {
      if (auto s = n[field]) shapes_ok = shape_field(s, kn, field, shape) && shapes_ok;
      else {
        add(n, kn, std::string("missing field '") + field + "'");
        shapes_ok = false;
      }
    }
    KernelSpec made = k.to_target ? broadcast_kernel(k.name, dtype, k.mode, a, b, k.axis, k.axes_mapping)
                                  : binary_kernel(k.name, known_op ? op : Op::Add, dtype, k.rule, a, b, k.axis);
    made.pos = k.pos;
    for (InputSpec& in : made.inputs) in.pos = mark(n[in.name == "in" ? "a" : in.name]);
    k = std::move(made);
    if (shapes_ok && has_rule && known_op) check_shapes(n, k, n[b_field]);
  }

  static SourcePos mark(const YAML::Node& n) {
    if (!n.IsDefined() || n.Mark().line < 0) return {};
    return {n.Mark().line + 1, n.Mark().column + 1};
  }

  // A fused kernel: `inputs` (name: shape, or name: {shape, dtype}), `expr`,
  // and optional `dtype` (the inputs' default, f32) and `rule` (numpy).
  void read_expr_kernel(const YAML::Node& n, KernelSpec& k) {
    const std::string& kn = k.name;
    check_fields(n, kn, {"name", "dtype", "rule", "axis", "inputs", "expr", "compute", "accuracy"},
                 "an expression kernel");
    DType dtype = DType::F32;
    bool ok = true;
    if (auto dt = n["dtype"]) ok = dtype_field(dt, kn, "dtype", &dtype);
    bool fast = fast_;
    if (auto a = n["accuracy"]) accuracy_field(a, kn, &fast);
    const bool has_rule = rule_fields(n, k, false);
    const YAML::Node inputs = n["inputs"];
    if (!inputs) {
      add(n, kn, "missing field 'inputs' (a map from input name to shape, in parameter order)");
      ok = false;
    } else if (!inputs.IsMap() || inputs.size() == 0) {
      add(inputs, kn, "'inputs' must be a map from input name to a shape or {shape, dtype}, got " + describe(inputs));
      ok = false;
    } else {
      std::set<std::string> keys;
      for (const auto& kv : inputs) {
        InputSpec in;
        in.dtype = dtype;
        in.pos = mark(kv.first);
        if (!field_key(kv.first, kn, &keys, &in.name)) {
          ok = false;
          continue;
        }
        if (const std::string why = input_name_problem(in.name); !why.empty()) {
          add(kv.first, kn, why);
          ok = false;
        }
        ok = read_input(kv.second, kn, in) && ok;
        k.inputs.push_back(std::move(in));
      }
      if (k.inputs.size() > kMaxExprInputs) {
        add(inputs, kn, "a kernel takes at most " + std::to_string(kMaxExprInputs) + " inputs, got " +
                            std::to_string(k.inputs.size()));
        ok = false;
      }
    }
    const YAML::Node expr = n["expr"];
    if (!expr) {
      add(n, kn, "missing field 'expr' (an expression over the inputs, e.g. max(x * scale + shift, 0))");
      return;
    }
    if (!string_field(expr, kn, "expr", &k.expr_text) || !ok) return;
    std::vector<ExprInput> decl;
    for (const InputSpec& in : k.inputs) decl.push_back({in.name, in.dtype});
    try {
      k.expr = parse_expr(k.expr_text, decl);
      if (fast) use_fast_tier(k.expr);
    } catch (const ExprError& e) {
      Diagnostic d;
      d.file = file_;
      d.pos = mark(expr);
      // A quoted scalar starts one column before its text; a one-line scalar
      // puts the expression's column C at the scalar's column + C - 1.
      if (d.pos.line > 0 && k.expr_text.find('\n') == std::string::npos) {
        d.pos.column += e.column() - 1 + (expr.Tag() == "!" ? 1 : 0);
      }
      d.kernel = kn;
      d.message = "expr: " + e.message() + "\n" + expr_caret(k.expr_text, e.column());
      diags_.push_back(std::move(d));
      return;
    } catch (const InvalidArgument& e) {
      add(expr, kn, e.what());
      return;
    }
    for (std::size_t i = 0; i < k.inputs.size(); ++i) {
      if (!k.expr.input_used[i]) {
        add(inputs[k.inputs[i].name], kn,
            "input '" + k.inputs[i].name + "' is declared but the expression does not use it (remove it)");
        return;
      }
    }
    if (has_rule) check_shapes(n, k, inputs);
  }

  // One input's value: a shape, or {shape: [...], dtype: name}.
  bool read_input(const YAML::Node& v, const std::string& kn, InputSpec& in) {
    const std::string field = "inputs." + in.name;
    if (!v.IsMap()) return shape_field(v, kn, field.c_str(), &in.shape);
    check_fields(v, kn, {"shape", "dtype"}, "an input");
    bool ok = true;
    if (auto dt = v["dtype"]) ok = dtype_field(dt, kn, (field + ".dtype").c_str(), &in.dtype);
    if (auto sh = v["shape"]) return shape_field(sh, kn, (field + ".shape").c_str(), &in.shape) && ok;
    add(v, kn, "input '" + in.name + "' needs a 'shape'");
    return false;
  }

  // Applies the rule engine to the kernel's inputs; reports at `at`.
  void check_shapes(const YAML::Node& n, const KernelSpec& k, const YAML::Node& at) {
    try {
      last_shapes_ = broadcast_kernel_inputs(k);
    } catch (const BroadcastError& e) {
      add(at, k.name, e.what(), /*rule_failure=*/true);
    } catch (const OverflowError& e) {
      // An element count above 64 bits: at the input that has it, else at `at`.
      YAML::Node where = at;
      for (const InputSpec& in : k.inputs) {
        try {
          checked_numel(in.shape);
        } catch (const OverflowError&) {
          where = n["inputs"] ? n["inputs"][in.name] : n["a"];
          break;
        }
      }
      add(where, k.name, e.what());
    } catch (const InvalidArgument& e) {
      const char* field = k.to_target && k.mode == BroadcastMode::Explicit ? "axes_mapping" : "axis";
      add(n[field].IsDefined() ? n[field] : at, k.name, e.what());
    }
  }

  std::string file_;
  std::vector<Diagnostic> diags_;
  std::set<std::size_t> reported_;
  std::optional<BroadcastInputs> last_shapes_;  // of the kernel being read
  bool fast_ = false;                            // the spec's `accuracy`, each kernel's default
  KnownShapes shapes_;
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
  // Every ISA of the table: each variant compiles only for its architecture.
  std::vector<Isa> all(kAllIsas.begin(), kAllIsas.end());
  sort_most_specific_first(&all);
  return all;
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

bool parse_compute(std::string_view s, bool* compute_f32) {
  if (s != "dtype" && s != "f32") return false;
  *compute_f32 = s == "f32";
  return true;
}

bool parse_accuracy(std::string_view s, bool* fast) {
  if (s != "exact" && s != "fast") return false;
  *fast = s == "fast";
  return true;
}

void use_fast_tier(ExprDag& dag) {
  for (ExprNode& node : dag.nodes) {
    if (node.kind == ExprKind::Unary) node.unary = fast_function(node.unary);
  }
}

std::string fast_tier_functions() {
  std::string names;
  for (const UnaryInfo& info : kUnaryInfo) {
    if (info.fast) names += (names.empty() ? "" : ", ") + std::string(unary_name(info.approximates));
  }
  return names;
}

KernelSpec binary_kernel(std::string name, Op op, DType dtype, Rule rule, Shape a, Shape b, std::int64_t axis) {
  KernelSpec k;
  k.name = std::move(name);
  k.inputs = {{"a", std::move(a), dtype, {}}, {"b", std::move(b), dtype, {}}};
  k.expr = binary_dag(op, dtype);
  k.expr_text = std::string(op_name(op)) + "(a, b)";
  k.rule = rule;
  k.axis = axis;
  return k;
}

KernelSpec broadcast_kernel(std::string name, DType dtype, BroadcastMode mode, Shape in, Shape target,
                            std::int64_t axis, std::vector<std::int64_t> axes_mapping) {
  KernelSpec k;
  k.name = std::move(name);
  k.inputs = {{"in", std::move(in), dtype, {}}};
  k.expr = copy_dag(dtype);
  k.expr_text = "in";
  k.axis = axis;
  k.to_target = true;
  k.mode = mode;
  k.target = std::move(target);
  k.axes_mapping = std::move(axes_mapping);
  return k;
}

std::optional<Op> single_op(const KernelSpec& k) {
  if (k.to_target) return Op::Broadcast;
  const auto& n = k.expr.nodes;
  if (k.inputs.size() != 2 || n.size() != 3 || k.expr.root != 2 || n[2].kind != ExprKind::Binary) return std::nullopt;
  if (n[0].kind != ExprKind::Input || n[1].kind != ExprKind::Input || n[0].input != 0 || n[1].input != 1 ||
      n[2].args != std::vector<std::size_t>{0, 1}) {
    return std::nullopt;
  }
  return n[2].op;
}

BroadcastInputs broadcast_kernel_inputs(const KernelSpec& k) {
  if (k.to_target) {
    if (k.inputs.size() != 1) throw InvalidArgument("the broadcast op takes exactly one input");
    BroadcastResult r = broadcast_to(k.mode, k.inputs[0].shape, k.target, k.axis, k.axes_mapping);
    return {std::move(r.out), {std::move(r.a_aligned)}, {std::move(r.a_strides)}};
  }
  std::vector<Shape> shapes;
  std::vector<std::string> names;
  for (const InputSpec& in : k.inputs) {
    shapes.push_back(in.shape);
    names.push_back(in.name);
  }
  BroadcastInputs b = broadcast_expr_inputs(k.expr, k.rule, shapes, k.axis, names);
  // With reductions, the output is the root's shape (node_shapes), and the
  // kernel must be a row kernel: plan_rows says why not (and the inputs'
  // strides stay those over the domain, the inputs' broadcast).
  if (has_reductions(k.expr)) b.out = plan_rows(k, k.expr).out_shape;
  return b;
}

// What is wrong with an in-memory kernel's inputs and DAG ("" if nothing):
// the parser never builds such a DAG, an embedding compiler might.
static std::string dag_problems(const KernelSpec& k) {
  if (k.inputs.empty()) return "a kernel needs at least one input";
  if (k.inputs.size() > kMaxExprInputs) return "a kernel takes at most " + std::to_string(kMaxExprInputs) + " inputs";
  std::set<std::string> names;
  for (const InputSpec& in : k.inputs) {
    if (const std::string why = input_name_problem(in.name); !why.empty()) return why;
    if (!names.insert(in.name).second) return "input '" + in.name + "' is declared twice";
  }
  const ExprDag& d = k.expr;
  if (d.nodes.empty() || d.root >= d.nodes.size()) return "the kernel has no expression";
  if (d.nodes.size() > kMaxExprNodes) return "the expression has more than " + std::to_string(kMaxExprNodes) + " nodes";
  if (k.to_target && (k.inputs.size() != 1 || d.nodes.size() != 1 || d.nodes[0].kind != ExprKind::Input)) {
    return "the broadcast op copies exactly one input";
  }
  // Well formed and typed: the reference evaluator's own check, over the
  // kernel's inputs (an in-memory DAG may leave input_used empty).
  std::vector<DType> dtypes;
  std::vector<std::string> input_names;
  for (const InputSpec& in : k.inputs) {
    dtypes.push_back(in.dtype);
    input_names.push_back(in.name);
  }
  try {
    bcastgen::detail::check_expr_dag(d, dtypes, input_names, "expression: ", k.inputs.size());
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  std::vector<bool> used(k.inputs.size(), false);
  for (const ExprNode& n : d.nodes) {
    if (n.kind == ExprKind::Input) used[n.input] = true;
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) return "input '" + k.inputs[i].name + "' is declared but the expression does not use it";
  }
  return "";
}

// Each name that generated code gives beside a kernel (kernel_symbol_roles)
// -> that kernel and what the name is.
using SymbolOwners = std::map<std::string, std::pair<std::string, const char*>>;
static SymbolOwners symbol_owners(const Spec& spec) {
  SymbolOwners owners;
  for (const KernelSpec& k : spec.kernels) {
    for (const auto& [symbol, role] : kernel_symbol_roles(k.name)) owners.emplace(symbol, std::make_pair(k.name, role));
  }
  return owners;
}

// Why a kernel name (an identifier) cannot be emitted beside the others
// ("" if it can). Generated code calls the wrappers and the runtime
// qualified (v::add_f32, bcastgen::ops::add), so every other name works;
// these would clash with a name the generated code declares or spells
// unqualified in the kernel's namespace.
static std::string kernel_name_problem(const std::string& name, const std::string& ns, const SymbolOwners& owners) {
  const std::string quoted = "kernel name '" + name + "'";
  if (const auto it = owners.find(name); it != owners.end()) {
    return quoted + " is the " + it->second.second + " that bcastgen emits for kernel '" + it->second.first +
           "': rename one of them";
  }
  if (name == kCLastError) {
    return quoted + " would make its C entry point " + c_prefix(ns) + name +
           ", the generated file's last-error function: rename the kernel";
  }
  if (name.rfind(kMacroPrefix, 0) == 0) {
    return quoted + " starts with " + kMacroPrefix + ", the prefix of bcastgen's macros: rename the kernel";
  }
  static const std::set<std::string> globals = Vocabulary::builtin().global_names();
  if (globals.count(name)) {
    return quoted + " is a name of the ISA headers that the generated code uses (a vector type or an intrinsic, "
                    "templates/vocabulary.yaml); the kernel's entry point would hide it: rename the kernel";
  }
  return "";
}

// The checks shared by parsed and in-memory specs. Kernels in `skip` were
// already diagnosed while parsing; only name clashes are checked for them.
// The rule engine runs once per kernel: `known` holds the results the
// parser already has, and `shapes` (when not null) receives every kernel's.
static std::vector<Diagnostic> spec_problems(const Spec& spec, const std::string& file,
                                             const std::set<std::size_t>& skip, const KnownShapes& known = {},
                                             std::vector<BroadcastInputs>* shapes = nullptr) {
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
  if (spec.stream_threshold_bytes && *spec.stream_threshold_bytes < 0) {
    add(nullptr, "stream_threshold_bytes must be 0 or more, got " + std::to_string(*spec.stream_threshold_bytes));
  }
  std::set<std::string> seen;
  const SymbolOwners owners = symbol_owners(spec);
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    const KernelSpec& k = spec.kernels[i];
    if (!k.name.empty() && !seen.insert(k.name).second) add(&k, "duplicate kernel name '" + k.name + "'");
    if (skip.count(i)) continue;
    if (!is_cpp_identifier(k.name)) {
      add(&k, "kernel name '" + k.name + "' is not a valid C++ identifier");
    } else if (const std::string why = kernel_name_problem(k.name, spec.ns, owners); !why.empty()) {
      add(&k, why);
    }
    const std::string dag_problem = dag_problems(k);
    if (!dag_problem.empty()) {
      add(&k, dag_problem);
      continue;
    }
    try {
      const auto found = known.find(i);
      const BroadcastInputs r = found != known.end() ? found->second : broadcast_kernel_inputs(k);
      if (shapes) shapes->push_back(r);
      bool too_big = false;
      std::vector<const Shape*> shapes = {&r.out};
      for (const InputSpec& in : k.inputs) shapes.push_back(&in.shape);
      if (k.to_target) shapes.push_back(&k.target);
      for (const Shape* s : shapes) {
        if (checked_numel(*s) > spec.max_elements) {
          add(&k, "shape " + format_shape(*s) + " has " + std::to_string(checked_numel(*s)) +
                      " elements, more than max_elements " + std::to_string(spec.max_elements));
          too_big = true;
          break;
        }
      }
      // Under a max_elements above 2^60, the output's bytes may not fit in 64 bits.
      std::int64_t bytes = 0;
      const DType out_t = k.out_dtype();
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

std::vector<BroadcastInputs> validate_spec(const Spec& spec, const std::string& file) {
  std::vector<BroadcastInputs> shapes;
  auto diags = spec_problems(spec, file, {}, {}, &shapes);
  // (A parsed spec's namespace was checked by the reader, where it is written.)
  if (const std::string problem = namespace_problem(spec.ns); !problem.empty()) {
    Diagnostic d;
    d.file = file;
    d.message = "namespace '" + spec.ns + "' is not a valid C++ namespace (" + problem + ")";
    diags.insert(diags.begin(), std::move(d));
  }
  if (!diags.empty()) throw SpecError(std::move(diags));
  return shapes;
}

std::string namespace_problem(const std::string& ns) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = ns.find("::", start);
    const std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!is_cpp_identifier(part)) return "'" + part + "'";
    if (end == std::string::npos) return "";
    start = end + 2;
  }
}

void CheckedSpec::set_namespace(const std::string& ns) {
  const std::string problem = namespace_problem(ns);
  if (!problem.empty()) throw InvalidArgument("'" + ns + "' is not a valid C++ namespace (" + problem + ")");
  spec_.ns = ns;
}

void CheckedSpec::set_stream_threshold_bytes(std::int64_t bytes) {
  if (bytes < 0) throw InvalidArgument("stream_threshold_bytes must be 0 or more, got " + std::to_string(bytes));
  spec_.stream_threshold_bytes = bytes;
}

CheckedSpec check_spec(Spec spec, const std::string& file) {
  std::vector<BroadcastInputs> shapes = validate_spec(spec, file);
  return CheckedSpec(std::move(spec), std::move(shapes));
}

// parse_spec, also returning the shapes its checks computed (when not null).
static Spec parse_spec_impl(std::string_view text, const std::string& file, std::vector<BroadcastInputs>* shapes) {
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
    for (auto& d : spec_problems(spec, file, reader.reported(), reader.shapes(), shapes)) diags.push_back(std::move(d));
  }
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& x, const Diagnostic& y) {
    return x.pos.line < y.pos.line;
  });
  if (!diags.empty()) throw SpecError(std::move(diags));
  return spec;
}

Spec parse_spec(std::string_view text, const std::string& file) { return parse_spec_impl(text, file, nullptr); }

CheckedSpec parse_checked_spec(std::string_view text, const std::string& file) {
  std::vector<BroadcastInputs> shapes;
  Spec spec = parse_spec_impl(text, file, &shapes);
  return CheckedSpec(std::move(spec), std::move(shapes));
}

}  // namespace bcastgen::gen
