#!/usr/bin/env python3
"""Runs `bcastgen onnx` on ONNX models and checks the generated kernels.

    check_kernels.py --exe BCASTGEN --work DIR --include RUNTIME_INCLUDE \
        [--model M.onnx ...] [--node-tests DIR] [--min-node-tests N]

Models (../shared/onnx-models): every distinct kernel runs on random inputs
and is compared with an evaluation of its ONNX nodes in NumPy, written here
from ONNX's operator definitions (float32 throughout, as ONNX computes).

Node tests (Debian's libonnx-testdata): every test whose nodes `bcastgen
onnx` covers (all but constants, which it folds) runs its kernels in graph
order on the test's inputs; the graph outputs must equal the expected ones
to ONNX's own tolerance (rtol 1e-3, atol 1e-7; exact for integers, bool and
the exact operators, EXACT_OPS).
A test with an uncovered node is listed as skipped with the reason.

The kernels of all sources are generated into two specs (merged from each
source's <stem>.yaml, kernels renamed <source>_kN), compiled with one
generic driver that finds them through the generated kernel tables, and run
on every ISA this CPU supports.
"""
import argparse
import math
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import reduce

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

ONNX_DTYPE = {1: 'f32', 2: 'u8', 3: 'i8', 4: 'u16', 5: 'i16', 6: 'i32', 7: 'i64', 9: 'bool',
              10: 'f16', 11: 'f64', 12: 'u32', 13: 'u64', 16: 'bf16'}
NP_DTYPE = {'f32': np.float32, 'f64': np.float64, 'i8': np.int8, 'u8': np.uint8, 'i16': np.int16,
            'u16': np.uint16, 'i32': np.int32, 'u32': np.uint32, 'i64': np.int64, 'u64': np.uint64,
            'bool': np.bool_, 'f16': np.float16, 'bf16': np.uint16}  # bf16 as its bits
# ONNX 1.12's expected outputs for casts to bfloat16 truncate; the ONNX spec
# rounds to nearest even (test data regenerated in ONNX 1.13; ONNX Runtime,
# ml_dtypes and bcastgen round so). Those tests compare with NumPy's RNE.
BF16_CASTS = ('test_cast_FLOAT_to_BFLOAT16', 'test_castlike_FLOAT_to_BFLOAT16',
              'test_castlike_FLOAT_to_BFLOAT16_expanded')
# Node tests of these operators alone compare bit for bit: their results are
# exact (the others to ONNX's tolerance, rtol 1e-3, atol 1e-7).
EXACT_OPS = ('Abs', 'Neg', 'Ceil', 'Floor', 'Round', 'Sign', 'IsNaN', 'IsInf', 'Relu', 'Max', 'Min', 'Where', 'Not',
             'Equal', 'Less', 'Greater', 'And', 'Or', 'Xor')
# The reason bcastgen onnx gives for nodes it folds rather than leaves out.
FOLDED = 'folded'
RESHAPES = ('Unsqueeze', 'Squeeze', 'Reshape', 'Flatten', 'Identity')


def ident(s):
    return re.sub(r'[^A-Za-z0-9_]', '_', s)


def bf16_bits(a):
    """bf16 data as its bits: ONNX 1.12's to_array gives a BFLOAT16 tensor's
    bits as uint16; float32 values that are bf16 numbers keep their top half."""
    a = np.asarray(a)
    return a if a.dtype == np.uint16 else (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def bf16_rne(a):
    """float32 -> bf16 bits, round to nearest even (NaN kept quiet)."""
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(a), (u >> 16).astype(np.uint16) | 0x40, r)


def bits_to_float(a, dtype):
    return (a.astype(np.uint32) << 16).view(np.float32) if dtype == 'bf16' else a


# --- ONNX nodes in NumPy (the models' independent oracle) -------------------

def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def batchnorm(node, x, s, b, m, v):
    shape = (-1,) + (1,) * (x.ndim - 2)
    eps = np.float32(attr(node, 'epsilon', 1e-5))
    r = lambda t: t.reshape(shape)
    return (x - r(m)) / np.sqrt(r(v) + eps) * r(s) + r(b)


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


def cast(node, x):
    return x.astype(NP_DTYPE[ONNX_DTYPE[attr(node, 'to', 1)]])


