#!/usr/bin/env python3
"""Exports the small transformer and CNN test models of this folder from PyTorch.

    python3 export_torch.py [--out DIR]

Needs torch (Debian 12: apt-get install python3-torch, torch 1.13) and onnx
(python3-onnx 1.12). Only this script needs torch: the tests read the .onnx
files it writes and never import torch.

Writes <name>_opset13.onnx and <name>_opset17.onnx for each of
bert_layer, gpt2_block, llama_block and small_cnn (8 files). Batch and
sequence are dynamic axes, so the exported graphs keep their
Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains.

Files stay small: an initializer that is large (>= 256 elements) and read
only by MatMul/Gemm/Conv is replaced by a ConstantOfShape node filling it
with one small value (0.02), unless the file is already under the size
limit. The parameters of elementwise ops (norm weights and biases, batch
norm statistics, biases added by Add) keep their real random values.

Deterministic: torch.manual_seed(0), one thread, and names/doc strings that
do not depend on the run, so running it twice writes byte-identical files.
"""
import argparse
import io
import math
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE_LIMIT = 150 * 1024       # bytes: over this, big matmul/conv weights become ConstantOfShape
BIG = 256                     # elements: an initializer this large or larger counts as big
FILL = 0.02                   # the value the replaced weights are filled with
WEIGHT_OPS = {'MatMul', 'Gemm', 'Conv'}
OPSETS = (13, 17)

D_MODEL = 64
N_HEAD = 4
HIDDEN = 128
MAX_SEQ = 64


# ---------------------------------------------------------------- models

class Gpt2Block(nn.Module):
    """GPT-2 block: pre-LayerNorm causal self-attention and a tanh-GELU MLP, with residuals."""

    def __init__(self, d=D_MODEL, nh=N_HEAD, max_seq=MAX_SEQ):
        super().__init__()
        self.nh = nh
        self.ln_1 = nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.c_fc = nn.Linear(d, 4 * d)
        self.mlp_proj = nn.Linear(4 * d, d)
        self.register_buffer('bias', torch.tril(torch.ones(max_seq, max_seq)).view(1, 1, max_seq, max_seq))

    @staticmethod
    def gelu_tanh(x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

    def attn(self, x):
        B, T, C = x.size()
        hd = C // self.nh
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.nh, hd).transpose(1, 2)
        k = k.view(B, T, self.nh, hd).transpose(1, 2)
        v = v.view(B, T, self.nh, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp_proj(self.gelu_tanh(self.c_fc(self.ln_2(x))))
        return x


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    d = x.shape[-1]
    x1 = x[..., : d // 2]
    x2 = x[..., d // 2:]
    return torch.cat((-x2, x1), dim=-1)


class LlamaBlock(nn.Module):
    """LLaMA block: RMSNorm, attention with rotary embeddings (rotate_half form), SiLU-gated MLP."""

    def __init__(self, d=D_MODEL, nh=N_HEAD, hidden=HIDDEN, max_seq=MAX_SEQ, base=10000.0):
        super().__init__()
        self.nh = nh
        self.hd = d // nh
        self.attention_norm = RMSNorm(d)
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.ffn_norm = RMSNorm(d)
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)
        inv_freq = 1.0 / (base ** (torch.arange(0, self.hd, 2).float() / self.hd))
        t = torch.arange(max_seq).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer('cos_cached', emb.cos())
        self.register_buffer('sin_cached', emb.sin())

    def attn(self, x):
        B, T, C = x.shape
        q = self.wq(x).view(B, T, self.nh, self.hd).transpose(1, 2)
        k = self.wk(x).view(B, T, self.nh, self.hd).transpose(1, 2)
        v = self.wv(x).view(B, T, self.nh, self.hd).transpose(1, 2)
        cos = self.cos_cached[:T]
        sin = self.sin_cached[:T]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.hd)
        att = F.softmax(att, dim=-1)
        y = torch.matmul(att, v)
        y = y.transpose(1, 2).reshape(B, T, C)
        return self.wo(y)

    def mlp(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))

    def forward(self, x):
        h = x + self.attn(self.attention_norm(x))
        return h + self.mlp(self.ffn_norm(h))


class SmallCnn(nn.Module):
    """Conv-BN-ReLU, Conv-BN-Hardswish, depthwise Conv-BN-SiLU, squeeze-excite, residual, Mish, Linear."""

    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16, bias=False)
        self.bn3 = nn.BatchNorm2d(16)
        self.se_reduce = nn.Conv2d(16, 4, 1)
        self.se_expand = nn.Conv2d(4, 16, 1)
        self.pool = nn.AdaptiveAvgPool2d(4)
        self.fc = nn.Linear(16 * 4 * 4, classes)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        y = F.hardswish(self.bn2(self.conv2(x)))
        y = F.silu(self.bn3(self.dw(y)))
        s = F.adaptive_avg_pool2d(y, 1)
        s = F.hardsigmoid(self.se_expand(F.relu(self.se_reduce(s))))
        y = y * s
        x = x + y
        x = F.mish(x)
        x = self.pool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)


