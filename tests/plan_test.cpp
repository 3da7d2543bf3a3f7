// gen::plan_kernel: the coalesced loop nest, the inner-loop class and, per
// ISA, lanes, unroll, main trips, tails, repeating patterns and streaming
// stores, for hand-computed cases.
#include <algorithm>
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "bcastgen/gen/expr.h"
#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"

namespace {

using bcastgen::DType;
using bcastgen::Isa;
using bcastgen::Op;
using bcastgen::Rule;
using bcastgen::Shape;
using bcastgen::gen::Access;
using bcastgen::gen::IsaPlan;
using bcastgen::gen::KernelPlan;
using bcastgen::gen::KernelSpec;
using bcastgen::gen::Loop;
using bcastgen::gen::plan_kernel;
using bcastgen::gen::PlanOptions;

PlanOptions options(std::int64_t stream_threshold = 40 << 20) {
  PlanOptions o;
  o.isas = {Isa::Avx512, Isa::Avx2, Isa::Scalar};
  o.stream_threshold_bytes = stream_threshold;
  return o;
}

KernelSpec binary(Op op, DType dtype, Shape a, Shape b, Rule rule = Rule::Numpy) {
  return bcastgen::gen::binary_kernel("k", op, dtype, rule, std::move(a), std::move(b));
}

// Whether some input repeats with a period held in registers.
bool has_pattern(const KernelPlan& p) {
  return std::find(p.classes.begin(), p.classes.end(), Access::Pattern) != p.classes.end();
}

std::string loops_text(const std::vector<Loop>& loops) {
  std::string s;
  for (const Loop& l : loops) {
    s += "{" + std::to_string(l.extent) + ": a " + std::to_string(l.in[0]) + " b " + std::to_string(l.in.size() > 1 ? l.in[1] : 0) + " out " +
         std::to_string(l.out) + "} ";
  }
  return s;
}

const IsaPlan& isa_plan(const KernelPlan& p, Isa isa) {
  for (const IsaPlan& ip : p.isas) {
    if (ip.isa == isa) return ip;
  }
  ADD_FAILURE() << "no plan for " << bcastgen::isa_name(isa);
  return p.isas.front();
}

TEST(Plan, BiasAddNchw) {
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::F32, {1, 64, 56, 56}, {1, 64, 1, 1}), options());
  EXPECT_EQ(loops_text(p.loops), "{64: a 3136 b 1 out 3136} {3136: a 1 b 0 out 1} ");
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Stream, Access::Splat}));
  EXPECT_EQ(p.shapes.out, (Shape{1, 64, 56, 56}));
  EXPECT_EQ(p.out_dtype, DType::F32);
  EXPECT_EQ(p.out_numel, 200704);
  EXPECT_EQ(p.out_bytes, 802816);
  EXPECT_EQ(p.outer_extent, 64);
  ASSERT_EQ(p.isas.size(), 3u);
  EXPECT_EQ(p.isas[0].isa, Isa::Avx512);
  EXPECT_EQ(p.isas[1].isa, Isa::Avx2);
  EXPECT_EQ(p.isas[2].isa, Isa::Scalar);

  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.vector);
  EXPECT_EQ(loops_text(z.outer), "{64: a 3136 b 1 out 3136} ");
  EXPECT_EQ(z.row, 3136);
  EXPECT_EQ(z.access[0], Access::Stream);
  EXPECT_EQ(z.access[1], Access::Splat);
  EXPECT_EQ(z.lanes, 16);
  EXPECT_EQ(z.unroll, 4);
  EXPECT_EQ(z.step, 64);
  EXPECT_EQ(z.main_trips, 49);
  EXPECT_EQ(z.tail_vectors, 0);
  EXPECT_EQ(z.tail_lanes, 0);
  EXPECT_EQ(z.period, 0);
  EXPECT_FALSE(z.stream);  // 802816 bytes < 16 MiB
  EXPECT_EQ(z.why, "16 lanes x unroll 4 = 64 elements per step; row 3136 = 49 x 64 + 0 vectors + no partial vector");

  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_TRUE(y.vector);
  EXPECT_EQ(y.lanes, 8);
  EXPECT_EQ(y.unroll, 4);
  EXPECT_EQ(y.step, 32);
  EXPECT_EQ(y.main_trips, 98);
  EXPECT_EQ(y.tail_vectors, 0);
  EXPECT_EQ(y.tail_lanes, 0);

  const IsaPlan& s = isa_plan(p, Isa::Scalar);
  EXPECT_FALSE(s.vector);
  EXPECT_EQ(s.lanes, 1);
  EXPECT_EQ(s.row, 3136);
  EXPECT_EQ(s.why, "portable scalar loop");
}

TEST(Plan, NhwcMeanSubtractionRepeats) {
  // [1,224,224,3] - [3]: b repeats every 3 elements. The avx512 and avx2
  // variants fuse the last two loops into one row holding the pattern in
  // registers; that absorbs every outer loop, so the row of 50176 periods is
  // cut into 14 blocks of 3584 periods (a multiple of 256 dividing it, at
  // most 16384 elements) to leave a loop that a thread pool can split.
  const KernelPlan p = plan_kernel(binary(Op::Subtract, DType::F32, {1, 224, 224, 3}, {3}), options());
  EXPECT_EQ(loops_text(p.loops), "{14: a 10752 b 0 out 10752} {3584: a 3 b 0 out 3} {3: a 1 b 1 out 1} ");
  EXPECT_TRUE(has_pattern(p));
  EXPECT_TRUE(p.split);
  EXPECT_EQ(p.outer_extent, 14);
  EXPECT_EQ(p.split_why,
            "the row of 50176 periods is cut into 14 blocks of 3584 so that it can be split; loop i0 (14 iterations) "
            "can be split across threads");

  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.vector);
  EXPECT_EQ(loops_text(z.outer), "{14: a 10752 b 0 out 10752} ");
  EXPECT_EQ(z.row, 10752);
  EXPECT_EQ(z.period, 3);
  EXPECT_EQ(z.pattern_vectors, 3);  // lcm(3, 16) = 48 = 3 vectors
  EXPECT_EQ(z.access[0], Access::Stream);
  EXPECT_EQ(z.access[1], Access::Pattern);
  EXPECT_EQ(z.lanes, 16);
  EXPECT_EQ(z.unroll % z.pattern_vectors, 0);  // whole patterns per step
  EXPECT_EQ(z.unroll, 3);
  EXPECT_EQ(z.step, 48);
  EXPECT_EQ(z.main_trips, 224);
  EXPECT_EQ(z.tail_vectors, 0);
  EXPECT_EQ(z.tail_lanes, 0);
  EXPECT_EQ(z.why,
            "16 lanes x unroll 3 = 48 elements per step; row 10752 = 224 x 48 + 0 vectors + no partial vector; "
            "b repeats every 3 elements, held in 3 registers");

  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_EQ(loops_text(y.outer), "{14: a 10752 b 0 out 10752} ");
  EXPECT_EQ(y.row, 10752);
  EXPECT_EQ(y.period, 3);
  EXPECT_EQ(y.pattern_vectors, 3);  // lcm(3, 8) = 24
  EXPECT_EQ(y.access[1], Access::Pattern);
  EXPECT_EQ(y.step, 24);
  EXPECT_EQ(y.main_trips, 448);

  // The scalar variant keeps the loops as they are.
  const IsaPlan& s = isa_plan(p, Isa::Scalar);
  EXPECT_EQ(loops_text(s.outer), "{14: a 10752 b 0 out 10752} {3584: a 3 b 0 out 3} ");
  EXPECT_EQ(s.row, 3);
  EXPECT_EQ(s.period, 0);
}

