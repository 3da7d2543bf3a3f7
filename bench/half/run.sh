#!/usr/bin/env bash
# The 16-bit float benchmark (issue 22): bcastgen's f16 and bf16 kernels
# (cases.yaml) and its f32 kernels of the same shapes, against PyTorch,
# oneDNN, Eigen and Halide (half_bench.cpp), NumPy's float16 (numpy_half.py)
# and ONNX Runtime (ort_half.py through bench/ort, its profiler's kernel times),
# one thread, medians of BENCH_REPETITIONS (default 11) rounds that time every peer in turn. Prints the table
# (report.py); the raw lines are in BUILD_DIR/bench/half/results.tsv. half_bench
# and its Halide pipelines are built by bench/half/CMakeLists.txt.
#
#   bash bench/run.sh --kind half [BUILD_DIR]   (the way to run it: installs and configures)
#   bash bench/half/run.sh BUILD_DIR            (BUILD_DIR configured so already)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-bench}
ninja -C "$build" -j2 bench_half >/dev/null
work=$build/bench/half
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
"$work/half_bench" >"$work/results.tsv"
/usr/bin/python3 "$here/numpy_half.py" >>"$work/results.tsv"
# ONNX Runtime (bench/install-deps.sh installs it): f32 and f16.
/usr/bin/python3 "$here/ort_half.py" "$work/onnx" "${BENCH_REPETITIONS:-11}" >>"$work/results.tsv"
/usr/bin/python3 "$here/report.py" "$work/results.tsv"