NUMPY_OPS = {
    'Add': lambda n, a, b: a + b, 'Sub': lambda n, a, b: a - b, 'Mul': lambda n, a, b: a * b,
    'Div': lambda n, a, b: a / b, 'Relu': lambda n, x: np.maximum(x, x.dtype.type(0)),
    'Sum': lambda n, *xs: reduce(np.add, xs), 'Max': lambda n, *xs: reduce(np.maximum, xs),
    'Min': lambda n, *xs: reduce(np.minimum, xs), 'Dropout': lambda n, x, *rest: x,
    'Identity': lambda n, x: x, 'BatchNormalization': batchnorm,
    'Sigmoid': lambda n, x: 1 / (1 + np.exp(-x)), 'Tanh': lambda n, x: np.tanh(x),
    'LeakyRelu': lambda n, x: np.where(x < 0, x * np.float32(attr(n, 'alpha', 0.01)), x),
    'Clip': lambda n, x, lo=None, hi=None: np.clip(x, lo if lo is not None else -np.inf,
                                                    hi if hi is not None else np.inf),
    'Erf': lambda n, x: erf(x), 'Exp': lambda n, x: np.exp(x), 'Log': lambda n, x: np.log(x),
    'Abs': lambda n, x: np.abs(x), 'Neg': lambda n, x: -x, 'Sqrt': lambda n, x: np.sqrt(x),
    'Pow': lambda n, x, y: np.power(x, y.astype(x.dtype)), 'Mean': lambda n, *xs: reduce(np.add, xs) / len(xs),
    'Where': lambda n, c, x, y: np.where(c, x, y), 'Greater': lambda n, a, b: a > b,
    'Less': lambda n, a, b: a < b, 'Equal': lambda n, a, b: a == b, 'Not': lambda n, x: ~x,
    'PRelu': lambda n, x, s: np.where(x < 0, x * s, x), 'Cast': cast,
    'Expand': lambda n, x, shape: x * np.ones(tuple(shape), x.dtype),
    'HardSigmoid': lambda n, x: np.clip(x * np.float32(attr(n, 'alpha', 0.2)) + np.float32(attr(n, 'beta', 0.5)), 0, 1),
    'Softplus': lambda n, x: np.log(np.exp(x) + x.dtype.type(1)),
    'HardSwish': lambda n, x: x * np.clip(x * np.float32(1 / 6) + np.float32(0.5), 0, 1),
    'Reciprocal': lambda n, x: 1 / x, 'Floor': lambda n, x: np.floor(x), 'Ceil': lambda n, x: np.ceil(x),
    'GreaterOrEqual': lambda n, a, b: a >= b, 'LessOrEqual': lambda n, a, b: a <= b,
    'And': lambda n, a, b: a & b, 'Or': lambda n, a, b: a | b,
}


def folded_values(src_map):
    """The values bcastgen onnx folded (the map's not_covered entries with a
    value), by tensor: shapes computed in the graph, constants."""
    model = onnx.load(src_map['path'])
    out = {}
    for e in src_map['map']['not_covered']:
        v = e.get('value')
        if e['reason'] != FOLDED or v is None:
            continue
        dtype = NP_DTYPE[v['dtype']]
        a = (np.full(v['shape'], v['uniform'], dtype) if 'uniform' in v
             else np.array(v['values'], dtype).reshape(v['shape']))
        out[model.graph.node[e['index']].output[0]] = a
    return out


def constants(model):
    """The values known when the model is read: initializers, Constant and
    ConstantOfShape nodes, and reshapes of those."""
    env = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == 'Constant':
            env[node.output[0]] = numpy_helper.to_array(attr(node, 'value', None))
        elif node.op_type == 'ConstantOfShape' and node.input[0] in env:
            v = attr(node, 'value', None)
            fill = numpy_helper.to_array(v).reshape(()) if v is not None else np.float32(0)
            env[node.output[0]] = np.full(tuple(env[node.input[0]]), fill, dtype=fill.dtype)
        elif node.op_type in RESHAPES and node.input[0] in env:
            env[node.output[0]] = reshape(node, env)
    return env