// A pattern of an odd number of vectors takes two per step where the
// output stores in pairs (avx512bf16's bf16 rows have store_pair), so that
// every store is a pair; elsewhere one pattern per step, as before.
TEST(Plan, OddPatternsDoubleWhereStoresGoInPairs) {
  PlanOptions o = options();
  o.isas = {Isa::Avx512Bf16, Isa::Avx512, Isa::Avx2};
  const KernelPlan p = plan_kernel(binary(Op::Subtract, DType::Bf16, {1, 224, 224, 3}, {3}), o);
  const IsaPlan& bf = isa_plan(p, Isa::Avx512Bf16);
  EXPECT_EQ(bf.pattern_vectors, 3);
  EXPECT_EQ(bf.unroll, 6);
  EXPECT_EQ(bf.step, 96);
  EXPECT_EQ(bf.main_trips, 112);
  EXPECT_NE(bf.why.find("held in 3 registers; two patterns per step, so that the stores go in pairs"),
            std::string::npos)
      << bf.why;
  const IsaPlan& z = isa_plan(p, Isa::Avx512);  // bf16 stores one vector at a time
  EXPECT_EQ(z.unroll, 3);
  EXPECT_EQ(z.why.find("pairs"), std::string::npos) << z.why;
  EXPECT_EQ(isa_plan(p, Isa::Avx2).unroll, 3);
  // An even count is left alone: period 2 is one vector, four patterns per step.
  const KernelPlan even = plan_kernel(binary(Op::Subtract, DType::Bf16, {1, 224, 224, 2}, {2}), o);
  EXPECT_EQ(isa_plan(even, Isa::Avx512Bf16).pattern_vectors, 1);
  EXPECT_EQ(isa_plan(even, Isa::Avx512Bf16).unroll, 4);
  // f32 has no pair form.
  const KernelPlan f32 = plan_kernel(binary(Op::Subtract, DType::F32, {1, 224, 224, 3}, {3}), o);
  EXPECT_EQ(f32.isas.size(), 2u) << "avx512bf16 would plan f32 as avx512 does";
  EXPECT_EQ(isa_plan(f32, Isa::Avx512).unroll, 3);
}

TEST(Plan, RepeatWithoutBlocksIsOneRow) {
  // 100 x 100 = 10000 periods is not a multiple of 256: no blocks, so the
  // vector variants have no outer loop left and the kernel is one piece.
  const KernelPlan p = plan_kernel(binary(Op::Subtract, DType::F32, {1, 100, 100, 3}, {3}), options());
  EXPECT_EQ(loops_text(p.loops), "{10000: a 3 b 0 out 3} {3: a 1 b 1 out 1} ");
  EXPECT_TRUE(has_pattern(p));
  EXPECT_FALSE(p.split);
  EXPECT_EQ(p.outer_extent, 1);
  EXPECT_EQ(p.split_why, "one piece: the kernel has no outer loop common to all its variants");
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.outer.empty()) << loops_text(z.outer);
  EXPECT_EQ(z.row, 30000);
  EXPECT_EQ(z.period, 3);
  EXPECT_EQ(z.pattern_vectors, 3);
  EXPECT_EQ(z.access[1], Access::Pattern);
  EXPECT_EQ(z.step, 48);
  EXPECT_EQ(z.main_trips, 625);
  EXPECT_EQ(z.tail_vectors, 0);
  EXPECT_EQ(z.tail_lanes, 0);
  EXPECT_EQ(isa_plan(p, Isa::Avx2).main_trips, 1250);
  EXPECT_EQ(loops_text(isa_plan(p, Isa::Scalar).outer), "{10000: a 3 b 0 out 3} ");
}

TEST(Plan, SplitLoop) {
  const KernelPlan bias = plan_kernel(binary(Op::Add, DType::F32, {1, 64, 56, 56}, {1, 64, 1, 1}), options());
  EXPECT_TRUE(bias.split);
  EXPECT_EQ(bias.outer_extent, 64);
  EXPECT_EQ(bias.split_why, "loop i0 (64 iterations) can be split across threads");

  // One long row is cut into blocks of at most max_block_elements.
  const KernelPlan row = plan_kernel(binary(Op::Add, DType::F32, {65536}, {65536}), options());
  EXPECT_EQ(loops_text(row.loops), "{4: a 16384 b 16384 out 16384} {16384: a 1 b 1 out 1} ");
  EXPECT_TRUE(row.split);
  EXPECT_EQ(row.outer_extent, 4);
  EXPECT_EQ(row.split_why,
            "the row of 65536 elements is cut into 4 blocks of 16384 so that it can be split; loop i0 (4 iterations) "
            "can be split across threads");
  EXPECT_EQ(isa_plan(row, Isa::Avx512).row, 16384);
  EXPECT_EQ(isa_plan(row, Isa::Avx512).main_trips, 256);

  PlanOptions small = options();
  small.max_block_elements = 1024;
  const KernelPlan row2 = plan_kernel(binary(Op::Add, DType::F32, {65536}, {65536}), small);
  EXPECT_EQ(loops_text(row2.loops), "{64: a 1024 b 1024 out 1024} {1024: a 1 b 1 out 1} ");

  // Too short to cut: one piece.
  const KernelPlan tiny = plan_kernel(binary(Op::Add, DType::F32, {5}, {5}), options());
  EXPECT_FALSE(tiny.split);
  EXPECT_EQ(tiny.outer_extent, 1);
}

TEST(Plan, RepeatingAOperandAndLargePeriods) {
  // a repeats: [3] - [1,224,224,3].
  const KernelPlan p = plan_kernel(binary(Op::Subtract, DType::F32, {3}, {1, 224, 224, 3}), options());
  EXPECT_TRUE(has_pattern(p));
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_EQ(z.access[0], Access::Pattern);
  EXPECT_EQ(z.access[1], Access::Stream);

  // A period that is a multiple of the lanes needs no pattern: a plain row.
  const KernelPlan q = plan_kernel(binary(Op::Add, DType::F32, {100, 32}, {32}), options());
  EXPECT_FALSE(has_pattern(q));
  const IsaPlan& qz = isa_plan(q, Isa::Avx512);
  EXPECT_EQ(qz.period, 0);
  EXPECT_EQ(qz.row, 32);
  EXPECT_EQ(loops_text(qz.outer), "{100: a 32 b 0 out 32} ");
  EXPECT_EQ(qz.main_trips, 0);
  EXPECT_EQ(qz.tail_vectors, 2);
  EXPECT_EQ(qz.tail_lanes, 0);

  // lcm(17, 16) = 272 elements = 17 registers: too many, keep the rows.
  const KernelPlan r = plan_kernel(binary(Op::Add, DType::F32, {100, 17}, {17}), options());
  const IsaPlan& rz = isa_plan(r, Isa::Avx512);
  EXPECT_EQ(rz.period, 0);
  EXPECT_EQ(rz.row, 17);
  EXPECT_EQ(rz.tail_vectors, 1);
  EXPECT_EQ(rz.tail_lanes, 1);
}

