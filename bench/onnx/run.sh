#!/usr/bin/env bash
# The elementwise work of the shared ONNX models (../shared/onnx-models) and
# of the exports in tests/onnx/models (BENCH_ONNX_LIGHT_ONLY=1: the former):
# each fused group of `bcastgen onnx` timed as its own small model in ONNX
# Runtime 1.30 (which applies its own fusions) and as bcastgen's kernel,
# with totals per model (bench/onnx/report.py; README "Benchmarks").
#
#   bash bench/onnx/run.sh [BUILD_DIR]        (default: build-bench)
#
# BENCH_ONNX_ROUNDS (default 3) alternates the two sides, each round one
# process per side; medians are pooled over the rounds. Work files and raw
# results: BUILD_DIR/bench-onnx/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
work=$build/bench-onnx
rounds=${BENCH_ONNX_ROUNDS:-3}
# The shared light CNNs, then the exports of tests/onnx/models with their
# input shapes (PATH@NAME=DIMS, as tests/CMakeLists.txt gives them).
exports=$root/tests/onnx/models
specs=("$root/../shared/onnx-models/light_resnet50.onnx" "$root/../shared/onnx-models/light_squeezenet.onnx"
       "$root/../shared/onnx-models/light_shufflenet.onnx" "$root/../shared/onnx-models/light_densenet121.onnx")
if [ -z "${BENCH_ONNX_LIGHT_ONLY:-}" ]; then
  for m in bert_layer_opset13 bert_layer_opset17 gpt2_block_opset13 gpt2_block_opset17 llama_block_opset13 llama_block_opset17; do
    specs+=("$exports/$m.onnx@x=2,16,64")
  done
  specs+=("$exports/small_cnn_opset13.onnx@x=2,3,32,32" "$exports/small_cnn_opset17.onnx@x=2,3,32,32"
          "$exports/paddle_neck.onnx@x=2,64,1,40" "$exports/paddle_hardswish.onnx@x=2,3,16,16")
fi
models=()
for spec in "${specs[@]}"; do models+=("$(basename "${spec%@*}" .onnx)"); done
start=$(date +%s)

bash "$root/bench/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBCASTGEN_BUILD_BENCH=ON -DBCASTGEN_BUILD_TESTS=OFF -DBCASTGEN_WITH_CLANG=OFF >/dev/null
ninja -C "$build" -j2 bcastgen

rm -rf "$work" && mkdir -p "$work/gen"
pairs=()
{
  echo "// Written by bench/onnx/run.sh."
  echo "#pragma once"
  echo "#include <utility>"
  for spec in "${specs[@]}"; do
    path=${spec%@*} m=$(basename "${spec%@*}" .onnx) shape=()
    [ "$spec" != "$path" ] && shape=(--input-shape "${spec#*@}")
    "$build/generator/bcastgen" onnx "$path" -o "$work/gen" --shards 1 "${shape[@]}" >/dev/null 2>&1
    pairs+=("$path:$work/gen/$m.onnx-map.json")
    echo "#include \"$m.h\""
  done
  echo "inline constexpr std::pair<const char*, bcastgen::KernelTable (*)()> kTables[] = {"
  for m in "${models[@]}"; do echo "    {\"$m\", &$m::${m}_kernels},"; done
  echo "};"
} >"$work/gen/tables.h"

# The generated code as a user builds it (each model's file compiled once).
compile_start=$(date +%s)
objs=()
for m in "${models[@]}" time_kernels; do
  src=$work/gen/$m.cpp
  [ "$m" = time_kernels ] && src=$root/bench/onnx/time_kernels.cpp
  g++ -std=c++17 -O2 -I "$work/gen" -I "$root/runtime/include" -c "$src" -o "$work/$m.o" &
  objs+=("$work/$m.o")
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
done
wait
g++ -o "$work/time_kernels" "${objs[@]}"
echo "bench/onnx: generated code compiled in $(( $(date +%s) - compile_start )) s (-j2, g++ -O2)"

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
