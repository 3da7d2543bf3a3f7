// The fused cases of issue 14 (bench/fused_cases.yaml): their table, buffers,
// reference output and chain programs; the fallback's and bcastgen's chains;
// the generated fused kernels.
#include "fused.h"

#include <cstring>
#include <stdexcept>

#include "bcastgen/reference.h"
#include "fused_chain.h"  // generated from bench/fused_chain.yaml
#include "fused_cases.h"  // generated from bench/fused_cases.yaml

namespace bench {
namespace {

using bcastgen::DType;
using bcastgen::Op;
using bcastgen::Shape;

struct TensorSpec {
  const char* name;
  Shape shape;
  DType dtype;
};

// A case's chains; its inputs, their shapes and the expression are its
// kernel's in the generated table (fused_cases_kernels()).
struct CaseSpec {
  const char* name;
  const char* label;
  std::vector<Step> chain;         // one call per node of expr
  std::vector<Step> binary_chain;  // empty: the same as chain
  std::vector<TensorSpec> scratch;  // temporaries of the chains
};

constexpr DType F32 = DType::F32;

Step call(const char* kernel, Op op, std::vector<std::string> args, std::string dst) {
  return Step{kernel, op, false, std::move(args), std::move(dst)};
}

// The chains, as in bench/fused_chain.yaml. Chains run in place on "out".
std::vector<CaseSpec> case_specs() {
  return {
      {"f1_bn_relu", "F1",
       {call("f1_1_mul", Op::Multiply, {"x", "scale"}, "out"), call("f1_2_add", Op::Add, {"out", "shift"}, "out"),
        call("f1_3_max", Op::Maximum, {"out", "=0"}, "out")},
       {},
       {}},
      {"f2_residual_relu", "F2",
       {call("f2_1_add", Op::Add, {"a", "b"}, "out"), call("f2_2_max", Op::Maximum, {"out", "=0"}, "out")},
       {},
       {}},
      {"f3_attention", "F3",
       {call("f3_1_mul", Op::Multiply, {"s", "=0.125"}, "out"), call("f3_2_add", Op::Add, {"out", "mask"}, "out")},
       {},
       {}},
      {"f4_layernorm_tail", "F4",
       {call("f4_1_sub", Op::Subtract, {"x", "mean"}, "out"), call("f4_2_mul", Op::Multiply, {"out", "rstd"}, "out"),
        call("f4_3_mul", Op::Multiply, {"out", "gamma"}, "out"), call("f4_4_add", Op::Add, {"out", "beta"}, "out")},
       {},
       {}},
      {"f5_relu6_nhwc", "F5",
       {call("f5_1_add", Op::Add, {"x", "bias"}, "out"), call("f5_2_max", Op::Maximum, {"out", "=0"}, "out"),
        call("f5_3_min", Op::Minimum, {"out", "=6"}, "out")},
       {},
       {}},
      {"f6_causal_mask", "F6",
       {Step{"", Op::Add, true, {"keep", "s", "=-10000"}, "out"}},
       // No where among the binary ops: keep as a 0/1 f32 mask keep_f (made
       // once, outside the timed region; no binary op casts bool to f32),
       // then s * keep_f + (keep_f - 1) * 10000: s where keep_f is 1
       // (s + 0), -10000 where it is 0 (+-0 - 10000), for every finite s.
       {call("f6_1_sub", Op::Subtract, {"keep_f", "=1"}, "t"), call("f6_2_mul", Op::Multiply, {"t", "=10000"}, "t"),
        call("f6_3_mul", Op::Multiply, {"s", "keep_f"}, "out"), call("f6_4_add", Op::Add, {"out", "t"}, "out")},
       {{"keep_f", {1, 1, 128, 128}, F32}, {"t", {1, 1, 128, 128}, F32}}},
  };
}

Tensor make_tensor(const std::string& name, const Shape& shape, DType dtype, std::size_t out_rank) {
  Tensor t;
  t.name = name;
  t.shape = shape;
  t.aligned = Shape(std::max(out_rank, shape.size()) - shape.size(), 1);  // 1s prepended
  t.aligned.insert(t.aligned.end(), shape.begin(), shape.end());
  t.dtype = dtype;
  t.numel = bcastgen::checked_numel(shape);
  t.bytes = static_cast<std::size_t>(t.numel) * static_cast<std::size_t>(bcastgen::dtype_size(dtype));
  t.buf = aligned_buffer(t.bytes);
  return t;
}

// Input values of the fused cases (identical in numpy_bench.py). f32: up to
// 22 significant bits, (k - 254) / 4 + j / 65536 for k = (7 i + seed) mod 509,
// j = (3 i + seed) mod 1021, exactly representable; so products round, and a
// peer that contracts a * b + c to an FMA (one rounding instead of NumPy's
// two) differs in many elements. Bool: a causal mask over the last two axes
// (keep[..., q, k] = k <= q), as F6's real masks are: long runs, so that a
// peer that branches per element is not penalized by a random pattern.
void fill_fused(const Tensor& t, std::int64_t seed) {
  if (t.dtype == DType::Bool) {
    const std::int64_t cols = t.shape.back(), rows = t.shape.size() > 1 ? t.shape[t.shape.size() - 2] : 1;
    for (std::int64_t i = 0; i < t.numel; ++i) t.as<bool>()[i] = i % cols <= (i / cols) % rows;
    return;
  }
  if (t.dtype != F32) throw std::runtime_error("fill_fused: dtype not used by the fused cases");
  for (std::int64_t i = 0; i < t.numel; ++i) {
    const double k = static_cast<double>((i * 7 + seed) % 509), j = static_cast<double>((i * 3 + seed) % 1021);
    t.as<float>()[i] = static_cast<float>((k - 254) / 4 + j / 65536);
  }
}

bool is_literal(const std::string& arg) { return !arg.empty() && arg[0] == '='; }

// where(cond, x, y) for a scalar y, each output element from the
// multi-index: the reference's way, for the one op it does not have.
void reference_where(const Tensor& cond, const Tensor& x, float y, const Tensor& out) {
  const bcastgen::BroadcastResult r = bcastgen::broadcast_shapes(bcastgen::Rule::Numpy, cond.shape, x.shape);
  if (r.out != out.shape) throw std::runtime_error("reference_where: shapes do not give the output's");
  const auto* pc = cond.as<const bool>();
  const auto* px = x.as<const float>();
  auto* po = out.as<float>();
  std::vector<std::int64_t> idx(r.out.size(), 0);
  for (std::int64_t i = 0; i < out.numel; ++i) {
    std::int64_t oc = 0, ox = 0;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      oc += idx[k] * r.a_strides[k];
      ox += idx[k] * r.b_strides[k];
    }
    po[i] = pc[oc] ? px[ox] : y;
    for (std::size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < r.out[k]) break;
      idx[k] = 0;
    }
  }
}

}  // namespace