def reshape(node, env):
    """Unsqueeze, Squeeze, Reshape, Flatten, Identity of a known value."""
    x = env[node.input[0]]
    second = env.get(node.input[1]) if len(node.input) > 1 and node.input[1] else None
    axes = attr(node, 'axes', None) if second is None else second
    if node.op_type == 'Unsqueeze':
        rank = x.ndim + len(axes)
        return np.expand_dims(x, tuple(sorted(int(a) % rank for a in axes)))
    if node.op_type == 'Squeeze':
        return np.squeeze(x, None if axes is None else tuple(int(a) % x.ndim for a in axes))
    if node.op_type == 'Flatten':
        axis = attr(node, 'axis', 1) % (x.ndim + 1) if x.ndim else 0
        return x.reshape(int(np.prod(x.shape[:axis])), -1)
    if node.op_type == 'Reshape':
        shape = [x.shape[k] if d == 0 and not attr(node, 'allowzero', 0) else int(d) for k, d in enumerate(second)]
        return x.reshape(shape)
    return x


def transpose(node, x):
    perm = attr(node, 'perm', None)
    return np.transpose(x, None if perm is None else tuple(perm))


def onnx_slice(node, x, starts=None, ends=None, axes=None, steps=None):
    """Slice as ONNX defines it, with NumPy's slices (which clamp the same way)."""
    if starts is None:  # before opset 10: attributes
        starts, ends, axes = attr(node, 'starts', []), attr(node, 'ends', []), attr(node, 'axes', None)
    axes = list(range(len(starts))) if axes is None else [int(a) % x.ndim for a in axes]
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for a, s, e, k in zip(axes, starts, ends, steps):
        index[a] = slice(int(s), int(e), int(k))
    return x[tuple(index)]


LAYOUT_OPS = {
    'Transpose': transpose, 'Slice': onnx_slice,
    **{op: (lambda n, x, *shape, op=op: reshape(n, {n.input[0]: x, **({n.input[1]: shape[0]} if shape else {})}))
       for op in ('Reshape', 'Flatten', 'Squeeze', 'Unsqueeze')},
}
NUMPY_OPS.update(LAYOUT_OPS)

# The default domain's opset of the model being evaluated (Softmax's axes
# and the Reduce ops' axes input depend on it).
OPSET = [13]


def reduce_axes(node, x, axes_input, axes_from):
    """The axes of a Reduce node: the attribute, or an input from `axes_from`."""
    axes = axes_input if OPSET[0] >= axes_from else attr(node, 'axes', None)
    if axes is None or len(axes) == 0:
        if attr(node, 'noop_with_empty_axes', 0):
            return None
        return tuple(range(x.ndim))
    return tuple(int(a) % x.ndim for a in np.asarray(axes).reshape(-1))


def reducer(f, axes_from=18):
    def apply(node, x, axes=None):
        ax = reduce_axes(node, x, axes, axes_from)
        if ax is None:
            return x
        r = f(x, ax).astype(x.dtype)
        return r if attr(node, 'keepdims', 1) else r.squeeze(axis=ax)
    return apply


def softmax(node, x, log=False):
    axis = attr(node, 'axis', 1 if OPSET[0] < 13 else -1) % x.ndim
    ax = tuple(range(axis, x.ndim)) if OPSET[0] < 13 else (axis,)
    d = x - x.max(axis=ax, keepdims=True)
    e = np.exp(d)
    s = e.sum(axis=ax, keepdims=True)
    return (d - np.log(s) if log else e / s).astype(x.dtype)


def layer_norm(node, x, scale, bias=None):
    axis = attr(node, 'axis', -1) % x.ndim
    ax = tuple(range(axis, x.ndim))
    xf = x.astype(np.float32)
    d = xf - xf.mean(axis=ax, keepdims=True)
    inv = 1 / np.sqrt((d * d).mean(axis=ax, keepdims=True) + np.float32(attr(node, 'epsilon', 1e-5)))
    y = (d * inv).astype(x.dtype) * scale
    return y + bias if bias is not None else y


NUMPY_OPS.update({
    'ReduceSum': reducer(lambda x, a: x.sum(axis=a, keepdims=True), 13),
    'ReduceMean': reducer(lambda x, a: x.mean(axis=a, keepdims=True)),
    'ReduceMax': reducer(lambda x, a: x.max(axis=a, keepdims=True)),
    'ReduceMin': reducer(lambda x, a: x.min(axis=a, keepdims=True)),
    'ReduceSumSquare': reducer(lambda x, a: (x * x).sum(axis=a, keepdims=True)),
    'ReduceL1': reducer(lambda x, a: np.abs(x).sum(axis=a, keepdims=True)),
    'ReduceL2': reducer(lambda x, a: np.sqrt((x * x).sum(axis=a, keepdims=True))),
    'Softmax': softmax, 'LogSoftmax': lambda n, x: softmax(n, x, True),
    'LayerNormalization': layer_norm,
})


