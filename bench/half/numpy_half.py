"""NumPy's float16 (and float32) on the cases of bench/half (cases.yaml, read
through bench/spec_table.py), one thread:
median of BENCH_REPETITIONS timings of ufuncs with out= (NumPy has no
bfloat16). Prints the lines half_bench prints (without a check: the
values are NumPy's own)."""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import spec_table  # noqa: E402

REPS = int(os.environ.get("BENCH_REPETITIONS", "11"))
SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.yaml")
BN_RELU = "max(x * s + t, 0)"
TYPES = {"f32": np.float32, "f16": np.float16}


def cases():
    """cases.yaml's kernels NumPy has: (case, dtype, op or "bn_relu", the input shapes as written), in its
    order; NumPy has no bfloat16, and f16 + f32 is f32 to it."""
    for name, dtype, k in spec_table.cases_in_types(SPEC, TYPES):
        op = k["op"] or ("bn_relu" if k["form"] == BN_RELU else None)
        if op is None:
            raise SystemExit("numpy_half.py: no NumPy form of %s (%s)" % (k["name"], k["form"]))
        yield name, dtype, op, [tuple(s) for _, s, _, _ in k["inputs"]]


def median_ns(f):
    f()
    iters = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iters):
            f()
        if time.perf_counter() - t0 > 0.02 or iters > 1 << 20:
            break
        iters *= 2
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(iters):
            f()
        times.append((time.perf_counter() - t0) / iters * 1e9)
    return sorted(times)[REPS // 2]


def page_aligned(a):
    """A copy of A at the start of a page of memory. NumPy's add of a broadcast row runs 4x slower on Zen 3
    when the row sits 240 bytes past the output modulo 4 KiB (a store-to-load alias); which offset the heap
    gave depended on what the run had allocated before, so every array here starts a page."""
    buf = np.empty(a.nbytes + 4096, dtype=np.uint8)
    start = -buf.ctypes.data % 4096
    out = buf[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def main():
    rng = np.random.default_rng(20261126)
    for name, dtype, op, shapes in cases():
        dt = TYPES[dtype]
        ins = [page_aligned((rng.random(s, dtype=np.float32) * 8 - 4).astype(dt)) for s in shapes]
        out = page_aligned(np.empty(shapes[0], dtype=dt))
        nbytes = out.nbytes + sum(a.nbytes for a in ins)
        if op == "bn_relu":
            x, s, t = ins

            def f():
                np.multiply(x, s, out=out)
                np.add(out, t, out=out)
                np.maximum(out, dt(0), out=out)
        else:
            uf = getattr(np, op)

            def f():
                uf(ins[0], ins[1], out=out)
        print("%s\t%s\tnumpy\t%.0f\t\t%d" % (name, dtype, median_ns(f), nbytes), flush=True)


if __name__ == "__main__":
    main()
