#!/usr/bin/env python3
"""Writes two small graphs in the style paddle2onnx writes, with onnx.helper only (no torch, no paddle).

    python3 make_paddle_style.py [--out DIR]

paddle_neck.onnx (opset 11): a fragment of an OCR recognizer's transformer neck.
    x [N, 64, 1, 40] -> Reshape to [N, 64, 40] (shape from Shape -> Cast(INT32) -> Slice -> Concat
    -> Cast(INT64), as paddle's int32 shapes come out) -> Transpose [N, 40, 64] -> bias Add ->
    hardswish as Add(3) -> Clip(0, 6) -> Mul(x, .) -> Div(6) -> layer norm as ReduceMean / Sub /
    Pow / ReduceMean / Add / Sqrt / Div / Mul / Add -> MatMul + bias Add -> scale (Mul + Add) ->
    residual Add -> swish x * Sigmoid(x) -> gate by hardsigmoid Mul(0.2) -> Add(0.5) -> Clip(0, 1)
    -> Transpose [N, 64, 40] -> Reshape back to [N, 64, 1, 40] (shape from Shape -> Gather ->
    Unsqueeze -> Concat).
paddle_hardswish.onnx (opset 13): Conv -> BatchNormalization -> hardswish (Add/Clip/Mul/Div) ->
    Conv -> BatchNormalization -> Relu -> Flatten -> MatMul + bias Add -> Reshape to [N, 2, 5]
    (shape from Shape -> Slice -> Concat) -> Sigmoid.

Constants are Constant nodes and parameters initializers named as paddle names them
(conv2d_0.w_0, batch_norm2d_0.w_1, ...). Elementwise parameters are random (non-uniform);
weights are random of small magnitude. numpy RandomState(0): running it twice writes
byte-identical files.
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto


class Builder:
    """Collects nodes, initializers and constants with paddle2onnx-like names."""

    def __init__(self, opset):
        self.opset = opset
        self.nodes = []
        self.inits = []
        self.count = {}

    def _name(self, op):
        k = self.count.get(op, 0)
        self.count[op] = k + 1
        return 'p2o.%s.%d' % (op, k)

    def node(self, op, inputs, n_out=1, **attrs):
        name = self._name(op)
        outs = ['%s.tmp_%d' % (name, i) for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, value, dtype):
        arr = np.array(value, dtype=dtype)
        name = self._name('Constant')
        out = name + '.tmp_0'
        self.nodes.append(helper.make_node('Constant', [], [out], name=name,
                                           value=numpy_helper.from_array(arr, out)))
        return out

    def param(self, name, arr):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def unsqueeze(self, x, axes):
        if self.opset >= 13:
            return self.node('Unsqueeze', [x, self.const(axes, np.int64)])
        return self.node('Unsqueeze', [x], axes=axes)

    def clip(self, x, lo, hi):
        return self.node('Clip', [x, self.const(lo, np.float32), self.const(hi, np.float32)])

    def hardswish(self, x):
        """paddle2onnx's hardswish: x * clip(x + 3, 0, 6) / 6."""
        t = self.node('Add', [x, self.const(3.0, np.float32)])
        t = self.clip(t, 0.0, 6.0)
        t = self.node('Mul', [x, t])
        return self.node('Div', [t, self.const(6.0, np.float32)])

    def model(self, name, inputs, outputs):
        g = helper.make_graph(self.nodes, name, inputs, outputs, initializer=self.inits)
        m = helper.make_model(g, producer_name='PaddlePaddle', producer_version='',
                              opset_imports=[helper.make_opsetid('', self.opset)])
        m.ir_version = 7
        m.doc_string = 'bcastgen test model %s, made by tests/onnx/models/make_paddle_style.py' % name
        return m


