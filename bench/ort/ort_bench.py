#!/usr/bin/python3
"""ONNX Runtime peer of the bcastgen benchmark (single-op and fused cases).

    /usr/bin/python3 bench/ort/ort_bench.py CASES_JSON OUT_JSON [--fused FUSED_JSON] [--runs N] [--work DIR]

Writes each case as a small ONNX model (opset 13; the fused cases as the
node chain an exporter writes: F5's ReLU6 is Clip, F6 is Where), its inputs
filled exactly as bench_main.cpp and fused_cases.cpp fill them (the fill
functions of numpy_bench.py), and runs them all in one `node` process
(ort_peer.py, ort_cases.js): one thread, all graph optimizations (ONNX
Runtime applies its own fusions), the output preallocated, timed by ORT's
profiler. The output of the last run is checked against
bcastgen's checksum. OUT_JSON has numpy_bench.py's rows, peer "onnxruntime".
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from numpy_bench import checksum, fill, fill_fused  # noqa: E402
sys.path.insert(0, HERE)
import ort_peer  # noqa: E402

BINARY = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "greater": "Greater"}
f32 = np.float32

# The fused cases as ONNX node chains over their inputs, to the output "y".
FUSED = {
    "f1_bn_relu": ([("Mul", ["x", "scale"], "t0"), ("Add", ["t0", "shift"], "t1"), ("Relu", ["t1"], "y")], {}),
    "f2_residual_relu": ([("Add", ["a", "b"], "t0"), ("Relu", ["t0"], "y")], {}),
    "f3_attention": ([("Mul", ["s", "c0125"], "t0"), ("Add", ["t0", "mask"], "y")], {"c0125": f32(0.125)}),
    "f4_layernorm_tail": ([("Sub", ["x", "mean"], "t0"), ("Mul", ["t0", "rstd"], "t1"),
                           ("Mul", ["t1", "gamma"], "t2"), ("Add", ["t2", "beta"], "y")], {}),
    "f5_relu6_nhwc": ([("Add", ["x", "bias"], "t0"), ("Clip", ["t0", "zero", "six"], "y")],
                      {"zero": f32(0), "six": f32(6)}),
    "f6_causal_mask": ([("Where", ["keep", "s", "minus"], "y")], {"minus": f32(-10000.0)}),
}


def write_case(work, case):
    """The case's model and input files; its entry for ort_cases.js, or None."""
    name = case["name"]
    if "inputs" in case:
        if name not in FUSED:
            return None
        nodes, consts = FUSED[name]
        arrays = [(t["name"], t["dtype"], fill_fused(t["aligned"], t["dtype"], 1 + 4 * n))
                  for n, t in enumerate(case["inputs"])]
    else:
        dtype = case["dtype"]
        arrays = [("a", dtype, fill(case["a_aligned"], dtype, 1))]
        if case["op"] == "broadcast":
            nodes, consts = [("Expand", ["a", "shape"], "y")], {"shape": np.array(case["out"], np.int64)}
        elif case["op"] in BINARY:
            nodes, consts = [(BINARY[case["op"]], ["a", "b"], "y")], {}
            arrays.append(("b", dtype, fill(case["b_aligned"], dtype, 5)))
        else:
            return None
    model = os.path.join(work, name + ".onnx")
    ort_peer.save_model(model, nodes, [(n, d, list(a.shape)) for n, d, a in arrays], ("y", case["out_dtype"], case["out"]),
                        consts=consts)
    return ort_peer.case_entry(work, name, model, arrays, ("y", case["out_dtype"], case["out"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases_json")
    ap.add_argument("out_json")
    ap.add_argument("--fused")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--work")
    args = ap.parse_args()
    cases = json.load(open(args.cases_json)) + (json.load(open(args.fused)) if args.fused else [])
    work = args.work or tempfile.mkdtemp(prefix="ort-bench-")
    os.makedirs(work, exist_ok=True)
    entries, rows = [], {}
    for case in cases:
        e = write_case(work, case)
        if e is None:
            rows[case["name"]] = {"case": case["name"], "peer": "onnxruntime", "status": "n/a",
                                  "reason": "case not mapped in ort_bench.py"}
        else:
            entries.append(e)
    try:
        timed = ort_peer.run(entries, args.runs, work)
    except ort_peer.OrtFailure as e:
        print(e, file=sys.stderr)
        return 1
    entry_of = {e["case"]: e for e in entries}
    mismatches = 0
    for case in cases:
        name = case["name"]
        if name in rows:
            continue
        if "error" in timed[name]:
            rows[name] = {"case": name, "peer": "onnxruntime", "status": "n/a", "reason": timed[name]["error"]}
            continue
        row = {"case": name, "peer": "onnxruntime", "note": "ONNX Runtime 1.30, " + timed[name]["graph"]}
        got = checksum(ort_peer.read_output(entry_of[name]))
        if str(got) != case["checksum"]:
            mismatches += 1
            row.update(status="mismatch", reason="checksum %d != the expected %s" % (got, case["checksum"]))
            print("\n*** MISMATCH *** case %s (%s), peer onnxruntime differs from the expected output: %s\n"
                  % (case["label"], name, row["reason"]), file=sys.stderr)
        else:
            row["status"] = "ok"
        print("check  %s\t%s\tonnxruntime\t%s" % (case["label"], name, row["status"]), file=sys.stderr)
        if "inputs" in case:  # each kernel after the first reads its predecessor's output, of the output's size
            passes = timed[name]["kernels"]
            row.update(passes=passes, bytes=case["fused_bytes"] + 2 * (passes - 1) * case["out_bytes"])
        samples = timed[name]["samples_ns"]
        row.update(ns=float(np.median(samples)), samples_ns=samples)
        rows[name] = row
    with open(args.out_json, "w") as f:
        json.dump([rows[c["name"]] for c in cases], f, indent=1)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
