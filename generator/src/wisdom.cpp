#include "bcastgen/gen/wisdom.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "bcastgen/errors.h"
#include "bcastgen/gen/manifest.h"

namespace bcastgen::gen {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& file, const std::string& where, const std::string& message) {
  throw InvalidArgument(fmt::format("{}: {}{}{}", file, where, where.empty() ? "" : ": ", message));
}

const json& member(const json& object, const char* key, json::value_t type, const std::string& file,
                   const std::string& where) {
  const std::string path = where.empty() ? key : where + "." + key;
  const auto it = object.find(key);
  if (it == object.end()) fail(file, where.empty() ? "" : where, fmt::format("no \"{}\"", key));
  // Integers parse as unsigned or signed: either is a number here.
  const bool ok = type == json::value_t::number_integer ? it->is_number_integer() : it->type() == type;
  if (!ok) {
    fail(file, path, type == json::value_t::number_integer
                         ? fmt::format("{} is not an integer", it->dump())
                         : fmt::format("is {}, not {}", it->type_name(), json(type).type_name()));
  }
  return *it;
}

bool is_hex16(const std::string& s) {
  if (s.size() != 16) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

Wisdom parse_wisdom(std::string_view text, const std::string& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 12: ...": where, without the tag.
    std::string what = e.what();
    const std::size_t tag = what.find("] ");
    if (tag != std::string::npos) what = what.substr(tag + 2);
    fail(file, "", "not JSON (a wisdom file is what `bcastgen tune` writes): " + what);
  }
  if (!j.is_object()) fail(file, "", "not a JSON object (a wisdom file is what `bcastgen tune` writes)");
  const json& format = member(j, "format", json::value_t::string, file, "");
  if (format.get<std::string>() != kWisdomFormat) {
    fail(file, "format", fmt::format("\"{}\" is not \"{}\"", format.get<std::string>(), kWisdomFormat));
  }
  Wisdom w;
  const std::string cpu = member(j, "cpu", json::value_t::string, file, "").get<std::string>();
  if (!parse_cpu_kind(cpu, &w.cpu)) {
    fail(file, "cpu", fmt::format("unknown CPU kind '{}' (valid: {})", cpu, cpu_kind_names()));
  }
  if (j.contains("machine")) w.machine = member(j, "machine", json::value_t::string, file, "").get<std::string>();
  if (j.contains("spec")) w.spec = member(j, "spec", json::value_t::string, file, "").get<std::string>();
  const json& kernels = member(j, "kernels", json::value_t::object, file, "");
  for (const auto& [name, e] : kernels.items()) {
    const std::string where = "kernels." + name;
    if (!e.is_object()) fail(file, where, fmt::format("is {}, not object", e.type_name()));
    WisdomEntry entry;
    // Optional: an entry written by hand (a pinned plan) holds whatever the kernel's shapes.
    if (e.contains("fingerprint")) {
      entry.fingerprint = member(e, "fingerprint", json::value_t::string, file, where).get<std::string>();
      if (!is_hex16(entry.fingerprint)) fail(file, where + ".fingerprint", "is not 16 lower-case hex digits");
    }
    entry.tuning.interleave = member(e, "interleave", json::value_t::boolean, file, where).get<bool>();
    const json& unroll = member(e, "unroll", json::value_t::number_integer, file, where);
    if (unroll != 1 && unroll != 2 && unroll != 4) {
      fail(file, where + ".unroll", fmt::format("{} is not 1, 2 or 4", unroll.dump()));
    }
    entry.tuning.unroll = unroll.get<int>();
    if (e.contains("isa")) {
      const std::string isa = member(e, "isa", json::value_t::string, file, where).get<std::string>();
      Isa parsed = Isa::Scalar;
      if (!parse_isa(isa, &parsed)) {
        fail(file, where + ".isa", fmt::format("unknown ISA '{}' (valid: {})", isa, isa_names()));
      }
      entry.tuning.isa = parsed;
    }
    if (e.contains("peel")) entry.tuning.peel = member(e, "peel", json::value_t::boolean, file, where).get<bool>();
    if (e.contains("measured")) {
      entry.tuning.measured = member(e, "measured", json::value_t::string, file, where).get<std::string>();
    }
    w.kernels[name] = entry;
  }
  return w;
}

