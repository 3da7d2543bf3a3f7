#!/usr/bin/python3
"""NumPy peer of the bcastgen benchmark, in its own process.

    /usr/bin/python3 bench/numpy_bench.py CASES_JSON OUT_JSON [--fused FUSED_JSON] [--repeat N] [--min-time S]

CASES_JSON is written by bcastgen_bench --cases-json: the shapes (aligned to
the output's rank, the NumPy form of every rule) and the checksum of
bcastgen's output. Inputs are filled exactly as bench_main.cpp fills them, in
64-byte aligned arrays; each op writes into a preallocated output (out=), as
the C++ peers do. The output is checked once against bcastgen's checksum
(a mismatch is printed loudly); then timeit measures the call, `--repeat`
times, each repetition long enough for `--min-time` seconds, with the process
CPU clock (as Google Benchmark's default time). Writes the median per call.

FUSED_JSON (bcastgen_bench --fused-json) adds the fused cases of issue 14,
each run as a NumPy user writes it: one ufunc call per node into the
preallocated output (out=, in place), np.clip for ReLU6, np.where for the
mask (which has no out=: it allocates its result, still the fastest of the
forms tried). Each row also gives the bytes its calls move and their count.
"""
import argparse
import json
import sys
import time
import timeit

import numpy as np

DTYPES = {"f32": np.float32, "u8": np.uint8, "i32": np.int32, "bool": np.bool_}


def aligned_empty(shape, dtype):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
    raw = np.empty(n * dtype.itemsize + 64, dtype=np.uint8)
    off = (-raw.ctypes.data) % 64
    return raw[off:off + n * dtype.itemsize].view(dtype).reshape(shape)


def fill(shape, dtype, seed):
    """Same values as bench_main.cpp fill()."""
    arr = aligned_empty(shape, DTYPES[dtype])
    n = arr.size
    i = np.arange(n, dtype=np.int64)
    k = (i * 7 + seed) % 509
    if dtype == "f32":
        flat = k.astype(np.float32) * np.float32(0.25) - np.float32(63.5)
    elif dtype == "u8":
        flat = ((i * 7 + seed) % 128).astype(np.uint8)
    elif dtype == "i32":
        flat = (k - 254).astype(np.int32)
    else:
        raise ValueError(dtype)
    arr.reshape(-1)[:] = flat
    return arr


def fill_fused(shape, dtype, seed):
    """Same values as fused_cases.cpp fill_fused()."""
    if dtype == "bool":  # causal over the last two axes
        arr = aligned_empty(shape, np.bool_)
        i = np.arange(arr.size, dtype=np.int64)
        cols, rows = shape[-1], shape[-2] if len(shape) > 1 else 1
        arr.reshape(-1)[:] = i % cols <= (i // cols) % rows
        return arr
    arr = aligned_empty(shape, np.float32)
    i = np.arange(arr.size, dtype=np.int64)
    k, j = (i * 7 + seed) % 509, (i * 3 + seed) % 1021
    arr.reshape(-1)[:] = ((k - 254) / 4.0 + j / 65536.0).astype(np.float32)
    return arr


def checksum(arr):
    """Same as bench::checksum(): zero-padded 8-byte little-endian words w[k],
    sum of w[k] * (2k + 1) modulo 2^64."""
    b = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)
    pad = (-b.size) % 8
    if pad:
        b = np.concatenate([b, np.zeros(pad, np.uint8)])
    w = b.view("<u8")
    k = np.arange(w.size, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return int(np.sum(w * (np.uint64(2) * k + np.uint64(1)), dtype=np.uint64))


UFUNCS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "greater": np.greater}


def make_call(case):
    op, dtype = case["op"], case["dtype"]
    a = fill(case["a_aligned"], dtype, 1)
    out = aligned_empty(case["out"], DTYPES[case["out_dtype"]])
    if op == "broadcast":
        return (lambda: np.copyto(out, a)), out, "np.copyto(out, a) (broadcasting)"
    b = fill(case["b_aligned"], dtype, 5)
    if op not in UFUNCS:
        return None, None, "op not mapped in numpy_bench.py"
    uf = UFUNCS[op]
    return (lambda: uf(a, b, out=out)), out, "np.%s(a, b, out=out)" % uf.__name__


