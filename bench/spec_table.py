#!/usr/bin/python3
"""The benchmark's cases as its specs declare them, for what must know them
before bcastgen runs: the Halide pipelines CMake configures, and the peers
written in Python. One row per kernel of a bcastgen spec (bench/cases.yaml,
fused_cases.yaml, half/cases.yaml), its fields separated by `|`:

    name | form | op | dtype | out | inputs

form: the op of an `op:` kernel (add, greater, broadcast, ...) or the
expression of an expression kernel, as written; op: the binary op of an
`op:` kernel or of an expression that is one (`x + b` is add), else empty;
dtype: the kernel's element type (bcastgen's names: f32, f16, ...; an input
of another type is written SHAPE:DTYPE); out: the output's shape; inputs:
each input's shape aligned to the output's rank (size-1 axes where it
broadcasts), in parameter order, comma-separated. Shapes are written AxBxC.

    spec_table.py SPEC          (the rows on stdout; bench/CMakeLists.txt reads them)

Python peers import it: kernels(SPEC) gives each kernel with its inputs'
names and shapes as written too.

The bench's specs use the rules whose alignment is the shapes' own: numpy,
array_api, bidirectional (right-aligned), pdpd and paddle with an axis,
and the Broadcast op in numpy mode; any other is an error here.
"""
import sys

import yaml

RIGHT_ALIGNED = ("numpy", "array_api", "bidirectional")
SYMBOLS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}


def aligned(shape, rank, axis=None):
    """SHAPE placed in RANK axes: right-aligned, or starting at AXIS (pdpd)."""
    start = rank - len(shape) if axis is None or axis < 0 else axis
    return [1] * start + list(shape) + [1] * (rank - start - len(shape))


def broadcast(shapes):
    rank = max(len(s) for s in shapes)
    out = [1] * rank
    for s in shapes:
        for k, d in enumerate(aligned(s, rank)):
            if d != 1:
                if out[k] not in (1, d):
                    raise ValueError("shapes %s do not broadcast" % shapes)
                out[k] = d
    return out


def dims(shape):
    return "x".join(str(d) for d in shape)


def binary_op(form):
    """The binary op of an op name or of an expression `x OP y` over two inputs, else ""."""
    words = form.split()
    if len(words) == 1:
        return form if form != "broadcast" else ""
    if len(words) == 3 and words[0].isidentifier() and words[2].isidentifier() and words[1] in SYMBOLS:
        return SYMBOLS[words[1]]
    return ""


def kernel(k, defaults):
    """A kernel as its spec declares it: name, form, op (binary_op), dtype, out, and its inputs,
    each (name, shape as written, shape aligned to the output's rank, dtype)."""
    dtype = k.get("dtype", defaults.get("dtype", "f32"))
    rule = k.get("rule", defaults.get("rule", "numpy"))
    if "op" in k and k["op"] == "broadcast":
        if k.get("mode", "numpy") != "numpy":
            raise ValueError("%s: broadcast mode %s" % (k["name"], k["mode"]))
        out = list(k["target"])
        inputs = [("a", k["a"], aligned(k["a"], len(out)), dtype)]
    elif "op" in k:
        if rule in RIGHT_ALIGNED:
            out = broadcast([k["a"], k["b"]])
            b_aligned = aligned(k["b"], len(out))
        elif rule in ("pdpd", "paddle"):
            out = list(k["a"])
            b_aligned = aligned(k["b"], len(out), k.get("axis", -1))
        else:
            raise ValueError("%s: rule %s" % (k["name"], rule))
        inputs = [("a", k["a"], aligned(k["a"], len(out)), dtype), ("b", k["b"], b_aligned, dtype)]
    else:
        if rule not in RIGHT_ALIGNED:
            raise ValueError("%s: rule %s" % (k["name"], rule))
        written = [(n, v["shape"], v.get("dtype", dtype)) if isinstance(v, dict) else (n, v, dtype)
                   for n, v in k["inputs"].items()]
        out = broadcast([s for _, s, _ in written])
        inputs = [(n, s, aligned(s, len(out)), t) for n, s, t in written]
    form = k.get("op", k.get("expr"))
    return dict(name=k["name"], form=form, op=binary_op(form), dtype=dtype, out=out, inputs=inputs)


def kernels(path):
    """The kernels of the spec at PATH (kernel()), in its order."""
    with open(path) as f:
        spec = yaml.safe_load(f)
    return [kernel(k, spec) for k in spec["kernels"]]


def cases_in_types(path, dtypes):
    """The kernels of a spec named CASE_DTYPE (bench/half/cases.yaml) whose dtype is one of `dtypes` and whose
    inputs all have it: (case, dtype, kernel()), in the spec's order. A peer without a type (NumPy's bfloat16)
    or without mixed inputs leaves the others out."""
    for k in kernels(path):
        case, dtype = k["name"].rsplit("_", 1)
        if dtype in dtypes and all(t == dtype for _, _, _, t in k["inputs"]):
            yield case, dtype, k


def main():
    for k in kernels(sys.argv[1]):
        ins = ",".join(dims(s) + ("" if t == k["dtype"] else ":" + t) for _, _, s, t in k["inputs"])
        print("|".join([k["name"], k["form"], k["op"], k["dtype"], dims(k["out"]), ins]))


if __name__ == "__main__":
    main()
