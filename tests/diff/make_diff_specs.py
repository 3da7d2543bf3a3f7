#!/usr/bin/env python3
"""Writes random kernel specs for the differential test (tests/robustness.cmake):
    make_diff_specs.py --seed S --count N --expr-count E --files F --out DIR
writes DIR/diff_0.yaml .. diff_{F-1}.yaml holding N random (rule, op, dtype,
shapes) kernels in all, and DIR/expr_0.yaml .. expr_{F-1}.yaml holding E random
expression kernels (expr_kernel), every one valid by construction: binary ops under
none/numpy/pdpd/paddle, the Broadcast op in its four modes, and expression DAGs
over 1-5 inputs of every dtype; dims around the vector widths (tails), size-1 and
size-0 axes, scalars and repeats. The same seed always gives the same files.
Spec 0 of each kind uses a small stream threshold, so that streaming stores are
exercised too. The dtypes and binary ops, and which dtypes each op takes, are
the generator's (--bcastgen EXE: `bcastgen list --json`)."""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bcastgen_tables import Tables  # noqa: E402 (tests/bcastgen_tables.py)

# From the generator's tables, in their order (use_tables, called by main).
TABLES = None
DTYPES, INTS, FLOATS, UNSIGNED, OPS, FLOAT_ONLY = [], [], [], [], [], []


def use_tables(tables):
    global TABLES, DTYPES, INTS, FLOATS, UNSIGNED, OPS, FLOAT_ONLY
    TABLES = tables
    DTYPES, INTS, FLOATS, UNSIGNED = tables.dtypes, tables.ints, tables.floats, tables.unsigned
    OPS, FLOAT_ONLY = tables.ops, tables.float_only_ops()


# Dims near the vector widths x unroll of every element size, and small ones.
DIMS = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 47, 63, 64, 65, 127, 128, 129, 255, 256,
        257, 512, 513, 1024, 1031]
MAX_ELEMENTS = 40000


