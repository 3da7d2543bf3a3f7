#!/usr/bin/python3
"""bcastgen's row kernels (LayerNorm, RMSNorm, Softmax) against their peers, in one run.

    bash bench/run.sh --kind rows [BUILD_DIR] [ARGS...]     (installs, configures and builds the peers)
    /usr/bin/python3 bench/rows/rows_bench.py [--bcastgen build-bench/generator/bcastgen] [--peers DIR]
                                              [--rounds 3] [--cases ln,softmax_128,...] [--quick]

The cases, all f32 on one core (a case is picked by its id or its group):
  ln_4096 / ln_64 (group ln): LayerNorm over the last axis of x [4096, 768]
      (DRAM-sized) and [64, 768] (in cache), g and b [768];
  residual_ln: LayerNorm of x + r, x and r [4096, 768];
  rmsnorm: RMSNorm of x [4096, 4096], g [4096];
  softmax_128 / softmax_512 (group softmax): Softmax over the last axis of
      x [12*128, 128] (BERT-base attention) and [8*512, 512];
  ln_gelu: GELU (erf) of the LayerNorm of x [4096, 768].
Each is timed, turn about in every round, as:
  - bcastgen: the generated row kernel for this machine's ISAs (AVX-512,
    AVX2; the scalar loop too on the in-cache cases), through `bcastgen run
    --check --isa ISA --cpu native` (the median of its batches); for ln_gelu
    also `--accuracy fast` (GELU within 4 ulp, as the peers' GELU), shown
    apart from the ISAs;
  - the roof: the same bytes with no reduction, an elementwise bcastgen
    kernel that reads the same inputs and writes the same output (`x * g + b`,
    `(x + r) * g + b`, `x * g`, `x * 1.5`) on the best ISA: what a row
    kernel could reach if its reductions were free;
  - PyTorch (python3-torch, one thread): the op as a model calls it
    (F.layer_norm, torch.softmax, F.gelu; RMSNorm as written with rsqrt and
    with sqrt), and the forms with no temporaries where there are
    (torch.softmax out=, RMSNorm with out= buffers); the median of batches
    of calls;
  - ONNX Runtime 1.30 (bench/ort/ort_cases.js: one thread, all graph
    optimizations, the sum of its kernel times per run, in the profiler's
    whole microseconds: coarse for the in-cache cases): LayerNormalization
    (opset 17); the com.microsoft SkipLayerNormalization and Add +
    LayerNormalization; RMSNorm as an exporter decomposes it, from Mul(x, x)
    and from Pow(x, 2) (the form ORT fuses); Softmax (opset 13);
    LayerNormalization + com.microsoft Gelu (Erf-decomposed if refused);
  - oneDNN 2.6 (bench/rows/onednn_rows.cpp, OMP_NUM_THREADS=1):
    layer_normalization_forward (scale and shift, statistics computed,
    inference) and softmax_forward; binary_add + layer normalization for the
    residual case and layer normalization + eltwise_gelu_erf for ln_gelu
    (two primitives);
  - XNNPACK (Debian's 2022-02 snapshot; bench/rows/xnnpack_rows.cpp, no
    threadpool: one thread), the Softmax cases only: softmax_nc_f32 (create
    and setup outside the timing, the median of batches of
    xnn_run_operator). Left out if its header has the newer softmax API
    (reshape split from setup) that xnnpack_rows.cpp is not written for;
  - Halide 14 (bench/rows/halide_rows_generator.cpp: one ahead-of-time
    pipeline per case for this CPU, the extents fixed, driven by
    halide_rows.cpp): each case as a Halide user schedules it for one core
    (partial sums over four vectors, per-row values at the row, the output
    row vectorized; x + r and Softmax's exp kept in a row buffer).
The C++ peers are built by bench/rows/CMakeLists.txt (`ninja bench_rows`,
g++ -O2) into BUILD/bench/rows; one that is not there is skipped, and said so.

The first round builds and checks everything: `bcastgen run --check` (the
tool's own long-double reference, within its row tolerance) with
--keep-temp, and the kernel it compiled (its `driver`) is kept, so the next
rounds only rerun the timing (the same batches as `run --check`), no
compile, no reference. Every output is compared with NumPy in float64
(np.allclose, rtol = atol = 1e-5; 1e-4 for the peers' GELU), and
bcastgen's outputs on the different ISAs must be the same bits.

Prints per case the medians over the rounds (ms), GB/s of the minimum traffic
(inputs read once, output written once), each entry's share of the roof (roof
time / its time), how many times faster bcastgen's best ISA is than the
fastest peer and the verdict (bench/verdict.py: a tie needs both at 90% of
the roof or more). --quick: one round of the in-cache cases only (a smoke test).
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
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
from rows_cases import CASES  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench"))
from verdict import tally, verdict_at_roof  # noqa: E402
SMALL_BYTES = 1 << 20  # x at most 1 MiB: in cache; the scalar loop is timed too



# ---------------------------------------------------------------------------
# NumPy references, float64

def ref_layer_norm(x, g, b, eps=1e-5):
    x = x.astype(np.float64)
    d = x - x.mean(-1, keepdims=True)
    return d / np.sqrt((d * d).mean(-1, keepdims=True) + eps) * g.astype(np.float64) + b.astype(np.float64)


def ref_rms_norm(x, g, eps=1e-6):
    x = x.astype(np.float64)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * g.astype(np.float64)


def ref_softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


_erf = np.frompyfunc(math.erf, 1, 1)


def ref_gelu(y):
    return 0.5 * y * (1.0 + _erf(y / math.sqrt(2.0)).astype(np.float64))


# ---------------------------------------------------------------------------
# the cases

def torch_forms(case, t, o):
    """name -> a call, for the tensors t (by input name) and a preallocated output o."""
    import torch
    import torch.nn.functional as F
    cols = case["cols"]
    if case["group"] == "ln":
        return {"torch F.layer_norm": lambda: F.layer_norm(t["x"], (cols,), t["g"], t["b"], 1e-5)}
    if case["group"] == "residual_ln":
        return {"torch F.layer_norm(x + r)": lambda: F.layer_norm(t["x"] + t["r"], (cols,), t["g"], t["b"], 1e-5)}
    if case["group"] == "rmsnorm":
        x, g = t["x"], t["g"]
        sq, m = torch.empty_like(x), torch.empty(case["rows"], 1)

        def no_temporaries():
            torch.mul(x, x, out=sq)
            torch.mean(sq, -1, keepdim=True, out=m)
            m.add_(1e-6).rsqrt_()
            return torch.mul(x, m, out=o).mul_(g)
        return {"torch x * rsqrt(mean(x^2) + eps) * g":
                lambda: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g,
                "torch x / sqrt(mean(x^2) + eps) * g":
                lambda: x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g,
                "torch the rsqrt form, out= (no temporaries)": no_temporaries}
    if case["group"] == "softmax":
        forms = {"torch.softmax": lambda: torch.softmax(t["x"], -1)}
        try:
            torch.softmax(t["x"][:1], -1, out=o[:1])
            forms["torch.softmax out="] = lambda: torch.softmax(t["x"], -1, out=o)
        except TypeError:
            pass
        return forms
    if case["group"] == "ln_gelu":
        return {"torch F.gelu(F.layer_norm)": lambda: F.gelu(F.layer_norm(t["x"], (cols,), t["g"], t["b"], 1e-5))}
    raise KeyError(case["group"])


# ONNX Runtime's forms of each case, in order: (variant, only if the one before was refused)
ORT_VARIANTS = {"ln": [("ln", False)],
                "residual_ln": [("skip", False), ("add_ln", False)],
                "rmsnorm": [("mul", False), ("pow", False)],
                "softmax": [("softmax", False)],
                "ln_gelu": [("gelu", False), ("erf", True)]}


def ort_graph(variant):
    """(nodes, initializers, opset imports, what the model is, its short label)."""
    from onnx import helper, numpy_helper
    ms = helper.make_opsetid("com.microsoft", 1)
    o13, o17 = helper.make_opsetid("", 13), helper.make_opsetid("", 17)
    const = lambda name, v: numpy_helper.from_array(np.array(v, np.float32), name)  # noqa: E731
    ln = lambda src, dst: helper.make_node("LayerNormalization", [src, "g", "b"], [dst], axis=-1,  # noqa: E731
                                           epsilon=1e-5)
    if variant == "ln":
        return [ln("x", "y")], [], [o17], "LayerNormalization (opset 17)", "LayerNormalization"
    if variant == "skip":
        return ([helper.make_node("SkipLayerNormalization", ["x", "r", "g", "b"], ["y"], domain="com.microsoft",
                                  epsilon=1e-5)], [], [o17, ms], "com.microsoft SkipLayerNormalization (fused)",
                "SkipLayerNormalization")
    if variant == "add_ln":
        return ([helper.make_node("Add", ["x", "r"], ["s"]), ln("s", "y")], [], [o17],
                "Add + LayerNormalization (opset 17)", "Add + LayerNormalization")
    if variant in ("mul", "pow"):
        # as an exporter writes RMSNorm: x * x (or x.pow(2), which ORT's
        # SimplifiedLayerNormFusion matches), ReduceMean(axes=[-1]) ... Div, Mul
        square = (helper.make_node("Mul", ["x", "x"], ["sq"]) if variant == "mul" else
                  helper.make_node("Pow", ["x", "two"], ["sq"]))
        return ([square, helper.make_node("ReduceMean", ["sq"], ["ms"], axes=[-1], keepdims=1),
                 helper.make_node("Add", ["ms", "eps"], ["mse"]), helper.make_node("Sqrt", ["mse"], ["rms"]),
                 helper.make_node("Div", ["x", "rms"], ["n"]), helper.make_node("Mul", ["n", "g"], ["y"])],
                [const("eps", 1e-6)] + ([const("two", 2.0)] if variant == "pow" else []), [o13],
                "%s + ReduceMean + Add + Sqrt + Div + Mul (opset 13)" % ("Mul(x, x)" if variant == "mul" else "Pow(x, 2)"),
                "RMSNorm graph from %s" % ("Mul(x, x)" if variant == "mul" else "Pow(x, 2)"))
    if variant == "softmax":
        return [helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [], [o13], "Softmax (opset 13)", "Softmax"
    if variant == "gelu":
        return ([ln("x", "n"), helper.make_node("Gelu", ["n"], ["y"], domain="com.microsoft")], [], [o17, ms],
                "LayerNormalization + com.microsoft Gelu", "LayerNormalization + Gelu")
    if variant == "erf":
        return ([ln("x", "n"), helper.make_node("Div", ["n", "sqrt2"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
                 helper.make_node("Add", ["e", "one"], ["e1"]), helper.make_node("Mul", ["n", "e1"], ["m"]),
                 helper.make_node("Mul", ["m", "half"], ["y"])],
                [const("sqrt2", math.sqrt(2.0)), const("one", 1.0), const("half", 0.5)], [o17],
                "LayerNormalization + Erf-decomposed GELU (opset 17)", "LayerNormalization + Erf GELU")
    raise KeyError(variant)


def ln_ref(d):
    return ref_layer_norm(d["x"], d["g"], d["b"])


# NumPy's float64 result of each group of cases.
REFS = {
    "ln": ln_ref,
    "residual_ln": lambda d: ref_layer_norm(d["x"] + d["r"].astype(np.float64), d["g"], d["b"]),
    "rmsnorm": lambda d: ref_rms_norm(d["x"], d["g"]),
    "softmax": lambda d: ref_softmax(d["x"]),
    "ln_gelu": lambda d: ref_gelu(ln_ref(d)),
}


def make_cases(rng):
    """rows_cases.py's cases, each with its inputs (standard normal) and its reference."""
    cases = []
    for c in CASES:
        data = {}
        for n in c["names"]:
            data[n] = rng.standard_normal((c["rows"], c["cols"]) if n in ("x", "r") else (c["cols"],),
                                          dtype=np.float32)
        cases.append(dict(c, data=data, ref=REFS[c["group"]]))
    return cases


