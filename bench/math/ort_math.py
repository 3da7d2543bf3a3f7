#!/usr/bin/python3
"""ONNX Runtime as a peer of bench/math, through the benchmarks' one ONNX
Runtime driver (bench/ort/ort_peer.py): one model per (function, size) for
the functions ONNX has as an operator, and the three fused cases of
bench/math in the form a PyTorch export gives them (bias + GELU as the erf
formula, which ONNX Runtime's optimizer fuses into its BiasGelu kernel).
Inputs as math_bench.cpp's: uniform over [-8, 8], (2^-20, 16] for log, the
bias over [-0.5, 0.5].

    /usr/bin/python3 ort_math.py WORK [RUNS]
prints, per model: name, median ms, ns per element, and the kernels ORT ran.
    /usr/bin/python3 ort_math.py WORK --dump OUT_DIR
instead runs each single-function DRAM-sized model on every 1367th f32 bit
pattern and writes its outputs to OUT_DIR/Ort_<function>.f32, for
`math_bench --accuracy OUT_DIR` to measure against its reference.

Needs Debian's python3-onnx (1.12; the opset-20 Gelu is written as a plain
node, which ONNX Runtime 1.30 knows, without the 1.12 checker)."""
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ort"))
import ort_peer  # noqa: E402

SIZES = {"4096": [4096], "8x128x3072": [8, 128, 3072]}
# bcastgen name -> (op_type, attributes); ONNX has no exp2, expm1, log2,
# log10, log1p, and silu is x * Sigmoid(x) (the exported form).
FUNCTIONS = {
    "exp": ("Exp", {}),
    "log": ("Log", {}),
    "tanh": ("Tanh", {}),
    "sigmoid": ("Sigmoid", {}),
    "erf": ("Erf", {}),
    "softplus": ("Softplus", {}),
    "gelu": ("Gelu", {}),
    "gelu_tanh": ("Gelu", {"approximate": "tanh"}),
}
LARGE = SIZES["8x128x3072"]
NCHW = [1, 64, 112, 112]
# name -> (nodes, inputs (name, shape), output shape, constants)
FUSED = {
    # gelu(x + b) as torch.onnx exports nn.GELU after a Linear's bias.
    "bias_gelu_8x128x3072": ([("Add", ["x", "b"], "h"), ("Div", ["h", "sqrt2"], "t"), ("Erf", ["t"], "e"),
                              ("Add", ["e", "one"], "p"), ("Mul", ["h", "p"], "q"), ("Mul", ["q", "half"], "y")],
                             [("x", LARGE), ("b", [3072])], LARGE,
                             {"sqrt2": np.float32(1.4142135381698608), "one": np.float32(1), "half": np.float32(0.5)}),
    "bias_silu_1x64x112x112": ([("Add", ["x", "b"], "h"), ("Sigmoid", ["h"], "s"), ("Mul", ["h", "s"], "y")],
                               [("x", NCHW), ("b", [1, 64, 1, 1])], NCHW, {}),
    "gate_8x128x3072": ([("Sigmoid", ["x"], "s"), ("Mul", ["s", "b"], "y")], [("x", LARGE), ("b", LARGE)], LARGE, {}),
}


def models():
    """name -> (nodes, inputs, output shape, constants), every model."""
    m = {}
    for size, shape in SIZES.items():
        for name, (op, attrs) in FUNCTIONS.items():
            m[f"{name}_{size}"] = ([(op, ["x"], "y", attrs)], [("x", shape)], shape, {})
        m[f"silu_{size}"] = ([("Sigmoid", ["x"], "s"), ("Mul", ["x", "s"], "y")], [("x", shape)], shape, {})
    m.update(FUSED)
    return m


def timing_inputs(name, inputs):
    rng = np.random.default_rng(7)
    arrays = []
    for n, shape in inputs:
        lo, hi = (-0.5, 0.5) if n == "b" and not name.startswith("gate") else \
            (2.0 ** -20, 16.0) if name.startswith("log") else (-8.0, 8.0)
        arrays.append((n, "f32", rng.uniform(lo, hi, shape).astype(np.float32)))
    return arrays


def bit_patterns(shape):
    """The bit patterns 1367 i (clamped to 0xffffffff), as math_bench.cpp's accuracy mode feeds them."""
    n = int(np.prod(shape))
    bits = np.minimum(np.arange(n, dtype=np.uint64) * 1367, 0xFFFFFFFF).astype(np.uint32)
    return bits.view(np.float32).reshape(shape)


def main():
    work = os.path.abspath(sys.argv[1])
    dump = os.path.abspath(sys.argv[3]) if sys.argv[2:3] == ["--dump"] else None
    runs = 1 if dump else int(sys.argv[2]) if len(sys.argv) > 2 else 21
    os.makedirs(work, exist_ok=True)
    entries = []
    for name, (nodes, inputs, out_shape, consts) in sorted(models().items()):
        if dump and not (name.endswith("_8x128x3072") and name not in FUSED):
            continue
        model = os.path.join(work, name + ".onnx")
        ort_peer.save_model(model, nodes, [(n, "f32", s) for n, s in inputs], ("y", "f32", out_shape), opset=20,
                            consts=consts, ir_version=9)
        arrays = [("x", "f32", bit_patterns(out_shape))] if dump else timing_inputs(name, inputs)
        entries.append(ort_peer.case_entry(work, name, model, arrays, ("y", "f32", out_shape), write_output=bool(dump)))
    results = ort_peer.run(entries, runs, work)
    for e in entries:
        name, r = e["case"], results[e["case"]]
        if "error" in r:
            raise SystemExit(f"onnxruntime refused {name}: {r['error']}")
        if dump:
            shutil.copyfile(e["output"]["file"], os.path.join(dump, "Ort_%s.f32" % name.replace("_8x128x3072", "")))
            continue
        ms = float(np.median(r["samples_ns"])) / 1e6
        elements = int(np.prod(e["inputs"][0]["shape"]))
        kernels = "+".join(dict.fromkeys(r["graph"].split(" + ")))
        print(f"Ort/{name} {ms:.3f} ms {ms * 1e6 / elements:.3f} ns_per_elt kernels={kernels}")


if __name__ == "__main__":
    main()
