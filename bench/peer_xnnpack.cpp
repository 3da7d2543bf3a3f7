// Peer: XNNPACK (Debian's 2022-02 snapshot), operator API, no threadpool.
// Create and setup happen here, outside the timed region (users cache the
// operator); the timed call is xnn_run_operator alone.
#include <xnnpack.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench.h"
#include "fused.h"

namespace bench {
namespace {

struct OpDeleter {
  void operator()(xnn_operator* op) const { xnn_delete_operator(op); }
};

bool initialized() {
  static const bool ok = xnn_initialize(nullptr) == xnn_status_success;
  return ok;
}

std::vector<std::size_t> dims(const bcastgen::Shape& s) { return std::vector<std::size_t>(s.begin(), s.end()); }

}  // namespace

PeerRun make_xnnpack(const Case& c) {
  using bcastgen::DType;
  using bcastgen::Op;
  if (!initialized()) return not_available("xnn_initialize failed");
  if (!c.binary()) return not_available("no broadcast (materialize) operator");
  if (c.out.size() > XNN_MAX_TENSOR_DIMS) return not_available("rank > XNN_MAX_TENSOR_DIMS");
  const auto da = dims(c.a_aligned), db = dims(c.b_aligned);
  xnn_operator_t op = nullptr;
  xnn_status st = xnn_status_success;
  if (c.dtype == DType::F32) {
    const float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
    switch (c.op) {
      case Op::Add: st = xnn_create_add_nd_f32(lo, hi, 0, &op); break;
      case Op::Subtract: st = xnn_create_subtract_nd_f32(lo, hi, 0, &op); break;
      case Op::Multiply: st = xnn_create_multiply_nd_f32(lo, hi, 0, &op); break;
      default: return not_available(std::string("no f32 ") + bcastgen::op_name(c.op) + " operator");
    }
    if (st != xnn_status_success) return not_available("create failed, status " + std::to_string(st));
    std::unique_ptr<xnn_operator, OpDeleter> holder(op);
    const auto* a = static_cast<const float*>(c.a_ptr());
    const auto* b = static_cast<const float*>(c.b_ptr());
    auto* o = static_cast<float*>(c.out_ptr());
    switch (c.op) {
      case Op::Add: st = xnn_setup_add_nd_f32(op, da.size(), da.data(), db.size(), db.data(), a, b, o, nullptr); break;
      case Op::Subtract:
        st = xnn_setup_subtract_nd_f32(op, da.size(), da.data(), db.size(), db.data(), a, b, o, nullptr);
        break;
      default: st = xnn_setup_multiply_nd_f32(op, da.size(), da.data(), db.size(), db.data(), a, b, o, nullptr); break;
    }
    if (st != xnn_status_success) return not_available("setup failed, status " + std::to_string(st));
    std::shared_ptr<xnn_operator> shared(holder.release(), OpDeleter());
    PeerRun p;
    p.run = [shared] { xnn_run_operator(shared.get(), nullptr); };
    return p;
  }
  if (c.dtype == DType::U8 && c.op == Op::Add) {
    // Only the quantized add exists for 8-bit: with unit scales and zero
    // points it is a saturating u8 add (bcastgen, NumPy and Eigen wrap; the
    // inputs are < 128 so that no sum overflows and all agree).
    st = xnn_create_add_nd_qu8(0, 1.0f, 0, 1.0f, 0, 1.0f, 0, 255, 0, &op);
    if (st != xnn_status_success) return not_available("qu8 create failed, status " + std::to_string(st));
    std::shared_ptr<xnn_operator> shared(op, OpDeleter());
    st = xnn_setup_add_nd_qu8(op, da.size(), da.data(), db.size(), db.data(), static_cast<const std::uint8_t*>(c.a_ptr()),
                              static_cast<const std::uint8_t*>(c.b_ptr()), static_cast<std::uint8_t*>(c.out_ptr()),
                              nullptr);
    if (st != xnn_status_success) return not_available("qu8 setup failed, status " + std::to_string(st));
    PeerRun p;
    p.run = [shared] { xnn_run_operator(shared.get(), nullptr); };
    p.note = "quantized qu8 add, unit scales (saturates)";
    return p;
  }
  return not_available(std::string("no ") + bcastgen::dtype_name(c.dtype) + " " + bcastgen::op_name(c.op) +
                       " operator");
}


// Fused cases (fused.h): the binary chain, one operator per call, each
// created and set up here, in place on `out`. XNNPACK's f32 binary operators
// clamp their output (output_min, output_max): a maximum or minimum with a
// literal right after an operator that writes the same buffer becomes that
// operator's clamp, as XNNPACK's own graph rewriting does for ReLU and ReLU6.
PeerRun make_fused_xnnpack(const FusedCase& c) {
  using bcastgen::Op;
  if (!initialized()) return not_available("xnn_initialize failed");
  struct Call {
    const Step* step;
    float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  };
  std::vector<Call> calls;
  for (const Step& s : c.binary_chain) {
    const bool literal = s.args[1][0] == '=';
    if ((s.op == Op::Maximum || s.op == Op::Minimum) && literal && !calls.empty() &&
        calls.back().step->dst == s.args[0] && s.args[0] == s.dst) {
      (s.op == Op::Maximum ? calls.back().lo : calls.back().hi) = *c.tensor(s.args[1]).as<const float>();
      continue;
    }
    if (s.op != Op::Add && s.op != Op::Subtract && s.op != Op::Multiply) {
      return not_available(std::string("no f32 ") + bcastgen::op_name(s.op) + " operator to chain");
    }
    calls.push_back(Call{&s});
  }
  auto ops = std::make_shared<std::vector<std::unique_ptr<xnn_operator, OpDeleter>>>();
  PeerRun p;
  for (const Call& k : calls) {
    const Tensor &a = c.tensor(k.step->args[0]), &b = c.tensor(k.step->args[1]), &d = c.tensor(k.step->dst);
    const auto da = dims(a.shape), db = dims(b.shape);
    xnn_operator_t op = nullptr;
    xnn_status st = k.step->op == Op::Add        ? xnn_create_add_nd_f32(k.lo, k.hi, 0, &op)
                    : k.step->op == Op::Subtract ? xnn_create_subtract_nd_f32(k.lo, k.hi, 0, &op)
                                                 : xnn_create_multiply_nd_f32(k.lo, k.hi, 0, &op);
    if (st != xnn_status_success) return not_available("create failed, status " + std::to_string(st));
    ops->emplace_back(op);
    const auto setup = k.step->op == Op::Add        ? &xnn_setup_add_nd_f32
                       : k.step->op == Op::Subtract ? &xnn_setup_subtract_nd_f32
                                                    : &xnn_setup_multiply_nd_f32;
    st = setup(op, da.size(), da.data(), db.size(), db.data(), a.as<const float>(), b.as<const float>(), d.as<float>(),
               nullptr);
    if (st != xnn_status_success) return not_available("setup failed, status " + std::to_string(st));
    p.bytes += a.bytes + b.bytes + d.bytes;
    if (!p.note.empty()) p.note += ", ";
    p.note += bcastgen::op_name(k.step->op);
    if (k.lo != -std::numeric_limits<float>::infinity() || k.hi != std::numeric_limits<float>::infinity()) {
      std::ostringstream os;
      os << " clamped to [" << k.lo << ", " << k.hi << "]";
      p.note += os.str();
    }
  }
  if (!c.binary_chain_note().empty()) p.note += "; " + c.binary_chain_note();
  p.passes = static_cast<int>(calls.size());
  p.run = [ops] {
    for (const auto& op : *ops) xnn_run_operator(op.get(), nullptr);
  };
  return p;
}

}  // namespace bench
