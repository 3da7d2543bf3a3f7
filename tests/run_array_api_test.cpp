// The Array API standard's binary element-wise functions through `bcastgen
// run` under their standard names, against NumPy. One Python driver writes
// the inputs, runs the tool (two at a time) and compares. The suite runs a
// sample, the functions with special rules (SAMPLE below; every op's values
// are checked against NumPy in ops_numpy_test and through every kernel in
// generated_kernels_test); BCASTGEN_ARRAY_API_ALL=1 runs all 28:
//   BCASTGEN_ARRAY_API_ALL=1 ctest --test-dir build -R RunArrayApi
//
// Inputs: a (N,1) against b (N,), so that every pair of values meets, with
// the special values the standard lists (+-0, +-inf, NaN) for floats and the
// edges (0, -1, MIN, MAX, shift counts around the width) for integers.
// Equality is bit for bit, NaN matching NaN; pow, hypot and logaddexp may
// differ by 1 ulp (libm), atan2 by 4 (NumPy's SVML version on AVX-512). Where the
// standard's floor_divide special cases differ from NumPy's (README, "Ops"),
// the driver applies the standard's result to NumPy's answer.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const char* kDriver = R"PY(
import subprocess, sys
from concurrent.futures import ThreadPoolExecutor
import numpy as np

exe = sys.argv[1]
F32, F64 = np.float32, np.float64
inf, nan = np.inf, np.nan

def fvals(dt):
    s = [0.0, -0.0, 1.0, -1.0, 2.5, -7.25, 3.0, 0.1, 1e-30, inf, -inf, nan, 100.0, -0.5]
    r = np.random.default_rng(7).uniform(-20, 20, 18)
    return np.array(s + list(r), dt)

def ivals(dt):
    i = np.iinfo(dt)
    s = [0, 1, -1, 2, -2, 7, -7, 15, 16, 31, 32, 33, 63, 64, i.min, i.max, i.min + 1, i.max - 1]
    r = np.random.default_rng(9).integers(-100, 100, 14)
    return np.array([v for v in s + list(r) if i.min <= v <= i.max], dt)

def floordiv(a, b):
    r = np.floor_divide(a, b)
    if a.dtype.kind == 'f':  # the standard's special cases where NumPy differs
        r = np.where(np.isinf(a) & np.isfinite(b) & (b != 0), a / b, r)
        r = np.where(np.isfinite(a) & (a != 0) & np.isinf(b) & (np.signbit(a) != np.signbit(b)), a.dtype.type(-0.0), r)
    return r.astype(a.dtype)

BOOLS = np.array([False, True, True, False])
# Array API name -> (NumPy function, input values)
CASES = [
    ('add', np.add, fvals(F32)), ('subtract', np.subtract, fvals(F32)), ('multiply', np.multiply, fvals(F32)),
    ('divide', np.divide, fvals(F32)), ('floor_divide', floordiv, fvals(F64)),
    ('remainder', np.remainder, fvals(F32)), ('pow', np.power, fvals(F64)), ('maximum', np.maximum, fvals(F32)),
    ('minimum', np.minimum, fvals(F64)), ('atan2', np.arctan2, fvals(F32)), ('copysign', np.copysign, fvals(F32)),
    ('hypot', np.hypot, fvals(F32)), ('logaddexp', np.logaddexp, fvals(F64)),
    ('nextafter', np.nextafter, fvals(F32)), ('nextafter', np.nextafter, fvals(F64)),
    ('equal', np.equal, fvals(F32)), ('not_equal', np.not_equal, fvals(F32)), ('greater', np.greater, fvals(F64)),
    ('greater_equal', np.greater_equal, ivals(np.int8)), ('less', np.less, ivals(np.uint32)),
    ('less_equal', np.less_equal, fvals(F32)),
    ('logical_and', np.logical_and, BOOLS), ('logical_or', np.logical_or, BOOLS),
    ('logical_xor', np.logical_xor, BOOLS),
    ('bitwise_and', np.bitwise_and, ivals(np.int32)), ('bitwise_or', np.bitwise_or, ivals(np.uint8)),
    ('bitwise_xor', np.bitwise_xor, ivals(np.int64)), ('bitwise_left_shift', np.left_shift, ivals(np.int32)),
    ('bitwise_right_shift', np.right_shift, ivals(np.int16)),
    ('bitwise_right_shift', np.right_shift, ivals(np.int64)),
]
ULPS = {'pow': 1, 'hypot': 1, 'logaddexp': 1, 'atan2': 4}