std::string wisdom_text(const Wisdom& w) {
  json j;
  j["format"] = kWisdomFormat;
  j["cpu"] = cpu_kind_name(w.cpu);
  j["machine"] = w.machine;
  j["spec"] = w.spec;
  json kernels = json::object();
  for (const auto& [name, e] : w.kernels) {
    kernels[name] = {{"interleave", e.tuning.interleave},
                     {"unroll", e.tuning.unroll},
                     {"measured", e.tuning.measured}};
    if (e.tuning.isa) kernels[name]["isa"] = isa_name(*e.tuning.isa);
    if (e.tuning.peel) kernels[name]["peel"] = *e.tuning.peel;
    if (!e.fingerprint.empty()) kernels[name]["fingerprint"] = e.fingerprint;
  }
  j["kernels"] = kernels;
  return j.dump(2) + "\n";
}

std::string kernel_fingerprint(const KernelPlan& plan) {
  json j = plan_json(plan);
  j.erase("cpu");
  j.erase("isas");
  // FNV-1a, 64 bits: stable across builds and platforms, unlike std::hash.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : j.dump()) h = (h ^ c) * 0x100000001b3ull;
  return fmt::format("{:016x}", h);
}

std::map<std::string, std::string> kernel_fingerprints(const CheckedSpec& checked) {
  const Spec& spec = checked.spec();
  const PlanOptions opt = plan_options(spec);
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    out[spec.kernels[i].name] = kernel_fingerprint(plan_kernel(spec.kernels[i], checked.shapes()[i], opt));
  }
  return out;
}

std::map<std::string, KernelTuning> wisdom_for_spec(const Wisdom& w, const CheckedSpec& checked,
                                                    const std::string& file) {
  const Spec& spec = checked.spec();
  if (w.cpu != spec.cpu) {
    fail(file, "cpu", fmt::format("tuned for CPU kind {}, but the spec plans for {}: give --cpu {} (or cpu: {} in "
                                  "the spec)",
                                  cpu_kind_name(w.cpu), cpu_kind_name(spec.cpu), cpu_kind_name(w.cpu),
                                  cpu_kind_name(w.cpu)));
  }
  const std::map<std::string, std::string> fingerprints = kernel_fingerprints(checked);
  const std::vector<Isa> isas = plan_options(spec).isas;
  std::map<std::string, KernelTuning> out;
  for (const auto& [name, now] : fingerprints) {
    const auto it = w.kernels.find(name);
    if (it == w.kernels.end()) continue;
    if (!it->second.fingerprint.empty() && now != it->second.fingerprint) {
      fail(file, "kernels." + name,
           fmt::format("the kernel has changed since it was tuned (fingerprint {}, now {}): run bcastgen tune again",
                       it->second.fingerprint, now));
    }
    KernelTuning t = it->second.tuning;
    if (t.isa && std::find(isas.begin(), isas.end(), *t.isa) == isas.end()) {
      std::vector<const char*> names;
      for (Isa isa : isas) names.push_back(isa_name(isa));
      fail(file, "kernels." + name + ".isa",
           fmt::format("{} is not one of the ISAs the spec generates ({})", isa_name(*t.isa), fmt::join(names, ", ")));
    }
    t.source = "wisdom " + std::filesystem::path(file).filename().string();  // no paths in the output
    out[name] = t;
  }
  for (const auto& [name, e] : w.kernels) {
    if (!fingerprints.count(name)) {
      fail(file, "kernels." + name, "the spec has no such kernel (a wisdom file belongs to the spec it was tuned for)");
    }
  }
  return out;
}

}  // namespace bcastgen::gen