def paddle_neck(rng):
    b = Builder(11)
    C, W = 64, 40
    x = 'x'
    # reshape2 [N, 64, 1, 40] -> [N, 64, 40]: paddle's shapes are int32
    s = b.node('Shape', [x])
    s = b.node('Cast', [s], to=TensorProto.INT32)
    n = b.node('Slice', [s, b.const([0], np.int64), b.const([1], np.int64), b.const([0], np.int64)])
    shape = b.node('Concat', [n, b.const([C, W], np.int32)], axis=0)
    shape = b.node('Cast', [shape], to=TensorProto.INT64)
    h = b.node('Reshape', [x, shape])
    h = b.node('Transpose', [h], perm=[0, 2, 1])                       # [N, 40, 64]
    h = b.node('Add', [h, b.param('neck.fc_0.b_0', (0.1 * rng.randn(C)).astype(np.float32))])
    h0 = h
    h = b.hardswish(h)
    # layer_norm over the last axis
    mean = b.node('ReduceMean', [h], axes=[-1], keepdims=1)
    d = b.node('Sub', [h, mean])
    var = b.node('ReduceMean', [b.node('Pow', [d, b.const(2.0, np.float32)])], axes=[-1], keepdims=1)
    std = b.node('Sqrt', [b.node('Add', [var, b.const(1e-5, np.float32)])])
    h = b.node('Div', [d, std])
    h = b.node('Mul', [h, b.param('layer_norm_0.w_0', (1.0 + 0.1 * rng.randn(C)).astype(np.float32))])
    h = b.node('Add', [h, b.param('layer_norm_0.b_0', (0.1 * rng.randn(C)).astype(np.float32))])
    # linear
    h = b.node('MatMul', [h, b.param('linear_0.w_0', (0.05 * rng.randn(C, C)).astype(np.float32))])
    h = b.node('Add', [h, b.param('linear_0.b_0', (0.05 * rng.randn(C)).astype(np.float32))])
    # scale(x, 1.5, bias 0.25)
    h = b.node('Mul', [h, b.const(1.5, np.float32)])
    h = b.node('Add', [h, b.const(0.25, np.float32)])
    h = b.node('Add', [h, h0])                                           # residual
    h = b.node('Mul', [h, b.node('Sigmoid', [h])])                       # swish
    g = b.node('Mul', [h, b.const(0.2, np.float32)])                     # hardsigmoid
    g = b.node('Add', [g, b.const(0.5, np.float32)])
    g = b.clip(g, 0.0, 1.0)
    h = b.node('Mul', [h, g])
    h = b.node('Transpose', [h], perm=[0, 2, 1])                       # [N, 64, 40]
    # reshape back to [N, 64, 1, 40]
    s = b.node('Shape', [x])
    n = b.node('Gather', [s, b.const(0, np.int64)], axis=0)
    n = b.unsqueeze(n, [0])
    shape = b.node('Concat', [n, b.const([C, 1, W], np.int64)], axis=0)
    y = 'reshape2_1.tmp_0'
    b.nodes.append(helper.make_node('Reshape', [h, shape], [y], name='p2o.Reshape.out'))
    return b.model('paddle_neck',
                   [helper.make_tensor_value_info(x, TensorProto.FLOAT, ['N', C, 1, W])],
                   [helper.make_tensor_value_info(y, TensorProto.FLOAT, ['N', C, 1, W])])


def batch_norm(b, rng, x, prefix, c):
    scale = b.param(prefix + '.w_0', (1.0 + 0.1 * rng.randn(c)).astype(np.float32))
    bias = b.param(prefix + '.b_0', (0.1 * rng.randn(c)).astype(np.float32))
    mean = b.param(prefix + '.w_1', (0.1 * rng.randn(c)).astype(np.float32))
    var = b.param(prefix + '.w_2', (1.0 + 0.2 * rng.rand(c)).astype(np.float32))
    return b.node('BatchNormalization', [x, scale, bias, mean, var], epsilon=1e-5, momentum=0.9)


def paddle_hardswish(rng):
    b = Builder(13)
    x = 'x'
    h = b.node('Conv', [x, b.param('conv2d_0.w_0', (0.1 * rng.randn(8, 3, 3, 3)).astype(np.float32))],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], dilations=[1, 1], group=1)
    h = batch_norm(b, rng, h, 'batch_norm2d_0', 8)                      # [N, 8, 8, 8]
    h = b.hardswish(h)
    h = b.node('Conv', [h, b.param('conv2d_1.w_0', (0.1 * rng.randn(16, 8, 3, 3)).astype(np.float32))],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2], dilations=[1, 1], group=1)
    h = batch_norm(b, rng, h, 'batch_norm2d_1', 16)                     # [N, 16, 4, 4]
    h = b.node('Relu', [h])
    h = b.node('Flatten', [h], axis=1)                                  # [N, 256]
    h = b.node('MatMul', [h, b.param('linear_0.w_0', (0.05 * rng.randn(256, 10)).astype(np.float32))])
    h = b.node('Add', [h, b.param('linear_0.b_0', (0.05 * rng.randn(10)).astype(np.float32))])
    # reshape [N, 10] -> [N, 2, 5]
    s = b.node('Shape', [h])
    n = b.node('Slice', [s, b.const([0], np.int64), b.const([1], np.int64), b.const([0], np.int64)])
    shape = b.node('Concat', [n, b.const([2, 5], np.int64)], axis=0)
    h = b.node('Reshape', [h, shape])
    y = 'sigmoid_0.tmp_0'
    b.nodes.append(helper.make_node('Sigmoid', [h], [y], name='p2o.Sigmoid.out'))
    return b.model('paddle_hardswish',
                   [helper.make_tensor_value_info(x, TensorProto.FLOAT, ['N', 3, 16, 16])],
                   [helper.make_tensor_value_info(y, TensorProto.FLOAT, ['N', 2, 5])])


def check(m):
    onnx.checker.check_model(m)
    onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True, data_prop=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    rng = np.random.RandomState(0)
    for make in (paddle_neck, paddle_hardswish):
        m = make(rng)
        check(m)
        data = m.SerializeToString()
        path = os.path.join(args.out, make.__name__ + '.onnx')
        with open(path, 'wb') as f:
            f.write(data)
        print('%-28s %7d bytes %4d nodes' % (os.path.basename(path), len(data), len(m.graph.node)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
