// `bcastgen run` end to end, with NumPy as the oracle: Python writes the
// inputs, the tool generates, compiles and runs a kernel, Python checks the
// output array (values, dtype and shape) against NumPy's own result.
// Each compiling run costs a second or two, so the suite keeps them few.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>

#include "bcastgen/cpu.h"

namespace {

namespace fs = std::filesystem;

struct Proc {
  int code = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string show(const Proc& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

// Each test works in its own directory, which is also the TMPDIR of the
// tool, so the test can see that the tool's build directory is removed.
class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = "/tmp/bcastgen_run_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Runs a shell command in the test directory, capturing its output.
  Proc shell(const std::string& command) {
    const fs::path out = dir_ / ".stdout", err = dir_ / ".stderr";
    const std::string cmd = "cd " + quote(dir_.string()) + " && TMPDIR=" + quote(dir_.string()) + " " + command +
                            " >" + quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    Proc r;
    r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  // Runs Python code (numpy imported as np) in the test directory; a failed
  // assert shows as a traceback.
  void python(const std::string& code) {
    {
      std::ofstream f(dir_ / "script.py");
      f << "import numpy as np\nrng = np.random.default_rng(20240601)\n" << code;
    }
    const Proc r = shell(std::string(BCASTGEN_PYTHON) + " script.py");
    ASSERT_EQ(r.code, 0) << code << "\n" << show(r);
  }

  Proc bcastgen(std::initializer_list<std::string> args) {
    std::string cmd = quote(BCASTGEN_EXE) + " run";
    for (const auto& a : args) cmd += " " + quote(a);
    return shell(cmd);
  }

  // A successful run: exit 0 and no build directory left behind.
  void expect_ok(const Proc& r) {
    EXPECT_EQ(r.code, 0) << show(r);
    for (const auto& e : fs::directory_iterator(dir_)) {
      EXPECT_FALSE(contains(e.path().filename().string(), "bcastgen-run-")) << "left behind: " << e.path();
    }
  }

  // A refused run: exit `code`, every word in stderr, and no output written.
  void expect_refused(const Proc& r, int code, std::initializer_list<const char*> words) {
    EXPECT_EQ(r.code, code) << show(r);
    for (const char* word : words) EXPECT_TRUE(contains(r.err, word)) << word << "\n" << show(r);
    EXPECT_FALSE(fs::exists(dir_ / "o.npy"));
  }

  fs::path dir_;
};

// The project's acceptance example: (8,1,6,1) + (7,1,5) -> (8,7,6,5).
TEST_F(RunTest, AddMatchesNumpyExactly) {
  python(
      "np.save('a.npy', rng.standard_normal((8, 1, 6, 1)).astype(np.float32))\n"
      "np.save('b.npy', rng.standard_normal((7, 1, 5)).astype(np.float32))\n");
  expect_ok(bcastgen({"--op", "add", "--rule", "numpy", "a.npy", "b.npy", "-o", "o.npy"}));
  python(
      "a, b, o = np.load('a.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float32 and o.shape == (8, 7, 6, 5), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, a + b)\n");
}

TEST_F(RunTest, ComparisonWritesBool) {
  // Small integer values, so that many pairs are equal.
  python(
      "np.save('a.npy', rng.integers(-3, 3, (8, 1, 6, 1)).astype(np.float32))\n"
      "np.save('b.npy', rng.integers(-3, 3, (7, 1, 5)).astype(np.float32))\n");
  expect_ok(bcastgen({"--op", "less_equal", "a.npy", "b.npy", "-o", "o.npy"}));
  python(
      "a, b, o = np.load('a.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.bool_ and o.shape == (8, 7, 6, 5), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, a <= b)\n");
}

TEST_F(RunTest, IntFloorModMatchesNumpyRemainder) {
  // Mixed signs (floor semantics: the result takes the divisor's sign), no
  // zero divisors.
  python(
      "np.save('a.npy', rng.integers(-50, 50, (4, 1, 9)).astype(np.int32))\n"
      "b = rng.integers(1, 10, (5, 1)) * rng.choice([-1, 1], (5, 1))\n"
      "np.save('b.npy', b.astype(np.int32))\n");
  expect_ok(bcastgen({"--op", "floor_mod", "a.npy", "b.npy", "-o", "o.npy"}));
  python(
      "a, b, o = np.load('a.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.int32 and o.shape == (4, 5, 9), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, np.remainder(a, b))\n");
}

TEST_F(RunTest, BroadcastBidirectional) {
  python("np.save('x.npy', rng.integers(-1000, 1000, (3, 1)).astype(np.int16))\n");
  expect_ok(bcastgen({"--op", "broadcast", "--mode", "bidirectional", "x.npy", "--target", "2,1,6", "-o", "o.npy"}));
  python(
      "x, o = np.load('x.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.int16 and o.shape == (2, 3, 6), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, (x * np.ones((2, 1, 6), np.int16)).astype(np.int16))\n"
      "assert np.array_equal(o, np.broadcast_to(x, (2, 3, 6)))\n");
}

// pdpd places B's (3,) (its trailing 1 dropped) at axis 1 of A; --check
// compares with the reference and times the kernel.
TEST_F(RunTest, PdpdAxisWithCheck) {
  python(
      "np.save('a.npy', rng.standard_normal((2, 3, 4, 5)))\n"
      "np.save('b.npy', rng.standard_normal((3, 1)))\n");
  const Proc r = bcastgen({"--op", "multiply", "--rule", "pdpd", "--axis", "1", "a.npy", "b.npy", "-o", "o.npy",
                           "--check"});
  expect_ok(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("^check: max_abs_error=0 mismatches=0 time_per_call_ns=[0-9.]+\n$")))
      << show(r);
  python(
      "a, b, o = np.load('a.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float64 and o.shape == (2, 3, 4, 5), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, a * b.reshape(1, 3, 1, 1))\n");
}

// PaddlePaddle's own rule: both operands broadcast (seed 004's example).
TEST_F(RunTest, PaddleAxisGrowsBothOperands) {
  python(
      "np.save('x.npy', rng.standard_normal((2, 1, 4)).astype(np.float32))\n"
      "np.save('y.npy', rng.standard_normal((3, 1)).astype(np.float32))\n");
  expect_ok(bcastgen({"--op", "add", "--rule", "paddle", "--axis", "1", "x.npy", "y.npy", "-o", "o.npy", "--check"}));
  python(
      "x, y, o = np.load('x.npy'), np.load('y.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float32 and o.shape == (2, 3, 4), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, x + y.reshape(1, 3, 1))\n");
}

// A forced variant, NaNs included: NaN results count as equal in --check.
TEST_F(RunTest, ScalarIsaWithNansAndCheck) {
  python(
      "a = rng.standard_normal((4, 5, 3)).astype(np.float32)\n"
      "a[1, 2, :] = np.nan\n"
      "np.save('a.npy', a)\n"
      "np.save('b.npy', rng.standard_normal((3,)).astype(np.float32))\n");
  const Proc r = bcastgen({"--op", "subtract", "--isa", "scalar", "--check", "a.npy", "b.npy", "-o", "o.npy"});
  expect_ok(r);
  EXPECT_TRUE(contains(r.out, "mismatches=0")) << show(r);
  python(
      "a, b, o = np.load('a.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float32 and o.shape == (4, 5, 3), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, a - b, equal_nan=True)\n");
}

// ---------------------------------------------------------------------------
// Fused expressions: --expr over NAME=FILE.npy inputs, which are the kernel's
// parameters in the order given, each with its file's dtype.

// Issue 14's acceptance example: batch-norm then ReLU in one f32 kernel
// equals NumPy's f32 chain, every node rounded on its own.
TEST_F(RunTest, ExprBatchNormReluMatchesNumpyExactly) {
  python(
      "np.save('x.npy', rng.standard_normal((1, 64, 112, 112)).astype(np.float32))\n"
      "np.save('s.npy', rng.standard_normal((1, 64, 1, 1)).astype(np.float32))\n"
      "np.save('t.npy', rng.standard_normal((1, 64, 1, 1)).astype(np.float32))\n");
  const Proc r = bcastgen({"--expr", "max(x * scale + shift, 0)", "x=x.npy", "scale=s.npy", "shift=t.npy", "-o",
                           "o.npy", "--check"});
  expect_ok(r);
  EXPECT_TRUE(contains(r.out, "mismatches=0")) << show(r);
  python(
      "x, s, t, o = np.load('x.npy'), np.load('s.npy'), np.load('t.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float32 and o.shape == (1, 64, 112, 112), (o.dtype, o.shape)\n"
      "want = np.maximum(x * s + t, np.float32(0))\n"
      "assert want.dtype == np.float32\n"
      "assert np.array_equal(o, want)\n"
      "# The data tells a kernel that rounds x * s once (an FMA) apart.\n"
      "fused = np.maximum((x.astype(np.float64) * s + t).astype(np.float32), np.float32(0))\n"
      "assert not np.array_equal(want, fused)\n");
}

// --cpu plans the kernel for a CPU kind (zen4: each vector's loads, nodes
// and store together); the result is still NumPy's, and an unknown kind exits 2.
TEST_F(RunTest, CpuKindPlansAndStillMatchesNumpy) {
  python(
      "np.save('x.npy', rng.standard_normal((6, 1000)).astype(np.float32))\n"
      "np.save('b.npy', rng.standard_normal((1000,)).astype(np.float32))\n");
  const Proc r = bcastgen({"--expr", "min(max(x + b, 0), 6)", "x=x.npy", "b=b.npy", "-o", "o.npy", "--check",
                           "--cpu", "zen4"});
  expect_ok(r);
  EXPECT_TRUE(contains(r.out, "mismatches=0")) << show(r);
  python(
      "x, b, o = np.load('x.npy'), np.load('b.npy'), np.load('o.npy')\n"
      "assert np.array_equal(o, np.minimum(np.maximum(x + b, np.float32(0)), np.float32(6)))\n");
  const Proc bad = bcastgen({"--expr", "x + b", "x=x.npy", "b=b.npy", "-o", "p.npy", "--cpu", "zen9"});
  EXPECT_EQ(bad.code, 2) << show(bad);
  EXPECT_TRUE(contains(bad.err, "--cpu: unknown CPU kind 'zen9'")) << show(bad);
  python("import os\nassert not os.path.exists('p.npy')\n");
}

// A bool input selects, literals take the other branch's type.
TEST_F(RunTest, ExprWhereWithBoolInputMatchesNumpy) {
  python(
      "np.save('s.npy', rng.standard_normal((2, 3, 8, 9)).astype(np.float32))\n"
      "np.save('keep.npy', np.tril(np.ones((8, 9), np.bool_)).reshape(1, 1, 8, 9))\n");
  expect_ok(bcastgen({"--expr", "where(keep, s * 0.125, -10000.0)", "s=s.npy", "keep=keep.npy", "-o", "o.npy",
                      "--check"}));
  python(
      "s, keep, o = np.load('s.npy'), np.load('keep.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float32 and o.shape == (2, 3, 8, 9), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, np.where(keep, s * np.float32(0.125), np.float32(-10000.0)))\n");
}

// Inputs of different dtypes meet through cast; the names given on the
// command line, not the files' order, name the parameters.
TEST_F(RunTest, ExprCastMixesDtypes) {
  python(
      "np.save('w.npy', rng.standard_normal((5, 1)))\n"
      "np.save('i.npy', rng.integers(-1000, 1000, (7,)).astype(np.int32))\n");
  expect_ok(bcastgen({"--expr", "cast(i, f64) * w - w", "w=w.npy", "i=i.npy", "-o", "o.npy", "--isa", "scalar"}));
  python(
      "w, i, o = np.load('w.npy'), np.load('i.npy'), np.load('o.npy')\n"
      "assert o.dtype == np.float64 and o.shape == (5, 7), (o.dtype, o.shape)\n"
      "assert np.array_equal(o, i.astype(np.float64) * w - w)\n");
}

// ---------------------------------------------------------------------------
// Errors: reported before anything is compiled, and no output written.

TEST_F(RunTest, MismatchedDtypesExitTwo) {
  python(
      "np.save('a.npy', np.zeros((2, 3), np.float32))\n"
      "np.save('b.npy', np.zeros((3,), np.int32))\n");
  const Proc r = bcastgen({"--op", "add", "a.npy", "b.npy", "-o", "o.npy"});
  expect_refused(r, 2, {"a.npy", "b.npy", "f32", "i32"});
}

TEST_F(RunTest, ShapesThatDoNotBroadcastExitOne) {
  python(
      "np.save('a.npy', np.zeros((3, 1, 5), np.float32))\n"
      "np.save('b.npy', np.zeros((4, 4, 5), np.float32))\n");
  const Proc r = bcastgen({"--op", "add", "a.npy", "b.npy", "-o", "o.npy"});
  expect_refused(r, 1, {"numpy: a [3,1,5] and b [4,4,5] do not broadcast: axis 0 has 3 vs 4"});
}

TEST_F(RunTest, MissingFileExitsThree) {
  python("np.save('a.npy', np.zeros((3,), np.float32))\n");
  const Proc r = bcastgen({"--op", "add", "a.npy", "missing.npy", "-o", "o.npy"});
  expect_refused(r, 3, {"missing.npy"});
}

TEST_F(RunTest, ExprSyntaxErrorShowsTheColumn) {
  python(
      "np.save('x.npy', np.zeros((3,), np.float32))\n"
      "np.save('y.npy', np.zeros((3,), np.float32))\n");
  const Proc r = bcastgen({"--expr", "x * * y", "x=x.npy", "y=y.npy", "-o", "o.npy"});
  // The caret stands under column 5.
  expect_refused(r, 2, {"column 5: expected an operand, found '*'", "\n  x * * y\n      ^\n"});
}

TEST_F(RunTest, ExprInputsThatDoNotBroadcastNameTheInput) {
  python(
      "np.save('x.npy', np.zeros((4, 3), np.float32))\n"
      "np.save('y.npy', np.zeros((3,), np.float32))\n"
      "np.save('z.npy', np.zeros((2, 1), np.float32))\n");
  const Proc r = bcastgen({"--expr", "x + y * z", "x=x.npy", "y=y.npy", "z=z.npy", "-o", "o.npy"});
  expect_refused(r, 1, {"z", "[2,1]", "axis 0"});
}

TEST_F(RunTest, ExprUnusedInputIsAnError) {
  python(
      "np.save('x.npy', np.zeros((3,), np.float32))\n"
      "np.save('y.npy', np.zeros((3,), np.float32))\n");
  const Proc r = bcastgen({"--expr", "x + 1", "x=x.npy", "y=y.npy", "-o", "o.npy"});
  expect_refused(r, 2, {"input 'y' is declared but the expression does not use it"});
}

}  // namespace

// f16 through run: each node rounds to f16 as NumPy's float16 chain does;
// --compute f32 rounds once, as NumPy's float32 chain cast to float16. The
// data tells the two apart.
TEST_F(RunTest, F16ChainMatchesNumpyPerNodeAndComputeF32RoundsOnce) {
  python(
      "np.save('x.npy', (rng.standard_normal((4, 3, 131)) * 8).astype(np.float16))\n"
      "np.save('s.npy', rng.standard_normal((3, 1)).astype(np.float16))\n"
      "np.save('t.npy', rng.standard_normal((131,)).astype(np.float16))\n");
  for (bcastgen::Isa which : bcastgen::kAllIsas) {
    if (!bcastgen::cpu_supports(which)) continue;  // (the CPU's own ISAs; the rest are skipped)
    // The sanitizer build checks `run` itself, the same code for every ISA: one
    // ISA's two driver compiles instead of every one's (37 s there).
    if (BCASTGEN_TEST_SANITIZED && which != bcastgen::detected_isa()) continue;
    const char* isa = bcastgen::isa_name(which);
    const Proc per_node = bcastgen({"--expr", "max(x * s + t, 0) - x / 3", "x=x.npy", "s=s.npy", "t=t.npy", "-o",
                                    "o.npy", "--isa", isa, "--check"});
    expect_ok(per_node);
    const Proc once = bcastgen({"--expr", "max(x * s + t, 0) - x / 3", "x=x.npy", "s=s.npy", "t=t.npy", "-o",
                                "o32.npy", "--compute", "f32", "--isa", isa, "--check"});
    expect_ok(once);
    python(
        "x, s, t = np.load('x.npy'), np.load('s.npy'), np.load('t.npy')\n"
        "o, o32 = np.load('o.npy'), np.load('o32.npy')\n"
        "assert o.dtype == np.float16 and o.shape == (4, 3, 131), (o.dtype, o.shape)\n"
        "want = np.maximum(x * s + t, np.float16(0)) - x / np.float16(3)\n"
        "assert want.dtype == np.float16 and np.array_equal(o, want)\n"
        "f = lambda a: a.astype(np.float32)\n"
        "want32 = (np.maximum(f(x) * f(s) + f(t), np.float32(0)) - f(x) / np.float32(3)).astype(np.float16)\n"
        "assert np.array_equal(o32, want32)\n"
        "assert not np.array_equal(want, want32)\n");
  }
}

// --accuracy fast: sigmoid and tanh in their fast forms, within 4 ulp of
// NumPy's float64 (the exact run within 1), and not the exact run's bits.
TEST_F(RunTest, AccuracyFastIsWithinFourUlpOfNumpysFloat64) {
  python("np.save('x.npy', np.concatenate([rng.standard_normal(3000) * 6, np.linspace(-110, 30, 1000)]).astype(np.float32))\n");
  expect_ok(bcastgen({"--expr", "sigmoid(x)", "x=x.npy", "-o", "exact.npy", "--check"}));
  expect_ok(bcastgen({"--expr", "sigmoid(x)", "x=x.npy", "-o", "s.npy", "--accuracy", "fast", "--check"}));
  expect_ok(bcastgen({"--expr", "tanh(x)", "x=x.npy", "-o", "t.npy", "--accuracy", "fast", "--check"}));
  python(
      "x = np.load('x.npy').astype(np.float64)\n"
      "e = np.exp(-np.abs(x))\n"
      "sig = np.where(x >= 0, 1 / (1 + e), e / (1 + e))\n"
      "def ulps(got, want):\n"
      "    return np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)\n"
      "assert ulps(np.load('s.npy'), sig).max() <= 4, ulps(np.load('s.npy'), sig).max()\n"
      "assert ulps(np.load('t.npy'), np.tanh(x)).max() <= 4, ulps(np.load('t.npy'), np.tanh(x)).max()\n"
      "assert not np.array_equal(np.load('exact.npy'), np.load('s.npy'))\n");
  expect_refused(bcastgen({"--expr", "sigmoid(x)", "x=x.npy", "-o", "o.npy", "--accuracy", "quick"}), 2,
                 {"--accuracy"});
}

// bf16 through run: read from NumPy's '|V2' (a uint16 array viewed as V2),
// written as '<V2' (ml_dtypes' descriptor); the bits are the f32 result's
// nearest bf16, ties to even (computed here from NumPy's float32).
TEST_F(RunTest, Bf16ReadsVoidAndMatchesRoundedFloat32) {
  python(
      "def to_bf16(a):\n"
      "    b = a.astype(np.float32).view(np.uint32).astype(np.uint64)\n"
      "    return ((b + 0x7fff + ((b >> 16) & 1)) >> 16).astype(np.uint16)\n"
      "def from_bf16(h):\n"
      "    return (h.astype(np.uint32) << 16).view(np.float32)\n"
      "x = to_bf16(rng.standard_normal((5, 67)) * 4)\n"
      "b = to_bf16(rng.standard_normal(67))\n"
      "np.save('x.npy', x.view('V2'))\n"
      "np.save('b.npy', b.view('V2'))\n"
      "np.save('want.npy', to_bf16(from_bf16(x) * from_bf16(b)))\n");
  const Proc r = bcastgen({"--op", "multiply", "x.npy", "b.npy", "-o", "o.npy", "--check"});
  expect_ok(r);
  python(
      "o = np.load('o.npy')\n"
      "assert o.dtype == np.dtype('V2') and o.shape == (5, 67), (o.dtype, o.shape)\n"
      "assert np.array_equal(o.view(np.uint16), np.load('want.npy'))\n"
      "assert open('o.npy', 'rb').read(64).find(b\"'<V2'\") > 0\n");
}
