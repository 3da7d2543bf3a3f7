// bcastgen runtime: the table of unary functions, one line each. The
// expression layer (expr.h: UnaryOp, kUnaryInfo), the scalar functions
// (ops.h, math.h: ops::<name>, visit_unary_op, call_unary) and the SIMD
// headers (the f16, bf16 and native-f16 forms of each shared algorithm)
// are made from it, and the generator's vocabulary names its shared
// algorithms as one list (`simd_math`, templates/vocabulary.yaml). A macro
// only, so that the SIMD headers include it without the expression layer.
//
//   X(Enumerator, name, accepts, max_ulp, result, approximates, form, wide)
//
// `name` is the parser's and that of the scalar function in bcastgen::ops;
// `accepts` an Accepts (types.h); `max_ulp` the accuracy contract
// (UnaryInfo, expr.h: 0 for the exact ones, rounding, classification, and
// hardsigmoid and hardswish, exact to their definitions in math.h);
// `result` Same (the operand's dtype) or Bool; `approximates` the function
// a fast-tier row (fast_*, what `accuracy: fast` maps the function to) is a
// faster form of, and the row's own enumerator for every other row.
// `form` says where the function is computed:
//   Own     written out in ops.h, and per ISA in each SIMD header (exact:
//           one instruction or a few);
//   Vector  one f32 algorithm, <name>_f32 in simd/math_f32.inl: the scalar
//           f32 function is its scalar instantiation, every ISA's f32, f16
//           and bf16 lanes (and native f16, each half widened) call it;
//   Libm    the C library's wider function, rounded once (math.h), lane by
//           lane in a vector kernel.
// `wide` is the value of a Vector function over f64 and of a Libm function
// over f32 and f64: an expression of w, the operand in the wider type
// (math.h's wider_t; detail:: is bcastgen::ops::detail); `-` for Own.
//
// A new function over the SIMD wrappers is this line, its algorithm in
// simd/math_f32.inl, and its test (docs/design/extending.md).
#pragma once

