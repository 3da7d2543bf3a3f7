#!/usr/bin/python3
"""Writes the ONNX models that bench/math/ort/ort_bench.js times in ONNX
Runtime: one model per (function, size) for the functions ONNX has as an
operator, and the three fused cases of bench/math in the form a PyTorch
export gives them (bias + GELU as the erf formula, which ONNX Runtime's
optimizer fuses into its BiasGelu kernel).

    /usr/bin/python3 make_models.py OUT_DIR

Needs Debian's python3-onnx (1.12; the opset-20 Gelu is written as a plain
node, which ONNX Runtime 1.30 knows, without the 1.12 checker)."""
import os
import sys

from onnx import TensorProto, helper, save

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


def tensor(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def model(nodes, inputs, output_shape, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, [tensor("y", output_shape)], list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    m.ir_version = 9
    return m


def scalar(name, value):
    return helper.make_tensor(name, TensorProto.FLOAT, [], [value])


def main(out):
    os.makedirs(out, exist_ok=True)
    for size, shape in SIZES.items():
        for name, (op, attrs) in FUNCTIONS.items():
            node = helper.make_node(op, ["x"], ["y"], **attrs)
            save(model([node], [tensor("x", shape)], shape), f"{out}/{name}_{size}.onnx")
        silu = [helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Mul", ["x", "s"], ["y"])]
        save(model(silu, [tensor("x", shape)], shape), f"{out}/silu_{size}.onnx")
    large = SIZES["8x128x3072"]
    # gelu(x + b) as torch.onnx exports nn.GELU after a Linear's bias.
    bias_gelu = [
        helper.make_node("Add", ["x", "b"], ["h"]),
        helper.make_node("Div", ["h", "sqrt2"], ["t"]),
        helper.make_node("Erf", ["t"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["p"]),
        helper.make_node("Mul", ["h", "p"], ["q"]),
        helper.make_node("Mul", ["q", "half"], ["y"]),
    ]
    consts = [scalar("sqrt2", 1.4142135381698608), scalar("one", 1.0), scalar("half", 0.5)]
    save(model(bias_gelu, [tensor("x", large), tensor("b", [3072])], large, consts), f"{out}/bias_gelu_8x128x3072.onnx")
    nchw = [1, 64, 112, 112]
    bias_silu = [
        helper.make_node("Add", ["x", "b"], ["h"]),
        helper.make_node("Sigmoid", ["h"], ["s"]),
        helper.make_node("Mul", ["h", "s"], ["y"]),
    ]
    save(model(bias_silu, [tensor("x", nchw), tensor("b", [1, 64, 1, 1])], nchw), f"{out}/bias_silu_1x64x112x112.onnx")
    gate = [helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Mul", ["s", "b"], ["y"])]
    save(model(gate, [tensor("x", large), tensor("b", large)], large), f"{out}/gate_8x128x3072.onnx")


if __name__ == "__main__":
    main(sys.argv[1])
