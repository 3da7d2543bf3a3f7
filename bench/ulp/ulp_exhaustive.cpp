// Every one of the 2^32 f32 inputs through each function's generated kernel
// (bench/ulp/make_kernels.py writes one kernel per function, y = f(x), over blocks
// of 2^16) on each ISA this CPU runs, against the exact result. Prints, per
// function and ISA, the largest error in ulps, the input where it occurs,
// and how many results are not the correctly rounded one.
//
//   ulp_exhaustive [--stride S] [FUNCTION...]    (default: every function)
//
// The reference: the function in long double (x87, 64-bit significand;
// ops' f64 path before its rounding), so that the f32 paths that go through
// double libm are not graded by double libm. It is within 2^-29 ulp of f32.
// Where the result is not the reference rounded to float, MPFR
// (tests/mpfr_oracle.h) decides, correctly rounded or not, and measures the
// error, wherever the reference alone could be wrong or the error counts:
// near a rounding boundary (within 2^-24 ulp of a midpoint), at an error
// within 0.01 ulp of the largest so far (so the printed maxima are MPFR's),
// and where a value is not finite or zero. Elsewhere the reference's
// rounding is the correctly rounded result, and its error is the error to
// 2^-29 ulp. (The fast tier's forms are 3% to 10% not correctly rounded:
// MPFR for each of those took 15 to 30 minutes per function.)
//
// hardsigmoid and hardswish, exact to their definitions (max_ulp 0), are
// checked bit for bit instead (a NaN for a NaN) against the definition
// evaluated in double and rounded to float where it rounds (the products
// are exact in double; the sum x alpha + 1/2 is exact, or rounds to x alpha
// as in float); MPFR's evaluation (bcastgen::test::defined) decides where
// a kernel differs from it. Their not_cr column counts the inputs that
// differ from the definition; max_ulp is 0 when none does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bcastgen/cpu.h"
#include "bcastgen/ops.h"
#include "mpfr_oracle.h"
#include "ulp.h"  // generated from make_kernels.py's spec: namespace ulp, u_<name>_isa()

namespace {

namespace bg = bcastgen;

constexpr std::size_t kBlock = 1 << 16;  // the kernels' shape

struct Function {
  const char* name;
  bg::UnaryOp op;
  void (*kernel)(bg::Isa, const float*, float*);
  long double (*reference)(long double);
};

// The table's row of a function make_kernels.py names.
bg::UnaryOp unary_named(const char* name) {
  for (const bg::UnaryInfo& u : bg::kUnaryInfo) {
    if (std::strcmp(u.name, name) == 0) return u.op;
  }
  std::fprintf(stderr, "ulp_exhaustive: no function '%s' in the table\n", name);
  std::exit(2);
}

#include "ulp_table.inc"  // kFunctions: {name, op, kernel, &bg::ops::<name><long double>}

struct Stats {
  double max_ulp = 0;
  float at = 0;
  std::uint64_t not_correctly_rounded = 0;
  std::uint64_t count = 0;
};

// The error of y against the reference r, in ulps of f32 at r.
double ulp_of(float y, long double r) {
  if (std::isnan(r)) return std::isnan(y) ? 0 : INFINITY;
  if (std::isnan(y)) return INFINITY;
  if (std::isinf(r) || r == 0) return static_cast<long double>(y) == r ? 0 : INFINITY;
  if (std::isinf(y) && static_cast<float>(r) == y) return 0;  // overflow, correctly
  int e;
  std::frexp(r, &e);  // r in [2^(e-1), 2^e)
  const int ulp_exp = std::max(e - 24, -149);
  const long double yy = std::isinf(y) ? std::copysign(std::ldexp(1.0L, 128), static_cast<long double>(y)) : y;
  return static_cast<double>(std::ldexp(std::fabs(yy - r), -ulp_exp));
}

// Whether r lies within 2^-24 ulp of a midpoint between two floats (or
// rounds past the largest float), where rounding the reference could differ
// from rounding the exact value.
bool near_a_boundary(long double r) {
  const float f = static_cast<float>(r);
  if (!std::isfinite(f)) return true;
  if (static_cast<long double>(f) == r) return false;
  const float g = std::nextafter(f, r > f ? INFINITY : -INFINITY);
  if (!std::isfinite(g)) return true;
  const long double mid = (static_cast<long double>(f) + g) / 2;
  return std::fabs(r - mid) < std::fabs(static_cast<long double>(g) - f) * 0x1p-24L;
}

// hardsigmoid or hardswish by its definition (math.h) in double: x alpha
// rounded to float, + 1/2 rounded, clamped; hardswish's product rounded;
// hardswish(-inf) = -0.
float definition(bg::UnaryOp u, float x) {
  if (std::isnan(x)) return x;
  const float product = static_cast<float>(static_cast<double>(x) * static_cast<double>(0x1.555556p-3f));
  const float s = static_cast<float>(static_cast<double>(product) + 0.5);
  const float h = s > 1.0f ? 1.0f : s < 0.0f ? 0.0f : s;
  if (u == bg::UnaryOp::Hardsigmoid) return h;
  if (std::isinf(x) && x < 0) return -0.0f;
  return static_cast<float>(static_cast<double>(x) * static_cast<double>(h));
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); }

