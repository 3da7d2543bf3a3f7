// The kernel planner: from a kernel spec and the rule engine's aligned
// strides to a loop nest with constant trip counts and strides, and per ISA
// the vector width, unroll, tail and store kind. The emitter only lays out
// what is decided here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bcastgen/coalesce.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/gen/vocabulary.h"

namespace bcastgen::gen {

// One constant loop: its extent and element strides, one per input (in
// the kernel's input order) and one for the output.
struct Loop {
  std::int64_t extent = 1;
  std::vector<std::int64_t> in;
  std::int64_t out = 0;
};

// How an operand is read in the innermost row.
//   Stream   consecutive elements, one vector load per vector;
//   Splat    one value for the whole row, broadcast to all lanes;
//   Pattern  a period of a few elements, held in registers (IsaPlan::period);
//   Gather   at most one vector's worth of elements (its span), loaded once
//            where it changes and spread over the block's vectors by
//            constant permutes (IsaPlan::block);
//   Held     a contiguous row that the innermost outer loop does not move:
//            loaded (and widened) once where it changes, then kept in
//            registers while the row, unrolled whole, reads it
//            (IsaPlan::held_vectors);
//   Strided  elements at a constant stride other than 0 or 1 (an input read
//            through a transpose or a slice with a step; IsaPlan::row_stride):
//            a vector's lanes come from `lanes` cache lines, which the next
//            rows of the nest read again while they are still in cache.
enum class Access { Stream, Splat, Pattern, Gather, Held, Strided };
const char* access_name(Access a);

// An input's class over the coalesced nest, independent of the ISA:
// contiguous (it moves with the output in the innermost loop), scalar (one
// value per row), repeat (a short period repeating along the row) or
// gathered (rows shorter than a vector that read a small span).
const char* operand_class(Access a);

// The decisions for one ISA variant.
struct IsaPlan {
  Isa isa = Isa::Scalar;
  std::vector<Loop> outer;   // loops around the row, outermost first
  std::int64_t row = 1;      // elements per row (the innermost trip count)
  std::vector<Access> access;  // per input
  std::vector<std::int64_t> row_stride;  // per input: its element stride along the row
  std::int64_t period = 0;   // Pattern: the pattern's length in elements
  int pattern_vectors = 0;   // Pattern: registers holding lcm(period, lanes) elements
  // Gathered block: innermost loops shorter than a vector, fused into one
  // row of `row` elements (their extents multiply) that each operand reads
  // from at most one vector's span; block holds the fused loops, outer first.
  std::vector<Loop> block;
  std::vector<std::int64_t> span;  // per input: elements a Gather operand spans
  // Held: the whole vectors of a held row (row / lanes), each in its own
  // register; the row is then unrolled whole (main_trips 0), in groups of
  // `unroll` vectors, and a partial vector reads it as Stream.
  int held_vectors = 0;
  // Transposed tiles (plan.cpp, tile_strided): an input read through a
  // transpose whose tiles the loop nest [.., tiles, chunks, in-tile rows]
  // walks is read, once per chunk, as one square tile of whole cache lines
  // at stride `stride`, transposed into a buffer (the vocabulary's
  // transpose_tile) that the in-tile loop then reads as a Stream (its loop
  // stride there is the buffer's row). The tile `ahead` chunks later is
  // prefetched: at `near` elements from this one, or at `wrap` when that
  // chunk is past the row (the next tile's).
  struct TileRead {
    std::size_t input = 0;
    std::int64_t stride = 0;
    std::int64_t ahead = 0;
    std::int64_t near = 0;
    std::int64_t wrap = 0;
  };
  std::vector<TileRead> tiles;
  bool vector = false;       // SIMD intrinsics (else a scalar loop under the ISA's target)
  // vector: the lanes are those of lane_dtype, the narrowest number type of
  // the DAG (of one width, the output's type when it has it). A node of a
  // type r times wider holds one vector of lanes in r registers, its parts
  // (parts[node]; 1 for every node when the DAG has one width).
  DType lane_dtype = DType::F32;
  std::vector<int> parts;
  int lanes = 1, unroll = 1;
  std::int64_t step = 1;         // lanes * unroll
  std::int64_t main_trips = 0;   // row / step
  int tail_vectors = 0;          // whole vectors after the main loop, unrolled
  int tail_lanes = 0;            // then a partial vector (masked, or unrolled scalars)
  bool stream = false;           // non-temporal stores (when the output is aligned)
  // vector: the forms that write the output's registers (plan.cpp,
  // plan_root_stores), the cheapest of the output type's that the proofs
  // about the root allow (KernelPlan::root_in_type, root_nans_exact): for
  // the plain variant, and for its streaming twin where it streams.
  struct RootStores {
    Form whole;    // one whole vector: v at p
    // The partial vector: masked (t), or its first n lanes by plain
    // stores where the vocabulary has store_first (then no mask is made).
    Form partial;
    bool partial_first = false;
    // Adjacent whole vectors in one write (a, b, ... from p): a pair
    // (store_pair) or four compare results (store_bool4); empty for none.
    Form group;
    int group_size = 1;
  };
  RootStores stores, streamed_stores;
  const RootStores& root_stores(bool streaming) const { return streaming ? streamed_stores : stores; }
  // The main loop lays out each vector's loads, nodes and store together
  // (the CPU kind's `interleave` fact), else the step's loads, then its
  // nodes, then its stores.
  bool interleave = false;
  // Each row starts with a masked vector of the lanes up to the output's
  // next vector-sized line, counted from the output pointer at run time;
  // then, from there, the steps and whole vectors every start leaves (at
  // constant trip counts and offsets), each storing one whole line, and the
  // rest in one or two masked vectors (the CPU kind's `peel_rows` fact;
  // planned where rows start at different offsets in the lines, every input
  // is streamed or splatted and every node has one register).
  bool peel = false;
  // The ISAs whose own variants were left out because their CPUs run this
  // one instead: a stream on a kind with a vector width (stream_vector_bytes),
  // or the narrower variant a wisdom file's `isa` names. The dispatcher then
  // picks this variant on those CPUs; the plan line says so.
  std::vector<Isa> runs_for;
  // vector: DAG nodes with no vector form on this ISA, computed lane by
  // lane inside the vector loop (operands spilled, the scalar op per lane,
  // the result reloaded), so that the other nodes stay in vectors.
  std::vector<std::size_t> lane_nodes;
  bool by_lanes(std::size_t node) const {
    return std::find(lane_nodes.begin(), lane_nodes.end(), node) != lane_nodes.end();
  }
  // The registers per vector of a node (parts; 1 when the DAG has one width).
  int parts_of(std::size_t node) const { return parts.empty() ? 1 : parts[node]; }
  // vector: per node, how many of a grouped step's four whole vectors each
  // call of an f32 math function takes (simd/math_pack.inl's x2, x4: the
  // vocabulary's math_pack for this ISA and the plan's CPU kind); 1 for
  // every other node, and one call per vector.
  std::vector<int> math_pack;
  // vector: max/min nodes with a literal operand that take the
  // vocabulary's literal forms, one or two instructions where the
  // NaN-propagating op takes three or four (plan.cpp, literal_minmax).
  struct LiteralMinMax {
    std::size_t node = 0;
    LiteralForm form = LiteralForm::Number;
    std::size_t number = 0;  // Number: the literal, the form's first operand
    std::size_t x = 0;       // the other operand
  };
  std::vector<LiteralMinMax> literal_minmax;
  std::string why;               // one line: why these choices
};

// A row kernel (rows.cpp): the DAG reduces over the innermost axes of the
// inputs' broadcast (the domain), every reduction over the same ones. Its
// loop runs over the rows; each row is read once per pass, from L1 or L2
// after the first: pass k accumulates the reductions whose operands need
// the k before them, then the output pass computes the row (or the row's
// one value). Sums, maxima and minima follow one fixed order on every ISA:
// element j goes to partial j % kPartials, in order, and the partials
// combine in the tree p[i] = op(p[i], p[i + h]) for h = kPartials / 2, ..., 1
// (runtime bcastgen/row_reduce.h), so the output has the same bits on every
// ISA.
struct RowPlan {
  static constexpr int kPartials = 64;
  Shape domain;               // the inputs' broadcast
  Shape out_shape;            // the output's: the root's shape (node_shapes)
  std::int64_t row = 1;       // elements per row (the reduced axes' extents multiply)
  std::vector<Loop> outer;    // over the rows, outermost first (coalesced)
  std::vector<bool> per_row;  // per input: one value per row (else contiguous along it)
  bool out_per_row = false;   // the output is one value per row (a reduction's shape)
  // The DAG as the row runs it: softmax as max, exp and sum; mean as a sum
  // divided by the row's length; f16 and bf16 reductions in f32. Its Reduce
  // nodes are sums, maxima and minima over the row.
  ExprDag program;
  std::vector<int> level;       // per program node: the passes before its value is known
  std::vector<bool> varying;    // per program node: varies along the row
  int passes = 0;               // reduction passes (the output pass follows them)
  // A node of the last reduction pass that the output pass needs again and
  // that costs a math function (softmax's exp(x - max)): the pass stores it
  // into a buffer of the row on the stack, and the output pass reads it
  // back from there (L1) instead of computing it twice. For f32 nodes of
  // rows of at most kMaxStash elements.
  static constexpr std::int64_t kMaxStash = 8192;
  std::optional<std::size_t> stash;
  // Two rows a step, where the rows are short and the last loop over them
  // has an even extent: that loop runs half as many steps, and each step
  // runs the two rows pass by pass (row a's pass, then row b's), so that
  // one row's tree and per-row scalars overlap the other's loads. `pair`
  // holds the strides from row a to row b. Measured with avx512 on a Zen 5:
  // Softmax [1536, 128] 18-20% faster, LayerNorm [64, 768] 8%; rows of
  // 4096 gain nothing (0 to -4%), nor does a DRAM-sized LayerNorm.
  static constexpr std::int64_t kMaxPairedRow = 1024;
  int rows_per_step = 1;
  Loop pair;
  // Rows from DRAM: the output pass prefetches the next step's rows (of
  // the inputs read along the row) where the kernel's footprint is at least
  // its CPU kind's stream_reading_bytes, the footprint from which its data
  // is past the L3. Each row computes from L1 after its first pass, and the
  // hardware prefetcher alone leaves the memory idle then. Measured with
  // avx512 on a Zen 5, medians of 5: LayerNorm [4096, 768] (25 MB) 1.29x,
  // RMSNorm [4096, 4096] 1.39x, residual + LayerNorm 1.14x; but [1024, 768]
  // (6 MB, in the L3) 0.90x and [2048, 768] (13 MB) 0.95x.
  bool prefetch_next = false;
  std::string prefetch_why;  // for explain
};

struct KernelPlan {
  KernelSpec spec;
  CpuKind cpu = CpuKind::Generic;  // the CPU kind whose tuning facts the plans follow
  BroadcastInputs shapes;    // from the rule engine: out, and each input's aligned strides
  DType out_dtype = DType::F32;
  std::vector<Loop> loops;   // coalesced nest, outermost first (empty: one element)
  bool empty = false;        // the output has no elements
  std::vector<Access> classes;  // per input, over the coalesced nest (operand_class)
  // Per input, the element its layout starts at (a slice's start; 0 for an
  // input read as declared): the loops' strides count from there.
  std::vector<std::int64_t> offsets;
  std::int64_t out_numel = 0, out_bytes = 0;
  // Bytes one call touches: every element of every input and of out once
  // (the Broadcast op's target has no data). Streaming stores are chosen on it.
  std::int64_t footprint_bytes = 0;
  // The split loop: every ISA variant's outermost loop is loops[0], so
  // `<kernel>_range(begin, end)` can run part of it; outer_extent is its
  // extent, or 1 when the kernel cannot be split.
  bool split = false;
  std::int64_t outer_extent = 1;
  std::string split_why;          // how the split loop was chosen
  std::vector<IsaPlan> isas;      // in the spec's order, best first
  // A bf16 output whose NaNs, if any, are already bf16 NaNs (their low 16
  // bits zero): every value the root depends on is a bf16 value, an
  // integer, a literal, or an IEEE op on such values, which x86 gives a
  // quiet copy of an operand's NaN or its default NaN. Its store rounds
  // without the NaN fixup, where the vocabulary has that form.
  bool root_nans_exact = false;
  // A bf16 output that only picks or re-signs values of its type (max, min,
  // copysign, neg, abs, where over bf16 inputs, literals and nodes rounded
  // to bf16): its lanes already hold bf16 values, and its store does not
  // round, where the vocabulary has that form.
  bool root_in_type = false;
  // A DAG with reductions: the row kernel's plan (each IsaPlan then says
  // only whether its variant is vector code, its lanes and why).
  std::optional<RowPlan> rows;
};

// Facts measured for one kernel on one machine (bcastgen tune, wisdom.h),
// in place of the CPU kind's order, unroll and peel.
struct KernelTuning {
  bool interleave = false;  // each vector's loads, nodes and store together
  int unroll = 4;           // vectors per main-loop step: 1, 2 or 4
  // The variant that CPUs with a wider ISA run too: the variants of the
  // ISAs that include it (avx512 includes avx2) are left out, so that the
  // dispatcher runs this one there (on Zen 4, 256-bit AVX2 code measured
  // faster than AVX-512's on some kernels). Unset: every ISA's variant.
  // Either way, the kind's width for streams (cpu_kinds.h) does not apply.
  std::optional<Isa> isa;
  std::string source;       // where they come from, for the plan's why: "wisdom w.json"
  std::string measured;     // what was measured, for the plan's why
  // Rows peeled to the output's lines (IsaPlan::peel), measured for this
  // kernel, where its plan can peel. Unset: the CPU kind's peel_rows.
  std::optional<bool> peel;
};

struct PlanOptions {
  std::vector<Isa> isas;
  // The CPU kind the plan is for: its row's tuning facts (cpu_kinds.h) set
  // the unroll and the order of loads and stores.
  CpuKind cpu = CpuKind::Generic;
  int unroll = 0;  // vectors per main-loop iteration; 0: the CPU kind's
  // This kernel's measured order and unroll (generate() sets it per kernel
  // from a wisdom file); unset: the kind's (and `unroll` above).
  std::optional<KernelTuning> tuning;
  // Streaming stores for kernels whose footprint is at least this; unset:
  // the CPU kind's thresholds (stream_threshold below).
  std::optional<std::int64_t> stream_threshold_bytes;
  // A kernel that is one long row is cut into blocks of at most this many
  // elements, so that a thread pool can split it (see plan.cpp).
  std::int64_t max_block_elements = 16384;
};

// The footprint from which a kernel's stores stream: the options' threshold,
// or else the CPU kind's, the lower one where the kernel reads at least as
// many bytes as it writes (cpu_kinds.h); none (never) for a kernel that
// computes an approximated math function (exp, tanh, ...), which is bound
// by its arithmetic: streaming its stores lost 1% to 9% on Zen 5, even at
// 96 MiB, where a plain add gained 1.2x to 1.3x from 24 MiB.
std::optional<std::int64_t> stream_threshold(const KernelPlan& plan, const PlanOptions& options);

// The options a spec's kernels are planned with: its ISAs (or the
// defaults), its streaming threshold and its CPU kind; no tuning.
PlanOptions plan_options(const Spec& spec);

KernelPlan plan_kernel(const KernelSpec& k, const PlanOptions& options,
                       const Vocabulary& vocabulary = Vocabulary::builtin());
// Same, with the kernel's shapes as validate_spec() returned them (the rules are not run again).
KernelPlan plan_kernel(const KernelSpec& k, BroadcastInputs shapes, const PlanOptions& options,
                       const Vocabulary& vocabulary = Vocabulary::builtin());

// The dtype whose vector form on `isa` computes node i of `d` over operands
// (or to a result) of dtype t: t, except at the root of a 16-bit float type
// held as f32, which takes the f32 form. Its store rounds to the type
// (vcvtps2ph, or bf16's rounding on the bits), once, as the op's own
// rounding would, so that the kernel's last op does not round twice. (A
// lane-by-lane root rounds in ops::; rounding a value of the type again is
// exact.) (Native 16-bit lanes, avx512fp16's f16, keep their own forms.)
DType form_dtype(const ExprDag& d, std::size_t i, DType t, Isa isa, const Vocabulary& voc);

// Whether node i of `d` (the value its Expand nodes stand for) is a bool
// held in vectors as a compare result over lanes of lane_dtype, not as bool
// bytes: every bool under lanes of a number type, and under bool lanes only
// a comparison's result. Its stores are the bool ones (IsaPlan::RootStores).
bool is_compare_result(const ExprDag& d, std::size_t i, DType lane_dtype);

// Human-readable plan, for `bcastgen explain` and generated comments.
std::string describe_loops(const KernelPlan& plan, const std::string& indent);
// The DAG, one node per line, for generated comments and explain.
std::string describe_expr(const KernelPlan& plan, const std::string& indent);
std::string describe_isa(const KernelPlan& plan, const IsaPlan& isa);

}  // namespace bcastgen::gen