# ---------------------------------------------------------------------------
# bcastgen

class Failure(Exception):
    pass


def wait_for(exe, seconds=180):
    """The tool may be rebuilt under us: wait for it to be there again."""
    t0 = time.time()
    while not os.access(exe, os.X_OK):
        if time.time() - t0 > seconds:
            raise Failure("%s is missing (waited %d s)" % (exe, seconds))
        time.sleep(10)


def bcastgen_build(exe, work, expr, inputs, isa, out, extra=()):
    """`bcastgen run --check --keep-temp`: (time_per_call_ns, the kept directory, wall seconds of the run)."""
    args = [exe, "run", "--expr", expr] + ["%s=%s" % kv for kv in inputs.items()]
    args += ["-o", out, "--check", "--isa", isa, "--cpu", "native", "--keep-temp"] + list(extra)
    for attempt in range(3):
        wait_for(exe)
        t0 = time.time()
        try:
            p = subprocess.run(args, capture_output=True, text=True)
        except OSError as e:  # replaced while we started it (text file busy)
            if attempt == 2:
                raise Failure("cannot run %s: %s" % (exe, e))
            time.sleep(30)
            continue
        wall = time.time() - t0
        text = p.stdout + p.stderr
        kept = re.search(r"temporary directory kept: (\S+)", text)
        if p.returncode == 0 or p.returncode == 4:
            break
        if kept:
            shutil.rmtree(kept.group(1), ignore_errors=True)
        if p.returncode < 0 or "No such file" in text:  # killed, or the tool half-rebuilt: retry
            time.sleep(30)
            continue
        raise Failure("bcastgen run --isa %s --expr '%s' exit %d:\n%s" % (isa, expr, p.returncode, text.strip()))
    else:
        raise Failure("bcastgen run --isa %s --expr '%s' kept failing:\n%s" % (isa, expr, text.strip()))
    lines = [s for s in text.splitlines() if s.startswith("check:")]
    if not lines or not kept:
        raise Failure("bcastgen run --isa %s --expr '%s': no check line or kept directory:\n%s" % (isa, expr, text))
    fields = dict(f.split("=") for f in lines[-1].split()[1:])
    if fields["mismatches"] != "0" or p.returncode:
        shutil.rmtree(kept.group(1), ignore_errors=True)
        raise Failure("bcastgen --isa %s '%s': the kernel differs from its reference: %s" % (isa, expr, lines[-1]))
    return float(fields["time_per_call_ns"]), kept.group(1), wall


