#!/usr/bin/python3
"""The per-model table of bench/onnx/run.sh: each fused group's time in ONNX
Runtime (the group as its own model) and in bcastgen (its kernel), their
ratio and bcastgen's verdict (bench/verdict.py, against the copy roof of the
group's traffic: the time memcpy takes to move as many bytes), and
bcastgen's share of that roof; then each model's totals.

    report.py WORK_DIR   (groups/groups.tsv, bcastgen_r*.tsv, ort_r*.jsonl)"""
import glob
import json
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from verdict import tally, verdict_at_roof  # noqa: E402


def pooled(pattern, key_cols, value_col):
    vals = defaultdict(list)
    for path in sorted(glob.glob(pattern)):
        for line in open(path):
            f = line.rstrip('\n').split('\t')
            vals[tuple(f[c] for c in key_cols)].append(float(f[value_col]))
    return {k: statistics.median(v) for k, v in vals.items()}


def main():
    work = sys.argv[1]
    groups = [l.rstrip('\n').split('\t') for l in open(os.path.join(work, 'groups', 'groups.tsv'))]
    ours = pooled(os.path.join(work, 'bcastgen_r*.tsv'), (0, 1), 2)
    roof = pooled(os.path.join(work, 'bcastgen_r*.tsv'), (0, 1), 3)
    ort_runs = defaultdict(list)  # per group: each round's median (bench/ort/ort_cases.js lines)
    for path in sorted(glob.glob(os.path.join(work, 'ort_r*.jsonl'))):
        for line in open(path):
            r = json.loads(line)
            if 'error' in r:
                sys.exit('ONNX Runtime could not run %s: %s' % (r['case'], r['error']))
            ort_runs[(r['case'],)].append(statistics.median(r['samples_ns']))
    ort = {k: statistics.median(v) for k, v in ort_runs.items()}
    by_model = defaultdict(list)
    for g in groups:
        by_model[g[0]].append(g)
    below, summary, verdicts = [], [], []
    for model, rows in by_model.items():
        print('\n### %s: %d fused groups, %d distinct kernels\n' % (model, len(rows), len({r[2] for r in rows})))
        print('| group | kernel | nodes | elements | traffic MB | ONNX Runtime µs | bcastgen µs | vs ORT | verdict '
              '| bcastgen % of copy roof |')
        print('|---|---|---|---:|---:|---:|---:|---:|---|---:|')
        tot_o = tot_b = tot_r = 0.0
        for stem, gi, kernel, ops, numel, nbytes, name in rows:
            o, b, r = ort[(name,)], ours[(stem, kernel)], roof[(stem, kernel)]
            tot_o, tot_b, tot_r = tot_o + o, tot_b + b, tot_r + r
            ratio = o / b
            v = verdict_at_roof(b, o, r)
            verdicts.append(v)
            if v == 'below':
                below.append('%s g%s (%s) %.2fx' % (stem, gi, ops, ratio))
            print('| g%s | %s | %s | %s | %.2f | %.1f | %.1f | %.2fx | %s | %.0f%% |' % (
                gi, kernel, ops, numel, int(nbytes) / 1e6, o / 1e3, b / 1e3, ratio, v, 100 * r / b))
        print('| **total** | | | | | **%.0f** | **%.0f** | **%.2fx** | | %.0f%% |' % (
            tot_o / 1e3, tot_b / 1e3, tot_o / tot_b, 100 * tot_r / tot_b))
        summary.append('%s %.2fx' % (model, tot_o / tot_b))
    print('\nsummary: totals vs ONNX Runtime: %s; groups below ONNX Runtime (bench/verdict.py): %s' % (
        ', '.join(summary), ', '.join(below) if below else 'none'))
    print(tally(verdicts))


if __name__ == '__main__':
    main()
