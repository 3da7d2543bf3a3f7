// Row kernels (issue 75): kernels whose DAG has reductions. Planned here
// (RowPlan, plan.h) and emitted by emit_rows.cpp.
#pragma once

#include <string>

#include "bcastgen/gen/plan.h"
#include "bcastgen/gen/vocabulary.h"

namespace bcastgen::gen {

// The row plan of a kernel whose DAG has reductions (its dag already in f32
// where the spec computes in f32). Throws InvalidArgument saying why the
// kernel is not a row kernel: a rule other than numpy, a reduction that is
// not over the innermost axes of the domain or not over the same ones as
// the others, an operand that broadcasts along the axes it reduces, an input
// read along the row other than contiguously or as one value per row, an
// output that is neither the row nor one value per row, an empty row.
RowPlan plan_rows(const KernelSpec& k, const ExprDag& dag);

// Whether input k is read along the row and moves with the last loop over
// the rows: the inputs whose next rows a kernel with rows from DRAM
// prefetches (RowPlan::prefetch_next).
bool advances_with_rows(const RowPlan& r, std::size_t k);

// The dtype whose vocabulary stores a row kernel's output: f32, or the
// 16-bit float type the root rounds to, whose store rounds the root's f32
// operand (the emitter stores that operand's register).
DType row_store_dtype(const RowPlan& r);

// The variant of a row kernel for one ISA: vector code where the vocabulary
// has every form its row passes need over f32 lanes, else the scalar loop
// under the ISA's target (the same bits: the same order, the same ops).
IsaPlan plan_row_isa(const KernelPlan& p, Isa isa, const Vocabulary& voc);

// The body of a row kernel's variant (emit_variant_body's, for row kernels).
std::string emit_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming);

}  // namespace bcastgen::gen