def supports(op, dt):
    return TABLES.supports(op, dt)


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def random_out(rng):
    rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6])
    out = [rng.choice(DIMS) for _ in range(rank)]
    if out and rng.random() < 0.03:
        out[rng.randrange(rank)] = 0  # an empty output
    while numel(out) > MAX_ELEMENTS:  # shrink the biggest dim
        i = max(range(rank), key=lambda k: out[k])
        out[i] = max(1, out[i] // 4)
    return out


def ones_here_and_there(rng, dims, p):
    return [1 if rng.random() < p else d for d in dims]


def numpy_pair(rng, out):
    """Two shapes that broadcast to `out` under numpy (right-aligned)."""
    a = ones_here_and_there(rng, out, 0.3)
    b = ones_here_and_there(rng, out, 0.3)
    if rng.random() < 0.4:
        a = a[rng.randint(0, len(a)):]
    elif rng.random() < 0.4:
        b = b[rng.randint(0, len(b)):]
    return a, b


def pdpd_window(rng, a):
    """B for pdpd: a window of A (some dims 1), maybe trailing 1s; and its axis."""
    ra = len(a)
    length = rng.randint(0, ra)
    start = rng.randint(0, ra - length)
    b = ones_here_and_there(rng, a[start:start + length], 0.3)
    b += [1] * rng.randint(0, ra - length)
    if ra - len(b) == start and rng.random() < 0.5:
        return b, None  # the default axis, -1, means rank(A) - rank(B)
    return b, start


def shape_text(s):
    return "[" + ", ".join(str(d) for d in s) + "]"


def paddle_pair(rng, out):
    """A, B and axis for paddle: the lower-rank shape placed at a random axis
    of the other; either may have the 1 that broadcasts."""
    low_rank = rng.randint(0, len(out))
    start = rng.randint(0, len(out) - low_rank)
    high = list(out)
    low = [d if rng.random() < 0.7 else 1 for d in out[start:start + low_rank]]
    for i, d in enumerate(low):
        if d != 1 and rng.random() < 0.2:
            high[start + i] = 1
    axis = -1 if start == len(out) - low_rank and rng.random() < 0.5 else start
    return (high, low, axis) if rng.random() < 0.5 else (low, high, axis)


def binary_kernel(rng, name):
    op = rng.choice(OPS)
    dt = rng.choice([d for d in DTYPES if supports(op, d)])
    out = random_out(rng)
    rule = rng.choices(["none", "numpy", "pdpd", "paddle"], weights=[1, 6, 3, 2])[0]
    axis = None
    if rule == "none":
        a, b = out, list(out)
    elif rule == "numpy":
        a, b = numpy_pair(rng, out)
        if rng.random() < 0.5:
            a, b = b, a
    elif rule == "paddle":
        a, b, axis = paddle_pair(rng, out)
    else:
        a = out
        b, axis = pdpd_window(rng, a)
    lines = [f"  - name: {name}", f"    op: {op}", f"    dtype: {dt}", f"    rule: {rule}"]
    if axis is not None:
        lines.append(f"    axis: {axis}")
    lines += [f"    a: {shape_text(a)}", f"    b: {shape_text(b)}"]
    return "\n".join(lines)


def broadcast_kernel(rng, name):
    dt = rng.choice(DTYPES)
    target = random_out(rng)
    mode = rng.choice(["numpy", "bidirectional", "explicit", "pdpd"])
    extra = []
    if mode == "numpy":
        inp = ones_here_and_there(rng, target, 0.4)
        inp = inp[rng.randint(0, len(inp)):]
    elif mode == "bidirectional":
        inp, target = numpy_pair(rng, target)
    elif mode == "explicit":
        axes = sorted(rng.sample(range(len(target)), rng.randint(0, len(target))))
        inp = [1 if rng.random() < 0.3 else target[i] for i in axes]
        extra.append(f"    axes_mapping: {shape_text(axes)}")
    else:
        inp, axis = pdpd_window(rng, target)
        if axis is not None:
            extra.append(f"    axis: {axis}")
    lines = [f"  - name: {name}", "    op: broadcast", f"    dtype: {dt}", f"    mode: {mode}"] + extra
    lines += [f"    a: {shape_text(inp)}", f"    target: {shape_text(target)}"]
    return "\n".join(lines)


# Expression kernels: a random typed DAG over 1-5 inputs. Every input is
# read (an unused input is an error), shared subexpressions are written twice
# (the parser makes them one node), and every grammar form appears: infix and
# call forms of the binary ops, unary functions, clamp, where, cast, literals.


def literal(rng, dt):
    """A number valid in a `dt` context (bool takes true/false)."""
    if dt == "bool":
        return rng.choice(["true", "false"])
    if dt in FLOATS:
        return rng.choice(["0", "1", "6", "0.5", "0.125", "-1.5", "-10000.0", "1e-3", "2.5e2", "3"])
    if dt in UNSIGNED:
        return str(rng.choice([0, 1, 2, 3, 7, 100]))
    return str(rng.choice([0, 1, 2, 3, -1, -2, 7, -100, 100]))


# Kernels of these dtypes made of these ops have a vector form in both vector ISAs.
VECTOR_DTYPES = ["f32", "f64", "f32", "f64", "i32", "u32", "i16", "u8", "f16", "bf16"]
VECTOR_CALLS = ["maximum", "minimum", "max", "min"]


def number_ops(dt, vector):
    """(form, name) pairs of the binary ops on `dt` giving `dt`: infix or call."""
    if vector:
        ops = [("+", "add"), ("-", "subtract")] + [("call", c) for c in VECTOR_CALLS]
        if dt in FLOATS:  # (nextafter of a 16-bit float steps in its type: lane by lane)
            return ops + [("*", "multiply"), ("/", "divide")] + \
                [("call", c) for c in ("squared_difference", "copysign") + (("nextafter",) if dt in ("f32", "f64") else ())]
        ops += [("&", "bitwise_and"), ("|", "bitwise_or"), ("^", "bitwise_xor")]
        if dt != "u8":
            ops += [("*", "multiply"), ("call", "squared_difference")]
        return ops
    ops = [("+", "add"), ("-", "subtract"), ("*", "multiply"), ("/", "divide"), ("%", "floor_mod")]
    calls = ["maximum", "minimum", "max", "min", "squared_difference", "mod", "floor_mod", "remainder",
             "floor_divide", "pow", "power"]
    if dt in FLOATS:
        calls += FLOAT_ONLY
    if dt in INTS:
        ops += [("&", "bitwise_and"), ("|", "bitwise_or"), ("^", "bitwise_xor"), ("<<", "bitwise_left_shift"),
                (">>", "bitwise_right_shift")]
    return ops + [("call", c) for c in calls]


BOOL_OPS = [("&&", ""), ("||", ""), ("&", ""), ("|", ""), ("^", ""), ("==", ""), ("!=", ""),
            ("call", "logical_and"), ("call", "logical_or"), ("call", "logical_xor")]
COMPARISONS = ["<", "<=", ">", ">=", "==", "!="]


def binary(rng, dt, x, y, vector):
    form, name = rng.choice(BOOL_OPS if dt == "bool" else number_ops(dt, vector))
    if name == "copysign":
        # The sign of a NaN computed from two NaNs is not specified (the
        # compiler may swap a commutative op's operands), and copysign would
        # turn it into a number: take the sign from a literal.
        return f"(copysign({x}, {literal(rng, dt)}) + {y})"
    if form == "call":
        return f"{name}({x}, {y})"
    return f"({x} {form} {y})"


def unary(rng, dt, x):
    if dt in ("i8", "u8"):  # no 8-bit vector multiply: no square
        return rng.choice([f"neg({x})", f"-({x})", f"abs({x})", f"~({x})", f"bitwise_not({x})"])
    if dt == "bool":
        return rng.choice([f"!({x})", f"logical_not({x})", f"bitwise_not({x})", f"~({x})"])
    forms = [f"neg({x})", f"-({x})", f"abs({x})", f"square({x})"]
    if dt in FLOATS:
        forms += [f"sqrt({x})", f"reciprocal({x})"]
        # exact, then math (every math function of the table, the fast tier's among them)
        forms += [rng.choice([f"floor({x})", f"round({x})", f"sign({x})", f"trunc({x})"]),
                  f"{rng.choice(TABLES.math_functions)}({x})"]
    if dt in INTS:
        forms += [f"~({x})", f"bitwise_not({x})"]
    return rng.choice(forms)


def grow(rng, dt, x, y, vector):
    """One random step on subexpression x of type dt, reading y too if given;
    with `vector`, only forms with a vector form for dt (one of VECTOR_DTYPES)."""
    other = y if y is not None else literal(rng, dt)
    roll = rng.random()
    if roll < 0.45:
        return binary(rng, dt, x, other, vector) if rng.random() < 0.5 else binary(rng, dt, other, x, vector)
    if roll < 0.60:
        return grow(rng, dt, unary(rng, dt, x), y, vector) if y is not None else unary(rng, dt, x)
    if roll < 0.80:  # shares x and other: each is one node however often it is written
        cond = f"({x} {rng.choice(COMPARISONS)} {other})"
        return f"where({cond}, {x}, {other})" if rng.random() < 0.5 else f"where({cond}, {other}, {x})"
    if roll < 0.90 and dt != "bool":
        lo, hi = sorted([literal(rng, dt), literal(rng, dt)], key=float)
        return grow(rng, dt, f"clamp({x}, {lo}, {hi})", y, vector) if y is not None else f"clamp({x}, {lo}, {hi})"
    # the same subexpression twice
    twice = f"({x} && {x})" if dt == "bool" else f"({x} - {x})" if dt in ("i8", "u8") else f"({x} * {x})"
    return binary(rng, dt, twice, other, vector)


def expr_kernel(rng, name):
    n = rng.choice([1, 2, 2, 3, 3, 4, 5])
    out = random_out(rng)
    # Half the kernels are of vectorizable forms and dtypes (bool inputs only
    # as where's condition), so that the vector paths are exercised; the
    # others draw from every form and dtype (most run scalar loops).
    vector = rng.random() < 0.5
    dt = rng.choice(VECTOR_DTYPES) if vector else rng.choice(DTYPES)
    shapes = []
    for _ in range(n):
        s = ones_here_and_there(rng, out, 0.3)
        if rng.random() < 0.3:
            s = s[rng.randint(0, len(s)):]
        shapes.append(s)
    rule = "numpy"
    if rng.random() < 0.1:
        rule, shapes = "none", [list(out) for _ in range(n)]
    inputs = []
    for i in range(n):
        if vector:
            in_dt = dt if i == 0 or rng.random() < 0.8 else "bool"
        else:
            in_dt = dt if rng.random() < 0.75 else rng.choice(DTYPES)
        inputs.append((f"x{i}", shapes[i], in_dt))
    # Each input as a term of type dt, then the terms combined at random.
    terms = [x if t == dt else f"cast({x}, {dt})" for x, _, t in inputs if t == dt or not vector]
    conditions = [x for x, _, t in inputs if t != dt and vector]
    # Broadcast as a node (rule numpy): one term expanded to the output's
    # shape, or to it under a new leading axis, which then grows the output.
    # Drawn from a generator of its own, so that the other draws stay as
    # they were.
    ex = random.Random(name + "/expand")
    if rule == "numpy" and ex.random() < 0.2:
        k = ex.randrange(len(terms))
        target = ([ex.choice([2, 3])] if ex.random() < 0.5 else []) + list(out)
        terms[k] = f"expand({terms[k]}, {shape_text(target)})"
    rng.shuffle(terms)
    e = terms[0]
    for t in terms[1:]:
        e = grow(rng, dt, e, t, vector)
    for c in conditions:
        e = f"where({c}, {e}, {literal(rng, dt)})" if rng.random() < 0.5 else f"where({c}, {literal(rng, dt)}, {e})"
    for _ in range(rng.randint(0, 3)):
        e = grow(rng, dt, e, None, vector)
    # The root: dt itself, a comparison (bool) or a cast to another dtype.
    roll = rng.random()
    if roll < 0.15 and dt != "bool":
        e = f"{e} {rng.choice(COMPARISONS)} {literal(rng, dt)}"
    elif roll < 0.25 and not vector:
        e = f"cast({e}, {rng.choice(DTYPES)})"
    lines = [f"  - name: {name}", f"    dtype: {dt}", f"    rule: {rule}", "    inputs:"]
    for x, s, t in inputs:
        lines.append(f"      {x}: {shape_text(s)}" if t == dt else f"      {x}: {{shape: {shape_text(s)}, dtype: {t}}}")
    lines.append(f"    expr: \"{e}\"")
    return "\n".join(lines)


# Row kernels (reductions over the innermost axes that broadcast back): a
# random elementwise DAG around reductions of forms whose f32 sums cannot
# cancel (of squares, of exp, max, min, softmax; a mean of an input), so
# that reference::row_tolerance holds; the test also wants the same bits on
# every ISA as the scalar variant's. Inputs: the whole domain, the row alone
# (a LayerNorm's gamma), or one value per row.
ROW_DIMS = [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 129, 256, 768, 1031]


def row_kernel(rng, name):
    dt = rng.choice(["f32", "f32", "f32", "f32", "f16", "bf16", "f64"])
    outer = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rng.choice([1, 1, 2, 3]))]
    row = [rng.choice(ROW_DIMS)] if rng.random() < 0.8 else [rng.choice([2, 3, 5]), rng.choice([4, 7, 16, 33])]
    axes = "[-1]" if len(row) == 1 else "[-2, -1]"
    dom = outer + row
    n = rng.choice([1, 2, 2, 3])
    inputs = [("x0", dom)]
    for i in range(1, n):
        inputs.append((f"x{i}", rng.choice([dom, row, outer + [1] * len(row)])))
    varying = [x for x, s in inputs if s != outer + [1] * len(row) or row == [1]]
    per_row = [x for x, s in inputs if x not in varying]
    e = inputs[0][0]
    for x in varying[1:]:
        e = binary(rng, dt, e, x, True)
    reductions = [f"mean({e} * {e}, {axes})", f"sum(exp({e} * 0.125), {axes})", f"max({e}, {axes})",
                  f"min({e}, {axes})", f"mean(abs({e}), {axes})", f"mean(x0, {axes})"]
    roll = rng.random()
    if roll < 0.25:
        e = f"softmax({e}, {axes})" if rng.random() < 0.6 else f"log_softmax({e}, {axes})"
    elif roll < 0.35:
        e = rng.choice(reductions)  # the row's one value
    else:
        r = rng.choice(reductions)
        e = rng.choice([f"({e} - {r})", f"({e} / sqrt({r} + 1e-3))", f"({e} * {r})"])
        if rng.random() < 0.3:  # a second pass that needs the first
            e = f"({e} - max({e}, {axes}))"
    for x in per_row:
        e = f"({e} + {x})" if rng.random() < 0.5 else f"({e} * {x})"
    if rng.random() < 0.3:
        e = unary(rng, "f32", e) if dt != "f64" else f"abs({e})"
    lines = [f"  - name: {name}", f"    dtype: {dt}"]
    if dt in ("f16", "bf16") and rng.random() < 0.5:
        lines.append("    compute: f32")
    lines.append("    inputs:")
    for x, s in inputs:
        lines.append(f"      {x}: {shape_text(s)}")
    lines.append(f"    expr: \"{e}\"")
    return "\n".join(lines)