#define BCASTGEN_UNARY_FUNCTIONS(X) \
  X(Neg,          neg,            Numbers,         0, Same, Neg,         Own,    -)                                           \
  X(Abs,          abs,            Numbers,         0, Same, Abs,         Own,    -)                                           \
  X(Sqrt,         sqrt,           Floats,          0, Same, Sqrt,        Own,    -)                                           \
  X(Square,       square,         Numbers,         0, Same, Square,      Own,    -)                                           \
  X(Reciprocal,   reciprocal,     Floats,          0, Same, Reciprocal,  Own,    -)                                           \
  X(LogicalNot,   logical_not,    Bool,            0, Same, LogicalNot,  Own,    -)                                           \
  X(BitwiseNot,   bitwise_not,    IntegersAndBool, 0, Same, BitwiseNot,  Own,    -)                                           \
  X(Floor,        floor,          Numbers,         0, Same, Floor,       Own,    -)                                           \
  X(Ceil,         ceil,           Numbers,         0, Same, Ceil,        Own,    -)                                           \
  X(Trunc,        trunc,          Numbers,         0, Same, Trunc,       Own,    -)                                           \
  X(Round,        round,          Numbers,         0, Same, Round,       Own,    -)                                           \
  X(Sign,         sign,           Numbers,         0, Same, Sign,        Own,    -)                                           \
  X(Isnan,        isnan,          Floats,          0, Bool, Isnan,       Own,    -)                                           \
  X(Isinf,        isinf,          Floats,          0, Bool, Isinf,       Own,    -)                                           \
  X(Isfinite,     isfinite,       Floats,          0, Bool, Isfinite,    Own,    -)                                           \
  X(Signbit,      signbit,        Floats,          0, Bool, Signbit,     Own,    -)                                           \
  X(Exp,          exp,            Floats,          1, Same, Exp,         Vector, std::exp(w))                                 \
  X(Expm1,        expm1,          Floats,          1, Same, Expm1,       Vector, std::expm1(w))                               \
  X(Exp2,         exp2,           Floats,          1, Same, Exp2,        Vector, std::exp2(w))                                \
  X(Log,          log,            Floats,          1, Same, Log,         Vector, std::log(w))                                 \
  X(Log1p,        log1p,          Floats,          1, Same, Log1p,       Vector, std::log1p(w))                               \
  X(Log2,         log2,           Floats,          1, Same, Log2,        Vector, std::log2(w))                                \
  X(Log10,        log10,          Floats,          1, Same, Log10,       Vector, std::log10(w))                               \
  X(Tanh,         tanh,           Floats,          1, Same, Tanh,        Vector, std::tanh(w))                                \
  X(Sigmoid,      sigmoid,        Floats,          1, Same, Sigmoid,     Vector, detail::sigmoid_in(w))                       \
  X(Erf,          erf,            Floats,          1, Same, Erf,         Vector, std::erf(w))                                 \
  X(Gelu,         gelu,           Floats,          2, Same, Gelu,        Vector, detail::gelu_in(w))                          \
  X(GeluTanh,     gelu_tanh,      Floats,          2, Same, GeluTanh,    Vector, detail::gelu_tanh_in(w))                     \
  X(Silu,         silu,           Floats,          2, Same, Silu,        Vector, detail::silu_in(w))                          \
  X(Softplus,     softplus,       Floats,          2, Same, Softplus,    Vector, detail::softplus_in(w))                      \
  X(Hardsigmoid,  hardsigmoid,    Floats,          0, Same, Hardsigmoid, Vector, detail::hardsigmoid_in(static_cast<T>(w)))   \
  X(Hardswish,    hardswish,      Floats,          0, Same, Hardswish,   Vector, detail::hardswish_in(static_cast<T>(w)))     \
  X(Mish,         mish,           Floats,          1, Same, Mish,        Vector, detail::mish_in(w))                          \
  X(Cbrt,         cbrt,           Floats,          1, Same, Cbrt,        Vector, std::cbrt(w))                                \
  X(Sin,          sin,            Floats,          1, Same, Sin,         Libm,   std::sin(w))                                 \
  X(Cos,          cos,            Floats,          1, Same, Cos,         Libm,   std::cos(w))                                 \
  X(Tan,          tan,            Floats,          1, Same, Tan,         Libm,   std::tan(w))                                 \
  X(Asin,         asin,           Floats,          1, Same, Asin,        Libm,   std::asin(w))                                \
  X(Acos,         acos,           Floats,          1, Same, Acos,        Libm,   std::acos(w))                                \
  X(Atan,         atan,           Floats,          1, Same, Atan,        Libm,   std::atan(w))                                \
  X(Sinh,         sinh,           Floats,          1, Same, Sinh,        Libm,   std::sinh(w))                                \
  X(Cosh,         cosh,           Floats,          1, Same, Cosh,        Libm,   std::cosh(w))                                \
  X(Asinh,        asinh,          Floats,          1, Same, Asinh,       Libm,   std::asinh(w))                               \
  X(Acosh,        acosh,          Floats,          1, Same, Acosh,       Libm,   std::acosh(w))                               \
  X(Atanh,        atanh,          Floats,          1, Same, Atanh,       Libm,   std::atanh(w))                               \
  X(FastSigmoid,  fast_sigmoid,   Floats,          4, Same, Sigmoid,     Vector, detail::sigmoid_in(w))                       \
  X(FastSilu,     fast_silu,      Floats,          4, Same, Silu,        Vector, detail::silu_in(w))                          \
  X(FastTanh,     fast_tanh,      Floats,          4, Same, Tanh,        Vector, std::tanh(w))                                \
  X(FastGelu,     fast_gelu,      Floats,          4, Same, Gelu,        Vector, detail::gelu_in(w))                          \
  X(FastGeluTanh, fast_gelu_tanh, Floats,          4, Same, GeluTanh,    Vector, detail::gelu_tanh_in(w))                     \
  X(FastLog,      fast_log,       Floats,          4, Same, Log,         Vector, std::log(w))                                 \
  X(FastLog2,     fast_log2,      Floats,          4, Same, Log2,        Vector, std::log2(w))                                \
  X(FastLog10,    fast_log10,     Floats,          4, Same, Log10,       Vector, std::log10(w))                               \
  X(FastExpm1,    fast_expm1,     Floats,          4, Same, Expm1,       Vector, std::expm1(w))                               \
  X(FastLog1p,    fast_log1p,     Floats,          4, Same, Log1p,       Vector, std::log1p(w))                               \
  X(FastSoftplus, fast_softplus,  Floats,          4, Same, Softplus,    Vector, detail::softplus_in(w))                      \
  X(FastErf,      fast_erf,       Floats,          4, Same, Erf,         Vector, std::erf(w))
