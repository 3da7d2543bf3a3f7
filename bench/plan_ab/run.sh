#!/usr/bin/env bash
# The measurement behind a CPU-kind row's facts (cpu_kinds.h, docs/design/planner.md "Plans
# per CPU kind"): every kernel of the benchmark's specs planned for two CPU
# kinds, both in one binary on this machine, timed in alternating blocks of
# back-to-back calls.
#
#   bash bench/plan_ab/run.sh [BCASTGEN] [KIND_A] [KIND_B] [SPEC...]
#   (defaults: build/generator/bcastgen, generic, native,
#    bench/cases.yaml bench/fused_cases.yaml)
#
# PLAN_AB_WISDOM_B=W.json plans side B with that wisdom file as well (one
# spec then, the one `bcastgen tune` wrote it for): whether what tune
# measured holds in the benchmark's own buffers (bench/buffers.h).
#
# Per kernel it prints the median ns per call of each plan, B / A's time
# (median of the passes, and each pass's) and whether the two plans differ
# at all (identical plans are timed anyway: their ratios show the noise).
# Outputs are compared bit for bit first; a mismatch makes it exit 1.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bcastgen=${1:-$root/build/generator/bcastgen}
kind_a=${2:-generic}
kind_b=${3:-native}
shift $(( $# < 3 ? $# : 3 ))
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=("$root/bench/cases.yaml" "$root/bench/fused_cases.yaml")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=()
for spec in "${specs[@]}"; do
  stem=$(basename "${spec%.*}")
  for side in a b; do
    kind=$kind_a; [ $side = b ] && kind=$kind_b
    wisdom=(); [ $side = b ] && [ -n "${PLAN_AB_WISDOM_B:-}" ] && wisdom=(--wisdom "$PLAN_AB_WISDOM_B")
    mkdir -p "$work/$side"
    "$bcastgen" generate "$spec" -o "$work/$side" --shards 1 --cpu "$kind" --namespace "plan_${side}_${stem}" "${wisdom[@]}" \
      >"$work/generate.log" 2>&1 || { cat "$work/generate.log"; exit 2; }
    sources+=("$work/$side/$stem.cpp")
  done
done
/usr/bin/python3 "$root/bench/plan_ab/make_driver.py" "$work" "${specs[@]}" > "$work/driver.cpp"
g++ -O2 -std=c++17 -I "$work" -I "$root/runtime/include" -I "$root/bench" "$work/driver.cpp" "${sources[@]}" \
  -o "$work/driver"
echo "plan A: --cpu $kind_a, plan B: --cpu $kind_b${PLAN_AB_WISDOM_B:+ --wisdom $PLAN_AB_WISDOM_B} ($("$bcastgen" explain 1 1 --cpu "$kind_b" | sed -n 's/^cpu *\([a-z0-9-]*\).*/\1/p')); $(grep -m1 '^vendor_id' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') family $(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
# Passes of the whole driver (PLAN_AB_PASSES, default 3): this VM's L3 and
# DRAM drift by several per cent within minutes, so a fact is taken from
# ratios that agree across passes, not from one.
passes=${PLAN_AB_PASSES:-3}
status=0
for p in $(seq 1 "$passes"); do
  "$work/driver" > "$work/pass$p.txt" || status=1
  grep MISMATCH "$work/pass$p.txt" || true
done
/usr/bin/python3 - "$work" "$passes" <<'PY'
import statistics, sys
work, passes = sys.argv[1], int(sys.argv[2])
rows = {}
for p in range(1, passes + 1):
    for line in open(f"{work}/pass{p}.txt"):
        f = line.split()
        if len(f) == 5 and f[0] != "kernel":
            rows.setdefault(f[0], []).append((float(f[1]), float(f[2]), float(f[3]), f[4]))
print("%-22s %12s %12s %8s  %-24s %s" % ("kernel", "A ns", "B ns", "B/A", "B/A per pass", "plans"))
for name, r in rows.items():
    print("%-22s %12.0f %12.0f %8.3f  %-24s %s" % (
        name, statistics.median(x[0] for x in r), statistics.median(x[1] for x in r),
        statistics.median(x[2] for x in r), " ".join("%.3f" % x[2] for x in r), r[0][3]))
PY
exit $status
