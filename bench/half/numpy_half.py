"""NumPy's float16 (and float32) on the cases of bench/half, one thread:
median of BENCH_REPETITIONS timings of ufuncs with out= (NumPy has no
bfloat16). Prints the lines half_bench prints (without a check: the
values are NumPy's own)."""
import os
import time

import numpy as np

REPS = int(os.environ.get("BENCH_REPETITIONS", "11"))
CASES = [
    ("bias_add", "add", [(1, 64, 56, 56), (1, 64, 1, 1)]),
    ("ln_scale", "multiply", [(8, 128, 768), (768,)]),
    ("nhwc", "subtract", [(1, 224, 224, 3), (3,)]),
    ("mask", "add", [(8, 12, 128, 128), (8, 1, 1, 128)]),
    ("bn_relu", "bn_relu", [(1, 64, 112, 112), (1, 64, 1, 1), (1, 64, 1, 1)]),
    ("mixed", "add", [(8, 128, 768), (768,)]),
    ("big_add", "add", [(4096, 4096), (4096,)]),
]


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


rng = np.random.default_rng(20261126)
for name, op, shapes in CASES:
    for dt in (np.float32, np.float16):
        if name == "mixed" and dt == np.float16:
            continue
        ins = [(rng.random(s, dtype=np.float32) * 8 - 4).astype(dt) for s in shapes]
        out = np.empty(shapes[0], dtype=dt)
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
        dtype = "f32" if dt == np.float32 else "f16"
        print("%s\t%s\tnumpy\t%.0f\t\t%d" % (name, dtype, median_ns(f), nbytes), flush=True)
