// bcastgen runtime: the typed errors of the rule engine and of checked kernels.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

// Error paths that every kernel's entry points call: out of line and cold,
// so that the entries inline only their comparisons (view.h, registry.h,
// c_call.h).
#if defined(__GNUC__)
#define BCASTGEN_COLD_PATH __attribute__((noinline, cold))
#else
#define BCASTGEN_COLD_PATH
#endif

namespace bcastgen {

// Base of everything bcastgen throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed input: a negative dim, an axis < -1, an unknown name.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// An element count or stride that does not fit in 64 bits.
class OverflowError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// Two shapes that the rule does not accept. `axis` is the first offending
// axis of the aligned (output) shape, or -1 when the failure is not about
// one axis (a rank or a placement); dim_a/dim_b are the dims there.
class BroadcastError : public Error {
 public:
  BroadcastError(std::string message, std::string rule, std::int64_t axis, std::int64_t dim_a,
                 std::int64_t dim_b)
      : Error(std::move(message)), rule_(std::move(rule)), axis_(axis), dim_a_(dim_a), dim_b_(dim_b) {}
  const std::string& rule() const { return rule_; }
  std::int64_t axis() const { return axis_; }
  std::int64_t dim_a() const { return dim_a_; }
  std::int64_t dim_b() const { return dim_b_; }

 private:
  std::string rule_;
  std::int64_t axis_, dim_a_, dim_b_;
};

// Raised by the checked entry of a generated kernel.
class KernelError : public Error {
 public:
  KernelError(std::string message, std::string kernel, std::string operand)
      : Error(std::move(message)), kernel_(std::move(kernel)), operand_(std::move(operand)) {}
  const std::string& kernel() const { return kernel_; }
  const std::string& operand() const { return operand_; }

 private:
  std::string kernel_, operand_;
};

// The operand's shape is not the one the kernel was generated for.
class ShapeMismatchError : public KernelError {
 public:
  using KernelError::KernelError;
};

// A null data pointer for an operand with elements.
class NullPointerError : public KernelError {
 public:
  using KernelError::KernelError;
};

// The output overlaps an input whose shape differs from the output's.
class AliasError : public KernelError {
 public:
  using KernelError::KernelError;
};

}  // namespace bcastgen