def evaluate_group(model, group, env):
    nodes = model.graph.node
    OPSET[0] = next((o.version for o in model.opset_import if o.domain in ('', 'ai.onnx')), 13)
    for entry in group['nodes']:
        node = nodes[entry['index']]
        if node.op_type not in NUMPY_OPS:
            raise RuntimeError('no NumPy evaluation of ' + node.op_type)
        args = [env[t] if t else None for t in node.input]
        env[node.output[0]] = NUMPY_OPS[node.op_type](node, *args)
    return env[group['output']['onnx']]


# --- running bcastgen and the kernels ---------------------------------------

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def synthetic_models(work):
    """Small graphs of the shapes real networks have, built here: transformer
    bias + GELU (exported with erf) + residual, a value read by two kernels,
    activations and selects with broadcast parameters, and casts."""
    from onnx import TensorProto as T, helper as h
    rng = np.random.default_rng(7)
    d = os.path.join(work, 'synthetic')
    os.makedirs(d, exist_ok=True)

    def init(name, a):
        return numpy_helper.from_array(np.asarray(a), name)

    def save(name, nodes, inputs, outputs, inits, opset=13):
        g = h.make_graph(nodes, name, [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                         [h.make_tensor_value_info(n, t, None) for n, t in outputs], inits)
        path = os.path.join(d, name + '.onnx')
        onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', opset)]), path)
        return path

    f32 = T.FLOAT
    models = [save('syn_bias_gelu_residual', [
        h.make_node('Add', ['x', 'bias'], ['xb']),
        h.make_node('Div', ['xb', 'sqrt2'], ['d']), h.make_node('Erf', ['d'], ['e']),
        h.make_node('Add', ['e', 'one'], ['p']), h.make_node('Mul', ['xb', 'p'], ['xp']),
        h.make_node('Mul', ['xp', 'half'], ['g']), h.make_node('Add', ['g', 'r'], ['y'])],
        [('x', f32, [2, 8, 96]), ('r', f32, [2, 8, 96])], [('y', f32)],
        [init('bias', rng.standard_normal(96).astype(np.float32)), init('sqrt2', np.float32(1.4142135)),
         init('one', np.float32(1)), init('half', np.float32(0.5))]),
        save('syn_tanh_gelu', [
            h.make_node('Pow', ['x', 'three'], ['x3']), h.make_node('Mul', ['x3', 'k'], ['kx3']),
            h.make_node('Add', ['x', 'kx3'], ['s']), h.make_node('Mul', ['s', 'c'], ['a']),
            h.make_node('Tanh', ['a'], ['t']), h.make_node('Add', ['t', 'one'], ['p']),
            h.make_node('Mul', ['x', 'half'], ['xh']), h.make_node('Mul', ['xh', 'p'], ['y'])],
            [('x', f32, [4, 300])], [('y', f32)],
            [init('three', np.float32(3)), init('k', np.float32(0.044715)), init('c', np.float32(0.7978845608)),
             init('one', np.float32(1)), init('half', np.float32(0.5))]),
        save('syn_shared_value', [
            h.make_node('Mul', ['x', 'scale'], ['xs']), h.make_node('Relu', ['xs'], ['a']),
            h.make_node('Sigmoid', ['a'], ['y1']), h.make_node('Sub', ['a', 'z'], ['t']),
            h.make_node('Tanh', ['t'], ['y2'])],
            [('x', f32, [3, 5, 7]), ('scale', f32, [5, 1]), ('z', f32, [7])], [('y1', f32), ('y2', f32)], []),
        save('syn_activations', [
            h.make_node('PRelu', ['x', 'slope'], ['pr']),
            h.make_node('HardSigmoid', ['pr'], ['hs'], alpha=0.25, beta=0.4),
            h.make_node('Greater', ['x', 'zero'], ['pos']),
            h.make_node('Where', ['pos', 'hs', 'x'], ['w']),
            h.make_node('Clip', ['w', 'lo', 'hi'], ['c']),
            h.make_node('Pow', ['c', 'two'], ['sq']),
            h.make_node('Max', ['sq', 'x', 'm'], ['mx']),
            h.make_node('Expand', ['mx', 'shape'], ['ex']),
            h.make_node('Cast', ['ex'], ['y'], to=T.DOUBLE)],
            [('x', f32, [2, 4, 6]), ('m', f32, [6])], [('y', T.DOUBLE)],
            [init('slope', rng.uniform(0.1, 0.3, (4, 1)).astype(np.float32)), init('zero', np.float32(0)),
             init('lo', np.float32(-0.5)), init('hi', np.float32(0.75)), init('two', np.float32(2)),
             init('shape', np.array([3, 2, 4, 6], np.int64))]),
    ]
    return models


def import_all(exe, work, sources):
    """`bcastgen onnx` on every source, through `bcastgen batch` in two
    processes (one per core): one process start per half instead of per
    model (each start reads ONNX's schemas again)."""
    for src in sources:
        src['dir'] = os.path.join(work, 'src', src['tag'])
        src['args'] = ['onnx', src['model'], '-o', src['dir'], '--namespace', 'ns_' + src['tag']] + \
            [a for s in src.get('shapes', []) for a in ('--input-shape', s)]

    def half(k):
        part = sources[k::2]
        batch = os.path.join(work, 'import_%d.jsonl' % k)
        with open(batch, 'w') as f:
            f.writelines(json.dumps(src['args']) + '\n' for src in part)
        p = run([exe, 'batch', batch])
        results = [json.loads(line) for line in p.stdout.splitlines()]
        if len(results) != len(part):
            raise SystemExit('bcastgen batch %s: %d results for %d commands (exit %d): %s' %
                             (batch, len(results), len(part), p.returncode, p.stderr.strip()))
        for src, r in zip(part, results):
            src['rc'], src['stderr'] = r['exit'], r['stderr'].strip()
            if r['exit'] == 0:
                stem = os.path.splitext(os.path.basename(src['model']))[0]
                src['stem'] = stem
                with open(os.path.join(src['dir'], stem + '.onnx-map.json')) as f:
                    src['map'] = json.load(f)
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(half, range(2)))


