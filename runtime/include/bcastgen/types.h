// bcastgen runtime: element types and operations, with their names and
// which op accepts which dtype. One table each, shared by the generator
// (spec checking, planning) and the runtime (reference, dispatch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace bcastgen {

// bool is one byte holding 0 or 1, as in NumPy.
enum class DType { F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, Bool };

inline constexpr DType kAllDTypes[] = {DType::F32, DType::F64, DType::I8,  DType::U8,  DType::I16, DType::U16,
                                       DType::I32, DType::U32, DType::I64, DType::U64, DType::Bool};

struct DTypeInfo {
  const char* name;      // spec / NumPy-ish name
  const char* cpp_type;  // C++ element type in generated code
  const char* npy_descr; // NumPy .npy dtype descriptor (little endian)
  int size;              // bytes
  bool is_float, is_signed;
};

inline const DTypeInfo& dtype_info(DType t) {
  static constexpr DTypeInfo kInfo[] = {
      {"f32", "float", "<f4", 4, true, true},           {"f64", "double", "<f8", 8, true, true},
      {"i8", "std::int8_t", "|i1", 1, false, true},     {"u8", "std::uint8_t", "|u1", 1, false, false},
      {"i16", "std::int16_t", "<i2", 2, false, true},   {"u16", "std::uint16_t", "<u2", 2, false, false},
      {"i32", "std::int32_t", "<i4", 4, false, true},   {"u32", "std::uint32_t", "<u4", 4, false, false},
      {"i64", "std::int64_t", "<i8", 8, false, true},   {"u64", "std::uint64_t", "<u8", 8, false, false},
      {"bool", "bool", "|b1", 1, false, false},
  };
  const auto i = static_cast<std::size_t>(t);
  return kInfo[i < std::size(kInfo) ? i : 0];  // an out-of-range value cast to DType reads entry 0
}

inline const char* dtype_name(DType t) { return dtype_info(t).name; }
inline int dtype_size(DType t) { return dtype_info(t).size; }
inline bool is_integer(DType t) { return !dtype_info(t).is_float && t != DType::Bool; }

inline bool parse_dtype(std::string_view s, DType* out) {
  for (DType t : kAllDTypes) {
    if (s == dtype_name(t)) { *out = t; return true; }
  }
  return false;
}

enum class Op {
  // arithmetic
  Add, Subtract, Multiply, Divide, Maximum, Minimum, Power, SquaredDifference, Mod, FloorMod,
  // comparison (bool output)
  Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual,
  // logical (bool)
  LogicalAnd, LogicalOr, LogicalXor,
  // bitwise (integers and bool)
  BitwiseAnd, BitwiseOr, BitwiseXor,
  // the Broadcast op: materializes one input at a target shape
  Broadcast,
};

enum class OpKind { Arithmetic, Comparison, Logical, Bitwise, Broadcast };

inline constexpr Op kAllOps[] = {
    Op::Add,        Op::Subtract,   Op::Multiply,   Op::Divide,     Op::Maximum,   Op::Minimum,
    Op::Power,      Op::SquaredDifference, Op::Mod, Op::FloorMod,   Op::Equal,     Op::NotEqual,
    Op::Less,       Op::LessEqual,  Op::Greater,    Op::GreaterEqual, Op::LogicalAnd, Op::LogicalOr,
    Op::LogicalXor, Op::BitwiseAnd, Op::BitwiseOr,  Op::BitwiseXor, Op::Broadcast};

struct OpInfo {
  const char* name;  // spec name; also the name of the scalar function in bcastgen::ops
  OpKind kind;
};

inline const OpInfo& op_info(Op op) {
  static constexpr OpInfo kInfo[] = {
      {"add", OpKind::Arithmetic},          {"subtract", OpKind::Arithmetic},  {"multiply", OpKind::Arithmetic},
      {"divide", OpKind::Arithmetic},       {"maximum", OpKind::Arithmetic},   {"minimum", OpKind::Arithmetic},
      {"power", OpKind::Arithmetic},        {"squared_difference", OpKind::Arithmetic},
      {"mod", OpKind::Arithmetic},          {"floor_mod", OpKind::Arithmetic}, {"equal", OpKind::Comparison},
      {"not_equal", OpKind::Comparison},    {"less", OpKind::Comparison},      {"less_equal", OpKind::Comparison},
      {"greater", OpKind::Comparison},      {"greater_equal", OpKind::Comparison},
      {"logical_and", OpKind::Logical},     {"logical_or", OpKind::Logical},   {"logical_xor", OpKind::Logical},
      {"bitwise_and", OpKind::Bitwise},     {"bitwise_or", OpKind::Bitwise},   {"bitwise_xor", OpKind::Bitwise},
      {"broadcast", OpKind::Broadcast},
  };
  const auto i = static_cast<std::size_t>(op);
  return kInfo[i < std::size(kInfo) ? i : 0];  // an out-of-range value cast to Op reads entry 0
}

inline const char* op_name(Op op) { return op_info(op).name; }
inline OpKind op_kind(Op op) { return op_info(op).kind; }

inline bool parse_op(std::string_view s, Op* out) {
  for (Op op : kAllOps) {
    if (s == op_name(op)) { *out = op; return true; }
  }
  return false;
}

// Which dtypes an op accepts: arithmetic on numbers, comparisons and
// broadcast on everything, logical on bool, bitwise on integers and bool.
inline bool op_supports(Op op, DType t) {
  switch (op_kind(op)) {
    case OpKind::Arithmetic: return t != DType::Bool;
    case OpKind::Comparison: return true;
    case OpKind::Logical: return t == DType::Bool;
    case OpKind::Bitwise: return t == DType::Bool || is_integer(t);
    case OpKind::Broadcast: return true;
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
