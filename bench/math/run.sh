#!/usr/bin/env bash
# Throughput of the vectorized math functions (and of the fast tier,
# `accuracy: fast`, where a function has one) against SLEEF u10, PyTorch,
# oneDNN, Eigen, XNNPACK and Halide (math_bench.cpp, built by
# bench/math/CMakeLists.txt: y = f(x) over [4096] and [8,128,3072], and the
# fused cases, also on every core and over 100 MB of buffers), then ONNX
# Runtime (ort_math.py) and NumPy (numpy_math.py). Medians of
# BENCH_REPETITIONS (default 11) runs.
#
#   bash bench/run.sh --kind math [BUILD_DIR] [BENCHMARK_ARGS...]   (the way to run it: installs and configures)
#   bash bench/math/run.sh BUILD_DIR [BENCHMARK_ARGS...]            (BUILD_DIR configured so already)
#   BENCH_MATH_PEERS=native ...                                      (math_bench only)
#   bash bench/math/run.sh BUILD_DIR --accuracy                      (max ulp of every loop, ONNX Runtime and NumPy too)
#   bash bench/math/run.sh BUILD_DIR --versus A B [FILTER]           (two loops alternating, e.g. BcastgenFast Halide bias)
#
# The kernels are planned for the CPU kind the build was configured with
# (bench/run.sh's BENCH_CPU, default this machine's).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
ninja -C "$build" -j2 bench_math >/dev/null
work=$build/bench/math
"$build/generator/bcastgen" explain 1 1 --cpu "${BENCH_CPU:-native}" |
  sed -n 's/^cpu *\([a-z0-9-]*\) (\(.*\)): unroll .*/planned for cpu kind: \1 (\2)/p'
export OMP_NUM_THREADS=1
ort=(/usr/bin/python3 "$root/bench/math/ort_math.py" "$work/onnx")
if [ "${2:-}" = --accuracy ]; then
  mkdir -p "$work/peer-outputs"
  "${ort[@]}" --dump "$work/peer-outputs"
  /usr/bin/python3 "$root/bench/math/numpy_math.py" --dump "$work/peer-outputs"
  exec "$work/math_bench" --accuracy "$work/peer-outputs"
fi
[ "${2:-}" = --versus ] && exec "$work/math_bench" "${@:2}"
# Each benchmark warms up first: the run's first one (exp in cache) measured
# 0.68 ns per element cold on Zen 3, 0.42 alone.
"$work/math_bench" --benchmark_repetitions="${BENCH_REPETITIONS:-11}" --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.05 --benchmark_min_warmup_time=0.02 "${@:2}" 2>&1 | grep -E 'median|Run on|CPU|^threads of'
[ "${BENCH_MATH_PEERS:-all}" = native ] && exit 0
# ONNX Runtime (ort_math.py, through bench/ort's driver) and NumPy, each in
# its own process; one thread each.
"${ort[@]}" "${BENCH_REPETITIONS:-11}"
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$root/bench/math/numpy_math.py" "${BENCH_REPETITIONS:-11}"
