#!/usr/bin/python3
"""ONNX Runtime as a peer of bench/half, through the benchmarks' one ONNX
Runtime driver (bench/ort/ort_peer.py): bench/half's cases in f32 and f16
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
import ort_peer  # noqa: E402

# name -> (output shape, [(input, shape)], [(op, inputs, output)])
CASES = {
    "bias_add": ([1, 64, 56, 56], [("x", [1, 64, 56, 56]), ("b", [1, 64, 1, 1])], [("Add", ["x", "b"], "y")]),
    "ln_scale": ([8, 128, 768], [("x", [8, 128, 768]), ("b", [768])], [("Mul", ["x", "b"], "y")]),
    "nhwc": ([1, 224, 224, 3], [("x", [1, 224, 224, 3]), ("b", [3])], [("Sub", ["x", "b"], "y")]),
    "mask": ([8, 12, 128, 128], [("x", [8, 12, 128, 128]), ("b", [8, 1, 1, 128])], [("Add", ["x", "b"], "y")]),
    "bn_relu": ([1, 64, 112, 112], [("x", [1, 64, 112, 112]), ("s", [1, 64, 1, 1]), ("t", [1, 64, 1, 1])],
                [("Mul", ["x", "s"], "xs"), ("Add", ["xs", "t"], "z"), ("Relu", ["z"], "y")]),
    "mixed": ([8, 128, 768], [("x", [8, 128, 768]), ("b", [768])], [("Add", ["x", "b"], "y")]),
    "big_add": ([4096, 4096], [("x", [4096, 4096]), ("b", [4096])], [("Add", ["x", "b"], "y")]),
}
DTYPES = ("f32", "f16")


def main():
    work = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(7)
    entries, bytes_of = [], {}
    for name, (out_shape, inputs, nodes) in CASES.items():
        for dtype in DTYPES:
            if name == "mixed" and dtype != "f32":
                continue  # bf16 x + f32 b: no bf16 in ONNX Runtime's CPU provider
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
