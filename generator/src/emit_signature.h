// The parameter lists of one kernel's entry points, in every spelling the
// generated code needs. Public entry points name the inputs as the spec
// does; the internal variants take in0, in1, ... so that no input name can
// collide with the names inside a loop nest.
#pragma once

#include <string>

#include "bcastgen/gen/plan.h"

namespace bcastgen::gen {

struct Signature {
  std::string params;           // const float* x, const float* scale, float* out
  std::string internal_params;  // const float* in0, const float* in1, float* out
  std::string types;            // const float*, const float*, float*
  std::string args;             // x, scale, out
  std::string internal_args;    // in0, in1, out
  std::string view_params;      // bcastgen::TensorView<const float> x, ..., bcastgen::TensorView<float> out
  std::string view_args;        // x.data, scale.data, out.data
  std::string casts;            // static_cast<const float*>(in[0]), ..., static_cast<float*>(out)
  std::string c_params;         // const float* x, ..., float* out
  std::string c_args;           // x, scale, out
  std::string c_checked_params;  // const float* x, const int64_t* x_dims, size_t x_rank, ...
  std::string c_checked_args;    // {x, bcastgen::ShapeRef(x_dims, x_rank)}, ...
};

Signature signature_of(const KernelPlan& plan);

}  // namespace bcastgen::gen
