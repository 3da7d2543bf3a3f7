"""ONNX Runtime as a peer of every benchmark kind: the one way the kinds
(bench/ort/ort_bench.py's single-op and fused cases, bench/math, bench/half,
bench/rows, bench/onnx, bench/transpose) write a case and time it.

A case is a model file, its inputs as raw files and its output; `run()`
hands them to ort_cases.js in one `node` process, which runs each on one
thread with all graph optimizations, the output preallocated, and times it
with ORT's profiler (the sum of the graph's kernel times per run, whole
microseconds, the session's own overhead excluded).
"""
import json
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from numpy_bench import DTYPES  # noqa: E402
# bench/install-deps.sh installs onnxruntime-node here (package.json).
NODE_MODULES = os.path.join(HERE, "node_modules")
ONNX_TYPE = {"f32": TensorProto.FLOAT, "f16": TensorProto.FLOAT16, "u8": TensorProto.UINT8,
             "i32": TensorProto.INT32, "bool": TensorProto.BOOL}
# numpy_bench.py's element types, and f16 for bench/half.
NUMPY_TYPE = dict(DTYPES, f16=np.float16)


class OrtFailure(Exception):
    pass


def save_model(path, nodes, inputs, output, opset=13, consts=None, ir_version=8):
    """A model of `nodes` ((op_type, inputs, output[, attributes]) each) over
    `inputs` ((name, dtype, shape) each) to `output` (name, dtype, shape),
    with `consts` (name -> array) as initializers."""
    graph = helper.make_graph(
        [helper.make_node(n[0], n[1], [n[2]], **(n[3] if len(n) > 3 else {})) for n in nodes], "case",
        [helper.make_tensor_value_info(n, ONNX_TYPE[d], s) for n, d, s in inputs],
        [helper.make_tensor_value_info(output[0], ONNX_TYPE[output[1]], output[2])],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in (consts or {}).items()])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = ir_version
    save(m, path)


def case_entry(work, name, model, arrays, output, write_output=True):
    """A case for run(): `arrays` ((name, dtype, array) each) are written
    beside the model; `output` is (name, dtype, shape). With write_output,
    the last run's output goes to <work>/<name>.out (read_output)."""
    entry = {"case": name, "model": model, "inputs": [],
             "output": {"name": output[0], "dtype": output[1], "shape": list(output[2])}}
    for n, d, a in arrays:
        path = os.path.join(work, "%s.%s.bin" % (name, n))
        np.ascontiguousarray(a, NUMPY_TYPE[d]).tofile(path)
        entry["inputs"].append({"name": n, "dtype": d, "shape": list(a.shape), "file": path})
    if write_output:
        entry["output"]["file"] = os.path.join(work, name + ".out")
    return entry


def read_output(entry):
    return np.fromfile(entry["output"]["file"], NUMPY_TYPE[entry["output"]["dtype"]])


def run(entries, runs, work):
    """Times every case in one `node` process: {case: result}, a result being
    {samples_ns, graph, kernels} (per run, after 3 warm-ups) or {error}."""
    cases_json = os.path.join(work, "ort_cases.json")
    with open(cases_json, "w") as f:
        json.dump(entries, f)
    env = dict(os.environ, NODE_PATH=NODE_MODULES)
    p = subprocess.run(["node", os.path.join(HERE, "ort_cases.js"), cases_json, str(runs)],
                       capture_output=True, text=True, env=env)
    if p.returncode:
        raise OrtFailure("onnxruntime-node failed (bench/install-deps.sh installs it):\n" + p.stderr.strip())
    return {r["case"]: r for r in map(json.loads, p.stdout.splitlines())}
