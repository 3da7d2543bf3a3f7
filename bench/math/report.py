#!/usr/bin/python3
"""The tables of bench/math (docs/benchmarks.md) from its outputs:

    bash bench/run.sh --kind math > speed.txt
    bash bench/run.sh --kind math --accuracy > accuracy.txt
    /usr/bin/python3 bench/math/report.py speed.txt accuracy.txt

prints the peers' accuracy (max ulp over every 1367th bit pattern), the
speed per function (ns per element, medians) with bcastgen's ratio to the
fastest peer within bcastgen's bound (and the verdict against it,
bench/verdict.py: no roof, never a tie) and to the fastest of any accuracy,
and the fused cases against the memory roof (the verdict against the fastest
peer and the copy roof), on one core and on every core
(the fast kernels' `_range` entry against a copy split as much). "bcastgen
fast" is the fast tier (`accuracy: fast`, within 4 ulp) where a function has
one, with its own ratio to the fastest peer of any accuracy."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
from verdict import tally, verdict, verdict_at_roof  # noqa: E402

PEERS = [("Sleef", "SLEEF u10"), ("Torch", "PyTorch"), ("Onednn", "oneDNN"), ("Eigen", "Eigen"),
         ("Xnnpack", "XNNPACK"), ("Halide", "Halide"), ("Ort", "ONNX Runtime"), ("Numpy", "NumPy")]
SIZES = ["4096", "8x128x3072"]
FUSED = [("bias_gelu_8x128x3072", "`gelu(x + b)`, [8,128,3072] + [3072]", 1.0),
         ("bias_silu_1x64x112x112", "`silu(x + b)`, [1,64,112,112] + [1,64,1,1]", 1.0),
         ("gate_8x128x3072", "`sigmoid(x) * z`, [8,128,3072] twice", 1.5)]  # bytes relative to a copy
# bias + GELU over 4 sets of x and y in turn (100 MB: past the L3), bcastgen and the copy only.
DRAM = ("bias_gelu_8x128x3072_4sets", "`gelu(x + b)`, 4 sets of x and y in turn (100 MB)", 1.0)


def bounds():
    """Each function's ulp bound, from its row of the one table (X(Enumerator,
    name, accepts, max_ulp, ...) in unary_functions.h)."""
    text = open(os.path.join(ROOT, "runtime", "include", "bcastgen", "unary_functions.h")).read()
    return {m[1]: int(m[2]) for m in re.finditer(r'X\(\w+,\s*(\w+),\s*Floats,\s*(\d),', text)}


def unit(value, suffix):
    return float(value) * {"ps": 1e-3, "ns": 1.0, "us": 1e3, "ms": 1e6}[suffix]


def read_speed(path):
    """{(peer, case): ns per element}, and {(peer, case): ms} for the fused."""
    per_elt, total = {}, {}
    for line in open(path):
        m = re.match(r"(\w+)/(\w+?)(/real_time)?_median\s+(\d+) ns .*ns_per_elt=([\d.]+)(ps|ns)", line)
        if m:
            per_elt[(m[1], m[2])] = unit(m[5], m[6])
            total[(m[1], m[2])] = int(m[4]) / 1e6
            continue
        m = re.match(r"(Ort|Numpy)/(\w+) ([\d.]+) ms ([\d.]+) ns_per_elt", line)
        if m:
            per_elt[(m[1], m[2])] = float(m[4])
            total[(m[1], m[2])] = float(m[3])
    return per_elt, total


def read_threads(path):
    """The thread count of math_bench's *Threads loops, or None (older outputs)."""
    for line in open(path):
        m = re.match(r"threads of the \*Threads loops: (\d+)", line)
        if m:
            return int(m[1])
    return None


def read_accuracy(path):
    acc = {}
    for line in open(path):
        m = re.match(r"(\w+)/(\w+)_8x128x3072\s+max (\S+) ulp", line)
        if m:
            acc[(m[1], m[2])] = float(m[3])
    return acc


def fmt(v):
    return "-" if v is None else f"{v:.3g}"