TEST(Plan, ArrayApiExampleLoopNest) {
  // [8,1,6,1] > [7,1,5] -> [8,7,6,5]: no two axes coalesce.
  const KernelPlan p = plan_kernel(binary(Op::Greater, DType::F32, {8, 1, 6, 1}, {7, 1, 5}), options());
  EXPECT_EQ(p.shapes.out, (Shape{8, 7, 6, 5}));
  EXPECT_EQ(loops_text(p.loops),
            "{8: a 6 b 0 out 210} {7: a 0 b 5 out 30} {6: a 1 b 0 out 5} {5: a 0 b 1 out 1} ");
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Splat, Access::Stream}));
  EXPECT_EQ(p.out_dtype, DType::Bool);
  EXPECT_EQ(p.out_numel, 1680);
  EXPECT_EQ(p.out_bytes, 1680);
  EXPECT_EQ(p.outer_extent, 8);

  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.vector);
  EXPECT_EQ(z.outer.size(), 3u);
  EXPECT_EQ(z.row, 5);
  EXPECT_EQ(z.access[0], Access::Splat);
  EXPECT_EQ(z.access[1], Access::Stream);
  EXPECT_EQ(z.main_trips, 0);
  EXPECT_EQ(z.tail_lanes, 5);
  EXPECT_FALSE(z.stream);
}

TEST(Plan, ShortRowsGatherIntoBlocks) {
  // Case 9 of the benchmark as an add: rows of 5 are shorter than a vector.
  // The loops of 6 and 5 fuse into one block of 30 elements; a reads 6 and b
  // reads 5 consecutive elements in it, each loaded once per change and
  // spread over the block's vectors by permutes. The loop of 7 does not
  // join: b would span 35 elements, more than a vector.
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::F32, {8, 1, 6, 1}, {7, 1, 5}), options());
  EXPECT_EQ(loops_text(p.loops),
            "{8: a 6 b 0 out 210} {7: a 0 b 5 out 30} {6: a 1 b 0 out 5} {5: a 0 b 1 out 1} ");
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_EQ(loops_text(z.outer), "{8: a 6 b 0 out 210} {7: a 0 b 5 out 30} ");
  EXPECT_EQ(loops_text(z.block), "{6: a 1 b 0 out 5} {5: a 0 b 1 out 1} ");
  EXPECT_EQ(z.row, 30);
  EXPECT_EQ(z.access[0], Access::Gather);
  EXPECT_EQ(z.access[1], Access::Gather);
  EXPECT_EQ(z.span[0], 6);
  EXPECT_EQ(z.span[1], 5);
  EXPECT_EQ(z.tail_vectors, 1);
  EXPECT_EQ(z.tail_lanes, 14);
  EXPECT_EQ(z.why,
            "rows of 5 are shorter than 16 lanes: loops i2..i3 (6 x 5) fuse into one block of 30 = 1 vector + 14 "
            "masked lanes; a spans 6 elements: one masked load, then a constant permute per vector; b spans 5 "
            "elements: one masked load, then a constant permute per vector");
  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_EQ(y.row, 30);
  EXPECT_EQ(y.tail_vectors, 3);
  EXPECT_EQ(y.tail_lanes, 6);
  EXPECT_TRUE(p.split);  // i0 is still every variant's outermost loop

  // An operand that moves with the output stays a plain load: [16,3,2] +
  // [16,1,1] fuses into one block of 96 = 6 vectors where a streams and b's
  // 16 values are spread 6 each. On avx2 the block would be 12 vectors, over
  // the limit of 8, so rows stay rows.
  const KernelPlan q = plan_kernel(binary(Op::Add, DType::F32, {16, 3, 2}, {16, 1, 1}), options());
  EXPECT_EQ(loops_text(q.loops), "{16: a 6 b 1 out 6} {6: a 1 b 0 out 1} ");
  const IsaPlan& qz = isa_plan(q, Isa::Avx512);
  EXPECT_TRUE(qz.outer.empty());
  EXPECT_EQ(qz.row, 96);
  EXPECT_EQ(qz.access[0], Access::Stream);
  EXPECT_EQ(qz.access[1], Access::Gather);
  EXPECT_EQ(qz.span[1], 16);
  EXPECT_EQ(qz.tail_vectors, 6);
  EXPECT_EQ(qz.tail_lanes, 0);
  EXPECT_TRUE(isa_plan(q, Isa::Avx2).block.empty());
  EXPECT_EQ(isa_plan(q, Isa::Avx2).row, 6);

  // Bool outputs (comparisons) and bytes keep their row loops.
  const KernelPlan c = plan_kernel(binary(Op::Greater, DType::F32, {8, 1, 6, 1}, {7, 1, 5}), options());
  EXPECT_TRUE(isa_plan(c, Isa::Avx512).block.empty());
  const KernelPlan u = plan_kernel(binary(Op::Add, DType::U8, {8, 1, 6, 1}, {7, 1, 5}), options());
  EXPECT_TRUE(isa_plan(u, Isa::Avx512).block.empty());
}

TEST(Plan, ShortRowIsAllTail) {
  const KernelPlan p = plan_kernel(binary(Op::Multiply, DType::F32, {5}, {5}), options());
  EXPECT_EQ(loops_text(p.loops), "{5: a 1 b 1 out 1} ");
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Stream, Access::Stream}));
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.outer.empty());
  EXPECT_EQ(z.row, 5);
  EXPECT_EQ(z.main_trips, 0);
  EXPECT_EQ(z.tail_vectors, 0);
  EXPECT_EQ(z.tail_lanes, 5);
  EXPECT_EQ(z.why, "16 lanes x unroll 4 = 64 elements per step; row 5 = 0 x 64 + 0 vectors + a masked vector of 5 lanes");
  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_EQ(y.tail_lanes, 5);
  EXPECT_EQ(y.why, "8 lanes x unroll 4 = 32 elements per step; row 5 = 0 x 32 + 0 vectors + 5 unrolled scalar elements");

  // 100 = 1 x 64 + 2 vectors + 4 lanes on avx512.
  const KernelPlan h = plan_kernel(binary(Op::Add, DType::F32, {100}, {100}), options());
  const IsaPlan& hz = isa_plan(h, Isa::Avx512);
  EXPECT_EQ(hz.main_trips, 1);
  EXPECT_EQ(hz.tail_vectors, 2);
  EXPECT_EQ(hz.tail_lanes, 4);
}

