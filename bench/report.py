#!/usr/bin/python3
"""Merges the benchmark's results into the table, the CSV and the summary line.

    /usr/bin/python3 bench/report.py RESULTS_DIR

RESULTS_DIR holds cases.json, fused.json and status.json (bcastgen_bench),
cpp_r*.json (Google Benchmark JSON, one per round, every repetition) and
numpy_r*.json (numpy_bench.py, one per round). Writes RESULTS_DIR/results.csv,
fused.csv and table.md, prints the tables and ends with the summary line and
the fused cases' summary line.

Definitions (also in docs/benchmarks.md):
- time: the median over all repetitions (of all rounds) of the CPU time per
  call, in ns.
- GB/s: effective bandwidth, (bytes of a + bytes of b + bytes of out) / time;
  each operand counted once, whatever the access pattern.
- speedup vs best peer: time of the fastest peer that supports the case
  (XNNPACK, oneDNN, Eigen, fallback, Halide, PyTorch, NumPy; mismatching
  peers excluded)
  divided by bcastgen's time. Above 1: bcastgen is faster. The summary line
  uses it. "speedup, fastest reps" is the same with each peer's fastest
  repetition instead of its median: on this shared VM the L3-bound cases
  are bimodal (two machine states, ~25% apart), and a median can land in
  either mode; the fastest repetitions compare the code in the quiet state.
- Halide: two schedules per case are built and timed (halide_s0,
  halide_s1); the column shows the one with the lower median, the peer notes
  say which.
- level: where the working set (a + b + out bytes) fits, against the per-core
  cache sizes of caches.json (bcastgen_bench --caches-json: sysfs, else
  sysconf, else CPUID): L1 (<= L1d), L2, L3, else DRAM. A level whose size is
  unknown, or implausible (an L3 above 128 MiB: no core reaches that much of
  its own), is not used: a working set beyond the last known level is
  "L3/DRAM?" (or "?"), said so in the table.
- verdict: "ahead" (speedup >= 1), "tie (roof)" (a physical tie: bcastgen
  and the fastest peer within 3% of each other, max/min <= 1.03, and both at
  >= 90% of the roof of the level the case lives in, measured in the same
  run; "L3/DRAM?" cases against the L3 roof, the higher of the two), else
  "below". The summary's below_peer counts the "below" cases.
- % roof: DRAM cases against the streaming-store roof of the same read/write
  mix (add: dram_add_stream; the Broadcast op, write-only: dram_fill_stream),
  in GB/s. Every other case ("in-cache") against the L1 add roof in
  elements/ns, scaled by 4 / the widest element size (u8 vectors carry 4x the
  f32 elements).
- % level roof (informative): against the roof loop measured in the level
  the working set lives in (L1: elements/ns as above; L2, L3, DRAM: GB/s):
  of the L2 and L3 loops, the one nearest the case's footprint and then its
  share of written bytes (an add, or a bias add that reads as much as it
  writes: a store that is not streaming reads its line first).

- a/a (BENCH_AA=1): bcastgen against its own kernel timed as the peer
  bcastgen_twin, by the verdict rules above, in one line after the
  summaries: the spread of the twin's ratio and its verdicts are the noise
  floor of the run's verdicts.

The fused cases (issue 14, fused.json; docs/benchmarks.md, "Fused cases"):
- fused bytes: every input once and the output once. A peer's bytes: what
  its calls read and write, each call its operands and its result (status
  "bytes"; 0 means one pass, the fused bytes).
- traffic bound over a chain: the chain's bytes / the fused bytes. The table
  shows it for one call per expression node (the issue's 3x, 5/3, 2x, 4x,
  3x, 1x) and for the fastest chain as it runs (fewer calls where a library
  folds nodes into one call: XNNPACK's output clamp, PyTorch's add with
  alpha, where_out).
- fused vs fastest chain: the fastest chain's time / bcastgen's fused
  kernel's; % of bound: that / the bound vs that chain * 100.
- verdict against the fastest fusing peer (Eigen, oneDNN, Halide): as for
  the single ops, the level from the fused bytes and GB/s = fused bytes /
  time. fused_below_peer counts the "below" cases.
"""
import csv
import json
import math
import os
import statistics
import sys

from verdict import tally, verdict

PEERS = ["xnnpack", "onednn", "eigen", "fallback", "halide", "torch", "numpy", "onnxruntime"]
PEER_TITLES = {"bcastgen": "bcastgen", "bcastgen_chain": "bcastgen chain", "xnnpack": "XNNPACK", "onednn": "oneDNN", "eigen": "Eigen",
               "fallback": "fallback", "halide": "Halide", "torch": "PyTorch", "numpy": "NumPy",
               "onnxruntime": "ONNX Runtime"}
