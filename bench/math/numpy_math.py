#!/usr/bin/python3
"""NumPy as a peer of bench/math: its float32 ufuncs (NumPy's own SIMD loops
for exp and log, the C library's float functions lane by lane for the rest)
over the same sizes and input ranges as math_bench.cpp, the output
preallocated (out=). NumPy has no erf or activation functions; the
composites a NumPy user writes make several passes and are not timed.

    /usr/bin/python3 numpy_math.py [REPETITIONS]
    /usr/bin/python3 numpy_math.py --dump OUT_DIR

prints, per (function, size): the median time and ns per element. With
--dump it instead writes each function's outputs on every 1367th f32 bit
pattern to OUT_DIR/Numpy_<function>.f32, for `math_bench --accuracy OUT_DIR`."""
import sys
import time

import numpy as np

FUNCTIONS = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh"]
SIZES = {"4096": (4096,), "8x128x3072": (8, 128, 3072)}


def median_seconds(f, x, y, repetitions):
    n = x.size
    inner = max(1, (1 << 22) // n)  # about 4M elements per timed sample
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        for _ in range(inner):
            f(x, out=y)
        times.append((time.perf_counter() - start) / inner)
    return sorted(times)[len(times) // 2]


def main(repetitions):
    rng = np.random.default_rng(7)
    features = np.core._multiarray_umath.__cpu_features__
    print(f"NumPy {np.__version__}, SIMD: {' '.join(k for k, v in features.items() if v and k.startswith('AVX'))}")
    for name in FUNCTIONS:
        f = getattr(np, name)
        for size, shape in SIZES.items():
            lo, hi = (2.0 ** -20, 16.0) if name.startswith("log") else (-8.0, 8.0)
            x = rng.uniform(lo, hi, shape).astype(np.float32)
            y = np.empty_like(x)
            f(x, out=y)
            s = median_seconds(f, x, y, repetitions)
            print(f"Numpy/{name}_{size} {s * 1e3:.3f} ms {s * 1e9 / x.size:.3f} ns_per_elt")


def dump(out):
    x = np.minimum(np.arange(8 * 128 * 3072, dtype=np.uint64) * 1367, 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        for name in FUNCTIONS:
            getattr(np, name)(x).astype(np.float32).tofile(f"{out}/Numpy_{name}.f32")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        dump(sys.argv[2])
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