TEST(Plan, OpWithoutVocabularyEntryRunsLaneByLane) {
  // i32 divide has no vector form: the node runs lane by lane inside the vector loop.
  const KernelPlan p = plan_kernel(binary(Op::Divide, DType::I32, {64, 64}, {64}), options());
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.vector);
  EXPECT_EQ(z.lanes, 16);
  EXPECT_EQ(z.lane_nodes, (std::vector<std::size_t>{2}));
  EXPECT_EQ(z.why,
            "16 lanes x unroll 4 = 64 elements per step; row 64 = 1 x 64 + 0 vectors + no partial vector; "
            "lane by lane (no avx512 vector form): node t2 = divide(t0, t1) : i32");
  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_TRUE(y.vector);
  EXPECT_NE(y.why.find("lane by lane (no avx2 vector form): node t2 = divide(t0, t1) : i32"), std::string::npos)
      << y.why;
  // The f32 divide has one.
  EXPECT_TRUE(isa_plan(plan_kernel(binary(Op::Divide, DType::F32, {64}, {64}), options()), Isa::Avx512).vector);
}

TEST(Plan, ZeroSizeIsEmpty) {
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::F32, {0, 3}, {3}), options());
  EXPECT_TRUE(p.empty);
  EXPECT_EQ(p.out_numel, 0);
  EXPECT_EQ(p.out_bytes, 0);
  for (const IsaPlan& ip : p.isas) {
    EXPECT_TRUE(ip.outer.empty()) << bcastgen::isa_name(ip.isa);
    EXPECT_EQ(ip.row, 0);
    EXPECT_FALSE(ip.vector);
    EXPECT_FALSE(ip.stream);
  }
}

TEST(Plan, OneElement) {
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::F32, {1, 1}, {}), options());
  EXPECT_TRUE(p.loops.empty());
  EXPECT_EQ(p.out_numel, 1);
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Stream, Access::Stream}));
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_EQ(z.row, 1);
  EXPECT_EQ(z.tail_lanes, 1);
}

TEST(Plan, StreamingStores) {
  // The footprint counts every element of a, b and out once:
  // 802816 + 802816 + 256 bytes.
  const KernelSpec k = binary(Op::Add, DType::F32, {1, 64, 56, 56}, {1, 64, 1, 1});
  const KernelPlan at = plan_kernel(k, options(1605888));
  EXPECT_EQ(at.footprint_bytes, 1605888);
  EXPECT_TRUE(isa_plan(at, Isa::Avx512).stream);
  EXPECT_TRUE(isa_plan(at, Isa::Avx2).stream);
  EXPECT_FALSE(isa_plan(at, Isa::Scalar).stream);
  EXPECT_NE(isa_plan(at, Isa::Avx512).why.find("streaming stores (footprint 1605888 bytes >= 1605888, the spec's "
                                                "threshold)"),
            std::string::npos);

  const KernelPlan below = plan_kernel(k, options(1605889));
  EXPECT_FALSE(isa_plan(below, Isa::Avx512).stream);
  EXPECT_FALSE(isa_plan(below, Isa::Avx2).stream);

  // Without a threshold in the options, the CPU kind's: 40 MiB, and 24 MiB
  // for kernels that read at least as many bytes as they write. Benchmark
  // case 1 (48 MiB) streams; so does a 12 MiB input to a 12 MiB output
  // (bench/math's [8,128,3072]), and a 32 MiB one, but not at 23.9 MiB; the
  // Broadcast op of case 13 (32 MiB of output from 4 KiB; its target has no
  // data) stays in cache, where normal stores are faster.
  PlanOptions defaults;
  defaults.isas = {Isa::Avx512};
  EXPECT_TRUE(plan_kernel(binary(Op::Add, DType::F32, {4194304}, {4194304}), defaults).isas[0].stream);
  const KernelPlan math = plan_kernel(binary(Op::Add, DType::F32, {8, 128, 3072}, {1}), defaults);
  EXPECT_EQ(math.footprint_bytes, 2 * 4 * 8 * 128 * 3072 + 4);
  EXPECT_EQ(bcastgen::gen::stream_threshold(math, defaults), 24 << 20);
  EXPECT_TRUE(math.isas[0].stream);
  EXPECT_NE(math.isas[0].why.find(
                ">= 25165824, the generic kind's threshold for kernels that read as much as they write)"),
            std::string::npos)
      << math.isas[0].why;
  EXPECT_FALSE(plan_kernel(binary(Op::Add, DType::F32, {8, 128, 3056}, {1}), defaults).isas[0].stream);
  const KernelSpec bc =
      bcastgen::gen::broadcast_kernel("bc", DType::F32, bcastgen::BroadcastMode::Numpy, {1, 1, 1024}, {64, 128, 1024});
  const KernelPlan bcp = plan_kernel(bc, defaults);
  EXPECT_EQ(bcp.footprint_bytes, (32 << 20) + 4096);
  EXPECT_EQ(bcastgen::gen::stream_threshold(bcp, defaults), 40 << 20);
  EXPECT_FALSE(bcp.isas[0].stream);
  // A spec's threshold is one number for every kernel.
  PlanOptions spec_threshold = defaults;
  spec_threshold.stream_threshold_bytes = 32 << 20;
  EXPECT_TRUE(plan_kernel(bc, spec_threshold).isas[0].stream);
  EXPECT_FALSE(plan_kernel(binary(Op::Add, DType::F32, {8, 128, 3072}, {1}), spec_threshold).isas[0].stream);

  // The footprint saturates instead of overflowing (a fuzzer find): the
  // output's 4.8e18 bytes fit in 64 bits, a's as many again do not.
  const KernelPlan huge =
      plan_kernel(binary(Op::Less, DType::U8, {8, 33, 64, 65536, 65536, 65536}, {1}), options());
  EXPECT_EQ(huge.out_bytes, 8LL * 33 * 64 * 65536 * 65536 * 65536);
  EXPECT_EQ(huge.footprint_bytes, std::numeric_limits<std::int64_t>::max());

  // Rows of 49 floats (196 bytes) do not start on vector boundaries.
  const KernelPlan unaligned = plan_kernel(binary(Op::Add, DType::F32, {1, 64, 7, 7}, {1, 64, 1, 1}), options(0));
  EXPECT_FALSE(isa_plan(unaligned, Isa::Avx512).stream);
  EXPECT_FALSE(isa_plan(unaligned, Isa::Avx2).stream);

  // Rows of 8 floats (32 bytes): aligned for avx2, not for avx512.
  const KernelPlan half = plan_kernel(binary(Op::Add, DType::F32, {64, 8}, {64, 1}), options(0));
  EXPECT_FALSE(isa_plan(half, Isa::Avx512).stream);
  EXPECT_TRUE(isa_plan(half, Isa::Avx2).stream);
}

