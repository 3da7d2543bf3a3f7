#!/usr/bin/env python3
"""Seeds for the ONNX model fuzzer from the real exports in tests/onnx/models:
each with its dynamic input dimensions fixed (the fuzzer gives no
--input-shape), so that mutations start from graphs whose shape chains fold.

    /usr/bin/python3 fuzz/make_onnx_seeds.py   # writes fuzz/corpus/onnx/export_*.onnx
"""
import os

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, '..', 'tests', 'onnx', 'models')
# The exports under the fuzzer's 64 KiB limit, and their input shapes.
SEEDS = {'gpt2_block_opset13': [2, 16, 64], 'llama_block_opset17': [2, 16, 64],
         'paddle_neck': [2, 64, 1, 40], 'paddle_hardswish': [2, 3, 16, 16]}

for name, dims in SEEDS.items():
    m = onnx.load(os.path.join(MODELS, name + '.onnx'))
    shape = m.graph.input[0].type.tensor_type.shape
    for d, v in zip(shape.dim, dims):
        d.Clear()
        d.dim_value = v
    data = m.SerializeToString()
    assert len(data) <= 65536, name
    with open(os.path.join(HERE, 'corpus', 'onnx', 'export_' + name + '.onnx'), 'wb') as f:
        f.write(data)
