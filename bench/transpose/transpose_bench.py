#!/usr/bin/python3
"""The transposed-read case of issue 74 against its peers, in one run.

    /usr/bin/python3 bench/transpose/transpose_bench.py [--bcastgen build/generator/bcastgen] [--rounds 5]

`transpose(x, [0, 2, 1]) * g + b` on x [8, 512, 768] f32, g and b [512]: the
output [8, 768, 512] is x with its last two axes swapped, scaled and shifted
per element of its rows. Each round times, turn about:
  - bcastgen: the generated kernel through `bcastgen run --check` (the
    median of its batches), for this machine's best ISA and the ones below;
  - the roof: the same kernel with x already transposed (`x * g + b` on
    [8, 768, 512]): the same bytes read and written at the same streaming
    stores, so its time is what the transposed kernel could reach;
  - PyTorch (python3-torch, one thread): `x.transpose(1, 2) * g + b`, as
    written, and `torch.addcmul(b, x.transpose(1, 2), g, out=o)`, its
    fastest form (no temporaries);
  - ONNX Runtime 1.30 (bench/ort/ort_cases.js: one thread, all graph
    optimizations, the sum of its kernel times per run): Transpose + Mul +
    Add as an exporter writes them.
Prints the medians over the rounds, the ratios, and each one's share of the
roof; bcastgen's output must equal NumPy's bit for bit, the
peers' within an ulp (a fused multiply-add rounds once).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "ort"))
import ort_peer  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench"))
from verdict import tally, verdict_at_roof  # noqa: E402
EXPR = "transpose(x, [0, 2, 1]) * g + b"
B, I, J = 8, 512, 768


def bcastgen_ns(exe, work, expr, inputs, isa):
    args = [exe, "run", "--expr", expr] + ["%s=%s" % kv for kv in inputs.items()]
    args += ["-o", os.path.join(work, "out_%s.npy" % isa), "--check", "--isa", isa, "--cpu", "native"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit("bcastgen run failed:\n" + p.stdout + p.stderr)
    line = [s for s in p.stdout.splitlines() + p.stderr.splitlines() if s.startswith("check:")][-1]
    fields = dict(f.split("=") for f in line.split()[1:])
    if fields["mismatches"] != "0":
        sys.exit("bcastgen: the kernel differs from the reference: " + line)
    return float(fields["time_per_call_ns"])


def torch_ns(x, g, b, reps=21):
    import torch
    torch.set_num_threads(1)
    tx, tg, tb = torch.from_numpy(x), torch.from_numpy(g), torch.from_numpy(b)
    o = torch.empty(B, J, I)
    forms = {"torch (as written)": lambda: tx.transpose(1, 2) * tg + tb,
             "torch addcmul out=": lambda: torch.addcmul(tb, tx.transpose(1, 2), tg, out=o)}
    times, outs = {}, {}
    for name, f in forms.items():
        f()
        t = []
        for _ in range(reps):
            t0 = time.perf_counter_ns()
            r = f()
            t.append(time.perf_counter_ns() - t0)
        times[name], outs[name] = statistics.median(t), r.numpy().copy()
    return times, outs


def ort_ns(work, x, g, b, runs=21):
    model = os.path.join(work, "transpose_bias.onnx")
    nodes = [("Transpose", ["x"], "xt", {"perm": [0, 2, 1]}), ("Mul", ["xt", "g"], "t"), ("Add", ["t", "b"], "y")]
    ort_peer.save_model(model, nodes, [("x", "f32", [B, I, J]), ("g", "f32", [I]), ("b", "f32", [I])],
                        ("y", "f32", [B, J, I]))
    entry = ort_peer.case_entry(work, "transpose_bias", model, [("x", "f32", x), ("g", "f32", g), ("b", "f32", b)],
                                ("y", "f32", [B, J, I]))
    try:
        r = ort_peer.run([entry], runs, work)["transpose_bias"]
    except ort_peer.OrtFailure as e:
        sys.exit(str(e))
    if "error" in r:
        sys.exit("onnxruntime: " + r["error"])
    return statistics.median(r["samples_ns"]), r["graph"], ort_peer.read_output(entry)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bcastgen", default=os.path.join(ROOT, "build", "generator", "bcastgen"))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="transpose-bench-")
    rng = np.random.default_rng(74)
    x = rng.standard_normal((B, I, J), dtype=np.float32)
    g = rng.standard_normal(I, dtype=np.float32)
    b = rng.standard_normal(I, dtype=np.float32)
    xt = np.ascontiguousarray(x.transpose(0, 2, 1))
    for name, a in (("x", x), ("g", g), ("b", b), ("xt", xt)):
        np.save(os.path.join(work, name + ".npy"), a)
    ins = {k: os.path.join(work, k + ".npy") for k in ("x", "g", "b")}
    roof_ins = {"x": os.path.join(work, "xt.npy"), "g": ins["g"], "b": ins["b"]}
    flags = open("/proc/cpuinfo").read()
    isas = [i for i, f in (("avx512", " avx512f "), ("avx2", " avx2 ")) if f in flags] + ["scalar"]
    want = xt * g + b
    samples = {}
    graph = ""
    for r in range(args.rounds):
        for isa in isas:
            samples.setdefault("bcastgen " + isa, []).append(bcastgen_ns(args.bcastgen, work, EXPR, ins, isa))
            if r == 0:
                got = np.load(os.path.join(work, "out_%s.npy" % isa))
                assert np.array_equal(got, want), "bcastgen %s differs from NumPy" % isa
        samples.setdefault("roof: x * g + b, x contiguous (%s)" % isas[0], []).append(
            bcastgen_ns(args.bcastgen, work, "x * g + b", roof_ins, isas[0]))
        t, outs = torch_ns(x, g, b)
        for name, v in t.items():
            samples.setdefault(name, []).append(v)
            if r == 0:
                # addcmul rounds once (a fused multiply-add): within an ulp
                assert np.allclose(outs[name], want, rtol=1e-6, atol=1e-6), name + " differs from NumPy"
        v, graph, out = ort_ns(work, x, g, b)
        samples.setdefault("onnxruntime 1.30", []).append(v)
        if r == 0:
            assert np.allclose(out.reshape(want.shape), want, rtol=1e-6, atol=1e-6), "onnxruntime differs from NumPy"
    med = {k: statistics.median(v) for k, v in samples.items()}
    roof = med["roof: x * g + b, x contiguous (%s)" % isas[0]]
    best = med["bcastgen " + isas[0]]
    traffic = 2 * x.nbytes  # x read once, out written once by streaming stores
    print("%s on x [%d, %d, %d] f32, g, b [%d]; %d rounds, medians; ONNX Runtime ran: %s" %
          (EXPR, B, I, J, I, args.rounds, graph))
    print("%-40s %10s %10s %10s %12s" % ("", "ms", "GB/s", "of roof", "bcastgen is"))
    for k, v in med.items():
        print("%-40s %10.3f %10.1f %9.0f%% %11.2fx" % (k, v / 1e6, traffic / v, 100 * roof / v, v / best))
    peers = {k: v for k, v in med.items() if not k.startswith(("bcastgen", "roof"))}
    fastest = min(peers, key=peers.get)
    v = verdict_at_roof(best, peers[fastest], roof)
    print("bcastgen %s against the fastest peer, %s: %.2fx, %s" % (isas[0], fastest, peers[fastest] / best, v))
    print(tally([v]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
