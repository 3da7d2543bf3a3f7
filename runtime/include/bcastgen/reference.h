// bcastgen runtime: untyped entry points that run any op on any shapes.
//
//   bcastgen::reference  the test oracle: naive and obviously correct, one
//                        output element at a time, offsets recomputed from
//                        the multi-index, op dispatched per element.
//   bcastgen::fallback   a good generic runtime loop for shapes that were not
//                        generated (and a benchmark peer): coalesced loops,
//                        dtype/op dispatched once outside the loops, a tight
//                        inner loop over the last coalesced axis.
//
// Both take dense row-major operands of the given shapes and write a dense
// row-major output of the broadcast shape (BroadcastResult::out). Element
// types: `a`, `b` and `input` hold `dtype` elements; `out` holds
// result_dtype(op, dtype) elements (bool for comparisons). Pointers may be
// null when the output has no elements. The output may alias an input only
// exactly and only if that input has the output's shape and element type.
//
// Throws InvalidArgument for Op::Broadcast, for a dtype the op does not
// support, or a null pointer with a non-empty output; BroadcastError /
// InvalidArgument / OverflowError from the rule engine (rules.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "bcastgen/coalesce.h"
#include "bcastgen/errors.h"
#include "bcastgen/ops.h"
#include "bcastgen/rules.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"

namespace bcastgen {

namespace detail {

inline void check_binary_op(const char* who, Op op, DType dtype) {
  if (op == Op::Broadcast) {
    throw InvalidArgument(std::string(who) + ": op 'broadcast' is not a binary elementwise op (use broadcast_to)");
  }
  if (!op_supports(op, dtype)) {
    throw InvalidArgument(std::string(who) + ": op '" + op_name(op) + "' does not support dtype " +
                          dtype_name(dtype) + " (supported: " + supported_dtypes_text(op) + ")");
  }
}

inline void check_pointers(const char* who, std::int64_t numel, std::initializer_list<const void*> ptrs) {
  if (numel == 0) return;
  for (const void* p : ptrs) {
    if (p == nullptr) throw InvalidArgument(std::string(who) + ": null data pointer for a non-empty operation");
  }
}

}  // namespace detail

namespace reference {

// out = op(a, b) broadcast under `rule` (`axis` is pdpd's start axis).
inline void binary(Op op, DType dtype, Rule rule, std::int64_t axis, const void* a, const Shape& a_shape,
                   const void* b, const Shape& b_shape, void* out) {
  detail::check_binary_op("reference::binary", op, dtype);
  const BroadcastResult r = broadcast_shapes(rule, a_shape, b_shape, axis);
  const std::int64_t numel = checked_numel(r.out);
  detail::check_pointers("reference::binary", numel, {a, b, out});
  const std::size_t rank = r.out.size();
  const std::size_t out_size = static_cast<std::size_t>(dtype_size(result_dtype(op, dtype)));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < numel; ++i) {
      // Offsets from the multi-index of output element i.
      std::int64_t off_a = 0, off_b = 0;
      for (std::size_t k = 0; k < rank; ++k) {
        off_a += idx[k] * r.a_strides[k];
        off_b += idx[k] * r.b_strides[k];
      }
      ops::apply_binary<T>(op, pa[off_a], pb[off_b], static_cast<char*>(out) + static_cast<std::size_t>(i) * out_size);
      // Next multi-index, row-major (last axis fastest).
      for (std::size_t k = rank; k-- > 0;) {
        if (++idx[k] < r.out[k]) break;
        idx[k] = 0;
      }
    }
  });
}

// The Broadcast op: out (of shape broadcast_to(...).out, i.e. `target`) is
// `input` materialized under `mode`.
inline void broadcast_to(DType dtype, BroadcastMode mode, const void* input, const Shape& input_shape,
                         const Shape& target, std::int64_t axis, const std::vector<std::int64_t>& axes_mapping,
                         void* out) {
  const BroadcastResult r = bcastgen::broadcast_to(mode, input_shape, target, axis, axes_mapping);
  const std::int64_t numel = checked_numel(r.out);
  detail::check_pointers("reference::broadcast_to", numel, {input, out});
  const std::size_t rank = r.out.size();
  const std::size_t size = static_cast<std::size_t>(dtype_size(dtype));
  std::vector<std::int64_t> idx(rank, 0);
  for (std::int64_t i = 0; i < numel; ++i) {
    std::int64_t off_a = 0;
    for (std::size_t k = 0; k < rank; ++k) off_a += idx[k] * r.a_strides[k];
    std::memcpy(static_cast<char*>(out) + static_cast<std::size_t>(i) * size,
                static_cast<const char*>(input) + static_cast<std::size_t>(off_a) * size, size);
    for (std::size_t k = rank; k-- > 0;) {
      if (++idx[k] < r.out[k]) break;
      idx[k] = 0;
    }
  }
}

}  // namespace reference