LAYOUT_TESTS = ('test_transpose', 'test_reshape', 'test_flatten', 'test_squeeze', 'test_unsqueeze', 'test_slice')


def wrap_layout_test(path, work, tag):
    """A node test whose graph only re-indexes its input (a lone Transpose,
    Reshape, Slice, ...) is a copy, which bcastgen leaves to the runtime;
    with an Identity after each output it is a kernel that reads the input
    through the layout, checked against ONNX's expected output."""
    model = onnx.load(path)
    if not all(n.op_type in LAYOUT_OPS for n in model.graph.node):
        return path
    # Their shape inputs (a Reshape's shape, a Slice's starts, ...) are graph
    # inputs there; a model has them as constants: initializers of the test's values.
    data = os.path.join(os.path.dirname(path), 'test_data_set_0')
    for k, i in reversed(list(enumerate(model.graph.input))):
        if k == 0 or i.type.tensor_type.elem_type not in (TensorProto.INT64, TensorProto.INT32):
            continue
        t = TensorProto()
        with open(os.path.join(data, 'input_%d.pb' % k), 'rb') as f:
            t.ParseFromString(f.read())
        t.name = i.name
        model.graph.initializer.append(t)
        del model.graph.input[k]
    for o in model.graph.output:
        for n in model.graph.node:
            n.output[:] = [t + '_layout' if t == o.name else t for t in n.output]
            n.input[:] = [t + '_layout' if t == o.name else t for t in n.input]
        model.graph.node.append(onnx.helper.make_node('Identity', [o.name + '_layout'], [o.name]))
    out = os.path.join(work, tag + '_wrapped.onnx')
    onnx.save(model, out)
    return out


def kernel_blocks(src, names):
    """The spec's kernel entries `names`, renamed <tag>_<name>."""
    with open(os.path.join(src['dir'], src['stem'] + '.yaml')) as f:
        text = f.read()
    blocks = re.split(r'(?m)^  - name: ', text.split('\nkernels:\n', 1)[1])[1:]
    out = []
    for b in blocks:
        name = b.split('\n', 1)[0].strip()
        if name in names:
            out.append('  - name: ' + src['tag'] + '_' + b)
    return out