TEST(Plan, ByteLanes) {
  // 1000 u8: not a multiple of 256, so one row.
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::U8, {1000}, {1000}), options());
  EXPECT_EQ(loops_text(p.loops), "{1000: a 1 b 1 out 1} ");
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_TRUE(z.vector);
  EXPECT_EQ(z.lanes, 64);
  EXPECT_EQ(z.step, 256);
  EXPECT_EQ(z.main_trips, 3);     // 768
  EXPECT_EQ(z.tail_vectors, 3);   // + 192
  EXPECT_EQ(z.tail_lanes, 40);    // + 40
  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_TRUE(y.vector);
  EXPECT_EQ(y.lanes, 32);
  EXPECT_EQ(y.step, 128);
  EXPECT_EQ(y.main_trips, 7);     // 896
  EXPECT_EQ(y.tail_vectors, 3);   // + 96
  EXPECT_EQ(y.tail_lanes, 8);     // + 8

  const KernelPlan d = plan_kernel(binary(Op::Add, DType::F64, {4096}, {4096}), options());
  EXPECT_EQ(isa_plan(d, Isa::Avx512).lanes, 8);
  EXPECT_EQ(isa_plan(d, Isa::Avx2).lanes, 4);
}

TEST(Plan, BroadcastOpCopyAndFill) {
  KernelSpec k = bcastgen::gen::broadcast_kernel("expand", DType::F32, bcastgen::BroadcastMode::Bidirectional, {3, 1},
                                                 {2, 1, 6});
  const KernelPlan p = plan_kernel(k, options());
  EXPECT_EQ(p.shapes.out, (Shape{2, 3, 6}));
  EXPECT_EQ(loops_text(p.loops), "{2: a 0 b 0 out 18} {3: a 1 b 0 out 6} {6: a 0 b 0 out 1} ");
  EXPECT_EQ(p.loops.back().in[0], 0);  // one value per row: a fill (avx512 gathers the short rows)

  k.inputs[0].shape = {1, 6};
  k.target = {4, 6};
  const KernelPlan c = plan_kernel(k, options());
  EXPECT_EQ(loops_text(c.loops), "{4: a 0 b 0 out 6} {6: a 1 b 0 out 1} ");
  EXPECT_TRUE(has_pattern(c));  // the input repeats every 6 elements
  EXPECT_EQ(isa_plan(c, Isa::Avx512).access[0], Access::Pattern);
  EXPECT_EQ(isa_plan(c, Isa::Avx512).row, 24);
}

TEST(Plan, DescribeLoops) {
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::F32, {1, 64, 56, 56}, {1, 64, 1, 1}), options());
  const std::string d = bcastgen::gen::describe_loops(p, "// ");
  EXPECT_NE(d.find("inputs: a contiguous, b scalar"), std::string::npos) << d;
  EXPECT_NE(d.find("3136"), std::string::npos) << d;
  EXPECT_EQ(std::string(bcastgen::gen::operand_class(Access::Pattern)), "repeat");
}

// An expression kernel over named inputs of its own types.
KernelSpec fused(const std::string& expr, std::vector<bcastgen::gen::InputSpec> inputs) {
  KernelSpec k;
  k.name = "f";
  k.inputs = std::move(inputs);
  k.expr_text = expr;
  std::vector<bcastgen::gen::ExprInput> decl;
  for (const auto& in : k.inputs) decl.push_back({in.name, in.dtype});
  k.expr = bcastgen::gen::parse_expr(expr, decl);
  return k;
}

// A kernel that computes an approximated math function is bound by its
// arithmetic: it keeps normal stores at any size, unless the spec sets a
// threshold; exact unary ops (abs, floor, ...) and the fast tier do not
// count.
TEST(Plan, MathFunctionsKeepNormalStores) {
  PlanOptions defaults;
  defaults.isas = {Isa::Avx512};
  const bcastgen::gen::InputSpec big{"x", {32, 128, 3072}, DType::F32, {}};  // 48 MiB in, 48 MiB out
  for (const char* expr : {"exp(x)", "x * sigmoid(x)", "gelu(x + 1)"}) {
    const KernelPlan p = plan_kernel(fused(expr, {big}), defaults);
    EXPECT_FALSE(bcastgen::gen::stream_threshold(p, defaults).has_value()) << expr;
    EXPECT_FALSE(p.isas[0].stream) << expr;
    EXPECT_NE(p.isas[0].why.find("; normal stores: its math functions keep it compute-bound"), std::string::npos)
        << p.isas[0].why;
  }
  // The fast tier's forms leave a kernel bound by memory: they stream.
  for (const char* expr : {"abs(x) + 1", "floor(x)", "sqrt(x)", "max(x, 0)", "fast_sigmoid(x)", "fast_tanh(x) * 2"}) {
    const KernelPlan p = plan_kernel(fused(expr, {big}), defaults);
    EXPECT_EQ(bcastgen::gen::stream_threshold(p, defaults), 24 << 20) << expr;
    EXPECT_TRUE(p.isas[0].stream) << expr;
  }
  PlanOptions spec_threshold = defaults;
  spec_threshold.stream_threshold_bytes = 1 << 20;
  EXPECT_TRUE(plan_kernel(fused("exp(x)", {big}), spec_threshold).isas[0].stream);
}

// A bf16 output rounds without the NaN fixup only where its NaNs can only
// be bf16 NaNs: bf16 operands through IEEE ops, not an f32 or f16 value.
TEST(Plan, Bf16StoreSkipsTheNanFixupOnlyForBf16Nans) {
  auto exact = [](const std::string& expr, DType x_type, DType y_type) {
    const KernelPlan p = plan_kernel(fused(expr, {{"x", {64}, x_type, {}}, {"y", {64}, y_type, {}}}), options());
    return p.root_nans_exact;
  };
  EXPECT_TRUE(exact("x * y", DType::Bf16, DType::Bf16));
  EXPECT_TRUE(exact("max(x * y + x, 0)", DType::Bf16, DType::Bf16));
  EXPECT_TRUE(exact("where(x > y, sqrt(x), -y)", DType::Bf16, DType::Bf16));
  EXPECT_TRUE(exact("cast(cast(x, f32) * 0.5, bf16) + cast(y, bf16)", DType::Bf16, DType::I32));
  EXPECT_FALSE(exact("cast(cast(x, f32) + y, bf16)", DType::Bf16, DType::F32));
  EXPECT_FALSE(exact("cast(cast(x, f32) * cast(y, f32), bf16)", DType::Bf16, DType::F16));
  EXPECT_FALSE(exact("exp(x * y)", DType::Bf16, DType::Bf16));
  // A node of type bf16 below the root was rounded to bf16, NaNs too.
  EXPECT_TRUE(exact("x + cast(y, bf16)", DType::Bf16, DType::F16));
  EXPECT_TRUE(exact("exp(x) + y", DType::Bf16, DType::Bf16));
  EXPECT_FALSE(exact("x * y", DType::F32, DType::F32));
}

