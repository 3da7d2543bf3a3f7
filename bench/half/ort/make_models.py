#!/usr/bin/python3
"""Writes the ONNX models that bench/half/ort/ort_half.js times in ONNX
Runtime: bench/half's cases in f32 and f16 (ONNX Runtime 1.30's CPU provider
has no bf16 Add, Mul, Sub or Relu), as an exporter writes them: one node per
op, BatchNorm + ReLU as Mul, Add, Relu.

    /usr/bin/python3 make_models.py OUT_DIR

Needs Debian's python3-onnx."""
import os
import sys

from onnx import TensorProto, helper, save

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
TYPES = {"f32": TensorProto.FLOAT, "f16": TensorProto.FLOAT16}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (out_shape, inputs, nodes) in CASES.items():
        for dtype, t in TYPES.items():
            if name == "mixed" and dtype != "f32":
                continue  # bf16 x + f32 b: no bf16 in ONNX Runtime's CPU provider
            graph = helper.make_graph(
                [helper.make_node(op, ins, [o]) for op, ins, o in nodes], f"{name}_{dtype}",
                [helper.make_tensor_value_info(n, t, s) for n, s in inputs],
                [helper.make_tensor_value_info("y", t, out_shape)])
            model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
            model.ir_version = 8
            save(model, os.path.join(out, f"{name}_{dtype}.onnx"))


if __name__ == "__main__":
    main()