def make_fused_call(case):
    """The case as NumPy calls, their bytes moved and their count."""
    ins = {t["name"]: fill_fused(t["aligned"], t["dtype"], 1 + 4 * n) for n, t in enumerate(case["inputs"])}
    out = aligned_empty(case["out"], DTYPES[case["out_dtype"]])
    size = {k: v.nbytes for k, v in ins.items()}
    o = out.nbytes
    f32 = np.float32
    name = case["name"]
    if name == "f1_bn_relu":
        x, scale, shift = ins["x"], ins["scale"], ins["shift"]

        def call():
            np.multiply(x, scale, out=out)
            np.add(out, shift, out=out)
            np.maximum(out, f32(0), out=out)
            return out
        return call, size["x"] + size["scale"] + size["shift"] + 5 * o, 3, "multiply, add, maximum"
    if name == "f2_residual_relu":
        a, b = ins["a"], ins["b"]

        def call():
            np.add(a, b, out=out)
            np.maximum(out, f32(0), out=out)
            return out
        return call, size["a"] + size["b"] + 3 * o, 2, "add, maximum"
    if name == "f3_attention":
        s, mask = ins["s"], ins["mask"]

        def call():
            np.multiply(s, f32(0.125), out=out)
            np.add(out, mask, out=out)
            return out
        return call, size["s"] + size["mask"] + 3 * o, 2, "multiply, add"
    if name == "f4_layernorm_tail":
        x, mean, rstd, gamma, beta = (ins[k] for k in ("x", "mean", "rstd", "gamma", "beta"))

        def call():
            np.subtract(x, mean, out=out)
            np.multiply(out, rstd, out=out)
            np.multiply(out, gamma, out=out)
            np.add(out, beta, out=out)
            return out
        return call, sum(size.values()) + 7 * o, 4, "subtract, multiply, multiply, add"
    if name == "f5_relu6_nhwc":
        x, bias = ins["x"], ins["bias"]

        def call():
            np.add(x, bias, out=out)
            np.clip(out, f32(0), f32(6), out=out)
            return out
        return call, size["x"] + size["bias"] + 3 * o, 2, "add, clip"
    if name == "f6_causal_mask":
        s, keep = ins["s"], ins["keep"]
        return (lambda: np.where(keep, s, f32(-10000.0))), size["s"] + size["keep"] + o, 1, \
            "np.where (allocates its result)"
    return None, 0, 0, "case not mapped in numpy_bench.py"


def time_call(call, repeat, min_time):
    timer = timeit.Timer(call, timer=time.process_time)
    number = 1
    while True:  # as timeit.autorange, but to min_time
        t = timer.timeit(number)
        if t >= min_time:
            break
        number = max(number * 2, int(number * min_time / max(t, 1e-9) * 1.1))
    times = [timer.timeit(number) / number for _ in range(repeat)]
    return float(np.median(times)) * 1e9, [x * 1e9 for x in times]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases_json")
    ap.add_argument("out_json")
    ap.add_argument("--fused", help="bcastgen_bench --fused-json output: also run the fused cases")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--min-time", type=float, default=0.05)
    args = ap.parse_args()
    with open(args.cases_json) as f:
        cases = json.load(f)
    results = []
    mismatches = 0
    fused = []
    if args.fused:
        with open(args.fused) as f:
            fused = json.load(f)
    for case in cases + fused:
        row = {"case": case["name"], "peer": "numpy", "numpy": np.__version__}
        if "inputs" in case:  # a fused case: the call returns its result
            call, nbytes, passes, how = make_fused_call(case)
            result = call
            row.update(bytes=nbytes, passes=passes)
        else:
            call, out, how = make_call(case)
            result = lambda call=call, out=out: (call(), out)[1]
        row["note"] = how
        if call is None:
            row.update(status="n/a", reason=how)
            results.append(row)
            continue
        got = checksum(result())
        if str(got) != case["checksum"]:
            mismatches += 1
            row.update(status="mismatch", reason="checksum %d != the expected %s" % (got, case["checksum"]))
            print("\n*** MISMATCH *** case %s (%s), peer numpy differs from the expected output: %s\n"
                  % (case["label"], case["name"], row["reason"]), file=sys.stderr)
        else:
            row["status"] = "ok"
        print("check  %s\t%s\tnumpy\t%s" % (case["label"], case["name"], row["status"]), file=sys.stderr)
        median_ns, all_ns = time_call(call, args.repeat, args.min_time)
        row.update(ns=median_ns, samples_ns=all_ns)
        results.append(row)
    with open(args.out_json, "w") as f:
        json.dump(results, f, indent=1)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
