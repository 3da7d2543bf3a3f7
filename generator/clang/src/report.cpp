// The text and JSON forms of an inspect report.
#include <sstream>

#include "bcastgen/clang/inspect.h"

namespace bcastgen::clangtool {
namespace {

std::string dims(const std::vector<std::int64_t>& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

std::string range(const LoopRow& l) {
  if (!l.problem.empty()) return "(not constant)";
  std::string s;
  if (l.cmp == "<" || l.cmp == "<=") {
    s = "[" + std::to_string(*l.begin) + ", " + std::to_string(*l.end) + (l.cmp == "<" ? ")" : "]");
  } else {
    s = "from " + std::to_string(*l.begin) + " while " + l.cmp + " " + std::to_string(*l.end);
  }
  if (*l.step != 1) s += " step " + std::to_string(*l.step);
  return s;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s;
}

}  // namespace

std::string render_text(const InspectReport& report) {
  std::ostringstream out;
  if (!report.parsed) {
    out << report.file << ": does not compile; nothing inspected\n";
    for (const std::string& d : report.diagnostics) out << d;
    return out.str();
  }
  std::size_t variants = 0;
  for (const KernelReport& k : report.kernels) {
    if (k.shares.empty()) variants += k.variants.size();
    out << "kernel " << k.name;
    if (k.out_shape) out << "  out " << dims(*k.out_shape);
    if (k.out_numel) out << "  " << *k.out_numel << " elements";
    out << "\n";
    if (!k.shares.empty()) out << "  variants: kernel " << k.shares << "'s (the same code), listed there\n";
    for (const VariantReport& v : k.variants) {
      if (!k.shares.empty()) break;
      out << "  variant " << pad(v.name, 8) << " " << v.function << "(), line " << v.line;
      out << (v.target.empty() ? std::string(", no target attribute") : ", target(\"" + v.target + "\")") << "\n";
      out << "    loop nest, depth " << v.depth << (v.loops.empty() ? ": no loops" : ":") << "\n";
      for (const LoopRow& l : v.loops) {
        const std::string indent(2 * static_cast<std::size_t>(l.depth - 1), ' ');
        out << "      " << pad(indent + (l.var.empty() ? "?" : l.var), 10) << " " << pad(range(l), 24) << " "
            << pad(l.trips ? std::to_string(*l.trips) + " trips" : "run-time trips", 16) << " line " << l.line;
        if (l.function != v.function) out << " in " << l.function << "()";
        out << "\n";
      }
      out << "    intrinsics:";
      if (v.intrinsics.empty()) out << " none";
      for (const auto& [family, names] : v.intrinsics) {
        out << "\n      " << pad(family + ":", 8);
        for (const std::string& n : names) out << " " << n;
      }
      out << "\n    stores: "
          << (v.stored ? std::to_string(*v.stored) + " output elements" : "not counted (" + v.stored_note + ")")
          << (v.streams ? ", streaming (_stream_)" : ", not streaming") << "\n";
      if (!v.peel.empty()) out << "    peel: " << v.peel << "\n";
    }
    if (!k.range_drivers.empty()) {
      out << "  range drivers (run-time [begin, end) of the split loop, not linted):";
      for (const std::string& r : k.range_drivers) out << " " << r << "()";
      out << "\n";
    }
    for (std::size_t i = 0; i < k.shape_checks.size(); ++i) {
      out << (i ? "          " : "  shapes: ") << k.shape_checks[i] << "\n";
    }
    if (k.findings.empty()) {
      out << "  ok\n";
    } else {
      out << "  " << k.findings.size() << " problem(s):\n";
      for (const Finding& f : k.findings) out << "    " << f.text() << "\n";
    }
    out << "\n";
  }
  out << report.file << ": " << report.kernels.size() << " kernel(s), " << variants << " variant(s), "
      << report.finding_count() << " problem(s)\n";
  return out.str();
}

nlohmann::json render_json(const InspectReport& report) {
  using nlohmann::json;
  auto optional = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); };
  json kernels = json::array();
  for (const KernelReport& k : report.kernels) {
    json variants = json::array();
    for (const VariantReport& v : k.variants) {
      json loops = json::array();
      for (const LoopRow& l : v.loops) {
        loops.push_back({{"depth", l.depth}, {"var", l.var}, {"function", l.function}, {"line", l.line},
                         {"begin", optional(l.begin)}, {"end", optional(l.end)}, {"cmp", l.cmp},
                         {"step", optional(l.step)}, {"trips", optional(l.trips)}, {"problem", l.problem}});
      }
      variants.push_back({{"name", v.name}, {"function", v.function}, {"line", v.line}, {"target", v.target},
                          {"depth", v.depth}, {"loops", loops}, {"intrinsics", v.intrinsics},
                          {"streams", v.streams}, {"stored", optional(v.stored)}, {"stored_note", v.stored_note},
                          {"peel", v.peel}});
    }
    json findings = json::array();
    for (const Finding& f : k.findings) {
      findings.push_back({{"kernel", f.kernel}, {"variant", f.variant}, {"check", f.check}, {"file", f.file},
                          {"line", f.line}, {"column", f.column}, {"message", f.message}});
    }
    kernels.push_back({{"name", k.name}, {"out_numel", optional(k.out_numel)},
                       {"out_shape", k.out_shape ? json(*k.out_shape) : json(nullptr)}, {"variants", variants},
                       {"shares_code_with", k.shares.empty() ? json(nullptr) : json(k.shares)},
                       {"range_drivers", k.range_drivers}, {"shape_checks", k.shape_checks},
                       {"findings", findings}, {"ok", k.findings.empty()}});
  }
  return {{"file", report.file}, {"parsed", report.parsed}, {"diagnostics", report.diagnostics},
          {"kernels", kernels}, {"problems", report.finding_count()}, {"ok", report.ok()}};
}

}  // namespace bcastgen::clangtool