def driver_ns(kept):
    """Reruns the kept kernel's timing (the batches of `run --check`), no compile, no reference."""
    n = len([f for f in os.listdir(kept) if re.fullmatch(r"in\d+\.bin", f)])
    argv = [os.path.join(kept, "driver")] + [os.path.join(kept, "in%d.bin" % k) for k in range(n)]
    p = subprocess.run(argv + [os.path.join(kept, "out.bin"), "1"], capture_output=True, text=True)
    m = re.search(r"time_per_call_ns=([\d.]+)", p.stdout)
    if p.returncode or not m:
        raise Failure("the kept driver %s failed: %s" % (kept, p.stderr.strip()))
    return float(m.group(1))


# ---------------------------------------------------------------------------
# peers

def torch_time(f, samples=15):
    """Median ns per call of batches of calls, a batch at least 1 ms (one call if longer); fewer
    batches (at least 3) where 15 would take over a second."""
    f()
    reps = 1
    while True:
        t0 = time.perf_counter_ns()
        for _ in range(reps):
            f()
        t = time.perf_counter_ns() - t0
        if t >= 1e6 or reps >= 1 << 16:
            break
        reps *= 2
    per_call = []
    for _ in range(max(3, min(samples, int(1e9 // t)))):
        t0 = time.perf_counter_ns()
        for _ in range(reps):
            f()
        per_call.append((time.perf_counter_ns() - t0) / reps)
    return statistics.median(per_call)


def ort_run(work, case, variant, runs):
    """One node process: (median ns, what the model is, the kernels ORT ran, output); Failure if ORT refuses it."""
    from onnx import TensorProto, helper, save
    f = TensorProto.FLOAT
    nodes, inits, opsets, what, _ = ort_graph(variant)
    shape = [case["rows"], case["cols"]]
    ins = [helper.make_tensor_value_info(n, f, list(case["data"][n].shape)) for n in case["names"]]
    graph = helper.make_graph(nodes, case["id"], ins, [helper.make_tensor_value_info("y", f, shape)], inits)
    model = os.path.join(work, "%s_%s.onnx" % (case["id"], variant))
    save(helper.make_model(graph, opset_imports=opsets), model)
    entry = {"case": case["id"], "model": model, "inputs": [],
             "output": {"name": "y", "dtype": "f32", "shape": shape, "file": os.path.join(work, "ort.out")}}
    for n in case["names"]:
        entry["inputs"].append({"name": n, "dtype": "f32", "shape": list(case["data"][n].shape),
                                "file": os.path.join(work, n + ".bin")})
    try:
        r = ort_peer.run([entry], runs, work)[case["id"]]
    except ort_peer.OrtFailure as e:
        raise Failure(str(e))
    if "error" in r:
        raise Failure("onnxruntime refused %s: %s" % (what, r["error"]))
    out = np.fromfile(entry["output"]["file"], np.float32).reshape(shape)
    return statistics.median(r["samples_ns"]), what, r["graph"], out


def built_peer(peers, name, what):
    """The peer executable NAME that bench/rows/CMakeLists.txt built into PEERS; None and why not."""
    exe = os.path.join(peers, name)
    if os.access(exe, os.X_OK):
        return exe, ""
    return None, ("%s skipped: %s is not built (`bash bench/run.sh --kind rows` builds bench/rows/CMakeLists.txt's "
                  "peers: `ninja bench_rows` in the benchmark's build)" % (what, exe))


def peer_run(exe, mode, work, case, what, env=None, samples=15):
    """Runs a peer executable (onednn_rows, xnnpack_rows, halide_rows) on the case's inputs: its median ns,
    its impl string and its output."""
    out = os.path.join(work, "peer.out")
    argv = [exe, mode, str(case["rows"]), str(case["cols"]), str(samples), out]
    argv += [os.path.join(work, n + ".bin") for n in case["names"]]
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    r = json.loads(line) if line.startswith("{") else {"error": p.stderr.strip()}
    if p.returncode or "error" in r:
        raise Failure("%s %s refused: %s" % (what, mode, r.get("error")))
    return r["median_ns"], r.get("impl", ""), np.fromfile(out, np.float32).reshape(case["rows"], case["cols"])


def onednn_run(exe, work, case):
    return peer_run(exe, case["onednn"], work, case, "oneDNN", dict(os.environ, OMP_NUM_THREADS="1"))


def xnnpack_run(exe, work, case):
    return peer_run(exe, case["xnnpack"], work, case, "XNNPACK")


def halide_run(exe, work, case):
    return peer_run(exe, case["id"], work, case, "Halide")  # one pipeline per case, named for it


# ---------------------------------------------------------------------------

def close(got, want, rtol, atol=None):
    atol = rtol if atol is None else atol
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol)
    err = float(np.max(np.abs(got.astype(np.float64) - want))) if got.shape == want.shape else float("inf")
    return ok, err


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bcastgen", default=os.path.join(ROOT, "build-bench", "generator", "bcastgen"))
    ap.add_argument("--peers", default="", help="where the C++ peers are built (default: BUILD/bench/rows of "
                    "--bcastgen's BUILD/generator/bcastgen)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cases", default="", help="comma-separated case ids or groups (default: all)")
    ap.add_argument("--quick", action="store_true", help="1 round, the in-cache cases only (a smoke test)")
    ap.add_argument("--ort-runs", type=int, default=21, help="ONNX Runtime runs per round (default 21)")
    args = ap.parse_args()
    exe = os.path.abspath(args.bcastgen)
    sys.stdout.reconfigure(line_buffering=True)
    rounds = 1 if args.quick else args.rounds

    rng = np.random.default_rng(2024)
    cases = make_cases(rng)
    if args.cases:
        want = set(s.strip() for s in args.cases.split(",") if s.strip())
        unknown = want - set(c["id"] for c in cases) - set(c["group"] for c in cases)
        if unknown:
            sys.exit("unknown case(s) %s; the cases: %s" % (", ".join(sorted(unknown)),
                                                              ", ".join(c["id"] for c in cases)))
        cases = [c for c in cases if c["id"] in want or c["group"] in want]
    if args.quick:
        cases = [c for c in cases if c["data"]["x"].nbytes <= SMALL_BYTES]
    if not cases:
        sys.exit("no case left to run")

    flags = open("/proc/cpuinfo").read()
    vector_isas = [i for i, f in (("avx512", " avx512f "), ("avx2", " avx2 ")) if f in flags]
    work = tempfile.mkdtemp(prefix="rows-bench-")
    kept_dirs = []
    failures, notes = [], []
    import torch
    torch.set_num_threads(1)
    peers = args.peers or os.path.join(os.path.dirname(os.path.dirname(exe)), "bench", "rows")
    peer_exes = {}
    for name, what, wanted in (("onednn_rows", "oneDNN", True), ("halide_rows", "Halide", True),
                               ("xnnpack_rows", "XNNPACK", any(c["xnnpack"] for c in cases))):
        peer_exes[name], why = built_peer(peers, name, what) if wanted else (None, "")
        if why:
            notes.append(why)
            print(why, file=sys.stderr)
    onednn_exe, halide_exe, xnnpack_exe = peer_exes["onednn_rows"], peer_exes["halide_rows"], peer_exes["xnnpack_rows"]

    t_start = time.time()
    try:
        # ---- setup: build, check, first timings -------------------------
        roofs = {}    # (case id, roof expr) -> kept dir, shared by cases with the same inputs
        for case in cases:
            cdir = os.path.join(work, case["id"])
            os.makedirs(cdir)
            for n, a in case["data"].items():
                np.save(os.path.join(cdir, n + ".npy"), a)
                a.tofile(os.path.join(cdir, n + ".bin"))
            ref = case["ref"](case["data"]).astype(np.float64)
            small = case["data"]["x"].nbytes <= SMALL_BYTES
            isas = vector_isas + (["scalar"] if small or not vector_isas else [])
            case.update(isas=isas, entries=[], samples={}, ort=[], errs={})
            print("[%s] building and checking ..." % case["id"], file=sys.stderr, flush=True)

            def entry(label, kind, timer, first):
                case["entries"].append((label, kind, timer))
                case["samples"][label] = [first]

            ins = {n: os.path.join(cdir, n + ".npy") for n in case["names"]}
            outs = {}
            for isa in isas:
                out = os.path.join(cdir, "out_%s.npy" % isa)
                try:
                    ns, kept, wall = bcastgen_build(exe, cdir, case["expr"], ins, isa, out)
                except Failure as e:
                    failures.append(str(e))
                    print(str(e), file=sys.stderr)
                    continue
                kept_dirs.append(kept)
                print("  bcastgen %s: run --check took %.1f s (kernel %.3f ms)" % (isa, wall, ns / 1e6),
                      file=sys.stderr, flush=True)
                got = np.load(out)
                ok, err = close(got, ref, 1e-5)
                case["errs"]["bcastgen " + isa] = err
                if not ok:
                    failures.append("%s: bcastgen %s differs from NumPy float64 (max abs error %.3g)"
                                    % (case["id"], isa, err))
                outs[isa] = got
                entry("bcastgen " + isa, "bcastgen", (lambda k: lambda: driver_ns(k))(kept), ns)
            for isa in list(outs)[1:]:
                first = list(outs)[0]
                if not np.array_equal(outs[isa], outs[first]):
                    n_diff = int(np.sum(outs[isa] != outs[first]))
                    failures.append("%s: bcastgen %s and %s outputs are not bit-identical (%d elements differ)"
                                    % (case["id"], first, isa, n_diff))
            if case["fast"] and isas:
                # informational: the fast forms of the functions (gelu within 4 ulp), as the peers' GELU is
                out = os.path.join(cdir, "out_fast.npy")
                try:
                    ns, kept, wall = bcastgen_build(exe, cdir, case["expr"], ins, isas[0], out,
                                                    ("--accuracy", "fast"))
                    kept_dirs.append(kept)
                    label = "bcastgen %s --accuracy fast" % isas[0]
                    ok, err = close(np.load(out), ref, case["peer_rtol"])
                    case["errs"][label] = err
                    if not ok:
                        failures.append("%s: %s differs from NumPy float64 (max abs error %.3g)"
                                        % (case["id"], label, err))
                    entry(label, "extra", (lambda k: lambda: driver_ns(k))(kept), ns)
                except Failure as e:
                    failures.append(str(e))
            case["bit_identical"] = len(outs) > 1 and all(np.array_equal(outs[i], outs[list(outs)[0]])
                                                           for i in outs)
            # the roof: the same bytes, no reduction, on the best ISA
            rkey = (case["rows"], case["cols"], case["roof"])
            roof_label = "roof: %s (%s)" % (case["roof"], isas[0])
            try:
                if rkey not in roofs:
                    rins = {n: ins[n] for n in case["roof_names"]}
                    out = os.path.join(cdir, "roof.npy")
                    ns, kept, wall = bcastgen_build(exe, cdir, case["roof"], rins, isas[0], out)
                    kept_dirs.append(kept)
                    d = {n: case["data"][n].astype(np.float64) for n in case["roof_names"]}
                    want = eval(case["roof"], {}, d)  # x * g + b, ... in float64
                    ok, err = close(np.load(out), np.broadcast_to(want, (case["rows"], case["cols"])), 1e-6)
                    if not ok:
                        failures.append("%s: the roof %s differs from NumPy (%.3g)" % (case["id"], case["roof"], err))
                    roofs[rkey] = [kept, ns]
                kept, ns = roofs[rkey]
                entry(roof_label, "roof", (lambda k: lambda: driver_ns(k))(kept), ns)
            except Failure as e:
                failures.append(str(e))
            case["roof_label"] = roof_label
            # PyTorch
            t = {n: torch.from_numpy(a) for n, a in case["data"].items()}
            o = torch.empty(case["rows"], case["cols"])
            for name, f in torch_forms(case, t, o).items():
                got = f().numpy()
                ok, err = close(got, ref, case["peer_rtol"])
                case["errs"][name] = err
                if not ok:
                    failures.append("%s: %s differs from NumPy float64 (max abs error %.3g)" % (case["id"], name, err))
                entry(name, "peer", (lambda f: lambda: torch_time(f))(f), torch_time(f))
            # ONNX Runtime: each form; a fallback form only if the one before was refused
            refused = False
            for variant, only_if_refused in ORT_VARIANTS[case["group"]]:
                if only_if_refused and not refused:
                    continue
                try:
                    ns, what, graph, got = ort_run(cdir, case, variant, args.ort_runs)
                except Failure as e:
                    refused = True
                    notes.append("%s: %s" % (case["id"], e))
                    print("  " + str(e), file=sys.stderr)
                    continue
                if only_if_refused:
                    notes.append("%s: ONNX Runtime runs the fallback %s instead" % (case["id"], what))
                refused = False
                name = "onnxruntime " + ort_graph(variant)[4]
                case["ort"].append((what, graph))
                ok, err = close(got, ref, case["peer_rtol"])
                case["errs"][name] = err
                if not ok:
                    failures.append("%s: %s differs from NumPy float64 (max abs error %.3g)" % (case["id"], name, err))
                entry(name, "peer", lambda c=case, d=cdir, v=variant: ort_run(d, c, v, args.ort_runs)[0], ns)
            # oneDNN, XNNPACK, Halide: one executable each, run on the case's .bin files
            peer_modes = [
                (onednn_exe, "onednn", "oneDNN", onednn_run,
                 {"layernorm": "layer_normalization", "softmax": "softmax",
                  "add_layernorm": "binary_add + layer_normalization",
                  "layernorm_gelu": "layer_normalization + gelu_erf"}),
                (xnnpack_exe, "xnnpack", "XNNPACK", xnnpack_run,
                 {"softmax": "softmax_nc"}),
                (halide_exe, "halide", "Halide", halide_run, None),
            ]
            for peer_exe, key, what, run, names in peer_modes:
                if not peer_exe or not case[key]:
                    continue
                try:
                    ns, impl, got = run(peer_exe, cdir, case)
                except Failure as e:
                    notes.append("%s: %s" % (case["id"], e))
                    continue
                if key == "onednn":
                    case["onednn_impl"] = impl
                name = "%s %s" % (what, names[case[key]] if names else case[key])
                ok, err = close(got, ref, case["peer_rtol"])
                case["errs"][name] = err
                if not ok:
                    failures.append("%s: %s differs from NumPy float64 (max abs error %.3g)" % (case["id"], name, err))
                entry(name, "peer", lambda r=run, e=peer_exe, c=case, d=cdir: r(e, d, c)[0], ns)
        t_setup = time.time() - t_start
        print("setup (build, check, round 1) took %.0f s" % t_setup, file=sys.stderr, flush=True)

        # ---- the other rounds: timing only, every entry turn about -------
        for r in range(1, rounds):
            print("round %d of %d ..." % (r + 1, rounds), file=sys.stderr, flush=True)
            for case in cases:
                for label, kind, timer in case["entries"]:
                    try:
                        case["samples"][label].append(timer())
                    except Failure as e:
                        failures.append("%s round %d: %s" % (case["id"], r + 1, e))

        # ---- report --------------------------------------------------------
        print("bcastgen row kernels against their peers; %s; %s; f32, one core; %d round%s, medians (ms)" %
              (cpu_model(), datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), rounds, "" if rounds == 1 else "s"))
        print("bcastgen %s --cpu native; ISAs %s; torch %s (1 thread); onnxruntime-node %s; %s%s; %s; load average %s" %
              (os.path.relpath(exe, ROOT) if exe.startswith(ROOT) else exe, ", ".join(vector_isas + ["scalar"]),
               torch.__version__, ort_version(), "oneDNN " + onednn_version() if onednn_exe else "no oneDNN",
               ("; XNNPACK " + xnnpack_version() if xnnpack_exe else "; no XNNPACK")
               if any(c["xnnpack"] for c in cases) else "", "Halide 14" if halide_exe else "no Halide",
               " ".join("%.1f" % v for v in os.getloadavg())))
        summary = []
        for case in cases:
            med = {k: statistics.median(v) for k, v in case["samples"].items() if v}
            shape = "x [%d, %d]" % (case["rows"], case["cols"])
            traffic = sum(a.nbytes for a in case["data"].values()) + case["data"]["x"].nbytes
            print()
            others = ", ".join("%s %s" % (n, list(a.shape)) for n, a in case["data"].items() if n != "x")
            print("== %s: %s, %s%s f32 ==" % (case["id"], case["title"], shape, ", " + others if others else ""))
            print("   bcastgen: %s" % case["expr"])
            for what, graph in case["ort"]:
                print("   onnxruntime model: %s; ran: %s" % (what, graph))
            if case.get("onednn_impl"):
                print("   oneDNN impl: %s" % case["onednn_impl"])
            roof = med.get(case["roof_label"])
            bg = {label: med[label] for label, kind, _ in case["entries"] if kind == "bcastgen"}
            best_bg = min(bg, key=bg.get) if bg else None
            print("   %-52s %10s %8s %8s %14s %10s" % ("", "ms", "GB/s", "of roof", "best bcastgen", "max|err|"))
            for label, kind, _ in case["entries"]:
                v = med[label]
                of_roof = "%7.0f%%" % (100 * roof / v) if roof else "%8s" % "-"
                rel = "%13.2fx" % (v / bg[best_bg]) if best_bg else "%14s" % "-"
                err = case["errs"].get(label)
                print("   %-52s %10.4f %8.1f %s %s %10s" % (label, v / 1e6, traffic / v, of_roof, rel,
                                                            "%.2g" % err if err is not None else ""))
            peers = {label: med[label] for label, kind, _ in case["entries"] if kind == "peer"}
            if best_bg and peers:
                fastest = min(peers, key=peers.get)
                ratio = peers[fastest] / bg[best_bg]
                v = verdict_at_roof(bg[best_bg], peers[fastest], roof)
                print("   bcastgen %s vs the fastest peer, %s: %.2fx %s, %s" %
                      (best_bg.split()[1], fastest, ratio if ratio >= 1 else 1 / ratio,
                       "faster" if ratio >= 1 else "SLOWER", v))
                summary.append((case["id"], bg[best_bg], best_bg.split()[1], roof, fastest, peers[fastest], v))
                for label, kind, _ in case["entries"]:
                    if kind == "extra":
                        r = peers[fastest] / med[label]
                        print("   %s vs the fastest peer: %.2fx %s" % (label, r if r >= 1 else 1 / r,
                                                                     "faster" if r >= 1 else "SLOWER"))
            if len(bg) > 1:
                print("   bcastgen's outputs on %s: %s" % (", ".join(b.split()[1] for b in bg),
                                                         "bit-identical" if case["bit_identical"] else "DIFFER"))
        if summary:
            print()
            print("%-12s %16s %8s  %-44s %10s %8s  %s" % ("case", "bcastgen ms", "of roof", "fastest peer", "peer ms",
                                                         "speedup", "verdict"))
            for cid, ns, isa, roof, peer, pns, v in summary:
                print("%-12s %9.4f %-6s %8s  %-44s %10.4f %7.2fx  %s" %
                      (cid, ns / 1e6, isa, "%.0f%%" % (100 * roof / ns) if roof else "-", peer, pns / 1e6, pns / ns,
                       v))
            print(tally(s[-1] for s in summary))
        for n in notes:
            print("note: " + n.replace("\n", "\n      "))
        print("total %.0f s" % (time.time() - t_start))
        if failures:
            print("\nFAILURES:", file=sys.stderr)
            for f in failures:
                print("  " + f.replace("\n", "\n    "), file=sys.stderr)
            return 1
        return 0
    finally:
        for d in kept_dirs:
            shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def ort_version():
    try:
        with open(os.path.join(ort_peer.NODE_MODULES, "onnxruntime-node", "package.json")) as f:
            return json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        return "?"


def onednn_version():
    try:
        text = open("/usr/include/oneapi/dnnl/dnnl_version.h").read()
        return ".".join(re.search(r"DNNL_VERSION_%s\s+(\d+)" % k, text).group(1) for k in ("MAJOR", "MINOR", "PATCH"))
    except (OSError, AttributeError):
        return "?"


def xnnpack_version():
    """Debian's package version (XNNPACK has no releases): 0.0~git20220216.ae108ef-2 -> git20220216.ae108ef."""
    p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libxnnpack0"], capture_output=True, text=True)
    m = re.search(r"(git\d+\.\w+)", p.stdout)
    return m.group(1) if m else (p.stdout.strip() or "?")


if __name__ == "__main__":
    sys.exit(main())