const Tensor& FusedCase::in(const std::string& n) const {
  for (const Tensor& t : inputs) {
    if (t.name == n) return t;
  }
  throw std::runtime_error("fused case " + name + " has no input " + n);
}

const Tensor& FusedCase::tensor(const std::string& n) const {
  if (n == "out") return out;
  const auto it = scratch.find(n);
  return it != scratch.end() ? it->second : in(n);
}

std::string FusedCase::binary_chain_note() const {
  return binary_chain.size() == chain.size() ? "" : "where as s * keep_f + (keep_f - 1) * 10000 (keep_f: keep as f32)";
}

std::size_t FusedCase::fused_bytes() const {
  std::size_t n = out.bytes;
  for (const Tensor& t : inputs) n += t.bytes;
  return n;
}

std::size_t FusedCase::chain_bytes(const std::vector<Step>& steps) const {
  std::size_t n = 0;
  for (const Step& s : steps) {
    for (const std::string& a : s.args) n += tensor(a).bytes;
    n += tensor(s.dst).bytes;
  }
  return n;
}

// The generated kernel of a fused case: fused_cases.yaml, the one list of their inputs.
const bcastgen::KernelEntry& fused_kernel(const char* name) {
  for (const bcastgen::KernelEntry& k : bcfused::fused_cases_kernels()) {
    if (std::strcmp(k.name, name) == 0) return k;
  }
  throw std::runtime_error(std::string("bench: fused case ") + name + " is not in bench/fused_cases.yaml");
}