// The bit patterns [begin, end) by `stride`, through the kernel on each ISA
// of `isas`; the reference is computed once per input for all of them.
void sweep(const Function& f, const std::vector<bg::Isa>& isas, std::uint64_t begin, std::uint64_t end,
           std::uint64_t stride, std::vector<Stats>* stats) {
  std::vector<float> in(kBlock);
  std::vector<std::vector<float>> out(isas.size(), std::vector<float>(kBlock));
  bg::test::Big x, exact;
  for (std::uint64_t b = begin; b < end;) {
    std::size_t n = 0;
    for (; n < kBlock && b < end; ++n, b += stride) {
      const auto bits = static_cast<std::uint32_t>(b);
      std::memcpy(&in[n], &bits, 4);
    }
    std::fill(in.begin() + static_cast<std::ptrdiff_t>(n), in.end(), 1.0f);
    for (std::size_t k = 0; k < isas.size(); ++k) f.kernel(isas[k], in.data(), out[k].data());
    if (bg::unary_info(f.op).max_ulp == 0) {  // exact to a definition: the same bits
      for (std::size_t i = 0; i < n; ++i) {
        const float want = definition(f.op, in[i]);
        for (std::size_t k = 0; k < isas.size(); ++k) {
          const float y = out[k][i];
          if (same_bits(y, want)) continue;
          const float exact = bg::test::defined<float>(f.op, in[i]);  // MPFR decides
          if (!same_bits(exact, want)) std::fprintf(stderr, "%s(%.9g): the double form and MPFR differ\n", f.name, in[i]);
          if (same_bits(y, exact)) continue;
          Stats& s = (*stats)[k];
          ++s.not_correctly_rounded;
          const double err = ulp_of(y, want);
          if (!(err <= s.max_ulp)) {
            s.max_ulp = err;
            s.at = in[i];
          }
        }
      }
      for (Stats& s : *stats) s.count += n;
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const long double r = f.reference(in[i]);
      bool have_exact = false;
      for (std::size_t k = 0; k < isas.size(); ++k) {
        Stats& s = (*stats)[k];
        const float y = out[k][i];
        double err = ulp_of(y, r);
        const bool rounded = static_cast<float>(r) == y || (std::isnan(y) && std::isnan(r));
        if (!rounded && std::isfinite(y) && std::isfinite(r) && r != 0 && err < s.max_ulp - 0.01 &&
            !near_a_boundary(r)) {
          ++s.not_correctly_rounded;  // the reference decides
        } else if (!rounded) {  // MPFR decides, and measures
          if (!have_exact) {
            mpfr_set_flt(x.v, in[i], MPFR_RNDN);
            bg::test::exact(f.op, exact.v, x.v);
            have_exact = true;
          }
          const float cr = bg::test::rounded<float>(exact.v);
          if (!(cr == y || (std::isnan(cr) && std::isnan(y)))) ++s.not_correctly_rounded;
          err = bg::test::ulp_error<float>(y, exact.v);
        }
        if (!(err <= s.max_ulp)) {
          s.max_ulp = err;
          s.at = in[i];
        }
      }
    }
    for (Stats& s : *stats) s.count += n;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t stride = 1;
  std::vector<std::string> names, isa_names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--stride" && i + 1 < argc) {
      stride = std::stoull(argv[++i]);
    } else if (a == "--isa" && i + 1 < argc) {
      isa_names.push_back(argv[++i]);
    } else {
      names.push_back(a);
    }
  }
  std::printf("%-10s %-7s %10s %16s %14s %14s\n", "function", "isa", "max_ulp", "at", "not_cr", "inputs");
  for (const Function& f : kFunctions) {
    if (!names.empty() && std::find(names.begin(), names.end(), f.name) == names.end()) continue;
    std::vector<bg::Isa> isas;
    for (bg::Isa isa : bg::kAllIsas) {
      const bool chosen = isa_names.empty() || std::find(isa_names.begin(), isa_names.end(),
                                                          std::string(bg::isa_name(isa))) != isa_names.end();
      if (chosen && bg::cpu_supports(isa)) isas.push_back(isa);
    }
    // Two threads, each half of the bit patterns.
    std::vector<Stats> s0(isas.size()), s1(isas.size());
    const std::uint64_t total = std::uint64_t{1} << 32, half = total / 2 / stride * stride;
    std::thread t0(sweep, std::cref(f), std::cref(isas), 0, half, stride, &s0);
    std::thread t1(sweep, std::cref(f), std::cref(isas), half, total, stride, &s1);
    t0.join();
    t1.join();
    for (std::size_t k = 0; k < isas.size(); ++k) {
      const Stats& w = s0[k].max_ulp >= s1[k].max_ulp ? s0[k] : s1[k];
      std::printf("%-10s %-7s %10.4f %16.9g %14llu %14llu\n", f.name, bg::isa_name(isas[k]), w.max_ulp,
                  static_cast<double>(w.at),
                  static_cast<unsigned long long>(s0[k].not_correctly_rounded + s1[k].not_correctly_rounded),
                  static_cast<unsigned long long>(s0[k].count + s1[k].count));
    }
    std::fflush(stdout);
  }
  return 0;
}
