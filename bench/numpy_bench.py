#!/usr/bin/python3
"""NumPy peer of the bcastgen benchmark, in its own process.

    /usr/bin/python3 bench/numpy_bench.py CASES_JSON OUT_JSON [--repeat N] [--min-time S]

CASES_JSON is written by bcastgen_bench --cases-json: the shapes (aligned to
the output's rank, the NumPy form of every rule) and the checksum of
bcastgen's output. Inputs are filled exactly as bench_main.cpp fills them, in
64-byte aligned arrays; each op writes into a preallocated output (out=), as
the C++ peers do. The output is checked once against bcastgen's checksum
(a mismatch is printed loudly); then timeit measures the call, `--repeat`
times, each repetition long enough for `--min-time` seconds, with the process
CPU clock (as Google Benchmark's default time). Writes the median per call.
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
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--min-time", type=float, default=0.05)
    args = ap.parse_args()
    with open(args.cases_json) as f:
        cases = json.load(f)
    results = []
    mismatches = 0
    for case in cases:
        row = {"case": case["name"], "peer": "numpy", "numpy": np.__version__}
        call, out, how = make_call(case)
        row["note"] = how
        if call is None:
            row.update(status="n/a", reason=how)
            results.append(row)
            continue
        call()
        got = checksum(out)
        if str(got) != case["checksum"]:
            mismatches += 1
            row.update(status="mismatch", reason="checksum %d != bcastgen's %s" % (got, case["checksum"]))
            print("\n*** MISMATCH *** case %s (%s), peer numpy differs from bcastgen: %s\n"
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