// avx512fp16: native f16 lanes, 32 per register; an f32 node takes two. A
// kernel without f16 is AVX-512's and gets no variant of its own, unless
// AVX-512 is not planned.
TEST(Plan, Avx512Fp16HasNativeF16LanesForF16KernelsOnly) {
  PlanOptions o = options();
  o.isas.insert(o.isas.begin(), Isa::Avx512Fp16);
  const KernelPlan h = plan_kernel(fused("x * g + x", {{"x", {8, 128, 768}, DType::F16, {}},
                                                       {"g", {768}, DType::F16, {}}}), o);
  ASSERT_EQ(h.isas.size(), 4u);
  const IsaPlan& n = isa_plan(h, Isa::Avx512Fp16);
  EXPECT_TRUE(n.vector);
  EXPECT_EQ(n.lanes, 32);
  EXPECT_EQ(n.lane_dtype, DType::F16);
  EXPECT_TRUE(n.lane_nodes.empty());
  EXPECT_EQ(isa_plan(h, Isa::Avx512).lanes, 16);  // f16 held as f32 there
  // Mixed with f32: the f32 nodes take two registers, the casts are vector forms.
  const KernelPlan m = plan_kernel(fused("cast(cast(x, f32) * b, f16)", {{"x", {4, 96}, DType::F16, {}},
                                                                       {"b", {96}, DType::F32, {}}}), o);
  const IsaPlan& mn = isa_plan(m, Isa::Avx512Fp16);
  EXPECT_TRUE(mn.vector);
  EXPECT_EQ(mn.lanes, 32);
  EXPECT_EQ(mn.parts, (std::vector<int>{1, 2, 2, 2, 1}));
  EXPECT_TRUE(mn.lane_nodes.empty());
  // power has no f16 form: lane by lane inside the 32-lane loop.
  const KernelPlan pw = plan_kernel(fused("pow(x, g)", {{"x", {64}, DType::F16, {}}, {"g", {64}, DType::F16, {}}}), o);
  EXPECT_EQ(isa_plan(pw, Isa::Avx512Fp16).lane_nodes, (std::vector<std::size_t>{2}));
  // No f16 node: AVX-512's variant serves; alone, the ISA plans it with AVX-512's forms.
  const KernelPlan f = plan_kernel(binary(Op::Add, DType::F32, {4, 64}, {64}), o);
  EXPECT_TRUE(std::none_of(f.isas.begin(), f.isas.end(), [](const IsaPlan& ip) { return ip.isa == Isa::Avx512Fp16; }));
  PlanOptions only = options();
  only.isas = {Isa::Avx512Fp16};
  const KernelPlan fo = plan_kernel(binary(Op::Add, DType::F32, {4, 64}, {64}), only);
  ASSERT_EQ(fo.isas.size(), 1u);
  EXPECT_TRUE(fo.isas[0].vector);
  EXPECT_EQ(fo.isas[0].lanes, 16);
}

// An Expand node's target joins the output's shape; its operand reads as
// numpy aligns it there, and the node itself is its operand's registers.
TEST(Plan, ExpandTargetsShapeTheOutput) {
  const KernelPlan p = plan_kernel(fused("expand(x, [2, 3, 5]) * y", {{"x", {3, 1}, DType::F32, {}},
                                                                       {"y", {5}, DType::F32, {}}}),
                                   options());
  EXPECT_EQ(p.shapes.out, (Shape{2, 3, 5}));
  EXPECT_EQ(p.shapes.strides, (std::vector<Shape>{{0, 1, 0}, {0, 0, 1}}));
  EXPECT_TRUE(isa_plan(p, Isa::Avx2).vector);
  EXPECT_TRUE(isa_plan(p, Isa::Avx2).lane_nodes.empty());
}

TEST(Plan, ThreeInputsCoalesceAndClassifyEachOnItsOwn) {
  const KernelPlan p = plan_kernel(fused("max(x * scale + shift, 0)", {{"x", {1, 64, 112, 112}, DType::F32, {}},
                                                                     {"scale", {1, 64, 1, 1}, DType::F32, {}},
                                                                     {"shift", {1, 64, 1, 1}, DType::F32, {}}}),
                                   options());
  ASSERT_EQ(p.loops.size(), 2u);
  EXPECT_EQ(p.loops[0].extent, 64);
  EXPECT_EQ(p.loops[0].in, (std::vector<std::int64_t>{12544, 1, 1}));
  EXPECT_EQ(p.loops[1].in, (std::vector<std::int64_t>{1, 0, 0}));
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Stream, Access::Splat, Access::Splat}));
  EXPECT_TRUE(isa_plan(p, Isa::Avx512).vector);
  EXPECT_EQ(isa_plan(p, Isa::Avx512).lane_dtype, DType::F32);
  EXPECT_EQ(p.footprint_bytes, 4 * (2 * 64 * 12544 + 2 * 64));

  // Two inputs repeat with the NHWC channel period, one streams.
  const KernelPlan r = plan_kernel(fused("min(max(x + bias, lo), 6)", {{"x", {1, 7, 7, 3}, DType::F32, {}},
                                                                      {"bias", {3}, DType::F32, {}},
                                                                      {"lo", {3}, DType::F32, {}}}),
                                   options());
  EXPECT_EQ(r.classes, (std::vector<Access>{Access::Stream, Access::Pattern, Access::Pattern}));
  EXPECT_EQ(isa_plan(r, Isa::Avx512).period, 3);
}

