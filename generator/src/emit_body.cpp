#include "emit_body.h"

#include <memory>
#include <string>

#include "emit_body_code.h"
#include "rows.h"

namespace bcastgen::gen {
namespace {

// A scalar row: the loop over the row's elements, each computed in place
// (a variant without vector forms, or a scalar ISA).
class ScalarRow : public BodyCode {
 public:
  using BodyCode::BodyCode;

 private:
  void emit_row(const std::string& out_ptr) override { emit_scalar_row(out_ptr); }
};

}  // namespace

std::unique_ptr<BodyCode> scalar_row_body(const KernelPlan& p, const IsaPlan& ip, const Vocabulary& voc, bool streaming) {
  return std::make_unique<ScalarRow>(p, ip, voc, streaming);
}

std::string emit_variant_body(const KernelPlan& plan, const IsaPlan& isa, const Vocabulary& vocabulary,
                              bool streaming) {
  if (plan.rows) return emit_row_body(plan, isa, vocabulary, streaming);
  const auto body = !isa.block.empty() ? gather_block_body(plan, isa, vocabulary, streaming)
                    : isa.vector       ? vector_row_body(plan, isa, vocabulary, streaming)
                                       : scalar_row_body(plan, isa, vocabulary, streaming);
  return body->emit();
}

}  // namespace bcastgen::gen
