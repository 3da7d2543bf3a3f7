// bcastgen runtime: element types and operations, with their names and
// which op accepts which dtype. One table each, shared by the generator
// (spec checking, planning) and the runtime (reference, dispatch).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace bcastgen {

// bool is one byte holding 0 or 1, as in NumPy. F16 (IEEE binary16) and
// Bf16 (bfloat16) are storage types: each op on them computes in f32 and
// rounds its result once (half.h, ops.h).
enum class DType { F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, Bool, F16, Bf16 };

inline constexpr DType kAllDTypes[] = {DType::F32, DType::F64, DType::I8,  DType::U8,  DType::I16,
                                       DType::U16, DType::I32, DType::U32, DType::I64, DType::U64,
                                       DType::Bool, DType::F16, DType::Bf16};

struct DTypeInfo {
  const char* name;      // spec / NumPy-ish name
  const char* cpp_type;  // C++ element type in generated code
  const char* npy_descr; // NumPy .npy dtype descriptor (little endian)
  int size;              // bytes
  bool is_float, is_signed;
  // Bytes of a lane in vector registers: the size, except for the 16-bit
  // floats, whose lanes hold their f32 values (the compute dtype).
  int lane_size;
};

inline const DTypeInfo& dtype_info(DType t) {
  static constexpr DTypeInfo kInfo[] = {
      {"f32", "float", "<f4", 4, true, true, 4},
      {"f64", "double", "<f8", 8, true, true, 8},
      {"i8", "std::int8_t", "|i1", 1, false, true, 1},
      {"u8", "std::uint8_t", "|u1", 1, false, false, 1},
      {"i16", "std::int16_t", "<i2", 2, false, true, 2},
      {"u16", "std::uint16_t", "<u2", 2, false, false, 2},
      {"i32", "std::int32_t", "<i4", 4, false, true, 4},
      {"u32", "std::uint32_t", "<u4", 4, false, false, 4},
      {"i64", "std::int64_t", "<i8", 8, false, true, 8},
      {"u64", "std::uint64_t", "<u8", 8, false, false, 8},
      {"bool", "bool", "|b1", 1, false, false, 1},
      {"f16", "bcastgen::f16", "<f2", 2, true, true, 4},
      // NumPy has no bfloat16: ml_dtypes' arrays carry the 2-byte void descriptor.
      {"bf16", "bcastgen::bf16", "<V2", 2, true, true, 4},
  };
  const auto i = static_cast<std::size_t>(t);
  return kInfo[i < std::size(kInfo) ? i : 0];  // an out-of-range value cast to DType reads entry 0
}

inline const char* dtype_name(DType t) { return dtype_info(t).name; }
inline int dtype_size(DType t) { return dtype_info(t).size; }
inline int dtype_lane_size(DType t) { return dtype_info(t).lane_size; }
inline bool is_half(DType t) { return t == DType::F16 || t == DType::Bf16; }
inline bool is_integer(DType t) { return !dtype_info(t).is_float && t != DType::Bool; }

inline bool parse_dtype(std::string_view s, DType* out) {
  for (DType t : kAllDTypes) {
    if (s == dtype_name(t)) { *out = t; return true; }
  }
  return false;
}

// The binary ops, one line each: X(Enumerator, name, kind, accepts, half).
// `name` is the spec's name and that of the op's scalar function in
// bcastgen::ops (ops.h); `kind` an OpKind, `accepts` an Accepts (below);
// `half` how the 16-bit floats compute it: F32 (in f32, rounded once to the
// type), OWN (overloads of their own in ops.h), CMP (comparing the f32
// values), NONE (not a float op). The enum Op, kOpInfo, visit_binary_op and
// ops::call and the 16-bit overloads are made from this list: a new op is a
// line here and its scalar function.
#define BCASTGEN_BINARY_OPS(X) \
  X(Add,               add,                 Arithmetic, Numbers,         F32)   \
  X(Subtract,          subtract,            Arithmetic, Numbers,         F32)   \
  X(Multiply,          multiply,            Arithmetic, Numbers,         F32)   \
  X(Divide,            divide,              Arithmetic, Numbers,         F32)   \
  X(FloorDivide,       floor_divide,        Arithmetic, Numbers,         F32)   \
  X(Maximum,           maximum,             Arithmetic, Numbers,         F32)   \
  X(Minimum,           minimum,             Arithmetic, Numbers,         F32)   \
  X(Power,             power,               Arithmetic, Numbers,         F32)   \
  X(SquaredDifference, squared_difference,  Arithmetic, Numbers,         F32)   \
  X(Mod,               mod,                 Arithmetic, Numbers,         F32)   \
  X(FloorMod,          floor_mod,           Arithmetic, Numbers,         F32)   \
  X(Copysign,          copysign,            Arithmetic, Floats,          F32)   \
  X(Nextafter,         nextafter,           Arithmetic, Floats,          OWN)   \
  X(Atan2,             atan2,               Arithmetic, Floats,          F32)   \
  X(Hypot,             hypot,               Arithmetic, Floats,          F32)   \
  X(Logaddexp,         logaddexp,           Arithmetic, Floats,          F32)   \
  X(Heaviside,         heaviside,           Arithmetic, Floats,          F32)   \
  X(Equal,             equal,               Comparison, All,             CMP)   \
  X(NotEqual,          not_equal,           Comparison, All,             CMP)   \
  X(Less,              less,                Comparison, All,             CMP)   \
  X(LessEqual,         less_equal,          Comparison, All,             CMP)   \
  X(Greater,           greater,             Comparison, All,             CMP)   \
  X(GreaterEqual,      greater_equal,       Comparison, All,             CMP)   \
  X(LogicalAnd,        logical_and,         Logical,    Bool,            NONE)  \
  X(LogicalOr,         logical_or,          Logical,    Bool,            NONE)  \
  X(LogicalXor,        logical_xor,         Logical,    Bool,            NONE)  \
  X(BitwiseAnd,        bitwise_and,         Bitwise,    IntegersAndBool, NONE)  \
  X(BitwiseOr,         bitwise_or,          Bitwise,    IntegersAndBool, NONE)  \
  X(BitwiseXor,        bitwise_xor,         Bitwise,    IntegersAndBool, NONE)  \
  X(BitwiseLeftShift,  bitwise_left_shift,  Bitwise,    Integers,        NONE)  \
  X(BitwiseRightShift, bitwise_right_shift, Bitwise,    Integers,        NONE)