def main(speed_path, accuracy_path):
    per_elt, total = read_speed(speed_path)
    acc = read_accuracy(accuracy_path)
    bound = bounds()
    # The functions bench/math times, in its order (bcastgen's accuracy rows).
    functions = [f for p, f in acc if p == "Bcastgen"]
    verdicts = []  # against the fastest peer within bound, and the fused cases' (1-ulp tier)
    peers = ["Bcastgen", "BcastgenFast"] + [p for p, _ in PEERS]
    print("| function (bound) | bcastgen | bcastgen fast (4) | " + " | ".join(n for _, n in PEERS) + " |")
    print("|---" * (len(peers) + 1) + "|")
    for f in functions:
        print(f"| {f} ({bound[f]}) | " + " | ".join(fmt(acc.get((p, f))) for p in peers) + " |")
    print()
    print("| function [size] | bcastgen | bcastgen fast | " + " | ".join(n for _, n in PEERS) +
          " | vs fastest within bound | verdict | vs fastest | fast vs fastest |")
    print("|---" * (len(peers) + 5) + "|")
    for f in functions:
        for size in SIZES:
            case = f"{f}_{size}"
            ours = per_elt.get(("Bcastgen", case))
            fast = per_elt.get(("BcastgenFast", case))
            times = {}
            for p, _ in PEERS:
                # ONNX Runtime's profiler counts whole microseconds: 4096 elements are 2 to 20 of them.
                if p == "Ort" and size == "4096":
                    continue
                if (p, case) in per_elt:
                    times[p] = per_elt[(p, case)]
            within = [t for p, t in times.items() if acc.get((p, f), float("inf")) <= bound[f]]
            best_within = f"{min(within) / ours:.2f}x" if within else "none"
            v = verdict(ours, min(within)) if within else "-"
            if within:
                verdicts.append(v)
            best = f"{min(times.values()) / ours:.2f}x" if times else "-"
            best_fast = f"{min(times.values()) / fast:.2f}x" if times and fast else "-"
            cells = [fmt(times.get(p)) for p, _ in PEERS]
            print(f"| {f} [{size}] | {fmt(ours)} | {fmt(fast)} | " + " | ".join(cells) +
                  f" | {best_within} | {v} | {best} | {best_fast} |")
    print()
    print("| case | bcastgen | bcastgen fast | PyTorch | oneDNN | Halide | ONNX Runtime | copy roof "
          "| bcastgen's share of the roof | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case, label, scale in FUSED:
        roof = total[("Copy", case)] * scale
        cells = [fmt(total.get((p, case))) for p in ("Bcastgen", "BcastgenFast", "Torch", "Onednn", "Halide", "Ort")]
        share = f"{roof / total[('Bcastgen', case)]:.0%}"
        if ("BcastgenFast", case) in total:
            share += f" (fast: {roof / total[('BcastgenFast', case)]:.0%})"
        ours = total[("Bcastgen", case)]
        fastest = min((total[(p, case)] for p in ("Torch", "Onednn", "Halide", "Ort") if (p, case) in total),
                      default=None)
        v = verdict_at_roof(ours, fastest, roof) if fastest else "-"
        if fastest:
            verdicts.append(v)
        if fastest and ("BcastgenFast", case) in total:
            fast = total[("BcastgenFast", case)]
            v += f" (fast: {verdict_at_roof(fast, fastest, roof)})"
        print(f"| {label} | " + " | ".join(c + " ms" if c != "-" else c for c in cells) +
              f" | {roof:.3g} ms | {share} | {v} |")
    threads = read_threads(speed_path)
    if threads is not None:
        threads_table(total, threads)
    print()
    print(tally(verdicts))


def threads_table(total, threads):
    # The fast kernels' _range entry over every core, against the copy over as many.
    print()
    print(f"| case | bcastgen fast, 1 thread | {threads} threads | speed-up | copy roof, 1 thread | "
          f"{threads} threads | fast's share of the roof, 1 thread | {threads} threads |")
    print("|---" * 8 + "|")
    for case, label, scale in FUSED + [DRAM]:
        one, many = total[("BcastgenFast", case)], total[("BcastgenFastThreads", case)]
        roof_one, roof_many = total[("Copy", case)] * scale, total[("CopyThreads", case)] * scale
        print(f"| {label} | {one:.3g} ms | {many:.3g} ms | {one / many:.2f}x | {roof_one:.3g} ms | "
              f"{roof_many:.3g} ms | {roof_one / one:.0%} | {roof_many / many:.0%} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