HALIDE_SCHEDULES = ["halide_s0", "halide_s1"]
# The fused cases' peers: unfused chains of library calls, and fusing peers.
FUSED_CHAINS = ["bcastgen_chain", "xnnpack", "fallback", "torch", "numpy"]
FUSED_FUSING = ["eigen", "onednn", "halide", "onnxruntime"]  # ONNX Runtime: its own graph fusions
# Above this, an L3 size is taken for a hypervisor's figure, not a cache one
# core can use (the largest per-core-complex L3 of x86 parts is 96 MiB).
PLAUSIBLE = {1: 4 << 20, 2: 64 << 20, 3: 128 << 20}
# BENCH_AA=1: bcastgen_bench times bcastgen's kernel a second time as this
# peer, judged against bcastgen as any peer is, but kept out of the tables:
# its verdicts are the noise floor of a run (the a/a line).
TWIN = "bcastgen_twin"
SIZES = {"f32": 4, "f64": 8, "u8": 1, "i8": 1, "bool": 1, "i32": 4, "u32": 4, "i16": 2, "u16": 2,
         "i64": 8, "u64": 8}


def cache_sizes(rdir):
    """Per-core data/unified cache sizes by level: {level: (bytes, source)},
    from caches.json (bcastgen_bench), else from sysfs here."""
    path = os.path.join(rdir, "caches.json")
    if os.path.exists(path):
        return {c["level"]: (c["bytes"], c["source"]) for c in load(path)}
    sizes = {}
    base = os.path.join(os.environ.get("BENCH_SYSFS_ROOT") or "/sys", "devices/system/cpu/cpu0/cache")
    for idx in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        if not idx.startswith("index"):
            continue
        d = os.path.join(base, idx)
        try:
            level = int(open(os.path.join(d, "level")).read())
            typ = open(os.path.join(d, "type")).read().strip()
            size = open(os.path.join(d, "size")).read().strip()
        except OSError:
            continue
        if typ == "Instruction":
            continue
        mult = {"K": 1024, "M": 1024 * 1024}.get(size[-1], 1)
        sizes[level] = (int(size.rstrip("KM")) * mult, "sysfs")
    return sizes


def level_of(ws, usable, last_known):
    """Where a working set of ws bytes lives: L1, L2, L3, DRAM, or, beyond
    the last level whose size is known (and plausible), L3/DRAM? or ?."""
    for lv in range(1, last_known + 1):
        if ws <= usable[lv]:
            return "L%d" % lv
    return "DRAM" if last_known >= 3 else "L3/DRAM?" if last_known == 2 else "?"


# The roof loops of bench/roofs.cpp: name, elements, bytes moved per element
# (a + b + c for an add, a + c for a copy, c for a fill); the footprint is
# their product, and every loop writes 4 of those bytes per element.
ROOF_LOOPS = (("dram_add_store", 4194304, 12), ("dram_add_stream", 4194304, 12), ("l1_add", 2048, 12),
              ("l2_add", 16384, 12), ("l2_add_1536kib", 131072, 12), ("l2_copy_1536kib", 196608, 8),
              ("l3_add", 524288, 12), ("l3_copy", 786432, 8), ("l3_add_12mib", 1048576, 12),
              ("l3_copy_12mib", 1572864, 8), ("dram_fill_stream", 8388608, 4))
FOOTPRINT = {name: n * per for name, n, per in ROOF_LOOPS}
WRITTEN_SHARE = {name: 4 / per for name, _, per in ROOF_LOOPS}
# Each level's roofs with normal stores, measured at different footprints
# and read/write mixes.
L2_ROOFS = ("l2_add", "l2_add_1536kib", "l2_copy_1536kib")
L3_ROOFS = ("l3_add", "l3_copy", "l3_add_12mib", "l3_copy_12mib")


def nearest_roof_name(ws, written, roofs, names):
    """Of a level's roofs, the one measured at the footprint nearest ws (by
    ratio), and of those the one whose share of written bytes is nearest the
    case's (written / ws). An add loop reaches less as its footprint nears
    the level's size (a shared L3 reaches less at 12 MiB than at 6, a 2 MiB
    L2 less at 1.5 MiB than at 192 KiB); and a store that is not streaming
    first reads its line, so a case that writes half its bytes moves more
    lines per counted byte than an add, which writes a third: in a 2 MiB L2
    the copy loop reached 0.73x the add's GB/s at the same footprint
    (Intel Xeon, Emerald Rapids)."""
    have = [name for name in names if name in roofs]
    if not have:
        return None
    return min(have, key=lambda name: (round(abs(math.log(ws / FOOTPRINT[name])), 6),
                                       abs(written / ws - WRITTEN_SHARE[name])))


