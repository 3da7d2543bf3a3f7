// Fuzz target: the expression front end (gen::parse_expr) on arbitrary text
// over a fixed set of inputs, one of each dtype family. Invariants:
//   - parse_expr returns a DAG or throws ExprError whose column is in
//     [1, size + 1], with a message and a caret in what(); nothing else
//     escapes, and nothing crashes (deep nesting included);
//   - an accepted DAG is in topological order, its root is valid, every node
//     is reachable from the root, no two nodes are equal (sharing), each
//     node's dtype follows its kind and op, each literal is in its dtype's
//     range, input_used says which inputs are read, and parsing again
//     prints the same DAG.
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>

#include "bcastgen/gen/expr.h"
#include "bcastgen/ops.h"
#include "fuzz_common.h"

namespace {

using namespace bcastgen;
using namespace bcastgen::gen;

const std::vector<ExprInput>& fuzz_inputs() {
  static const std::vector<ExprInput> inputs = {{"x", DType::F32}, {"y", DType::F32}, {"d", DType::F64},
                                                {"i", DType::I32}, {"u", DType::U8},  {"n", DType::I64},
                                                {"w", DType::U64}, {"k", DType::Bool}, {"b", DType::Bool}};
  return inputs;
}

bool literal_in_range(const ExprLiteral& lit, DType t) {
  return visit_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using L = std::numeric_limits<T>;
    if constexpr (std::is_same_v<T, bool>) {
      return true;
    } else if constexpr (is_half_v<T>) {
      return std::isfinite(lit.f) && static_cast<double>(to_float(half_from<T>(lit.f))) == lit.f;
    } else if constexpr (std::is_floating_point_v<T>) {
      return std::isfinite(lit.f) && static_cast<double>(static_cast<T>(lit.f)) == lit.f;
    } else if constexpr (std::is_signed_v<T>) {
      return lit.i >= L::min() && lit.i <= L::max();
    } else {
      return lit.u <= L::max();
    }
  });
}

void check_node(const ExprDag& dag, std::size_t k, const std::string& text) {
  const ExprNode& n = dag.nodes[k];
  const std::string where = text + "\nnode t" + std::to_string(k);
  for (std::size_t a : n.args) FUZZ_CHECK(a < k, where + ": an operand after its user");
  auto arg = [&](std::size_t i) { return dag.nodes[n.args[i]].dtype; };
  static constexpr std::size_t kArity[] = {0, 0, 2, 1, 3, 1, 1, 1};  // by ExprKind
  FUZZ_CHECK(n.args.size() == kArity[static_cast<int>(n.kind)], where + ": arity");
  switch (n.kind) {
    case ExprKind::Input:
      FUZZ_CHECK(n.input < fuzz_inputs().size() && dag.input_used[n.input], where);
      FUZZ_CHECK(n.dtype == fuzz_inputs()[n.input].dtype, where + ": input dtype");
      break;
    case ExprKind::Literal:
      FUZZ_CHECK(!n.literal.text.empty() && literal_in_range(n.literal, n.dtype), where + ": literal");
      break;
    case ExprKind::Binary:
      FUZZ_CHECK(n.op != Op::Broadcast && arg(0) == arg(1) && op_supports(n.op, arg(0)), where + ": binary");
      FUZZ_CHECK(n.dtype == result_dtype(n.op, arg(0)), where + ": binary result dtype");
      break;
    case ExprKind::Unary:
      FUZZ_CHECK(unary_supports(n.unary, arg(0)) && n.dtype == arg(0), where + ": unary");
      break;
    case ExprKind::Where:
      FUZZ_CHECK(arg(0) == DType::Bool && arg(1) == arg(2) && n.dtype == arg(1), where + ": where");
      break;
    case ExprKind::Cast: FUZZ_CHECK(arg(0) != n.dtype, where + ": a cast to the same dtype"); break;
    case ExprKind::Expand: FUZZ_CHECK(arg(0) == n.dtype, where + ": expand keeps its operand's dtype"); break;
    case ExprKind::Reduce:
      FUZZ_CHECK(arg(0) == n.dtype && dtype_info(n.dtype).is_float, where + ": a reduction of a float, of its dtype");
      FUZZ_CHECK(!n.axes.empty(), where + ": a reduction without axes");
      break;
  }
}

void check_dag(const ExprDag& dag, const std::string& text) {
  FUZZ_CHECK(!dag.nodes.empty() && dag.nodes.size() <= kMaxExprNodes, text);
  FUZZ_CHECK(dag.root < dag.nodes.size(), text + ": root");
  FUZZ_CHECK(dag.input_used.size() == fuzz_inputs().size(), text + ": input_used");
  std::set<std::tuple<ExprKind, int, int, DType, std::vector<std::size_t>, std::size_t, std::string>> seen;
  std::vector<bool> read(fuzz_inputs().size(), false);
  for (std::size_t k = 0; k < dag.nodes.size(); ++k) {
    check_node(dag, k, text);
    const ExprNode& n = dag.nodes[k];
    if (n.kind == ExprKind::Input) read[n.input] = true;
    // Literals by value (float bits: -0.0 is not 0.0): equal values spelled
    // differently must be one node.
    std::uint64_t bits = 0;
    std::memcpy(&bits, &n.literal.f, sizeof bits);
    const std::string value = n.kind == ExprKind::Expand    ? format_shape(n.target)
                              : n.kind == ExprKind::Reduce  ? reduce_name(n.reduce) + format_shape(n.axes)
                              : n.kind != ExprKind::Literal ? ""
                              : dtype_info(n.dtype).is_float
                                  ? std::to_string(bits)
                                  : std::to_string(n.literal.i) + "/" + std::to_string(n.literal.u) + "/" +
                                        std::to_string(n.literal.b);
    const bool fresh = seen.emplace(n.kind, static_cast<int>(n.op), static_cast<int>(n.unary), n.dtype, n.args,
                                    n.input, value)
                           .second;
    FUZZ_CHECK(fresh, text + ": node t" + std::to_string(k) + " repeats an earlier node");
  }
  FUZZ_CHECK(read == dag.input_used, text + ": input_used differs from the inputs read");
  std::vector<bool> reachable(dag.nodes.size(), false);
  reachable[dag.root] = true;
  for (std::size_t k = dag.nodes.size(); k-- > 0;) {
    if (!reachable[k]) continue;
    for (std::size_t a : dag.nodes[k].args) reachable[a] = true;
  }
  for (std::size_t k = 0; k < dag.nodes.size(); ++k) FUZZ_CHECK(reachable[k], text + ": unreachable node");
}

}  // namespace

extern "C" int BCASTGEN_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ExprDag dag;
  try {
    dag = parse_expr(text, fuzz_inputs());
  } catch (const ExprError& e) {
    FUZZ_CHECK(e.column() >= 1 && static_cast<std::size_t>(e.column()) <= size + 1,
               "column " + std::to_string(e.column()) + " outside the text: " + e.what());
    FUZZ_CHECK(!e.message().empty() && std::string(e.what()).find('^') != std::string::npos, e.what());
    return 0;
  } catch (const std::exception& e) {
    FUZZ_CHECK(false, std::string("parse_expr threw something else than ExprError: ") + e.what());
  }
  check_dag(dag, text);
  const std::string printed = to_string(dag, fuzz_inputs());
  FUZZ_CHECK(printed == to_string(parse_expr(text, fuzz_inputs()), fuzz_inputs()), text + ": not deterministic");
  return 0;
}