DRIVER = r'''// Runs kernels of the generated tables by name, on every ISA this CPU has.
// Each line of the jobs file: <kernel> <output file> <input file>...; the
// output of ISA i goes to <output file>.<isa>, the best ISA's also to
// <output file> itself (later jobs may read it).
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "bcastgen/cpu.h"
#include "bcastgen/registry.h"
@INCLUDES@
static std::vector<char> slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), {});
}
static void dump(const std::string& path, const std::vector<char>& d) {
  std::ofstream(path, std::ios::binary).write(d.data(), static_cast<std::streamsize>(d.size()));
}
int main(int, char** argv) {
  std::map<std::string, const bcastgen::KernelEntry*> by_name;
  for (bcastgen::KernelTable t : {@TABLES@}) {
    for (const auto& e : t) by_name[e.name] = &e;
  }
  std::ifstream jobs(argv[1]);
  std::string line;
  while (std::getline(jobs, line)) {
    std::istringstream ss(line);
    std::string name, out;
    ss >> name >> out;
    const bcastgen::KernelEntry& e = *by_name.at(name);
    std::vector<std::vector<char>> in;
    std::vector<const void*> ptr;
    for (std::string p; ss >> p;) in.push_back(slurp(p));
    for (const auto& d : in) ptr.push_back(d.data());
    std::size_t n = static_cast<std::size_t>(bcastgen::dtype_info(e.out_dtype).size);
    for (std::size_t k = 0; k < e.out.rank; ++k) n *= static_cast<std::size_t>(e.out.dims[k]);
    for (std::size_t i = 0; i < bcastgen::kIsaCount; ++i) {
      const auto isa = static_cast<bcastgen::Isa>(i);
      if (!bcastgen::cpu_supports(isa)) continue;
      std::vector<char> result(n);
      e.run(isa, ptr.data(), result.data());
      dump(out + "." + bcastgen::isa_name(isa), result);
      if (isa == bcastgen::detected_isa()) dump(out, result);
    }
  }
  return 0;
}
'''


def build_driver(exe, work, include, specs):
    gen = os.path.join(work, 'gen')
    os.makedirs(gen, exist_ok=True)
    for name, text in specs.items():
        with open(os.path.join(gen, name + '.yaml'), 'w') as f:
            f.write(text)
        # One unit per spec: main() already makes two, one per core, and every
        # further unit parses the runtime's headers again (15 shards each took 2.3x one file's time).
        p = run([exe, 'generate', os.path.join(gen, name + '.yaml'), '-o', gen, '--shards', '1'])
        if p.returncode:
            raise RuntimeError('bcastgen generate ' + name + ': ' + p.stderr)
    driver = DRIVER.replace('@INCLUDES@', '\n'.join('#include "%s.h"' % n for n in specs)).replace(
        '@TABLES@', ', '.join('%s::%s_kernels()' % (n, n) for n in specs))
    with open(os.path.join(gen, 'driver.cpp'), 'w') as f:
        f.write(driver)
    cxx = os.environ.get('CXX', 'g++')
    flags = ['-std=c++17', '-O2', '-I', gen, '-I', include]
    units = ['driver.cpp']
    for n in specs:  # <n>.cpp, and its shards where generate made them (the manifest lists them)
        with open(os.path.join(gen, n + '.manifest.json')) as f:
            files = json.load(f)['files']
        units += [files['source']] + files.get('shards', [])

    def compile_one(u):
        return run([cxx] + flags + ['-c', os.path.join(gen, u), '-o', os.path.join(gen, u + '.o')])
    with ThreadPoolExecutor(2) as pool:
        for u, p in zip(units, pool.map(compile_one, units)):
            if p.returncode:
                raise RuntimeError('compiling ' + u + ':\n' + p.stderr[-4000:])
    exe_path = os.path.join(gen, 'driver')
    p = run([cxx, '-o', exe_path] + [os.path.join(gen, u + '.o') for u in units])
    if p.returncode:
        raise RuntimeError('linking the driver: ' + p.stderr)
    return exe_path


