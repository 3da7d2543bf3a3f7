// ONNX's backend node tests (Debian's libonnx-testdata) of the unary
// operators that map to bcastgen's expression functions, through `bcastgen
// run --expr`: each test's model names the operator, its input and expected
// output are TensorProtos (read with python3-onnx). A Python driver finds
// every single-node test of a mapped operator without attributes, runs the
// tool (two at a time) and compares. The expected outputs were computed by
// NumPy in float32; equality is ONNX's own tolerance (rtol 1e-3, atol 1e-7,
// onnx/backend/test/case/node), and bit for bit for the exact functions.
// The suite runs the tests named test_<op> (about 20); BCASTGEN_ONNX_NODE_ALL=1
// adds the _example ones:
//   BCASTGEN_ONNX_NODE_ALL=1 ctest --test-dir build -R OnnxNode
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "numpy_oracle.h"  // read_file_bytes

namespace {

namespace fs = std::filesystem;

constexpr const char* kNodeTests = "/usr/share/libonnx-testdata/data/node";

const char* kDriver = R"PY(
import os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
import numpy as np
import onnx
from onnx import numpy_helper

exe, root = sys.argv[1], sys.argv[2]
every = sys.argv[3:] == ['all']
# ONNX operator -> bcastgen function.
FUNCTIONS = {
    'Exp': 'exp', 'Log': 'log', 'Tanh': 'tanh', 'Sigmoid': 'sigmoid', 'Erf': 'erf', 'Softplus': 'softplus',
    'Sin': 'sin', 'Cos': 'cos', 'Tan': 'tan', 'Asin': 'asin', 'Acos': 'acos', 'Atan': 'atan',
    'Sinh': 'sinh', 'Cosh': 'cosh', 'Asinh': 'asinh', 'Acosh': 'acosh', 'Atanh': 'atanh',
    'Ceil': 'ceil', 'Floor': 'floor', 'Round': 'round', 'Sign': 'sign', 'IsNaN': 'isnan', 'IsInf': 'isinf',
}
EXACT = {'ceil', 'floor', 'round', 'sign', 'isnan', 'isinf'}

tests = []
for name in sorted(os.listdir(root)):
    if not every and name.endswith('_example'):
        continue
    model = onnx.load(os.path.join(root, name, 'model.onnx'))
    nodes = model.graph.node
    if len(nodes) == 1 and nodes[0].op_type in FUNCTIONS and not nodes[0].attribute:
        tests.append((name, FUNCTIONS[nodes[0].op_type]))

def tensor(name, which):
    return numpy_helper.to_array(onnx.load_tensor(os.path.join(root, name, 'test_data_set_0', which)))

def one(k):
    name, fn = tests[k]
    x, expected = tensor(name, 'input_0.pb'), tensor(name, 'output_0.pb')
    np.save('x%d.npy' % k, x)
    p = subprocess.run([exe, 'run', '--expr', '%s(x)' % fn, 'x=x%d.npy' % k, '-o', 'y%d.npy' % k],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return '%s: exit %d: %s' % (name, p.returncode, p.stderr.strip())
    y = np.load('y%d.npy' % k)
    if y.dtype != expected.dtype or y.shape != expected.shape:
        return '%s: got %s %s, expected %s %s' % (name, y.dtype, y.shape, expected.dtype, expected.shape)
    if fn in EXACT:
        same = (y == expected) | (np.isnan(y) & np.isnan(expected))
    else:
        same = np.isclose(y, expected, rtol=1e-3, atol=1e-7, equal_nan=True)
    bad = np.argwhere(~same.reshape(-1))
    if len(bad):
        i = bad[0][0]
        return '%s: %d of %d differ, first x=%r: ours %r, expected %r' % (
            name, len(bad), y.size, x.reshape(-1)[i], y.reshape(-1)[i], expected.reshape(-1)[i])
    return None

with ThreadPoolExecutor(2) as pool:
    errors = [e for e in pool.map(one, range(len(tests))) if e]
print('operators: %d, tests: %d' % (len({t[1] for t in tests}), len(tests)))
for e in errors:
    print('MISMATCH ' + e)
sys.exit(1 if errors else 0)
)PY";

TEST(OnnxNode, UnaryOperatorsMatchOnnxExpectedOutputs) {
  // scripts/install-deps.sh installs them with the test command.
  ASSERT_TRUE(fs::exists(kNodeTests)) << "no ONNX node tests at " << kNodeTests << " (libonnx-testdata)";
  const char* all = std::getenv("BCASTGEN_ONNX_NODE_ALL");
  const bool every = all != nullptr && std::string(all) == "1";
  std::string tmpl = "/tmp/bcastgen_onnx_node_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  std::ofstream(dir / "driver.py") << kDriver;
  const std::string cmd = "cd '" + dir.string() + "' && TMPDIR='" + dir.string() + "' " + BCASTGEN_PYTHON +
                          " driver.py '" + BCASTGEN_EXE + "' '" + kNodeTests + "'" + (every ? " all" : "") +
                          " > out.txt 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  const std::string out = bcastgen::test::read_file_bytes(dir / "out.txt");
  fs::remove_all(dir);
  EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  // Every mapped operator has a test_<op> in ONNX 1.12's data.
  EXPECT_NE(out.find("operators: 23, tests: "), std::string::npos) << out;
}

}  // namespace