def randomize_elementwise_params(model):
    """Gives norm weights/biases and batch-norm statistics non-uniform values (the defaults are 1 and 0)."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for mod in model.modules():
            if isinstance(mod, (nn.LayerNorm, RMSNorm, nn.BatchNorm2d)):
                n = mod.weight.shape[0]
                mod.weight.copy_(1.0 + 0.1 * torch.randn(n, generator=g))
                if getattr(mod, 'bias', None) is not None and isinstance(mod.bias, torch.Tensor):
                    mod.bias.copy_(0.1 * torch.randn(n, generator=g))
            if isinstance(mod, nn.BatchNorm2d):
                n = mod.running_mean.shape[0]
                mod.running_mean.copy_(0.1 * torch.randn(n, generator=g))
                mod.running_var.copy_(1.0 + 0.2 * torch.rand(n, generator=g))
            if isinstance(mod, nn.Linear) and mod.bias is not None:
                mod.bias.copy_(0.05 * torch.randn(mod.bias.shape, generator=g))
            if isinstance(mod, nn.MultiheadAttention):
                mod.in_proj_bias.copy_(0.05 * torch.randn(mod.in_proj_bias.shape, generator=g))
                mod.out_proj.bias.copy_(0.05 * torch.randn(mod.out_proj.bias.shape, generator=g))


def build(name):
    """The model (eval mode), its example input, and its dynamic axes."""
    seq_axes = {'x': {0: 'batch', 1: 'seq'}, 'y': {0: 'batch', 1: 'seq'}}
    if name == 'bert_layer':
        m = nn.TransformerEncoderLayer(d_model=D_MODEL, nhead=N_HEAD, dim_feedforward=HIDDEN,
                                       activation='gelu', batch_first=True, dropout=0.0)
        return m, torch.randn(2, 16, D_MODEL), seq_axes
    if name == 'gpt2_block':
        return Gpt2Block(), torch.randn(2, 16, D_MODEL), seq_axes
    if name == 'llama_block':
        return LlamaBlock(), torch.randn(2, 16, D_MODEL), seq_axes
    if name == 'small_cnn':
        return SmallCnn(), torch.randn(2, 3, 32, 32), {'x': {0: 'batch'}, 'y': {0: 'batch'}}
    raise ValueError(name)


MODELS = ('bert_layer', 'gpt2_block', 'llama_block', 'small_cnn')


# ---------------------------------------------------------------- export and shrink

def export(name, opset):
    torch.manual_seed(0)
    model, x, axes = build(name)
    randomize_elementwise_params(model)
    model.eval()
    buf = io.BytesIO()
    # Not under torch.no_grad(): with gradients on, TransformerEncoderLayer takes its plain path
    # (under no_grad it calls the fused aten::_transformer_encoder_layer_fwd, which has no ONNX export).
    # training=PRESERVE (the model is in eval mode, so it exports for inference) skips the
    # exporter's eval peephole, which would fold each BatchNorm into the Conv before it:
    # small_cnn keeps its BatchNormalization nodes.
    torch.onnx.export(model, (x,), buf, opset_version=opset, input_names=['x'], output_names=['y'],
                      dynamic_axes=axes, do_constant_folding=True,
                      training=torch.onnx.TrainingMode.PRESERVE)
    return onnx.load_from_string(buf.getvalue())


def shrink(m):
    """Replaces big initializers read only by MatMul/Gemm/Conv with ConstantOfShape(shape) = FILL."""
    g = m.graph
    readers = {}
    for node in g.node:
        for i in node.input:
            readers.setdefault(i, set()).add(node.op_type)
    graph_outputs = {o.name for o in g.output}
    keep, replace = [], []
    for init in g.initializer:
        n = int(np.prod(init.dims)) if len(init.dims) else 1
        ops = readers.get(init.name, set())
        if (n >= BIG and ops and ops <= WEIGHT_OPS and init.name not in graph_outputs
                and init.data_type == TensorProto.FLOAT):
            replace.append(init)
        else:
            keep.append(init)
    if not replace:
        return m
    new_nodes = []
    new_inits = []
    for init in replace:
        shape_name = init.name + '_shape'
        new_inits.append(numpy_helper.from_array(np.array(init.dims, dtype=np.int64), shape_name))
        new_nodes.append(helper.make_node(
            'ConstantOfShape', [shape_name], [init.name], name='fill_' + init.name,
            value=helper.make_tensor('value', TensorProto.FLOAT, [1], [FILL])))
    del g.initializer[:]
    g.initializer.extend(keep + new_inits)
    nodes = list(g.node)
    del g.node[:]
    g.node.extend(new_nodes + nodes)
    # the replaced names may also be listed as graph inputs (older exporters); drop them there
    names = {i.name for i in replace}
    inputs = [i for i in g.input if i.name not in names]
    del g.input[:]
    g.input.extend(inputs)
    return m


def normalize(m, name, opset):
    """Fixes the fields that could vary between runs or machines."""
    m.producer_name = 'pytorch'
    m.producer_version = torch.__version__
    m.doc_string = 'bcastgen test model %s (opset %d), made by tests/onnx/models/export_torch.py' % (name, opset)
    m.graph.name = name
    return m


def check(m):
    onnx.checker.check_model(m)
    onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True, data_prop=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    torch.set_num_threads(1)
    for name in MODELS:
        for opset in OPSETS:
            m = normalize(export(name, opset), name, opset)
            check(m)
            if len(m.SerializeToString()) >= SIZE_LIMIT:
                m = shrink(m)
                check(m)
            data = m.SerializeToString()
            path = os.path.join(args.out, '%s_opset%d.onnx' % (name, opset))
            with open(path, 'wb') as f:
                f.write(data)
            print('%-28s %7d bytes %4d nodes' % (os.path.basename(path), len(data), len(m.graph.node)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