#define BCASTGEN_OP_ENUMERATOR_(E, name, kind, accepts, half) E,
enum class Op {
  BCASTGEN_BINARY_OPS(BCASTGEN_OP_ENUMERATOR_)
  // the Broadcast op: materializes one input at a target shape
  Broadcast,
};
#undef BCASTGEN_OP_ENUMERATOR_

enum class OpKind { Arithmetic, Comparison, Logical, Bitwise, Broadcast };

// The dtypes an op accepts.
enum class Accepts { Numbers, Floats, Integers, IntegersAndBool, Bool, All };

struct OpInfo {
  Op op;
  const char* name;  // spec name; also the name of the scalar function in bcastgen::ops
  OpKind kind;
  Accepts accepts;
};

// One row per Op, in enum order.
#define BCASTGEN_OP_ROW_(E, name, kind, accepts, half) {Op::E, #name, OpKind::kind, Accepts::accepts},
inline constexpr OpInfo kOpInfo[] = {
    BCASTGEN_BINARY_OPS(BCASTGEN_OP_ROW_)
    {Op::Broadcast, "broadcast", OpKind::Broadcast, Accepts::All},
};
#undef BCASTGEN_OP_ROW_

namespace detail {
inline constexpr bool op_rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kOpInfo); ++i) {
    if (static_cast<std::size_t>(kOpInfo[i].op) != i) return false;
  }
  return static_cast<std::size_t>(Op::Broadcast) + 1 == std::size(kOpInfo);
}
}  // namespace detail
static_assert(detail::op_rows_in_enum_order(), "kOpInfo must list every Op once, in enum order");

// Every op, in enum order (derived from kOpInfo).
inline constexpr auto kAllOps = [] {
  std::array<Op, std::size(kOpInfo)> ops{};
  for (std::size_t i = 0; i < ops.size(); ++i) ops[i] = kOpInfo[i].op;
  return ops;
}();

inline constexpr const OpInfo& op_info(Op op) {
  const auto i = static_cast<std::size_t>(op);
  return kOpInfo[i < std::size(kOpInfo) ? i : 0];  // an out-of-range value cast to Op reads entry 0
}

inline constexpr const char* op_name(Op op) { return op_info(op).name; }
inline constexpr OpKind op_kind(Op op) { return op_info(op).kind; }

// Other names the spec and the CLI accept for an op: the Array API's.
struct OpAlias {
  const char* name;
  Op op;
};
inline constexpr OpAlias kOpAliases[] = {{"pow", Op::Power}, {"remainder", Op::FloorMod}};

inline bool parse_op(std::string_view s, Op* out) {
  for (Op op : kAllOps) {
    if (s == op_name(op)) { *out = op; return true; }
  }
  for (const OpAlias& a : kOpAliases) {
    if (s == a.name) { *out = a.op; return true; }
  }
  return false;
}

// Whether an op accepts a dtype (see Accepts); the one table for the spec,
// the planner, the reference and ops::op_defined_for.
inline constexpr bool op_supports(Op op, DType t) {
  const bool is_bool = t == DType::Bool;
  const bool is_float = t == DType::F32 || t == DType::F64 || t == DType::F16 || t == DType::Bf16;
  switch (op_info(op).accepts) {
    case Accepts::Numbers: return !is_bool;
    case Accepts::Floats: return is_float;
    case Accepts::Integers: return !is_bool && !is_float;
    case Accepts::IntegersAndBool: return !is_float;
    case Accepts::Bool: return is_bool;
    case Accepts::All: return true;
  }
  return false;
}

// The output element type: bool for comparisons, else the input's.
inline DType result_dtype(Op op, DType t) { return op_kind(op) == OpKind::Comparison ? DType::Bool : t; }

// "f32, f64, ..." for error messages listing the valid choices.
inline std::string supported_dtypes_text(Op op) {
  std::string s;
  for (DType t : kAllDTypes) {
    if (!op_supports(op, t)) continue;
    if (!s.empty()) s += ", ";
    s += dtype_name(t);
  }
  return s;
}

}  // namespace bcastgen