def one(k):
    name, fn, v = CASES[k]
    a, b = v.reshape(-1, 1), v
    np.save('a%d.npy' % k, a)
    np.save('b%d.npy' % k, b)
    p = subprocess.run([exe, 'run', '--op', name, 'a%d.npy' % k, 'b%d.npy' % k, '-o', 'o%d.npy' % k],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return '%s %s: exit %d: %s' % (name, v.dtype, p.returncode, p.stderr.strip())
    o = np.load('o%d.npy' % k)
    with np.errstate(all='ignore'):
        e = np.asarray(fn(a, b))
    if o.dtype != e.dtype or o.shape != e.shape:
        return '%s %s: got %s %s, numpy %s %s' % (name, v.dtype, o.dtype, o.shape, e.dtype, e.shape)
    if o.dtype.kind == 'f':
        same = (o.view(np.uint8).reshape(o.shape + (-1,)) == e.view(np.uint8).reshape(e.shape + (-1,))).all(-1)
        same |= np.isnan(o) & np.isnan(e)
        if name in ULPS:
            near = e.copy()
            for _ in range(ULPS[name]):
                near = np.nextafter(near, o)
                same |= np.isfinite(e) & (o == near)
    else:
        same = o == e
    bad = np.argwhere(~same)
    if len(bad):
        i, j = bad[0]
        return '%s %s: %d of %d differ, first %r op %r: ours %r, numpy %r' % (
            name, v.dtype, len(bad), o.size, a[i, 0], b[j], o[i, j], e[i, j])
    return None

# A run is a compile of the kernel and its driver (about 3 s), so the suite
# runs the cases whose semantics are NumPy's own special rules, one per
# kind of function; `all` as the second argument runs every case.
SAMPLE = {'floor_divide', 'remainder', 'pow', 'atan2', 'nextafter', 'greater_equal', 'less', 'logical_xor',
          'bitwise_left_shift', 'bitwise_right_shift'}
names = sorted({c[0] for c in CASES})
assert len(names) == 28, names
assert SAMPLE <= set(names), SAMPLE - set(names)
runs = [k for k in range(len(CASES)) if sys.argv[2:] == ['all'] or CASES[k][0] in SAMPLE]
with ThreadPoolExecutor(2) as pool:
    errors = [e for e in pool.map(one, runs) if e]
print('functions: %d, runs: %d of %d' % (len({CASES[k][0] for k in runs}), len(runs), len(CASES)))
for e in errors:
    print('MISMATCH ' + e)
sys.exit(1 if errors else 0)
)PY";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RunArrayApi, BinaryFunctionsMatchNumpy) {
  const char* all = std::getenv("BCASTGEN_ARRAY_API_ALL");
  const bool every = all != nullptr && std::string(all) == "1";
  std::string tmpl = "/tmp/bcastgen_run_array_api_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  std::ofstream(dir / "driver.py") << kDriver;
  const std::string cmd = "cd '" + dir.string() + "' && TMPDIR='" + dir.string() + "' " + BCASTGEN_PYTHON +
                          " driver.py '" + BCASTGEN_EXE + "'" + (every ? " all" : "") + " > out.txt 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  const std::string out = slurp(dir / "out.txt");
  fs::remove_all(dir);
  EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_NE(out.find(every ? "functions: 28, runs: 30 of 30" : "functions: 10, runs: 12 of 30"), std::string::npos)
      << out;
}

}  // namespace