def isa_outputs(path):
    d, base = os.path.split(path)
    return {f[len(base) + 1:]: os.path.join(d, f) for f in os.listdir(d) if f.startswith(base + '.')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--exe', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--include', required=True)
    ap.add_argument('--model', action='append', default=[])
    ap.add_argument('--synthetic', action='store_true')
    ap.add_argument('--node-tests')
    ap.add_argument('--min-node-tests', type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(2026)

    # --model PATH[@NAME=d0,d1,...]...: a model and the static shapes of its inputs.
    models = [m.split('@') for m in args.model] + [[m] for m in (synthetic_models(args.work) if args.synthetic else [])]
    sources = [{'tag': 'm_' + ident(os.path.splitext(os.path.basename(m[0]))[0]), 'model': m[0], 'shapes': m[1:],
                'kind': 'model'} for m in models]
    if args.node_tests:
        for name in sorted(os.listdir(args.node_tests)):
            d = os.path.join(args.node_tests, name)
            model = os.path.join(d, 'model.onnx')
            if name.startswith(LAYOUT_TESTS):
                model = wrap_layout_test(model, args.work, ident(name))
            sources.append({'tag': ident(name), 'model': model, 'kind': 'node', 'test': d})
    phases, started = [], time.monotonic()  # (phase, seconds), printed at the end

    def phase_done(name):
        nonlocal started
        now = time.monotonic()
        phases.append((name, now - started))
        started = now

    import_all(args.exe, args.work, sources)
    phase_done('import')

    failures, skipped, checks, blocks = [], [], [], []
    for src in sources:
        if src['rc'] != 0:
            if src['kind'] == 'model':
                failures.append('%s: bcastgen onnx failed: %s' % (src['model'], src['stderr']))
            else:
                skipped.append((src['tag'], 'exit %d: %s' % (src['rc'], src['stderr'].splitlines()[-1:])))
            continue
        m = src['map']
        if src['kind'] == 'node':
            left = [n for n in m['not_covered'] if n['reason'] != FOLDED]
            model = onnx.load(src['model'])
            src['path'] = src['model']
            src['folded'] = folded_values(src)
            computed = {k['output']['onnx'] for k in m['kernels']} | set(src['folded'])
            missing = [o.name for o in model.graph.output if o.name not in computed]
            if left or missing or not (m['kernels'] or src['folded']):
                why = left[0]['op_type'] + ': ' + left[0]['reason'] if left else 'output not computed by a kernel'
                skipped.append((src['tag'], why))
                continue
            names = {k['name'] for k in m['kernels']}
        else:
            names = {k['name'] for k in m['kernels']}
        if names:  # (a model whose outputs were all folded has no spec)
            blocks += kernel_blocks(src, names)
        checks.append(src)

    # Two specs, so that the two cores compile one each.
    specs = {}
    for i in range(2):
        part = blocks[i::2]
        specs['onnx_check_%d' % i] = 'namespace: onnx_check_%d\nkernels:\n' % i + ''.join(
            b if b.endswith('\n') else b + '\n' for b in part)
    phase_done('map')
    driver = build_driver(args.exe, args.work, args.include, specs)
    phase_done('generate and compile')

    data = os.path.join(args.work, 'data')
    os.makedirs(data, exist_ok=True)
    jobs, compare = [], []  # compare: (label, output file, expected, dtype, exact)

    def put(array, dtype, name):
        path = os.path.join(data, name)
        a = bf16_bits(array) if dtype == 'bf16' else np.ascontiguousarray(array, NP_DTYPE[dtype])
        a.tofile(path)
        return path

    for src in checks:
        model = onnx.load(src['model'])
        src['path'] = src['model']
        consts = constants(model)
        consts.update(folded_values(src))
        if src['kind'] == 'model':
            seen = set()
            for g in src['map']['kernels']:
                if g['name'] in seen:
                    continue
                seen.add(g['name'])
                env, files = dict(consts), []
                for p in g['inputs']:
                    shape = p['shape']
                    v = (rng.uniform(0.5, 1.5, shape) if p['initializer'] else rng.standard_normal(shape))
                    v = v.astype(NP_DTYPE[p['dtype']])
                    env[p['onnx']] = v.reshape(p.get('onnx_shape', shape))
                    files.append(put(v, p['dtype'], '%s_%s_%s' % (src['tag'], g['name'], p['param'])))
                expected = evaluate_group(model, g, env)
                out = os.path.join(data, '%s_%s_out' % (src['tag'], g['name']))
                jobs.append(' '.join([src['tag'] + '_' + g['name'], out] + files))
                compare.append(('%s %s' % (src['tag'], g['name']), out, expected, g['output']['dtype'], 'model'))
        else:
            test = os.path.join(src['test'], 'test_data_set_0')
            feeds = [o for o in model.graph.input if o.name not in consts]
            tensors = {}
            for k, o in enumerate(feeds):
                tensors[o.name] = numpy_helper.to_array(onnx.load_tensor(os.path.join(test, 'input_%d.pb' % k)))
            files_of = {}
            for g in src['map']['kernels']:
                files = []
                for p in g['inputs']:
                    t = p['onnx']
                    if t not in files_of:
                        v = tensors[t] if t in tensors else consts[t]
                        files_of[t] = put(np.asarray(v).reshape(p['shape']), p['dtype'], '%s_%s' % (src['tag'], ident(t)))
                    files.append(files_of[t])
                out = os.path.join(data, '%s_%s' % (src['tag'], ident(g['output']['onnx'])))
                files_of[g['output']['onnx']] = out
                jobs.append(' '.join([src['tag'] + '_' + g['name'], out] + files))
            for k, o in enumerate(model.graph.output):
                expected = numpy_helper.to_array(onnx.load_tensor(os.path.join(test, 'output_%d.pb' % k)))
                if src['tag'] in BF16_CASTS:
                    expected = bf16_rne(tensors[feeds[0].name])
                dtype = ONNX_DTYPE[o.type.tensor_type.elem_type]
                if o.name in files_of:
                    exact = all(n.op_type in EXACT_OPS for n in model.graph.node)
                    compare.append((src['tag'], files_of[o.name], expected, dtype, 'node-exact' if exact else 'node'))
                else:  # a value bcastgen onnx folded: the map holds it
                    compare.append((src['tag'], src['folded'][o.name], expected, dtype, 'folded'))

    with open(os.path.join(args.work, 'jobs.txt'), 'w') as f:
        f.write('\n'.join(jobs) + '\n')
    phase_done('inputs and expected outputs')
    p = run([driver, os.path.join(args.work, 'jobs.txt')])
    phase_done('run')
    if p.returncode:
        raise RuntimeError('driver failed: ' + p.stderr)

    passed_nodes = set()
    for label, out, expected, dtype, kind in compare:
        if kind == 'folded':
            if np.shape(out) == np.shape(expected) and np.array_equal(out, expected):
                passed_nodes.add(label)
            else:
                failures.append('%s: folded to %s, expected %s' % (label, out.tolist(), np.asarray(expected).tolist()))
            continue
        outs = isa_outputs(out)
        if not outs:
            failures.append('%s: no output' % label)
        for isa, path in sorted(outs.items()):
            got = np.fromfile(path, NP_DTYPE[dtype])
            got = bits_to_float(got, dtype).reshape(np.shape(expected))
            want = np.asarray(expected)
            if dtype == 'bf16':
                want = bits_to_float(bf16_bits(want), 'bf16')
            if dtype in ('f32', 'f64', 'f16', 'bf16') and kind != 'node-exact':
                rtol, atol = (1e-5, 1e-5) if kind == 'model' else (1e-3, 1e-7)
                ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
            else:
                ok = np.array_equal(got, want, equal_nan=dtype in ('f32', 'f64', 'f16', 'bf16'))
            if not ok:
                diff = np.argwhere(~np.isclose(got.astype(np.float64), want.astype(np.float64), equal_nan=True))
                failures.append('%s on %s: differs at %d elements, first %s: got %s, expected %s' % (
                    label, isa, len(diff), diff[0].tolist() if len(diff) else '?',
                    got[tuple(diff[0])] if len(diff) else '?', want[tuple(diff[0])] if len(diff) else '?'))
            elif kind in ('node', 'node-exact'):
                passed_nodes.add(label)
    # A node test passes when every one of its outputs matched.
    passed_nodes -= {f.split(' ')[0].rstrip(':') for f in failures}

    phase_done('compare')
    n_models = sum(1 for c in compare if c[4] == 'model')
    print('check_kernels: %d model kernels checked, %d node tests passed, %d skipped, %d jobs' % (
        n_models, len(passed_nodes), len(skipped), len(jobs)))
    print('  time: ' + ', '.join('%s %.1f s' % p for p in phases))
    unmapped = [tag for tag, why in skipped if why.endswith('not an elementwise operator bcastgen maps')]
    print('  skipped: %d tests of operators bcastgen does not map' % len(unmapped))
    for tag, why in skipped:
        if tag not in unmapped:
            print('  skipped %s: %s' % (tag, why))
    for f in failures:
        print('FAIL ' + f)
    if args.node_tests and len(passed_nodes) < args.min_node_tests:
        print('FAIL only %d node tests passed, expected at least %d' % (len(passed_nodes), args.min_node_tests))
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