namespace fallback {

namespace detail {

// The innermost loop: n elements, out contiguous, a/b strided. The common
// stride patterns get their own loop so the compiler can vectorize them.
template <Op kOp, class T, class R>
inline void binary_inner(const T* a, const T* b, R* out, std::int64_t n, std::int64_t sa, std::int64_t sb,
                         std::int64_t so) {
  if (so == 1) {
    if (sa == 1 && sb == 1) {
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(a[i], b[i]);
      return;
    }
    if (sa == 1 && sb == 0) {
      const T bv = *b;
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(a[i], bv);
      return;
    }
    if (sa == 0 && sb == 1) {
      const T av = *a;
      for (std::int64_t i = 0; i < n; ++i) out[i] = ops::call<kOp, T>(av, b[i]);
      return;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) out[i * so] = ops::call<kOp, T>(a[i * sa], b[i * sb]);
}

// Odometer over all but the last coalesced loop; `inner` runs the last one.
template <class Inner>
inline void run_loops(const CoalescedLoops& c, Inner&& inner) {
  const std::size_t n = c.extents.size();
  if (n == 0) {  // exactly one element
    inner(std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, std::int64_t{1}, std::int64_t{0}, std::int64_t{0},
          std::int64_t{0});
    return;
  }
  for (std::int64_t e : c.extents) {
    if (e == 0) return;
  }
  const std::size_t last = n - 1;
  std::vector<std::int64_t> idx(last, 0);
  std::int64_t oa = 0, ob = 0, oo = 0;
  for (;;) {
    inner(oa, ob, oo, c.extents[last], c.a_strides[last], c.b_strides[last], c.out_strides[last]);
    std::size_t k = last;
    for (;;) {
      if (k == 0) return;  // every outer index wrapped: done
      --k;
      oa += c.a_strides[k];
      ob += c.b_strides[k];
      oo += c.out_strides[k];
      if (++idx[k] < c.extents[k]) break;
      oa -= c.a_strides[k] * c.extents[k];
      ob -= c.b_strides[k] * c.extents[k];
      oo -= c.out_strides[k] * c.extents[k];
      idx[k] = 0;
    }
  }
}

template <class T>
inline void copy_inner(const T* in, T* out, std::int64_t n, std::int64_t s_in, std::int64_t s_out) {
  if (s_out == 1 && s_in == 1) {
    std::memmove(out, in, static_cast<std::size_t>(n) * sizeof(T));  // in == out is allowed
  } else if (s_out == 1 && s_in == 0) {
    const T v = *in;
    for (std::int64_t i = 0; i < n; ++i) out[i] = v;
  } else {
    for (std::int64_t i = 0; i < n; ++i) out[i * s_out] = in[i * s_in];
  }
}

}  // namespace detail

// Same contract as reference::binary.
inline void binary(Op op, DType dtype, Rule rule, std::int64_t axis, const void* a, const Shape& a_shape,
                   const void* b, const Shape& b_shape, void* out) {
  bcastgen::detail::check_binary_op("fallback::binary", op, dtype);
  const BroadcastResult r = broadcast_shapes(rule, a_shape, b_shape, axis);
  bcastgen::detail::check_pointers("fallback::binary", checked_numel(r.out), {a, b, out});
  const CoalescedLoops c = coalesce(r);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_binary_op(op, [&](auto op_c) {
      constexpr Op kOp = decltype(op_c)::value;
      if constexpr (ops::op_defined_for<T>(kOp)) {
        using R = ops::result_t<kOp, T>;
        const T* pa = static_cast<const T*>(a);
        const T* pb = static_cast<const T*>(b);
        R* po = static_cast<R*>(out);
        detail::run_loops(c, [&](std::int64_t oa, std::int64_t ob, std::int64_t oo, std::int64_t n,
                                 std::int64_t sa, std::int64_t sb, std::int64_t so) {
          detail::binary_inner<kOp, T, R>(pa + oa, pb + ob, po + oo, n, sa, sb, so);
        });
      }
      // (unsupported pairs were rejected by check_binary_op above)
    });
  });
}

// Same contract as reference::broadcast_to.
inline void broadcast_to(DType dtype, BroadcastMode mode, const void* input, const Shape& input_shape,
                         const Shape& target, std::int64_t axis, const std::vector<std::int64_t>& axes_mapping,
                         void* out) {
  const BroadcastResult r = bcastgen::broadcast_to(mode, input_shape, target, axis, axes_mapping);
  bcastgen::detail::check_pointers("fallback::broadcast_to", checked_numel(r.out), {input, out});
  const CoalescedLoops c = coalesce(r);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pi = static_cast<const T*>(input);
    T* po = static_cast<T*>(out);
    detail::run_loops(c, [&](std::int64_t oa, std::int64_t, std::int64_t oo, std::int64_t n, std::int64_t sa,
                             std::int64_t, std::int64_t so) { detail::copy_inner(pi + oa, po + oo, n, sa, so); });
  });
}

}  // namespace fallback
}  // namespace bcastgen
