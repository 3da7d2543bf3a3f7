#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (checked in; rerun after editing):
    python3 fuzz/make_seeds.py
fuzz/corpus/spec/: specs, valid and invalid, covering every field;
fuzz/corpus/shape_rules/: text-mode shape pairs and binary-mode inputs;
fuzz/corpus/plan/: binary inputs decoding to every op kind, rule and mode;
fuzz/corpus/onnx/: small ONNX models (with /usr/bin/python3 and python3-onnx).
libFuzzer grows its own corpus in build-fuzz/ from these."""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def kernel(name, op="add", dtype="f32", rule="numpy", a="[2, 3]", b="[3]", extra=""):
    return (f"  - name: {name}\n    op: {op}\n    dtype: {dtype}\n    rule: {rule}\n{extra}"
            f"    a: {a}\n    b: {b}\n")


def bcast(name, mode, a, target, dtype="f32", extra=""):
    return f"  - name: {name}\n    op: broadcast\n    mode: {mode}\n    dtype: {dtype}\n{extra}    a: {a}\n    target: {target}\n"


specs = {
    "demo.yaml": open(os.path.join(HERE, "..", "examples", "demo.yaml")).read(),
    "all_fields.yaml": "namespace: a::b\nisa: [avx512, avx2, scalar]\nstream_threshold_bytes: 1024\n"
                       "max_elements: 1000000\nkernels:\n" + kernel("k1") +
                       kernel("k2", "less", "i8", "pdpd", "[2, 3, 4, 5]", "[3, 1]", "    axis: 1\n") +
                       bcast("k3", "explicit", "[3]", "[2, 3, 4]", extra="    axes_mapping: [1]\n") +
                       bcast("k4", "pdpd", "[3, 1]", "[2, 3, 4, 5]", "u8", "    axis: 1\n") +
                       bcast("k5", "numpy", "[3]", "[50, 3]", "bool"),
    "json.json": '{"namespace": "j", "kernels": [{"name": "k", "op": "multiply", "dtype": "f64", '
                 '"rule": "numpy", "a": [1, 64, 56, 56], "b": [1, 64, 1, 1]}]}',
    "repeat.yaml": "kernels:\n" + kernel("mean_sub", "subtract", "f32", "numpy", "[1, 224, 224, 3]", "[3]"),
    "scalar_zero.yaml": "kernels:\n" + kernel("s", "maximum", "i64", "numpy", "[]", "[]") +
                        kernel("z", "bitwise_xor", "u16", "numpy", "[0, 5]", "[5]") +
                        kernel("n", "equal", "bool", "none", "[4, 5]", "[4, 5]"),
    "errors.yaml": "namspace: x\nkernels:\n" + kernel("class", "plus", "f16", "numpi", "[2, -3]", '"12"') +
                   kernel("k", "add", "f32", "numpy", "[3, 1, 5]", "[4, 4, 5]") +
                   kernel("k", "logical_and", "f32", "pdpd", "[2]", "[2]", "    axis: -2\n") +
                   bcast("e", "explicit", "[3, 4]", "[2, 3, 4]", extra="    axes_mapping: [2, 1]\n"),
    "overflow.yaml": "max_elements: 9223372036854775807\nkernels:\n" +
                     kernel("big", "add", "f64", "numpy", "[2305843009213693952]", "[1]") +
                     kernel("ovf", "add", "f32", "numpy", "[4294967296, 4294967296, 4]", "[1]"),
    "malformed.yaml": "kernels:\n  - name: k\n    a: [1, 2\n    b: [3]\n",
    "keys.yaml": "? [x]\n: 1\nkernels:\n  - {name: k, name: j, op: add, dtype: f32, rule: numpy, a: [1], b: [1]}\n",
    "anchors.yaml": "kernels:\n  - &k {name: k, op: add, dtype: f32, rule: numpy, a: &s [2, 3], b: *s}\n"
                    "  - {name: j, op: add, dtype: f32, rule: numpy, a: *s, b: [1]}\n",
    "empty.yaml": "",
}
for name, text in specs.items():
    write("spec", name, text)

pairs = [("[2,3,4]", "[3,1]"), ("8x1x6x1", "7x1x5"), ("[]", "[]"), ("2,3", "3"), ("[0]", "[1]"),
         ("[1,64,56,56]", "[1,64,1,1]"), ("[3,1,5]", "[4,4,5]"), ("[9223372036854775807]", "[2]"),
         ("[4294967296,4294967296]", "[1]"), (" [ 2 , 3 ] ", "2X3"), ("[2,-3]", "[1"), ("2x3,4", "[]x")]
for i, (a, b) in enumerate(pairs):
    write("shape_rules", f"text_{i:02d}", b"\x01" + f"{a}\n{b}".encode())
rng = random.Random(7)
for i in range(24):
    write("shape_rules", f"binary_{i:02d}", bytes([0] + [rng.randrange(256) for _ in range(rng.randint(4, 40))]))
for i in range(48):
    # op, dtype, rule, mode, then shapes: bias the first bytes over the choices.
    head = [i % 23, rng.randrange(11), i % 3, i % 4]
    write("plan", f"seed_{i:02d}", bytes(head + [rng.randrange(256) for _ in range(rng.randint(8, 48))]))


def onnx_seeds():
    """Small models of each shape the frontend handles, each under 4 KiB."""
    import numpy as np
    from onnx import TensorProto as T, helper as h, numpy_helper

    def model(name, nodes, inputs, outputs, inits=(), opset=13):
        g = h.make_graph(nodes, name, [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                         [h.make_tensor_value_info(n, T.FLOAT, None) for n in outputs],
                         [numpy_helper.from_array(np.asarray(a), n) for n, a in inits])
        write("onnx", name + ".onnx", h.make_model(g, opset_imports=[h.make_opsetid("", opset)]).SerializeToString())

    f = T.FLOAT
    model("relu", [h.make_node("Relu", ["x"], ["y"])], [("x", f, [2, 3])], ["y"])
    model("bn_relu", [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["t"], epsilon=1e-3),
                      h.make_node("Relu", ["t"], ["y"])], [("x", f, [1, 4, 3, 3])], ["y"],
          [("s", np.ones(4, np.float32)), ("b", np.arange(4, dtype=np.float32)),
           ("m", np.zeros(4, np.float32)), ("v", np.full(4, 2, np.float32))], opset=9)
    model("gelu", [h.make_node("Div", ["x", "c"], ["d"]), h.make_node("Erf", ["d"], ["e"]),
                   h.make_node("Add", ["e", "one"], ["p"]), h.make_node("Mul", ["x", "p"], ["q"]),
                   h.make_node("Mul", ["q", "half"], ["y"])], [("x", f, [4, 8])], ["y"],
          [("c", np.float32(1.4142135)), ("one", np.float32(1)), ("half", np.float32(0.5))])
    model("select", [h.make_node("Greater", ["x", "z"], ["g"]), h.make_node("Where", ["g", "x", "r"], ["w"]),
                     h.make_node("Clip", ["w", "lo", "hi"], ["c"]), h.make_node("Cast", ["c"], ["y"], to=T.FLOAT)],
          [("x", f, [3, 5]), ("r", f, [5])], ["y"],
          [("z", np.float32(0)), ("lo", np.float32(-1)), ("hi", np.float32(1))])
    model("shared", [h.make_node("Add", ["a", "b"], ["s"]), h.make_node("Sigmoid", ["s"], ["y1"]),
                     h.make_node("Mul", ["s", "a"], ["y2"])], [("a", f, [2, 1, 4]), ("b", f, [3, 1])], ["y1", "y2"])
    model("dynamic", [h.make_node("Sub", ["x", "y"], ["z"])], [("x", f, ["N", 4]), ("y", f, [4])], ["z"])
    model("unsqueeze", [h.make_node("ConstantOfShape", ["shape"], ["w"],
                                    value=numpy_helper.from_array(np.array([0.5], np.float32))),
                        h.make_node("Unsqueeze", ["w", "axes"], ["wu"]), h.make_node("Mul", ["x", "wu"], ["y"])],
          [("x", f, [1, 3, 2, 2])], ["y"], [("shape", np.array([3], np.int64)), ("axes", np.array([1, 2], np.int64))])
    model("old_broadcast", [h.make_node("Add", ["x", "y"], ["z"], broadcast=1, axis=1)],
          [("x", f, [2, 3, 4]), ("y", f, [3])], ["z"], opset=6)


try:
    onnx_seeds()
except ImportError:
    print("make_seeds: no onnx module; fuzz/corpus/onnx/ left as it is")
