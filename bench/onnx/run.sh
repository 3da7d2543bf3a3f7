#!/usr/bin/env bash
# The elementwise work of the shared ONNX models (../shared/onnx-models) and
# of the exports in tests/onnx/models (BENCH_ONNX_LIGHT_ONLY=1 when
# bench/run.sh configures: the former): each fused group of `bcastgen onnx`
# timed as its own small model in ONNX Runtime 1.30 (which applies its own
# fusions) and as bcastgen's kernel (time_kernels, built with every model's
# generated file by bench/onnx/CMakeLists.txt), with totals per model
# (bench/onnx/report.py; docs/benchmarks.md).
#
#   bash bench/run.sh --kind onnx [BUILD_DIR]   (the way to run it: installs and configures)
#   bash bench/onnx/run.sh BUILD_DIR            (BUILD_DIR configured so already)
#
# BENCH_ONNX_ROUNDS (default 3) alternates the two sides, each round one
# process per side; medians are pooled over the rounds. Work files and raw
# results: BUILD_DIR/bench/onnx/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
work=$build/bench/onnx
rounds=${BENCH_ONNX_ROUNDS:-3}
start=$(date +%s)
# The generated code as a user builds it: each model's file compiled once, -j2, g++ -O2.
ninja -C "$build" -j2 bench_onnx >/dev/null
echo "bench/onnx: generated and built in $(( $(date +%s) - start )) s"

rm -rf "$work/groups" "$work"/bcastgen_r*.tsv "$work"/ort_r*.jsonl
mapfile -t pairs <"$work/models.txt"
/usr/bin/python3 "$root/bench/onnx/make_group_models.py" "$work/groups" "${pairs[@]}"
export OMP_NUM_THREADS=1
for r in $(seq 1 "$rounds"); do
  "$work/time_kernels" 51 >"$work/bcastgen_r$r.tsv"
  NODE_PATH="$root/bench/ort/node_modules" node "$root/bench/ort/ort_cases.js" "$work/groups/cases.json" 21 \
    >"$work/ort_r$r.jsonl"
  echo "bench/onnx: round $r/$rounds done at $(( $(date +%s) - start )) s"
done
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); bcastgen variant: $(cut -f6 "$work/bcastgen_r1.tsv" | sort -u)"
/usr/bin/python3 "$root/bench/onnx/report.py" "$work"
