#!/usr/bin/python3
"""Writes each fused group of `bcastgen onnx` as its own small ONNX model, with
input files (uniform over [-4, 4)) and cases.json, for ONNX Runtime to time
(bench/ort/ort_cases.js), and groups.tsv, which says what each is:

    make_group_models.py OUT_DIR MODEL.onnx:MAP.json ...

A group model holds the group's nodes; the activations it reads from
outside become its inputs, and the constants it reads (initializers, and
the Constant/ConstantOfShape/Unsqueeze nodes that make them) stay constants,
as they are in the whole model, so ONNX Runtime may fold them as it would
there; a shape the frontend folded (the map's `value`) is an initializer. Its output is the group's output. groups.tsv: model, group index,
kernel name, op types, element count and bytes moved (the kernel's
parameters read once and its output written once)."""
import json
import os
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import helper

T = onnx.TensorProto
ONNX_TYPE = {'f32': T.FLOAT, 'f64': T.DOUBLE, 'f16': T.FLOAT16, 'bf16': T.BFLOAT16, 'i64': T.INT64,
             'u64': T.UINT64, 'i32': T.INT32, 'u32': T.UINT32, 'i16': T.INT16, 'u16': T.UINT16, 'i8': T.INT8,
             'u8': T.UINT8, 'bool': T.BOOL}
SIZE = {'f32': 4, 'f64': 8, 'f16': 2, 'bf16': 2, 'i64': 8, 'u64': 8, 'i32': 4, 'u32': 4, 'i16': 2, 'u16': 2,
        'i8': 1, 'u8': 1, 'bool': 1}


def producers(graph):
    return {o: n for n in graph.node for o in n.output}


def folded_values(graph, mp):
    """The values `bcastgen onnx` folded (a shape computed in the graph), by
    tensor, as initializers: a group model takes them as constants instead of
    the Shape → Gather → Concat chain, which reads activations outside it."""
    out = {}
    for e in mp['not_covered']:
        v = e.get('value')
        if v is None:
            continue
        t = graph.node[e['index']].output[0]
        dtype = {'i64': np.int64, 'i32': np.int32, 'f32': np.float32, 'bool': np.bool_}.get(v['dtype'])
        if dtype is None:
            continue
        a = np.full(v['shape'], v['uniform'], dtype) if 'uniform' in v else np.array(v['values'], dtype).reshape(v['shape'])
        out[t] = onnx.numpy_helper.from_array(a, t)
    return out


def constant_closure(graph, names, inits):
    """The nodes that compute the constants in `names`, with what they read."""
    prod, out, seen = producers(graph), [], set()
    stack = list(names)
    while stack:
        t = stack.pop()
        if t in seen or t in inits or t not in prod:
            continue
        seen.add(t)
        node = prod[t]
        out.append(node)
        stack.extend(i for i in node.input if i)
    order = {id(n): k for k, n in enumerate(graph.node)}
    return sorted({id(n): n for n in out}.values(), key=lambda n: order[id(n)])


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    rows, cases = [], []
    rng = np.random.default_rng(7)
    for arg in sys.argv[2:]:
        model_path, map_path = arg.split(':')
        model = onnx.load(model_path)
        mp = json.load(open(map_path))
        stem = os.path.splitext(os.path.basename(model_path))[0]
        g = model.graph
        inits = {t.name: t for t in g.initializer}
        inits.update(folded_values(g, mp))
        for gi, k in enumerate(mp['kernels']):
            nodes = [g.node[n['index']] for n in k['nodes']]
            name = '%s__g%03d' % (stem, gi)
            inputs, consts, files = [], [], []
            for p in k['inputs']:
                t = p['onnx']
                if p['initializer']:
                    consts.append(t)
                else:
                    shape = p.get('onnx_shape', p['shape'])
                    inputs.append(helper.make_tensor_value_info(t, ONNX_TYPE[p['dtype']], shape))
                    path = os.path.join(out_dir, '%s.%d.bin' % (name, len(files)))
                    rng.uniform(-4, 4, shape).astype(np.float32).tofile(path)
                    files.append({'name': t, 'dtype': p['dtype'], 'shape': shape, 'file': path})
            # Constants the group reads as literals: every non-input operand not computed inside.
            inside = {o for n in nodes for o in n.output}
            params = {p['onnx'] for p in k['inputs'] if not p['initializer']}
            for n in nodes:
                consts += [i for i in n.input if i and i not in inside and i not in params]
            const_nodes = constant_closure(g, consts, inits)
            needed = set(consts) | {i for n in const_nodes for i in n.input}
            used_inits = [inits[t] for t in sorted(needed) if t in inits]
            out = k['output']
            graph = helper.make_graph(const_nodes + nodes, '%s_g%d' % (stem, gi), inputs,
                                      [helper.make_tensor_value_info(out['onnx'], ONNX_TYPE[out['dtype']], out['shape'])],
                                      used_inits)
            m = helper.make_model(graph, opset_imports=model.opset_import)
            m.ir_version = model.ir_version if model.ir_version >= 4 else 4
            onnx.save(m, os.path.join(out_dir, name + '.onnx'))
            cases.append({'case': name, 'model': os.path.join(out_dir, name + '.onnx'), 'inputs': files,
                          'output': {'name': out['onnx'], 'dtype': out['dtype'], 'shape': out['shape'],
                                     'file': os.path.join(out_dir, name + '.out')}})
            numel = _numel(out['shape'])
            nbytes = numel * SIZE[out['dtype']] + sum(SIZE[p['dtype']] * _numel(p['shape']) for p in k['inputs'])
            rows.append([stem, str(gi), k['name'], '+'.join(n['op_type'] for n in k['nodes']), str(numel),
                         str(nbytes), name])
    with open(os.path.join(out_dir, 'cases.json'), 'w') as f:
        json.dump(cases, f)
    with open(os.path.join(out_dir, 'groups.tsv'), 'w') as f:
        for r in rows:
            f.write('\t'.join(r) + '\n')


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


if __name__ == '__main__':
    main()
