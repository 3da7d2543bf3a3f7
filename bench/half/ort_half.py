#!/usr/bin/python3
"""ONNX Runtime as a peer of bench/half, through the benchmarks' one ONNX
Runtime driver (bench/ort/ort_peer.py): bench/half's cases (cases.yaml, read
through bench/spec_table.py) in f32 and f16
(ONNX Runtime 1.30's CPU provider has no bf16 Add, Mul, Sub or Relu), as an
exporter writes them: one node per op, BatchNorm + ReLU as Mul, Add, Relu.
Inputs uniform over [-4, 4), as half_bench.cpp's. Prints half_bench's
lines: case, dtype, "onnxruntime", median ns, (no mismatch count), bytes.

    /usr/bin/python3 ort_half.py WORK [RUNS]

Needs Debian's python3-onnx."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ort"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ort_peer  # noqa: E402
import spec_table  # noqa: E402

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.yaml")
NODE = {"add": "Add", "subtract": "Sub", "multiply": "Mul"}
BN_RELU = "max(x * s + t, 0)"
DTYPES = ("f32", "f16")


def cases():
    """cases.yaml's kernels ONNX Runtime has, as an exporter writes them: (case, dtype, output shape,
    [(input, shape)], [(op, inputs, output)]), in its order. Its CPU provider has no bf16 Add, Mul, Sub or
    Relu, so no bf16 (nor the bf16 x + f32 b case)."""
    for name, dtype, k in spec_table.cases_in_types(SPEC, DTYPES):
        inputs = [(n, list(s)) for n, s, _, _ in k["inputs"]]
        names = [n for n, _ in inputs]
        if k["op"] in NODE:
            nodes = [(NODE[k["op"]], names, "y")]
        elif k["form"] == BN_RELU:
            nodes = [("Mul", names[:2], "xs"), ("Add", ["xs", names[2]], "z"), ("Relu", ["z"], "y")]
        else:
            raise SystemExit("ort_half.py: no ONNX form of %s (%s)" % (k["name"], k["form"]))
        yield name, dtype, k["out"], inputs, nodes


def main():
    work = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(7)
    entries, bytes_of = [], {}
    for name, dtype, out_shape, inputs, nodes in cases():
        case = f"{name}_{dtype}"
        model = os.path.join(work, case + ".onnx")
        ort_peer.save_model(model, nodes, [(n, dtype, s) for n, s in inputs], ("y", dtype, out_shape), opset=14)
        arrays = [(n, dtype, rng.uniform(-4, 4, s).astype(ort_peer.NUMPY_TYPE[dtype])) for n, s in inputs]
        entries.append(ort_peer.case_entry(work, case, model, arrays, ("y", dtype, out_shape), write_output=False))
        size = np.dtype(ort_peer.NUMPY_TYPE[dtype]).itemsize
        bytes_of[case] = size * (sum(int(np.prod(s)) for _, s in inputs) + int(np.prod(out_shape)))
    results = ort_peer.run(entries, runs, work)
    for e in entries:
        r = results[e["case"]]
        if "error" in r:
            raise SystemExit(f"onnxruntime refused {e['case']}: {r['error']}")
        name, dtype = e["case"].rsplit("_", 1)
        print("\t".join([name, dtype, "onnxruntime", "%.0f" % np.median(r["samples_ns"]), "", str(bytes_of[e["case"]])]))


if __name__ == "__main__":
    main()
