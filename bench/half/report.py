"""The table of bench/half from half_bench's and numpy_half.py's lines:
per case and element type, each peer's median in microseconds, bcastgen's
ratio to the fastest peer (above 1: bcastgen is faster) and verdict
(bench/verdict.py; no roof is measured here, so never a tie), and the 16-bit
kernel's time over bcastgen's own f32 kernel of the same shapes.

    /usr/bin/python3 bench/half/report.py results.tsv
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from verdict import tally, verdict  # noqa: E402

PEERS = ["bcastgen", "pytorch", "onednn", "eigen", "halide", "numpy", "onnxruntime"]
rows = defaultdict(dict)
bad = defaultdict(dict)
why = {}  # (case, dtype, peer) -> why the peer has no kernel for it (half_bench's last column)
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "case" or len(f) < 4:
        continue
    key = (f[0], f[1])
    if key not in order:
        order.append(key)
    rows[key][f[2]] = None if f[3] == "n/a" else float(f[3])
    if f[3] == "n/a" and len(f) > 6 and f[6]:
        why[(f[0], f[1], f[2])] = f[6]
    if len(f) > 4 and f[4] not in ("", "0"):
        bad[key][f[2]] = f[4]

notes = []  # distinct reasons, numbered in the table
verdicts = []
print("| case | dtype | " + " | ".join(PEERS) + " | vs fastest peer | verdict | of own f32 |")
print("|---|---|" + "---|" * (len(PEERS) + 3))
for key in order:
    r = rows[key]
    cells = []
    for p in PEERS:
        v = r.get(p)
        cell = "n/a" if v is None else "%.1f" % (v / 1000)
        reason = why.get((key[0], key[1], p))
        if v is None and reason:
            if reason not in notes:
                notes.append(reason)
            cell += " [%d]" % (notes.index(reason) + 1)
        if p in bad[key]:
            cell += " (%s differ)" % bad[key][p]
        cells.append(cell)
    peers = [r[p] for p in PEERS[1:] if r.get(p)]
    ours = r.get("bcastgen")
    vs = "%.2fx" % (min(peers) / ours) if peers and ours else ""
    v = verdict(ours, min(peers)) if peers and ours else ""
    if v:
        verdicts.append(v)
    f32 = rows.get((key[0], "f32"), {}).get("bcastgen")
    own = "%.2f" % (ours / f32) if f32 and ours and key[1] != "f32" else ""
    print("| %s | %s | %s | %s | %s | %s |" % (key[0], key[1], " | ".join(cells), vs, v, own))
if notes:
    print()
    for k, reason in enumerate(notes, 1):
        print("[%d] %s" % (k, reason))
print()
print(tally(verdicts))