def write_if_changed(path, text):
    old = open(path).read() if os.path.exists(path) else None
    if old != text:  # unchanged files keep their time stamp
        with open(path, "w") as fh:
            fh.write(text)


def split(count, files):
    return [count // files + (1 if i < count % files else 0) for i in range(files)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=512)
    ap.add_argument("--expr-count", type=int, default=512)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bcastgen", required=True, help="the generator, whose `list --json` gives the tables")
    args = ap.parse_args()
    use_tables(Tables.load(args.bcastgen))
    os.makedirs(args.out, exist_ok=True)
    rows = max(8, args.expr_count // 16)
    for kind, count, make, files in (("diff", args.count, None, args.files),
                                     ("expr", args.expr_count, expr_kernel, args.files), ("rows", rows, row_kernel, 1)):
        rng = random.Random(f"{args.seed}:{kind}")
        for f, n in enumerate(split(count, files)):
            kernels = []
            for i in range(n):
                name = f"{kind[0]}{f}_{i}"
                if make:
                    kernels.append(make(rng, name))
                else:
                    kernels.append(broadcast_kernel(rng, name) if rng.random() < 0.15 else binary_kernel(rng, name))
            threshold = "stream_threshold_bytes: 4096\n" if f == 0 else ""
            text = (f"# Generated by tests/diff/make_diff_specs.py --seed {args.seed}. Do not edit.\n"
                    f"namespace: kt_{kind}_{f}\nisa: [avx512fp16, avx512bf16, avx512, avx2, neonfp16, neon, scalar]\n{threshold}kernels:\n" +
                    "\n".join(kernels) + "\n")
            write_if_changed(os.path.join(args.out, f"{kind}_{f}.yaml"), text)


if __name__ == "__main__":
    main()