def level_roof(level, e, roofs, widest, write_only, ws, written):
    """% of the roof of the level the case lives in (None if unknown); e has
    the peer's gbps and el_ns, ws is the case's working set in bytes and
    written the output's."""
    if e.get("ns") is None:
        return None
    if level == "DRAM":
        rn = "dram_fill_stream" if write_only else "dram_add_stream"
        return 100 * e["gbps"] / roofs[rn]["gbps"] if rn in roofs else None
    if level == "L1":
        return 100 * e["el_ns"] / (roofs["l1_add"]["el_ns"] * 4 / widest) if "l1_add" in roofs else None
    rn = (nearest_roof_name(ws, written, roofs, L2_ROOFS) if level == "L2" else
          nearest_roof_name(ws, written, roofs, L3_ROOFS) if level in ("L3", "L3/DRAM?") else None)
    return 100 * e["gbps"] / roofs[rn]["gbps"] if rn in roofs else None


def judge(peer, bc, level_roof_pct):
    """bcastgen's verdict against a peer (entries with ns), against the roof
    of the level the case lives in (verdict.py)."""
    peer_pct, bc_pct = level_roof_pct(peer), level_roof_pct(bc)
    return verdict(bc["ns"], peer["ns"], None if bc_pct is None else bc_pct / 100,
                   None if peer_pct is None else peer_pct / 100)


class NoiseLedger:
    """What the a/a line needs, gathered as the single-op and fused cases
    are judged: bcastgen's verdicts against its twin (BENCH_AA=1) and every
    verdict below a peer."""

    def __init__(self):
        self.twins = []  # (case, twin / bcastgen time, verdict)
        self.below = []  # (case, peer / bcastgen time)

    def note_below(self, case, ratio):
        self.below.append((case, ratio))

    def judge_twin(self, case, status, times, fastest, ws, out_numel, bc, level_roof_pct):
        """bcastgen's verdict against its own kernel timed as a peer."""
        twin = peer_entry(case, TWIN, status, times, fastest, ws, out_numel)
        if twin["ns"] is not None and bc["ns"] is not None:
            self.twins.append((case, twin["ns"] / bc["ns"], judge(twin, bc, level_roof_pct)))

    def summary(self):
        """The a/a line: how often a verdict of bcastgen against itself is
        not a tie, and the spread of the ratio ("" without BENCH_AA)."""
        if not self.twins:
            return ""
        ratios = [r for _, r, _ in self.twins]
        # A case below a peer by no more than the same kernel's two timings
        # differed somewhere in this run, either way (the twin and bcastgen
        # are interchangeable), is a verdict the run cannot tell from noise
        # (counted, not excused).
        floor = min(min(ratios), 1 / max(ratios))
        within = [(c, r) for c, r in self.below if r >= floor]
        return ("a/a: cases=%d twin_ratio_min=%.3f twin_ratio_max=%.3f below_twin=%d ahead_of_twin=%d ties_roof=%d "
                "below_peer_within_twin_spread=%d of %d (bcastgen's kernel timed twice, BENCH_AA=1; below its twin: "
                "%s; below a peer by no more than %.3f: %s)" % (
                    len(self.twins), min(ratios), max(ratios), sum(1 for a in self.twins if a[2] == "below"),
                    sum(1 for a in self.twins if a[2] == "ahead"),
                    sum(1 for a in self.twins if a[2] == "tie (roof)"), len(within), len(self.below),
                    ", ".join("%s %.3f" % (c, r) for c, r, v in self.twins if v == "below") or "none", floor,
                    ", ".join("%s %.3f" % (c, r) for c, r in within) or "none"))


def peer_entry(case, peer, status, times, fastest, ws, out_numel):
    """A (case, peer)'s status, note and, when it ran and matched, its median
    and fastest time, effective GB/s (ws bytes / time) and elements/ns."""
    st = status.get((case, peer), {"status": "n/a", "reason": "not run"})
    ns = times.get("%s/%s" % (case, peer))
    entry = {"status": st["status"], "reason": st.get("reason", ""), "note": st.get("note", ""), "ns": None}
    if st["status"] == "ok" and peer not in ("numpy", "onnxruntime"):  # their notes say what they ran
        entry["note"], entry["reason"] = st.get("reason", ""), ""
    if st["status"] == "ok" and ns is None:
        entry["status"], entry["reason"] = "n/a", "no timing (benchmark did not run)"
    if entry["status"] == "ok":
        entry["ns"] = ns
        entry["min_ns"] = fastest["%s/%s" % (case, peer)]
        entry["gbps"] = ws / ns
        entry["el_ns"] = out_numel / ns
    return entry


def load(path):
    with open(path) as f:
        return json.load(f)


def fmt_ns(ns):
    return "%.0f" % ns if ns >= 100 else "%.1f" % ns


