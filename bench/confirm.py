#!/usr/bin/python3
"""Times each "below" verdict of a run again, against its peer, turn about.

    /usr/bin/python3 bench/confirm.py list RESULTS_DIR
    /usr/bin/python3 bench/confirm.py summary RESULTS_DIR

The run's verdicts compare medians of repetitions taken one peer after the
other, and on a shared host a whole stretch of them moves by 5% to 10%
(BENCH_AA's twin: the same kernel timed twice read 0.90x to 1.08x of itself
in one run). `bcastgen_bench --versus=bcastgen,PEER,CASE` times the two loops
in 41 alternating rounds on the same buffers (bench/alternate.h), so that the
drift hits both sides of each round: the median of the rounds' ratios is the
steadier measure of which loop is faster. One such run still moved by 0.96x
to 1.05x from run to run on a 32 MiB case, so run.sh makes three and the
verdict takes the median of their medians. run.sh does, after report.py:

- `list`: prints "KERNEL PEER" for every case (results.csv) and fused case
  (fused.csv) whose verdict is "below" a peer that runs in the bench's own
  process (Halide by its faster schedule, halide_s0 or halide_s1). NumPy and
  ONNX Runtime run in processes of their own and cannot be alternated with.
- `summary`: reads versus.txt (the --versus lines, "KERNEL PEER" before
  each case's) and prints the `confirmed:` line, appended to table.md: each such
  case judged again with the median of the runs' medians, by report.py's
  judge (bcastgen's % of the level roof from the run, the peer's that over
  the ratio). Cases below a peer that cannot alternate keep their verdict.
"""
import csv
import os
import statistics
import sys

import report  # bench/report.py, beside this file

IN_PROCESS = {"xnnpack", "onednn", "eigen", "fallback", "halide", "torch"}


def below_rows(rdir):
    """(label, kernel, peer, bcastgen's % of level roof, fused) of every "below"
    verdict, with the peer as bcastgen_bench names it."""
    rows = []
    for name, peer_col in (("results.csv", "best_peer"), ("fused.csv", "fastest_fusing_peer")):
        path = os.path.join(rdir, name)
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            table = list(csv.DictReader(f))
        for r in table:
            if r["peer"] != "bcastgen" or r["verdict"] != "below":
                continue
            peer = r[peer_col]
            if peer == "halide":  # the schedule report.py showed, from the peer's note
                note = next(p["note"] or p["reason"] for p in table if p["case"] == r["case"] and p["peer"] == "halide")
                peer = "halide_s" + note.split()[1]
            pct = float(r["pct_level_roof"]) if r["pct_level_roof"] else None
            rows.append((r["case"], r["kernel"], peer, pct, name == "fused.csv"))
    return rows


def base_peer(peer):
    return "halide" if peer in ("halide_s0", "halide_s1") else peer


def judge(ratio, pct):
    """report.judge on one alternation: bcastgen's time 1, the peer's the
    ratio (peer time / bcastgen's), each's % of the roof inverse to its time."""
    return report.judge({"ns": ratio}, {"ns": 1.0}, lambda e: None if pct is None else pct / e["ns"])


def summary(rdir):
    timed = {}  # (kernel, peer) -> each run's median ratio
    path = os.path.join(rdir, "versus.txt")
    key = None
    if os.path.exists(path):
        for line in open(path):
            words = line.split()
            if len(words) == 2:
                key = tuple(words)
            elif key and len(words) == 6 and words[0] == key[0]:
                timed.setdefault(key, []).append(float(words[3]))
    below = {False: 0, True: 0}  # single-op, fused
    parts, kept = [], []
    for label, kernel, peer, pct, fused in below_rows(rdir):
        if base_peer(peer) not in IN_PROCESS or (kernel, peer) not in timed:
            below[fused] += 1
            kept.append("%s %s" % (label, peer))
            continue
        runs = timed[(kernel, peer)]
        ratio = statistics.median(runs)
        verdict = judge(ratio, pct)
        below[fused] += verdict == "below"
        parts.append("%s %s %.3f (%s) %s" % (label, peer, ratio, " ".join("%.3f" % r for r in runs), verdict))
    # As many runs as bench/run.sh made of each pair (one line each in versus.txt).
    counts = "/".join(str(n) for n in sorted({len(runs) for runs in timed.values()})) or "no"
    return ("confirmed: below_peer=%d fused_below_peer=%d (each case below a peer in the medians, timed again against "
            "it in %s runs of 41 alternating rounds, the median of the runs' median ratios, peer time / bcastgen's (each "
            "run's): %s; not alternated, kept: %s)" % (
                below[False], below[True], counts, "; ".join(parts) or "none", ", ".join(kept) or "none"))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("list", "summary"):
        sys.stderr.write(__doc__)
        return 2
    rdir = sys.argv[2]
    if sys.argv[1] == "list":
        for label, kernel, peer, pct, fused in below_rows(rdir):
            if base_peer(peer) in IN_PROCESS:
                print(kernel, peer)
        return 0
    line = summary(rdir)
    print(line)
    with open(os.path.join(rdir, "table.md"), "a") as f:
        f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