TEST(Plan, NodesWithoutAVectorFormRunScalarAndAreNamed) {
  // atan2 has no vector form: it runs lane by lane, the add stays a vector; a cast mixes lane types.
  const KernelPlan a = plan_kernel(fused("atan2(x, y) + x", {{"x", {64}, DType::F32, {}}, {"y", {64}, DType::F32, {}}}),
                                   options());
  EXPECT_TRUE(isa_plan(a, Isa::Avx512).vector);
  EXPECT_EQ(isa_plan(a, Isa::Avx512).lane_nodes, (std::vector<std::size_t>{2}));
  EXPECT_NE(isa_plan(a, Isa::Avx512).why.find("lane by lane (no avx512 vector form): node t2 = atan2(t0, t1) : f32"),
            std::string::npos)
      << isa_plan(a, Isa::Avx512).why;
  // A cast within one width is a vector cast (i32 -> f32: cvtdq2ps); one
  // between widths makes a scalar loop that names it.
  const KernelPlan c = plan_kernel(fused("cast(x, f32) * y", {{"x", {64}, DType::I32, {}}, {"y", {64}, DType::F32, {}}}),
                                   options());
  EXPECT_TRUE(isa_plan(c, Isa::Avx2).vector);
  EXPECT_TRUE(isa_plan(c, Isa::Avx2).lane_nodes.empty());
  EXPECT_EQ(isa_plan(c, Isa::Avx2).lane_dtype, DType::F32);
  const KernelPlan u = plan_kernel(fused("cast(x, f32) * y", {{"x", {64}, DType::U32, {}}, {"y", {64}, DType::F32, {}}}),
                                   options());
  EXPECT_EQ(isa_plan(u, Isa::Avx2).lane_nodes, (std::vector<std::size_t>{1}));  // no AVX2 u32 -> f32
  EXPECT_TRUE(isa_plan(u, Isa::Avx512).lane_nodes.empty());
  // Between widths: the lanes are the narrowest type's, a wider node takes
  // several registers, and the unroll shrinks by as much.
  const KernelPlan w = plan_kernel(fused("cast(x, f64) * y", {{"x", {64}, DType::F32, {}}, {"y", {64}, DType::F64, {}}}),
                                   options());
  const IsaPlan& w2 = isa_plan(w, Isa::Avx2);
  EXPECT_TRUE(w2.vector);
  EXPECT_TRUE(w2.lane_nodes.empty());
  EXPECT_EQ(w2.lane_dtype, DType::F32);
  EXPECT_EQ(w2.lanes, 8);
  EXPECT_EQ(w2.parts, (std::vector<int>{1, 2, 2, 2}));
  EXPECT_EQ(w2.unroll, 2);
  EXPECT_NE(w2.why.find("mixed widths in lanes of f32: f64 nodes in 2 registers per vector"), std::string::npos)
      << w2.why;
  // u8 pixels into f32: four f32 registers per vector of 32 (AVX2) or 64 (AVX-512) bytes.
  const KernelPlan px = plan_kernel(
      fused("cast(x, f32) * s", {{"x", {3, 224, 224}, DType::U8, {}}, {"s", {3, 1, 1}, DType::F32, {}}}), options());
  EXPECT_EQ(isa_plan(px, Isa::Avx2).lanes, 32);
  EXPECT_EQ(isa_plan(px, Isa::Avx512).lanes, 64);
  EXPECT_EQ(isa_plan(px, Isa::Avx512).parts, (std::vector<int>{1, 4, 4, 4}));
  EXPECT_EQ(isa_plan(px, Isa::Avx512).unroll, 1);
  // A cast with no form between widths (i64 -> i8) runs lane by lane; bools
  // beside mixed widths make a scalar loop.
  const KernelPlan n8 = plan_kernel(fused("cast(x, i8) + y", {{"x", {64}, DType::I64, {}}, {"y", {64}, DType::I8, {}}}),
                                    options());
  EXPECT_EQ(isa_plan(n8, Isa::Avx2).lane_nodes, (std::vector<std::size_t>{1}));
  const KernelPlan wb = plan_kernel(
      fused("where(x > 0.0, cast(x, f64), y)", {{"x", {64}, DType::F32, {}}, {"y", {64}, DType::F64, {}}}), options());
  EXPECT_FALSE(isa_plan(wb, Isa::Avx2).vector);
  EXPECT_NE(isa_plan(wb, Isa::Avx2).why.find("mixes element widths and has bools"), std::string::npos)
      << isa_plan(wb, Isa::Avx2).why;
  // A bool input selects: vectorized as a compare result of the f32 lanes.
  const KernelPlan m = plan_kernel(
      fused("where(keep, s * 0.125, -10000.0)", {{"s", {8, 12, 128, 128}, DType::F32, {}},
                                                  {"keep", {1, 1, 128, 128}, DType::Bool, {}}}),
      options());
  EXPECT_TRUE(isa_plan(m, Isa::Avx512).vector);
  EXPECT_TRUE(isa_plan(m, Isa::Avx2).vector);
  // Bools between f32 and i32 lanes: one mask type on AVX-512, two register types on AVX2.
  const KernelPlan b = plan_kernel(
      fused("where(i > 5, y, 0.0)", {{"i", {64}, DType::I32, {}}, {"y", {64}, DType::F32, {}}}), options());
  EXPECT_TRUE(isa_plan(b, Isa::Avx512).vector);
  EXPECT_FALSE(isa_plan(b, Isa::Avx2).vector);
  EXPECT_NE(isa_plan(b, Isa::Avx2).why.find("of different register types"), std::string::npos)
      << isa_plan(b, Isa::Avx2).why;
}

// An attention mask [8,12,128,128] + [8,1,1,128]: loop i1 (the 12 x 128
// rows of one batch) does not move m, so AVX-512 holds m's row of 8
// vectors in registers, loaded once per i0, and unrolls the row whole.
// AVX2 would need 16 of its 16 registers: m stays a stream there.
TEST(Plan, RowThatTheInnermostLoopDoesNotMoveIsHeld) {
  const KernelPlan p = plan_kernel(binary(Op::Add, DType::Bf16, {8, 12, 128, 128}, {8, 1, 1, 128}), options());
  EXPECT_EQ(loops_text(p.loops), "{8: a 196608 b 128 out 196608} {1536: a 128 b 0 out 128} {128: a 1 b 1 out 1} ");
  EXPECT_EQ(p.classes, (std::vector<Access>{Access::Stream, Access::Held}));
  EXPECT_EQ(bcastgen::gen::operand_class(Access::Held), std::string("contiguous"));
  const IsaPlan& z = isa_plan(p, Isa::Avx512);
  EXPECT_EQ(z.access, (std::vector<Access>{Access::Stream, Access::Held}));
  EXPECT_EQ(z.held_vectors, 8);
  EXPECT_EQ(z.main_trips, 0);
  EXPECT_EQ(z.tail_vectors, 8);
  EXPECT_EQ(z.tail_lanes, 0);
  EXPECT_EQ(z.why,
            "16 lanes; row 128 unrolled whole: 8 vectors in groups of 4 + no partial vector; b held in 8 registers "
            "(loop i1 does not move it: loaded once where it changes)");
  const IsaPlan& y = isa_plan(p, Isa::Avx2);
  EXPECT_EQ(y.access, (std::vector<Access>{Access::Stream, Access::Stream}));
  EXPECT_EQ(y.held_vectors, 0);
  EXPECT_EQ(y.main_trips, 4);

  // A partial last vector reads the row as a stream; two held rows share the budget.
  const KernelPlan q = plan_kernel(binary(Op::Add, DType::F32, {8, 12, 100}, {8, 1, 100}), options());
  const IsaPlan& qz = isa_plan(q, Isa::Avx512);
  EXPECT_EQ(qz.held_vectors, 6);
  EXPECT_EQ(qz.tail_lanes, 4);
  const KernelPlan three = plan_kernel(fused("a + b * c", {{"a", {8, 12, 100}, DType::F32, {}},
                                                         {"b", {8, 1, 100}, DType::F32, {}},
                                                         {"c", {8, 1, 100}, DType::F32, {}}}),
                                       options());
  const IsaPlan& tz = isa_plan(three, Isa::Avx512);
  EXPECT_EQ(tz.held_vectors, 0);  // 2 x 6 registers > 8
  EXPECT_EQ(tz.access[1], Access::Stream);

  // Nothing to reuse: the only outer loop is the split loop, a call per iteration.
  const KernelPlan s = plan_kernel(binary(Op::Add, DType::F32, {8, 128}, {1, 128}), options());
  EXPECT_EQ(isa_plan(s, Isa::Avx512).held_vectors, 0);
  EXPECT_EQ(isa_plan(s, Isa::Avx512).access[1], Access::Stream);
}

}  // namespace

// Max and min with a literal operand: the literal first as written, a
// non-zero literal second swapped, +0.0 second the zero form; -0.0 second,
// two variables and integers keep the ops' forms.
std::string literal_forms(const IsaPlan& ip) {
  std::string s;
  for (const IsaPlan::LiteralMinMax& m : ip.literal_minmax) {
    const std::string number = m.form == bcastgen::gen::LiteralForm::Zero ? "" : "t" + std::to_string(m.number) + ", ";
    s += "t" + std::to_string(m.node) + (number.empty() ? " zero(" : " number(") + number + "t" + std::to_string(m.x) + ") ";
  }
  return s;
}

