#include "analysis.h"

#include <algorithm>
#include <map>
#include <set>

#include <clang/AST/Decl.h>

#include "ast_util.h"
#include "bcastgen/cpu.h"
#include "intrinsic_families.h"
#include "symbols.h"

namespace bcastgen::clangtool {
namespace {

std::string join_dims(const std::vector<std::int64_t>& dims, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? sep : "") + std::to_string(dims[i]);
  return s;
}

std::optional<std::int64_t> times(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  std::int64_t r;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

// The families an ISA variant ("avx512", or its streaming twin "avx512_nt")
// may use, from its row of the ISA table; null: not a variant of the table.
const std::set<std::string>* allowed_families(const std::string& variant) {
  static const std::map<Isa, std::set<std::string>> by_isa = [] {
    std::map<Isa, std::set<std::string>> m;
    for (const IsaInfo& r : kIsaInfo) {
      const std::vector<std::string> families = isa_families(r.isa);
      m[r.isa].insert(families.begin(), families.end());  // none for scalar
    }
    return m;
  }();
  Isa isa;
  return parse_isa(gen::variant_isa_name(variant), &isa) ? &by_isa.at(isa) : nullptr;
}

// One variant, walked through the functions it calls.
class VariantWalker {
 public:
  VariantWalker(const Facts& facts, const KernelTag& tag, VariantReport& out, std::vector<Finding>& findings)
      : facts_(facts), tag_(tag), out_(out), findings_(findings) {}

  void run() {
    const auto it = facts_.functions.find(tag_.fn);
    if (it == facts_.functions.end()) return;
    out_.stored = 0;
    walk(it->second, {}, {}, {}, true, 0, 1);
    if (!out_.peel.empty() && !out_.stored) {
      out_.stored_note += "; a peeled row's masked head and rest store as many lanes as its start leaves, known at "
                          "run time";
    }
    for (auto& [family, names] : out_.intrinsics) {
      std::sort(names.begin(), names.end());
      names.erase(std::unique(names.begin(), names.end()), names.end());
    }
  }

 private:
  const Facts& facts_;
  const KernelTag& tag_;
  VariantReport& out_;
  std::vector<Finding>& findings_;
  std::set<const clang::FunctionDecl*> stack_;

  void find(const std::string& check, const Where& where, const std::string& message) {
    Finding f;
    f.kernel = tag_.kernel;
    f.variant = tag_.variant;
    f.check = check;
    f.file = facts_.file;
    f.line = where.line;
    f.column = where.column;
    f.message = message;
    findings_.push_back(f);
  }

  static int depth_in(const FunctionFacts& f, const clang::Stmt* loop) {
    int depth = 0;
    for (const LoopFact* l = f.loop(loop); l && depth < 256; l = f.loop(l->parent)) ++depth;
    return depth;
  }

  static std::optional<std::int64_t> trips_around(const FunctionFacts& f, const clang::Stmt* loop) {
    std::optional<std::int64_t> m = 1;
    for (const LoopFact* l = f.loop(loop); l; l = f.loop(l->parent)) m = times(m, l->trips);
    return m;
  }

  // A parameter-dependent value, with the caller's arguments.
  static Staticness resolve(const Staticness& s, const FunctionFacts& f, const std::vector<Staticness>& binding,
                            bool top) {
    if (s.kind != Staticness::Param) return s;
    for (unsigned p : s.params) {
      const std::string name = "'" + f.fn->getParamDecl(p)->getNameAsString() + "'";
      if (top) return Staticness::runtime("it uses parameter " + name + ", a run-time value");
      if (p < binding.size() && binding[p].kind == Staticness::Runtime) {
        return Staticness::runtime("parameter " + name + " of " + f.name + " is passed a run-time value: " +
                                   binding[p].culprit);
      }
    }
    return {};
  }

  std::string in(const FunctionFacts& f) const { return f.fn == tag_.fn ? "" : " (in " + f.name + ")"; }

  // `binding` and `values`: the caller's arguments, by parameter; `outputs`:
  // whether each parameter points into the variant's output (at the top,
  // every pointer parameter to non-const data does).
  void walk(const FunctionFacts& f, const std::vector<Staticness>& binding, const std::vector<ArgValue>& values,
            const std::vector<bool>& outputs, bool top, int depth_base, std::optional<std::int64_t> mult) {
    if (!stack_.insert(f.fn).second) return;  // recursion: already being walked
    // Whether parameter p points into the variant's output (at the top, every
    // pointer parameter to non-const data does).
    auto is_output = [&](int p) {
      return top || (p >= 0 && static_cast<std::size_t>(p) < outputs.size() && outputs[p]);
    };
    // Loops and calls in source order, so a callee's loops follow the loop that calls it.
    struct Event {
      unsigned offset;
      const LoopFact* loop;
      const CallFact* call;
    };
    std::vector<Event> events;
    for (const LoopFact& l : f.loops) events.push_back({l.where.offset, &l, nullptr});
    for (const CallFact& c : f.calls) events.push_back({c.where.offset, nullptr, &c});
    std::stable_sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.offset < y.offset; });
    for (const Event& event : events) {
      if (const LoopFact* l = event.loop) {
        LoopRow row;
        row.depth = depth_base + depth_in(f, l->stmt);
        row.var = l->var;
        row.function = f.name;
        row.line = l->where.line;
        row.begin = l->begin;
        row.end = l->end;
        row.step = l->step;
        row.trips = l->trips;
        row.cmp = l->cmp;
        row.problem = l->problem;
        out_.loops.push_back(row);
        out_.depth = std::max(out_.depth, row.depth);
        if (!l->problem.empty()) {
          find("loop-bound", l->where,
               "loop" + (l->var.empty() ? std::string() : " '" + l->var + "'") + in(f) + ": " + l->problem);
        }
        continue;
      }
      const CallFact* c = event.call;
      const auto callee = facts_.functions.find(c->callee);
      if (callee == facts_.functions.end()) continue;  // nothing recorded: no loops, stores or offsets
      std::vector<Staticness> args;
      for (const Staticness& a : c->args) args.push_back(resolve(a, f, binding, top));
      std::vector<bool> callee_outputs;
      for (int root : c->pointer_roots) callee_outputs.push_back(root >= 0 && is_output(root));
      walk(callee->second, args, c->values, callee_outputs, false, depth_base + depth_in(f, c->loop),
           times(mult, trips_around(f, c->loop)));
    }
    for (const OffsetFact& o : f.offsets) {
      const Staticness s = resolve(o.index, f, binding, top);
      if (s.kind == Staticness::Runtime) {
        find("offset", o.where, "offset '" + o.text + "'" + in(f) + " is not a compile-time constant: " + s.culprit);
      } else if (!s.peel.empty() && out_.peel.empty()) {
        out_.peel = "line " + std::to_string(o.where.line) + in(f) + ": '" + o.text + "' moves by " + s.peel;
      }
    }
    const std::set<std::string>* allowed = allowed_families(tag_.variant);
    for (const IntrinsicFact& i : f.intrinsics) {
      out_.intrinsics[i.family].push_back(i.name);
      if (allowed && !allowed->count(i.family)) {
        find("isa", i.where, i.name + " (" + i.family + ")" + in(f) + " does not belong in the " + tag_.variant +
                                 " variant");
      } else if (!target_enables(f.target, i.family)) {
        find("isa", i.where, i.name + " (" + i.family + ")" + in(f) + " needs a target attribute that enables " +
                                 i.family + "; " + f.name + " has " +
                                 (f.target.empty() ? std::string("none") : "target(\"" + f.target + "\")"));
      }
    }
    for (const StoreFact& s : f.stores) {
      if (!is_output(s.root_param)) continue;  // through a parameter the caller points at its own data
      out_.streams |= s.stream;
      std::optional<std::int64_t> elements = s.elements;
      if (s.mask_param >= 0 && static_cast<std::size_t>(s.mask_param) < values.size()) {
        const auto bytes = masked_store_bytes(s.mask_words, s.lane_bytes, values[s.mask_param]);
        if (bytes && *bytes % s.element_bytes == 0) elements = *bytes / s.element_bytes;
      }
      const auto n = times(elements, times(mult, trips_around(f, s.loop)));
      if (n && out_.stored) {
        out_.stored = *out_.stored + *n;
      } else if (out_.stored) {
        out_.stored.reset();
        out_.stored_note = "line " + std::to_string(s.where.line) + in(f) + ": " + s.what +
                           (elements ? " runs a number of times that is not constant" : " writes an unknown width");
      }
    }
    stack_.erase(f.fn);
  }
};

