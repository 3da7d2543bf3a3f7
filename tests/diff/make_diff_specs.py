#!/usr/bin/env python3
"""Writes random kernel specs for the differential test (tests/robustness.cmake):
    make_diff_specs.py --seed S --count N --files F --out DIR
writes DIR/diff_0.yaml .. diff_{F-1}.yaml holding N random (rule, op, dtype,
shapes) kernels in all, every one valid by construction: binary ops under
none/numpy/pdpd/paddle and the Broadcast op in its four modes, with dims around the
vector widths (tails), size-1 and size-0 axes, scalars and repeats. The same
seed always gives the same files. Spec 0 uses a small stream threshold, so
that streaming stores are exercised too."""
import argparse
import os
import random

DTYPES = ["f32", "f64", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "bool"]
INTS = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
ARITH = ["add", "subtract", "multiply", "divide", "floor_divide", "maximum", "minimum", "power",
         "squared_difference", "mod", "floor_mod"]
FLOAT_ONLY = ["copysign", "nextafter", "atan2", "hypot", "logaddexp"]
SHIFTS = ["bitwise_left_shift", "bitwise_right_shift"]
COMPARE = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor"]
OPS = ARITH + FLOAT_ONLY + COMPARE + LOGICAL + BITWISE + SHIFTS
# Dims near the vector widths x unroll of every element size, and small ones.
DIMS = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 47, 63, 64, 65, 127, 128, 129, 255, 256,
        257, 512, 513, 1024, 1031]
MAX_ELEMENTS = 40000


def supports(op, dt):
    if op in ARITH:
        return dt != "bool"
    if op in FLOAT_ONLY:
        return dt in ("f32", "f64")
    if op in SHIFTS:
        return dt in INTS
    if op in LOGICAL:
        return dt == "bool"
    if op in BITWISE:
        return dt == "bool" or dt in INTS
    return True


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=512)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    per_file = [args.count // args.files + (1 if i < args.count % args.files else 0) for i in range(args.files)]
    for f, n in enumerate(per_file):
        kernels = []
        for i in range(n):
            name = f"d{f}_{i}"
            kernels.append(broadcast_kernel(rng, name) if rng.random() < 0.15 else binary_kernel(rng, name))
        threshold = "stream_threshold_bytes: 4096\n" if f == 0 else ""
        text = (f"# Generated by tests/diff/make_diff_specs.py --seed {args.seed}. Do not edit.\n"
                f"namespace: kt_diff_{f}\nisa: [avx512, avx2, scalar]\n{threshold}kernels:\n" +
                "\n".join(kernels) + "\n")
        path = os.path.join(args.out, f"diff_{f}.yaml")
        old = open(path).read() if os.path.exists(path) else None
        if old != text:  # unchanged files keep their time stamp
            with open(path, "w") as fh:
                fh.write(text)


if __name__ == "__main__":
    main()