def fmt_bytes(n):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div:
            return "%.1f %s" % (n / div, unit)
    return "%d B" % n


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fused_report(rdir, cases, status, times, fastest, roofs, usable, last_known, single_op_geomean, ledger):
    """The fused cases (issue 14): the table, fused.csv and the second summary
    line. Returns (lines, summary, mismatch)."""
    rows, csv_rows, notes = [], [], []
    mismatch = False

    def note(text):
        if text not in notes:
            notes.append(text)
        return "f%d" % (notes.index(text) + 1)

    for c in cases:
        fb = c["fused_bytes"]
        out_bytes = c["out_bytes"]
        level = level_of(fb, usable, last_known)
        res = {}
        for peer in ["bcastgen"] + FUSED_CHAINS + FUSED_FUSING:
            e = peer_entry(c["name"], peer, status, times, fastest, fb, c["out_numel"])
            st = status.get((c["name"], peer), {})
            # Bytes the peer's calls move (0: one pass, the fused traffic).
            e["bytes"] = st.get("bytes") or fb
            e["passes"] = st.get("passes", 1)
            if e["ns"] is not None:
                e["traffic_gbps"] = e["bytes"] / e["ns"]
            mismatch = mismatch or e["status"] == "mismatch"
            res[peer] = e
        bc = res["bcastgen"]
        chains = [p for p in FUSED_CHAINS if res[p]["ns"] is not None]
        fusing = [p for p in FUSED_FUSING if res[p]["ns"] is not None]
        chain = min(chains, key=lambda p: res[p]["ns"]) if chains else None
        peer = min(fusing, key=lambda p: res[p]["ns"]) if fusing else None

        def level_roof_pct(e):
            return level_roof(level, e, roofs, 4, False, fb, out_bytes)

        r = dict(case=c, level=level, res=res, chain=chain, peer=peer, canonical=c["chain_bytes"] / fb,
                 bound=res[chain]["bytes"] / fb if chain else None, vs_chain=None, pct=None, vs_peer=None,
                 verdict="-", level_pct=level_roof_pct(bc))
        if bc["ns"] is not None and chain:
            r["vs_chain"] = res[chain]["ns"] / bc["ns"]
            r["pct"] = 100 * r["vs_chain"] / r["bound"]
        if bc["ns"] is not None and peer:
            r["vs_peer"] = res[peer]["ns"] / bc["ns"]
            r["verdict"] = judge(res[peer], bc, level_roof_pct)
            if r["verdict"] == "below":
                ledger.note_below(c["name"], r["vs_peer"])
        ledger.judge_twin(c["name"], status, times, fastest, fb, c["out_numel"], bc, level_roof_pct)
        rows.append(r)
        for p in ["bcastgen"] + FUSED_CHAINS + FUSED_FUSING:
            e, mine = res[p], p == "bcastgen"
            csv_rows.append({
                "case": c["label"], "kernel": c["name"], "expr": c["expr"], "fused_bytes": fb, "level": level,
                "peer": p, "kind": "fused" if p == "bcastgen" or p in FUSED_FUSING else "chain",
                "status": e["status"], "ns_per_call": "%.1f" % e["ns"] if e["ns"] else "",
                "min_ns_per_call": "%.1f" % e["min_ns"] if e["ns"] else "", "bytes_moved": e["bytes"],
                "calls": e["passes"], "traffic_gb_per_s": "%.2f" % e["traffic_gbps"] if e["ns"] else "",
                "traffic_bound_one_call_per_node": "%.3f" % r["canonical"] if mine else "",
                "fastest_chain": (chain or "") if mine else "",
                "traffic_bound_vs_fastest_chain": "%.3f" % r["bound"] if mine and r["bound"] else "",
                "speedup_vs_fastest_chain": "%.3f" % r["vs_chain"] if mine and r["vs_chain"] else "",
                "pct_of_traffic_bound": "%.1f" % r["pct"] if mine and r["pct"] else "",
                "fastest_fusing_peer": (peer or "") if mine else "",
                "speedup_vs_fastest_fusing_peer": "%.3f" % r["vs_peer"] if mine and r["vs_peer"] else "",
                "verdict": r["verdict"] if mine else "",
                "pct_level_roof": "%.1f" % r["level_pct"] if mine and r["level_pct"] is not None else "",
                "reason": e["reason"], "note": e["note"]})
    peers_all = ["bcastgen"] + FUSED_CHAINS + FUSED_FUSING

    def cell(p, e, fmt):
        if e["status"] == "mismatch":
            return "**MISMATCH** [%s]" % note("%s: %s" % (PEER_TITLES[p], e["reason"]))
        if e["ns"] is None:
            return "n/a [%s]" % note("%s: %s" % (PEER_TITLES[p], e["reason"]))
        return fmt(e)

    def x(v):
        return "%.2fx" % v if v else "-"

    out = ["Fused cases (issue 14): ns per call (median CPU time). bcastgen is the fused kernel; chains: "
           + ", ".join(PEER_TITLES[p] for p in FUSED_CHAINS) + "; fusing peers: "
           + ", ".join(PEER_TITLES[p] for p in FUSED_FUSING) + ".", ""]
    out.append("| # | expression | " + " | ".join(PEER_TITLES[p] for p in peers_all) +
               " | fastest chain | traffic bound, 1 call per node | traffic bound vs fastest chain | "
               "fused vs fastest chain | % of bound | fastest fusing peer | fused vs it | verdict | level | "
               "% level roof |")
    out.append("|---|---|" + "---:|" * len(peers_all) + "---|---:|---:|---:|---:|---|---:|---|---|---:|")
    for r in rows:
        c, res = r["case"], r["res"]
        out.append("| %s | `%s` | %s | %s | %.2fx | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c["label"], c["expr"], " | ".join(cell(p, res[p], lambda e: fmt_ns(e["ns"])) for p in peers_all),
            PEER_TITLES.get(r["chain"], "-"), r["canonical"], x(r["bound"]), x(r["vs_chain"]),
            "%.0f%%" % r["pct"] if r["pct"] else "-", PEER_TITLES.get(r["peer"], "-"), x(r["vs_peer"]),
            r["verdict"], r["level"], "%.0f%%" % r["level_pct"] if r["level_pct"] is not None else "-"))
    out += ["", "Traffic per call: bytes the peer's calls move / the fused kernel's bytes (every input once, the "
            "output once), the number of calls, and GB/s of that traffic:", ""]
    out.append("| # | fused bytes | " + " | ".join(PEER_TITLES[p] for p in peers_all) + " |")
    out.append("|---|---:|" + "---:|" * len(peers_all))
    for r in rows:
        c, res = r["case"], r["res"]
        out.append("| %s | %s | %s |" % (c["label"], fmt_bytes(c["fused_bytes"]), " | ".join(
            cell(p, res[p], lambda e: "%.2fx, %d, %.1f GB/s" % (e["bytes"] / c["fused_bytes"], e["passes"],
                                                                e["traffic_gbps"])) for p in peers_all)))
    if notes:
        out.append("")
        out += ["[f%d] %s" % (i, t) for i, t in enumerate(notes, 1)]
    calls = ["%s %s: %s" % (r["case"]["label"], PEER_TITLES[p], r["res"][p]["note"]) for r in rows
             for p in FUSED_CHAINS + FUSED_FUSING if r["res"][p]["note"] and r["res"][p]["ns"] is not None]
    out += ["", "Peer notes (calls, implementation, schedule): " + "; ".join(calls) + "."]
    got = [r for r in rows if r["pct"] is not None]
    missing = len(rows) - len(got)
    summary = "fused: cases=%d min_pct_of_traffic_bound=%s geomean_vs_fastest_chain=%s fused_below_peer=%s " \
              "single_op_geomean=%s" % (
                  len(rows), "%.0f" % min(r["pct"] for r in got) if got else "none",
                  "%.2f" % geomean([r["vs_chain"] for r in got]) if got else "none",
                  sum(1 for r in rows if r["verdict"] == "below") if got else "none",
                  "%.2f" % single_op_geomean if single_op_geomean else "none")
    if missing:
        summary += " bcastgen_missing=%d" % missing
    fields = list(csv_rows[0].keys()) if csv_rows else []
    with open(os.path.join(rdir, "fused.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in csv_rows:
            w.writerow(row)
    return out, summary, mismatch, [r["verdict"] for r in rows if r["pct"] is not None]


def main():
    rdir = sys.argv[1]
    ledger = NoiseLedger()
    cases = load(os.path.join(rdir, "cases.json"))
    fused_path = os.path.join(rdir, "fused.json")
    fused = load(fused_path) if os.path.exists(fused_path) else []
    status = {(s["case"], s["peer"]): s for s in load(os.path.join(rdir, "status.json"))}
    # Pool the repetitions of every round (run.sh alternates C++ and NumPy
    # rounds), then take the median per (case, peer).
    samples = {}  # run_name -> [cpu ns per call]
    rounds = sorted(f for f in os.listdir(rdir) if f.startswith("cpp_r") and f.endswith(".json"))
    for fname in rounds:
        for b in load(os.path.join(rdir, fname))["benchmarks"]:
            if b.get("run_type") == "iteration":
                assert b["time_unit"] == "ns", b
                samples.setdefault(b["run_name"], []).append(b["cpu_time"])
    # The peers in processes of their own: NumPy (numpy_bench.py) and ONNX
    # Runtime (ort/ort_bench.py), one file per round.
    for peer, prefix in (("numpy", "numpy_r"), ("onnxruntime", "ort_r")):
        for fname in sorted(f for f in os.listdir(rdir) if f.startswith(prefix) and f.endswith(".json")):
            for s in load(os.path.join(rdir, fname)):
                key = (s["case"], peer)
                if key not in status or s["status"] != "ok":
                    status[key] = s
                if "samples_ns" in s:
                    samples.setdefault("%s/%s" % (s["case"], peer), []).extend(s["samples_ns"])
    # Halide: keep, per case, the schedule with the lower median.
    halide_choice = {}
    for c in cases + fused:
        meds = {s: statistics.median(samples["%s/%s" % (c["name"], s)]) for s in HALIDE_SCHEDULES
                if "%s/%s" % (c["name"], s) in samples}
        sts = [status.get((c["name"], s)) for s in HALIDE_SCHEDULES]
        bad = [st for st in sts if st and st["status"] == "mismatch"]
        if bad:
            status[(c["name"], "halide")] = bad[0]
        elif meds:
            best = min(meds, key=meds.get)
            samples["%s/halide" % c["name"]] = samples["%s/%s" % (c["name"], best)]
            st = dict(status[(c["name"], best)])
            st["reason"] = "schedule %s (medians: %s)" % (best[-1], ", ".join(
                "s%s %s ns" % (k[-1], fmt_ns(v)) for k, v in sorted(meds.items())))
            status[(c["name"], "halide")] = st
            halide_choice[c["name"]] = best
        elif sts and sts[0]:
            status[(c["name"], "halide")] = sts[0]
    times = {name: statistics.median(v) for name, v in samples.items()}
    fastest = {name: min(v) for name, v in samples.items()}
    counts = {name: len(v) for name, v in samples.items()
              if not any(name.endswith("/" + s) for s in HALIDE_SCHEDULES)}

    roofs = {}
    for name, elements, _ in ROOF_LOOPS:
        nbytes = FOOTPRINT[name]
        # Each roof is measured per ISA ("roof/NAME@avx2", "roof/NAME@avx512"):
        # the machine's roof is the faster one.
        by_isa = {k.split("@", 1)[1]: ns for k, ns in times.items() if k.startswith("roof/%s@" % name)}
        if by_isa:
            isa = min(by_isa, key=by_isa.get)
            ns = by_isa[isa]
            roofs[name] = {"ns": ns, "el_ns": elements / ns, "gbps": nbytes / ns, "isa": isa}
    caches = cache_sizes(rdir)
    implausible = {lv for lv, (n, _) in caches.items() if n > PLAUSIBLE.get(lv, n)}
    usable = {lv: n for lv, (n, _) in caches.items() if lv not in implausible}
    # An L2 roof measured at a footprint the L2 cannot hold (the 1.5 MiB loop
    # where the L2 is 1 MiB) ran in the L3: it is no L2 roof there.
    for name in L2_ROOFS:
        if 2 in usable and FOOTPRINT[name] > usable[2]:
            roofs.pop(name, None)
    last_known = 0
    while last_known + 1 in usable:
        last_known += 1

    rows, csv_rows, notes = [], [], []
    note_ids = {}

    def note(text):
        if text not in note_ids:
            note_ids[text] = len(note_ids) + 1
            notes.append(text)
        return note_ids[text]

    speedups, dram_pcts, cache_pcts = [], [], []
    mismatch = False
    for c in cases:
        ws = c["a_bytes"] + c["b_bytes"] + c["out_bytes"]
        level = level_of(ws, usable, last_known)
        widest = max(SIZES[c["dtype"]], SIZES[c["out_dtype"]])
        res = {}
        for peer in ["bcastgen"] + PEERS:
            res[peer] = peer_entry(c["name"], peer, status, times, fastest, ws, c["out_numel"])
            mismatch = mismatch or res[peer]["status"] == "mismatch"
        bc = res["bcastgen"]
        ok_peers = [p for p in PEERS if res[p]["ns"] is not None]
        best = min(ok_peers, key=lambda p: res[p]["ns"]) if ok_peers else None
        speedup = res[best]["ns"] / bc["ns"] if best and bc["ns"] else None
        best_min = min(ok_peers, key=lambda p: res[p]["min_ns"]) if ok_peers else None
        speedup_min = res[best_min]["min_ns"] / bc["min_ns"] if best_min and bc["ns"] else None
        if speedup:
            speedups.append(speedup)
        roof_pct = level_pct = None
        roof_name = ""

        def level_roof_pct(e):
            return level_roof(level, e, roofs, widest, c["op"] == "broadcast", ws, c["out_bytes"])

        case_verdict = judge(res[best], bc, level_roof_pct) if speedup else "-"
        if verdict == "below":
            ledger.note_below(c["name"], speedup)
        ledger.judge_twin(c["name"], status, times, fastest, ws, c["out_numel"], bc, level_roof_pct)
        if bc["ns"] and level in ("?", "L3/DRAM?"):
            # The level is not known: no % roof (the summary says so); the
            # level roof column is against the L3 roof, the higher candidate.
            level_pct = level_roof_pct(bc)
        elif bc["ns"]:
            if level == "DRAM":
                roof_name = "dram_fill_stream" if c["op"] == "broadcast" else "dram_add_stream"
                if roof_name in roofs:
                    roof_pct = 100 * bc["gbps"] / roofs[roof_name]["gbps"]
                    dram_pcts.append(roof_pct)
                level_pct = roof_pct
            else:
                roof_name = "l1_add x%d" % (4 // widest) if widest < 4 else "l1_add"
                if "l1_add" in roofs:
                    roof_pct = 100 * bc["el_ns"] / (roofs["l1_add"]["el_ns"] * 4 / widest)
                    cache_pcts.append(roof_pct)
                if level == "L1":
                    level_pct = roof_pct
                else:
                    level_pct = level_roof_pct(bc)
        rows.append(dict(case=c, ws=ws, level=level, res=res, best=best, speedup=speedup, speedup_min=speedup_min,
                         roof_pct=roof_pct, verdict=case_verdict,
                         roof_name=roof_name, level_pct=level_pct))
        for peer in ["bcastgen"] + PEERS:
            e = res[peer]
            csv_rows.append({
                "case": c["label"], "kernel": c["name"], "op": c["op"], "dtype": c["dtype"],
                "a": "x".join(map(str, c["a"])), "b": "x".join(map(str, c["b"])),
                "out": "x".join(map(str, c["out"])), "working_set_bytes": ws, "level": level, "peer": peer,
                "status": e["status"], "ns_per_call": "%.1f" % e["ns"] if e["ns"] else "",
                "min_ns_per_call": "%.1f" % e["min_ns"] if e["ns"] else "",
                "gb_per_s": "%.2f" % e["gbps"] if e["ns"] else "",
                "elements_per_ns": "%.3f" % e["el_ns"] if e["ns"] else "",
                "speedup_vs_best_peer": "%.3f" % speedup if peer == "bcastgen" and speedup else "",
                "speedup_fastest_reps": "%.3f" % speedup_min if peer == "bcastgen" and speedup_min else "",
                "best_peer": best if peer == "bcastgen" and best else "",
                "verdict": verdict if peer == "bcastgen" else "",
                "roof": roof_name if peer == "bcastgen" else "",
                "pct_roof": "%.1f" % roof_pct if peer == "bcastgen" and roof_pct is not None else "",
                "pct_level_roof": "%.1f" % level_pct if peer == "bcastgen" and level_pct is not None else "",
                "reason": e["reason"], "note": e["note"]})
    for name, r in roofs.items():
        csv_rows.append({"case": "roof", "kernel": name, "peer": "roof", "status": "ok", "note": r["isa"],
                         "ns_per_call": "%.1f" % r["ns"], "gb_per_s": "%.2f" % r["gbps"],
                         "elements_per_ns": "%.3f" % r["el_ns"]})

    # Table 1: time per call.
    peers_all = ["bcastgen"] + PEERS
    out = []
    out.append("ns per call (median CPU time), and the speedup of bcastgen over the fastest peer:")
    out.append("")
    out.append("| # | case | " + " | ".join(PEER_TITLES[p] for p in peers_all) +
               " | best peer | speedup | verdict | speedup, fastest reps | level | % roof | % level roof |")
    out.append("|---|---|" + "---:|" * len(peers_all) + "---|---:|---|---:|---|---:|---:|")

    def cell(peer, e, key, fmt):
        if e["status"] == "mismatch":
            return "**MISMATCH** [%d]" % note("%s: %s" % (PEER_TITLES[peer], e["reason"]))
        if e["ns"] is None:
            return "n/a [%d]" % note("%s: %s" % (PEER_TITLES[peer], e["reason"]))
        return fmt(e[key])

    for r in rows:
        c = r["case"]
        title = "%s %s %s" % (c["op"], "x".join(map(str, c["a"])) or "[]",
                              ("to " if c["op"] == "broadcast" else "& ") + ("x".join(map(str, c["b"])) or "[]"))
        if c["dtype"] != "f32":
            title += " " + c["dtype"]
        cells = [cell(p, r["res"][p], "ns", fmt_ns) for p in peers_all]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c["label"], title, " | ".join(cells), PEER_TITLES.get(r["best"], "-"),
            "%.2fx" % r["speedup"] if r["speedup"] else "-", r["verdict"],
            "%.2fx" % r["speedup_min"] if r["speedup_min"] else "-", r["level"],
            "%.0f%%" % r["roof_pct"] if r["roof_pct"] is not None else "-",
            "%.0f%%" % r["level_pct"] if r["level_pct"] is not None else "-"))
    out.append("")
    out.append("Effective GB/s ((a + b + out bytes) / time):")
    out.append("")
    out.append("| # | working set | " + " | ".join(PEER_TITLES[p] for p in peers_all) + " |")
    out.append("|---|---:|" + "---:|" * len(peers_all))
    for r in rows:
        cells = [cell(p, r["res"][p], "gbps", lambda v: "%.1f" % v) for p in peers_all]
        out.append("| %s | %s | %s |" % (r["case"]["label"], fmt_bytes(r["ws"]), " | ".join(cells)))
    out.append("")
    out.append("Roofs (same run): " + ", ".join(
        "%s %.1f GB/s = %.2f el/ns (%s)" % (n, r["gbps"], r["el_ns"], r["isa"]) for n, r in roofs.items()))
    n = sorted(counts.values())
    out.append("Repetitions per (case, peer): %d to %d, pooled over %d rounds." % (n[0], n[-1], len(rounds)) if n else "")
    cache_text = ", ".join("L%d %s (%s%s)" % (k, fmt_bytes(n), src, "; implausible, not used for the level" if k in implausible else "")
                           for k, (n, src) in sorted(caches.items())) or "unknown"
    out.append("Caches per core: " + cache_text + ".")
    if implausible:
        out.append("Note: an L3 of %s is what this machine reports (a hypervisor's figure: the largest L3 one x86 "
                   "core complex has is 96 MiB); the level of a working set beyond L%d is shown as %s."
                   % (fmt_bytes(caches[3][0]) if 3 in caches else "?", last_known,
                      "L3/DRAM?" if last_known == 2 else "?"))
    elif last_known == 0:
        out.append("Note: the cache sizes are unknown (no sysfs, sysconf or CPUID data): every level is shown as ?, "
                   "no case can be a physical tie and the summary has no roof percentages.")
    elif last_known < 3:
        out.append("Note: the cache sizes beyond L%d are unknown (no sysfs, sysconf or CPUID data): the level of a "
                   "working set beyond it is shown as %s." % (last_known, "L3/DRAM?" if last_known == 2 else "?"))
    if notes:
        out.append("")
        for i, t in enumerate(notes, 1):
            out.append("[%d] %s" % (i, t))
    peer_notes = ["case %s %s: %s" % (r["case"]["label"], PEER_TITLES[p], r["res"][p]["note"])
                  for r in rows for p in ("xnnpack", "onednn", "torch")
                  if r["res"][p]["note"] and r["res"][p]["note"] != "impl jit:uni"]
    halide_notes = ["%s %s" % (r["case"]["label"], r["res"]["halide"]["note"].replace("schedule ", "s"))
                    for r in rows if r["res"]["halide"]["note"]]
    out.append("")
    out.append("Peer notes: oneDNN's implementation is jit:uni unless listed; " + "; ".join(peer_notes) + ".")
    if halide_notes:
        out.append("Halide: per case the faster of its two schedules (bench/halide/README.md): " +
                   "; ".join(halide_notes) + ".")

    def pct(values):
        # No case at that level (or its level unknown): say so, never nan.
        return "%.0f" % min(values) if values else "none"

    geo = geomean(speedups)
    below = sum(1 for r in rows if r["verdict"] == "below")
    ties = sum(1 for r in rows if r["verdict"] == "tie (roof)")
    unknown = sum(1 for r in rows if r["level"] in ("?", "L3/DRAM?"))
    summary = ("summary: cases=%d geomean_vs_best_peer=%s min_vs_best_peer=%s below_peer=%d ties_roof=%d "
               "dram_roof_pct=%s l1_roof_pct=%s" % (
                   len(cases), "%.2f" % geo if geo else "none", "%.2f" % min(speedups) if speedups else "none",
                   below, ties, pct(dram_pcts), pct(cache_pcts)))
    if unknown:
        summary += " level_unknown=%d" % unknown
    fused_summary = ""
    fused_verdicts = []
    if fused:
        f_lines, fused_summary, f_mismatch, fused_verdicts = fused_report(
            rdir, fused, status, times, fastest, roofs, usable, last_known, geo, ledger)
        out += [""] + f_lines
        mismatch = mismatch or f_mismatch
    text = "\n".join(out)
    aa = ledger.summary()
    verdicts = tally([r["verdict"] for r in rows if r["verdict"] != "-"] + fused_verdicts)
    with open(os.path.join(rdir, "table.md"), "w") as f:
        f.write(text + "\n\n" + summary + "\n" + (fused_summary + "\n" if fused_summary else "") +
                (aa + "\n" if aa else "") + verdicts + "\n")
    fields = ["case", "kernel", "op", "dtype", "a", "b", "out", "working_set_bytes", "level", "peer", "status",
              "ns_per_call", "min_ns_per_call", "gb_per_s", "elements_per_ns", "speedup_vs_best_peer",
              "speedup_fastest_reps", "best_peer", "verdict", "roof", "pct_roof",
              "pct_level_roof", "reason", "note"]
    with open(os.path.join(rdir, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in csv_rows:
            w.writerow(row)
    print(text)
    print()
    if mismatch:
        print("*** MISMATCH: at least one peer's output differs from the expected output (see the tables) ***")
    print(summary)
    if fused_summary:
        print(fused_summary)
    if aa:
        print(aa)
    print(verdicts)
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