std::vector<std::unique_ptr<FusedCase>> make_fused_cases() {
  std::vector<std::unique_ptr<FusedCase>> cases;
  for (const CaseSpec& spec : case_specs()) {
    auto c = std::make_unique<FusedCase>();
    c->name = spec.name;
    c->label = spec.label;
    const bcastgen::KernelEntry& k = fused_kernel(spec.name);
    c->expr = k.expr;
    const Shape out_shape = k.out.to_shape();
    std::int64_t seed = 1;
    for (std::size_t i = 0; i < k.input_count; ++i) {
      const bcastgen::KernelInput& in = k.inputs[i];
      c->inputs.push_back(make_tensor(in.name, in.shape.to_shape(), in.dtype, out_shape.size()));
      fill_fused(c->inputs.back(), seed);
      seed += 4;
    }
    c->out = make_tensor("out", out_shape, F32, out_shape.size());
    c->chain = spec.chain;
    c->binary_chain = spec.binary_chain.empty() ? spec.chain : spec.binary_chain;
    for (const TensorSpec& s : spec.scratch) c->scratch.emplace(s.name, make_tensor(s.name, s.shape, s.dtype, 0));
    if (c->scratch.count("keep_f")) {  // F6's mask as f32 0/1
      const Tensor &keep = c->in("keep"), &keep_f = c->scratch.at("keep_f");
      for (std::int64_t i = 0; i < keep.numel; ++i) keep_f.as<float>()[i] = keep.as<const bool>()[i] ? 1.0f : 0.0f;
    }
    for (const auto* steps : {&c->chain, &c->binary_chain}) {
      for (const Step& s : *steps) {
        for (const std::string& a : s.args) {
          if (is_literal(a) && !c->scratch.count(a)) {
            Tensor t = make_tensor(a, {1}, F32, 0);
            *t.as<float>() = std::stof(a.substr(1));
            c->scratch.emplace(a, std::move(t));
          }
        }
      }
    }
    // The reference, one node at a time.
    std::memset(c->out.ptr(), 0xAB, c->out.bytes);
    for (const Step& s : c->chain) {
      const Tensor &a = c->tensor(s.args[0]), &b = c->tensor(s.args[1]), &d = c->tensor(s.dst);
      if (s.where) {
        reference_where(a, b, *c->tensor(s.args[2]).as<const float>(), d);
      } else {
        bcastgen::reference::binary(s.op, a.dtype, bcastgen::Rule::Numpy, -1, a.ptr(), a.shape, b.ptr(), b.shape,
                                    d.ptr());
      }
    }
    const auto* o = static_cast<const unsigned char*>(c->out.ptr());
    c->expected.assign(o, o + c->out.bytes);
    c->checksum = checksum(o, c->out.bytes);
    cases.push_back(std::move(c));
  }
  return cases;
}