void check_shapes(const Facts& facts, KernelReport& k) {
  const auto it = facts.shapes.find(k.name);
  const ShapeMeta meta = it == facts.shapes.end() ? ShapeMeta{} : it->second;
  auto find = [&](const std::string& variant, unsigned line, const std::string& message) {
    Finding f;
    f.kernel = k.name;
    f.variant = variant;
    f.check = "shape";
    f.file = facts.file;
    f.line = line;
    f.message = message;
    k.findings.push_back(f);
  };
  k.out_numel = meta.out_numel;
  k.out_shape = meta.out;
  const unsigned kernel_line = k.variants.empty() ? 0 : k.variants.front().line;
  if (meta.out_numel && meta.out) {
    std::optional<std::int64_t> product = 1;
    for (std::int64_t d : *meta.out) product = times(product, d);
    const std::string text = "header: out [" + join_dims(*meta.out, ",") + "] has " +
                             (product ? std::to_string(*product) : "too many") + " elements";
    if (product != meta.out_numel) {
      find("", kernel_line, text + ", but out_numel is " + std::to_string(*meta.out_numel));
    } else {
      k.shape_checks.push_back(text + " = out_numel");
    }
  }
  if (meta.table_found && meta.table_elements && meta.out_numel) {
    const std::string text = "loop table: " +
                             (meta.table_extents.empty() ? std::string("no loops") : join_dims(meta.table_extents, " x ")) +
                             " = " + std::to_string(*meta.table_elements) + " elements";
    if (*meta.table_elements != *meta.out_numel) {
      find("", meta.table_where.line, text + ", but out_numel is " + std::to_string(*meta.out_numel));
    } else {
      k.shape_checks.push_back(text + " = out_numel");
    }
  } else if (!meta.table_found) {
    k.shape_checks.push_back("loop table: none found in the kernel's banner comment");
  }
  // Every variant stores out_numel elements (or, without metadata, as many as the first).
  std::optional<std::int64_t> expected = meta.out_numel;
  std::string against = "out_numel";
  bool all = !k.variants.empty();
  for (const VariantReport& v : k.variants) {
    if (!v.stored) {
      all = false;
      k.shape_checks.push_back("stores of " + v.name + ": not counted (" + v.stored_note + ")");
      continue;
    }
    if (!expected) {
      expected = v.stored;
      against = "what the " + v.name + " variant stores";
      continue;
    }
    if (*v.stored != *expected) {
      all = false;
      find(v.name, v.line,
           "stores " + std::to_string(*v.stored) + " output elements, but " + against + " is " + std::to_string(*expected));
    }
  }
  if (all && expected) {
    k.shape_checks.push_back("every variant stores " + std::to_string(*expected) + " elements" +
                             (meta.out_numel ? " = out_numel" : " (no <kernel>_shape::out_numel to compare with)"));
  }
}

}  // namespace