TEST(Plan, MaxMinWithALiteralTakeTheShortForms) {
  auto forms = [](const std::string& expr, DType t) {
    const KernelPlan p = plan_kernel(fused(expr, {{"x", {64}, t, {}}, {"y", {64}, t, {}}}), options());
    EXPECT_EQ(literal_forms(isa_plan(p, Isa::Avx2)), literal_forms(isa_plan(p, Isa::Avx512))) << expr;
    EXPECT_TRUE(isa_plan(p, Isa::Scalar).literal_minmax.empty());
    return literal_forms(isa_plan(p, Isa::Avx2));
  };
  EXPECT_EQ(forms("max(x, 0)", DType::F32), "t2 zero(t0) ");
  EXPECT_EQ(forms("min(x, 0.0)", DType::F64), "t2 zero(t0) ");
  EXPECT_EQ(forms("max(0, x)", DType::F32), "t2 number(t0, t1) ");
  EXPECT_EQ(forms("min(x, 6)", DType::Bf16), "t2 number(t1, t0) ");
  EXPECT_EQ(forms("min(max(x, -1.5), 6)", DType::F16), "t2 number(t1, t0) t4 number(t3, t2) ");
  EXPECT_EQ(forms("max(-0.0, x)", DType::F32), "t2 number(t0, t1) ");
  EXPECT_EQ(forms("max(x, -0.0)", DType::F32), "");
  EXPECT_EQ(forms("max(x, y)", DType::F32), "");
  EXPECT_EQ(forms("max(x, 0)", DType::I32), "");
  const KernelPlan p = plan_kernel(fused("max(x, 0)", {{"x", {64}, DType::F32, {}}}), options());
  EXPECT_NE(isa_plan(p, Isa::Avx2).why.find("short max/min forms for a literal operand: node t2 = maximum(t0, t1) : f32"),
            std::string::npos)
      << isa_plan(p, Isa::Avx2).why;
}

// A bf16 root that only picks or re-signs bf16 values is stored unrounded.
TEST(Plan, Bf16RootOfBf16ValuesIsStoredUnrounded) {
  auto in_type = [](const std::string& expr, DType y_type, bool compute_f32 = false) {
    KernelSpec k = fused(expr, {{"x", {64}, DType::Bf16, {}}, {"y", {64}, y_type, {}}});
    k.compute_f32 = compute_f32;
    return plan_kernel(k, options()).root_in_type;
  };
  EXPECT_TRUE(in_type("max(x, 0)", DType::Bf16));
  EXPECT_TRUE(in_type("max(x * y, x)", DType::Bf16));  // the product was rounded to bf16
  EXPECT_TRUE(in_type("where(x > y, -x, copysign(abs(y), x))", DType::Bf16));
  EXPECT_FALSE(in_type("max(x * y, x)", DType::Bf16, true));  // compute f32: the product is not rounded
  EXPECT_FALSE(in_type("x * y", DType::Bf16));
  EXPECT_FALSE(in_type("max(x, cast(y, bf16)) + x", DType::F32));
  EXPECT_TRUE(in_type("max(x, cast(y, bf16))", DType::F32));  // the cast rounded
  EXPECT_FALSE(in_type("cast(max(y, 0), bf16)", DType::F32));
  EXPECT_FALSE(plan_kernel(fused("max(x, 0)", {{"x", {64}, DType::F16, {}}}), options()).root_in_type);
}

// The stores are the plan's (IsaPlan::RootStores), forms of the output
// type's vocabulary: a bf16 root of bf16 values stores unrounded, AVX2's
// partial vector stores its first lanes plainly, a compare into bool on AVX2
// stores four vectors' results at once, and the streaming twin streams.
TEST(Plan, StoresAreTheVocabularysFormsTheProofsAllow) {
  const bcastgen::gen::Vocabulary& voc = bcastgen::gen::Vocabulary::builtin();
  PlanOptions o = options();
  o.isas = {Isa::Avx512Bf16, Isa::Avx512, Isa::Avx2};
  const KernelPlan picks =
      plan_kernel(fused("max(x, y)", {{"x", {4096}, DType::Bf16, {}}, {"y", {4096}, DType::Bf16, {}}}), o);
  ASSERT_TRUE(picks.root_in_type);
  const bcastgen::gen::Form& exact = voc.type(Isa::Avx512Bf16, DType::Bf16)->store_exact;
  ASSERT_FALSE(exact.empty());
  EXPECT_EQ(form_text(isa_plan(picks, Isa::Avx512Bf16).stores.whole), form_text(exact));
  EXPECT_TRUE(isa_plan(picks, Isa::Avx512Bf16).stores.group.empty()) << "one unrounded store is cheaper than a pair";

  // The Array API example: gathered blocks of 5 x 7 elements, each ending in a partial vector.
  const KernelPlan add = plan_kernel(binary(Op::Add, DType::F32, {8, 1, 6, 1}, {7, 1, 5}), o);
  const IsaPlan& y = isa_plan(add, Isa::Avx2);
  ASSERT_FALSE(y.block.empty()) << y.why;
  ASSERT_GT(y.tail_lanes, 0) << y.why;
  EXPECT_TRUE(y.stores.partial_first);
  EXPECT_EQ(form_text(y.stores.partial), form_text(voc.type(Isa::Avx2, DType::F32)->store_first));
  EXPECT_EQ(form_text(y.stores.whole), form_text(voc.type(Isa::Avx2, DType::F32)->store));
  EXPECT_FALSE(isa_plan(add, Isa::Avx512).stores.partial_first);
  EXPECT_EQ(form_text(isa_plan(add, Isa::Avx512).stores.partial), form_text(voc.type(Isa::Avx512, DType::F32)->store_tail));

  const KernelPlan greater = plan_kernel(binary(Op::Greater, DType::F32, {1024, 1024}, {1024}), o);
  const IsaPlan& g = isa_plan(greater, Isa::Avx2);
  EXPECT_EQ(form_text(g.stores.whole), form_text(voc.type(Isa::Avx2, DType::F32)->store_bool));
  EXPECT_EQ(form_text(g.stores.group), form_text(voc.type(Isa::Avx2, DType::F32)->store_bool4));
  EXPECT_EQ(g.stores.group_size, 4);

  o.stream_threshold_bytes = 1;
  const KernelPlan streamed = plan_kernel(binary(Op::Add, DType::F32, {1024, 1024}, {1024}), o);
  const IsaPlan& z = isa_plan(streamed, Isa::Avx512);
  ASSERT_TRUE(z.stream) << z.why;
  EXPECT_EQ(z.root_stores(false).whole, voc.type(Isa::Avx512, DType::F32)->store);
  EXPECT_EQ(z.root_stores(true).whole, voc.type(Isa::Avx512, DType::F32)->stream);
}