// bcastgen's binary kernels of bench/fused_chain.yaml, called through their
// unchecked entries; each is first run once through its checked entry,
// which validates the chain's shapes against the generated ones.
PeerRun make_fused_bcastgen_chain(const FusedCase& c) {
  using Fn = void (*)(const float*, const float*, float*);
  using Checked = void (*)(bcastgen::TensorView<const float>, bcastgen::TensorView<const float>,
                           bcastgen::TensorView<float>);
  struct Kernel {
    const char* name;
    Fn run;
    Checked checked;
  };
#define FUSED_CHAIN_KERNEL(k) Kernel{#k, &bcfchain::k, &bcfchain::k##_checked},
  static const Kernel kKernels[] = {
      FUSED_CHAIN_KERNEL(f1_1_mul) FUSED_CHAIN_KERNEL(f1_2_add) FUSED_CHAIN_KERNEL(f1_3_max)
      FUSED_CHAIN_KERNEL(f2_1_add) FUSED_CHAIN_KERNEL(f2_2_max)
      FUSED_CHAIN_KERNEL(f3_1_mul) FUSED_CHAIN_KERNEL(f3_2_add)
      FUSED_CHAIN_KERNEL(f4_1_sub) FUSED_CHAIN_KERNEL(f4_2_mul) FUSED_CHAIN_KERNEL(f4_3_mul) FUSED_CHAIN_KERNEL(f4_4_add)
      FUSED_CHAIN_KERNEL(f5_1_add) FUSED_CHAIN_KERNEL(f5_2_max) FUSED_CHAIN_KERNEL(f5_3_min)
      FUSED_CHAIN_KERNEL(f6_1_sub) FUSED_CHAIN_KERNEL(f6_2_mul) FUSED_CHAIN_KERNEL(f6_3_mul) FUSED_CHAIN_KERNEL(f6_4_add)};
#undef FUSED_CHAIN_KERNEL
  struct Call {
    Fn run;
    const float *a, *b;
    float* out;
  };
  std::vector<Call> calls;
  for (const Step& s : c.binary_chain) {
    const Kernel* k = nullptr;
    for (const Kernel& x : kKernels) {
      if (std::strcmp(x.name, s.kernel) == 0) k = &x;
    }
    if (k == nullptr) return not_available(std::string("no kernel ") + s.kernel + " in bench/fused_chain.yaml");
    const Tensor &a = c.tensor(s.args[0]), &b = c.tensor(s.args[1]), &d = c.tensor(s.dst);
    k->checked({a.as<const float>(), a.shape}, {b.as<const float>(), b.shape}, {d.as<float>(), d.shape});
    calls.push_back(Call{k->run, a.as<const float>(), b.as<const float>(), d.as<float>()});
  }
  PeerRun p;
  p.run = [calls] {
    for (const Call& k : calls) k.run(k.a, k.b, k.out);
  };
  p.bytes = c.chain_bytes(c.binary_chain);
  p.passes = static_cast<int>(calls.size());
  p.note = c.binary_chain_note();
  return p;
}

// The generated fused kernels, through their unchecked entries, after one run
// through the checked entry (which validates the shapes against the harness's).
PeerRun make_fused_bcastgen(const FusedCase& c) {
  auto f = [&c](const char* n) { return c.in_ptr<float>(n); };
  auto v = [&c](const char* n) { return bcastgen::TensorView<const float>{c.in_ptr<float>(n), c.in(n).shape}; };
  float* o = c.out_ptr<float>();
  const bcastgen::TensorView<float> vo{o, c.out.shape};
  PeerRun p;
  p.note = std::string("isa ") + bcastgen::isa_name(bcastgen::active_isa());
  if (c.name == "f1_bn_relu") {
    bcfused::f1_bn_relu_checked(v("x"), v("scale"), v("shift"), vo);
    p.run = [x = f("x"), scale = f("scale"), shift = f("shift"), o] { bcfused::f1_bn_relu(x, scale, shift, o); };
  } else if (c.name == "f2_residual_relu") {
    bcfused::f2_residual_relu_checked(v("a"), v("b"), vo);
    p.run = [a = f("a"), b = f("b"), o] { bcfused::f2_residual_relu(a, b, o); };
  } else if (c.name == "f3_attention") {
    bcfused::f3_attention_checked(v("s"), v("mask"), vo);
    p.run = [s = f("s"), mask = f("mask"), o] { bcfused::f3_attention(s, mask, o); };
  } else if (c.name == "f4_layernorm_tail") {
    bcfused::f4_layernorm_tail_checked(v("x"), v("mean"), v("rstd"), v("gamma"), v("beta"), vo);
    p.run = [x = f("x"), mean = f("mean"), rstd = f("rstd"), gamma = f("gamma"), beta = f("beta"), o] {
      bcfused::f4_layernorm_tail(x, mean, rstd, gamma, beta, o);
    };
  } else if (c.name == "f5_relu6_nhwc") {
    bcfused::f5_relu6_nhwc_checked(v("x"), v("bias"), vo);
    p.run = [x = f("x"), bias = f("bias"), o] { bcfused::f5_relu6_nhwc(x, bias, o); };
  } else if (c.name == "f6_causal_mask") {
    const bool* keep = c.in_ptr<bool>("keep");
    bcfused::f6_causal_mask_checked(v("s"), {keep, c.in("keep").shape}, vo);
    p.run = [s = f("s"), keep, o] { bcfused::f6_causal_mask(s, keep, o); };
  } else {
    return not_available("no generated kernel bound for this case in fused_cases.cpp");
  }
  return p;
}

}  // namespace bench