std::vector<KernelReport> analyze(const Facts& facts) {
  std::vector<KernelTag> tags = facts.tags;
  std::stable_sort(tags.begin(), tags.end(), [](const KernelTag& a, const KernelTag& b) {
    return a.where.offset < b.where.offset;
  });
  std::vector<KernelReport> kernels;
  auto kernel = [&](const std::string& name) -> KernelReport& {
    for (KernelReport& k : kernels) {
      if (k.name == name) return k;
    }
    kernels.emplace_back().name = name;
    return kernels.back();
  };
  for (const KernelTag& tag : tags) {
    if (tag.kind == "range") kernel(tag.kernel).range_drivers.push_back(tag.fn->getNameAsString());
    if (tag.kind == "shares") kernel(tag.kernel).shares = tag.variant;
    if (tag.kind != "kernel") continue;
    KernelReport& k = kernel(tag.kernel);
    VariantReport& v = k.variants.emplace_back();
    v.name = tag.variant;
    v.function = tag.fn->getNameAsString();
    v.line = tag.where.line;
    if (const auto it = facts.functions.find(tag.fn); it != facts.functions.end()) v.target = it->second.target;
    VariantWalker(facts, tag, v, k.findings).run();
  }
  // A kernel that calls another's variants (the same code) is checked
  // against its own shapes with them.
  for (KernelReport& k : kernels) {
    if (k.shares.empty()) continue;
    const auto owner = std::find_if(kernels.begin(), kernels.end(), [&](const KernelReport& o) {
      return o.name == k.shares && o.shares.empty();
    });
    if (owner == kernels.end()) {
      Finding f;
      f.kernel = k.name;
      f.check = "shape";
      f.file = facts.file;
      f.message = "calls the variants of kernel '" + k.shares + "', which this file does not define";
      k.findings.push_back(f);
      continue;
    }
    k.variants = owner->variants;
  }
  for (KernelReport& k : kernels) check_shapes(facts, k);
  return kernels;
}

}  // namespace bcastgen::clangtool
