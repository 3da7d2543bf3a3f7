// The Halide 14 peer of bench/rows/rows_bench.py: one generator, `rows`,
// instantiated once per case, ahead of time for the host (no_asserts,
// no_bounds_query), the extents fixed. Written as a Halide user writes a row
// normalization for one core:
//   - each reduction over a row accumulates into W = four native vectors of
//     partial sums (a Func over the lanes, vectorized), then reduces the W
//     lanes with an atomic, vectorized update (Halide's horizontal reduce);
//   - the per-row results (mean, 1 / sqrt(var + eps), max, 1 / sum) are
//     computed at the row, and the output row is vectorized at W;
//   - values a later pass reads again are computed once per row into a
//     buffer of the row: x + r (residual) and Softmax's exp(x - max);
//   - Halide's own exp and erf (vectorized polynomials) for Softmax and GELU.
//
// GeneratorParams: mode (layernorm, add_layernorm, rmsnorm, softmax,
// layernorm_gelu), rows, cols (cols a multiple of W). Inputs x and r
// [rows, cols] (r read by add_layernorm only), g and b [cols]; out [rows,
// cols]. epsilon 1e-5, RMSNorm's 1e-6, as in rows_bench.py.
#include <Halide.h>

#include <stdexcept>
#include <string>

namespace {

using namespace Halide;

class RowsGenerator : public Generator<RowsGenerator> {
 public:
  GeneratorParam<std::string> mode{"mode", "layernorm"};
  GeneratorParam<int> rows{"rows", 64};
  GeneratorParam<int> cols{"cols", 768};
  Input<Buffer<float, 2>> x{"x"};
  Input<Buffer<float, 2>> r{"r"};
  Input<Buffer<float, 1>> g{"g"};
  Input<Buffer<float, 1>> b{"b"};
  Output<Buffer<float, 2>> out{"out"};

  void generate() {
    const std::string m = mode;
    const int n = cols, W = natural_vector_size<float>() * 4;
    if (n % W != 0) throw std::invalid_argument("rows generator: cols must be a multiple of " + std::to_string(W));
    Var i("i"), j("j"), l("l");
    RDom k(0, n / W, "k"), lane(0, W, "lane");
    std::vector<Func> at_row;  // computed per row, before the output row
    // The reduction over row j of f, through W partials: `combine` (sum or
    // max) from `init`, then a horizontal reduction of the W lanes.
    auto row_reduce = [&](Func f, const std::string& name, Expr init, Expr (*combine)(Expr, Expr)) {
      Func p(name + "_partials");
      p(l, j) = init;
      p(l, j) = combine(p(l, j), f(k * W + l, j));
      Func s(name);
      s(j) = init;
      s(j) = combine(s(j), p(lane, j));
      p.compute_at(out, j).vectorize(l);
      p.update().vectorize(l);
      s.update().atomic().vectorize(lane);
      at_row.push_back(s);
      return s;
    };
    auto row_sum = [&](Func f, const std::string& name) {
      return row_reduce(f, name, 0.0f, [](Expr a, Expr b) { return a + b; });
    };
    Func in("in");
    if (m == "add_layernorm") {
      in(i, j) = x(i, j) + r(i, j);
      in.compute_at(out, j).vectorize(i, W);
    } else {
      in(i, j) = x(i, j);
    }
    if (m == "layernorm" || m == "add_layernorm" || m == "layernorm_gelu") {
      Func mean("mean"), d("d"), sq("sq"), inv("inv");
      mean(j) = row_sum(in, "sum") (j) / n;
      d(i, j) = in(i, j) - mean(j);
      sq(i, j) = d(i, j) * d(i, j);
      inv(j) = 1.0f / sqrt(row_sum(sq, "sumsq")(j) / n + 1e-5f);
      at_row.push_back(mean);
      at_row.push_back(inv);
      Expr y = d(i, j) * inv(j) * g(i) + b(i);
      if (m == "layernorm_gelu") y = 0.5f * y * (1.0f + erf(y * 0.70710678f));
      out(i, j) = y;
    } else if (m == "rmsnorm") {
      Func sq("sq"), inv("inv");
      sq(i, j) = in(i, j) * in(i, j);
      inv(j) = 1.0f / sqrt(row_sum(sq, "sumsq")(j) / n + 1e-6f);
      at_row.push_back(inv);
      out(i, j) = in(i, j) * inv(j) * g(i);
    } else if (m == "softmax") {
      Func e("e"), inv("inv");
      Func mx = row_reduce(in, "max", Float(32).min(), [](Expr a, Expr b) { return max(a, b); });
      e(i, j) = exp(in(i, j) - mx(j));
      e.compute_at(out, j).vectorize(i, W);
      inv(j) = 1.0f / row_sum(e, "sum")(j);
      at_row.push_back(inv);
      out(i, j) = e(i, j) * inv(j);
    } else {
      throw std::invalid_argument("rows generator: unknown mode " + m);
    }
    for (Func& f : at_row) f.compute_at(out, j);
    out.vectorize(i, W);
    for (auto* buf : {&x, &r}) {
      (*buf).dim(0).set_bounds(0, n).set_stride(1);
      (*buf).dim(1).set_bounds(0, rows).set_stride(n);
    }
    g.dim(0).set_bounds(0, n).set_stride(1);
    b.dim(0).set_bounds(0, n).set_stride(1);
    out.dim(0).set_bounds(0, n).set_stride(1);
    out.dim(1).set_bounds(0, rows).set_stride(n);
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(RowsGenerator, rows)
