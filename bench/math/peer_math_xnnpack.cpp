// XNNPACK (Debian's 2022 snapshot): of these functions it has sigmoid only
// (xnn_create_sigmoid_nc_f32, no thread pool).
#include <xnnpack.h>

#include <memory>

#include "math_peers.h"

PeerLoop xnnpack_math(Fn f, const float* x, float* y, std::int64_t n) {
  if (f != Fn::sigmoid) return bench::not_available("of the bench's functions, the 2022 snapshot has sigmoid only");
  if (xnn_initialize(nullptr) != xnn_status_success) return bench::not_available("xnn_initialize failed");
  xnn_operator_t op = nullptr;
  if (xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &op) != xnn_status_success) return bench::not_available("create failed");
  std::shared_ptr<xnn_operator> owner(op, xnn_delete_operator);
  if (xnn_setup_sigmoid_nc_f32(op, static_cast<size_t>(n), x, y, nullptr) != xnn_status_success) {
    return bench::not_available("setup failed");
  }
  return [owner] { xnn_run_operator(owner.get(), nullptr); };
}
