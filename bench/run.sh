#!/usr/bin/env bash
# Builds and runs the bcastgen benchmark against its peers, prints the table
# and ends with the summary line. See docs/benchmarks.md.
#
#   bash bench/run.sh [BUILD_DIR]        (default: build-bench)
#   bash bench/run.sh --kind KIND [BUILD_DIR] [ARGS...]   (BUILD_DIR: an existing directory or a path with a /)
#
# --kind runs one kind of benchmark instead, with the same dependencies and
# build (docs/benchmarks.md): all (every kind with a table, then their one
# report, BUILD_DIR/bench/results/report.md), single (the default: single
# ops and fused expressions, then transpose and rows, as above), math
# (bench/math/run.sh),
# half (bench/half/run.sh), onnx (bench/onnx/run.sh), rows
# (bench/rows/rows_bench.py), transpose (bench/transpose/transpose_bench.py),
# ulp (bench/ulp/run.sh: every f32 input of the math functions) or scale
# (bench/scale/run.sh); or one of the studies behind the planner's facts
# (docs/design/planner.md): plan_ab (two CPU kinds' plans of every kernel,
# bench/plan_ab/run.sh), stream_threshold (bench/stream_threshold/run.sh)
# or loop_straddle (bench/loop_straddle/run.sh). ARGS go to that command.
#
# Environment: BENCH_CPU (default native: the CPU kind bcastgen plans the
# kernels for, cpu_kinds.h), BENCH_REPETITIONS (default 24), BENCH_ROUNDS (default 3),
# BENCH_MIN_TIME (seconds per repetition, default 0.03), BENCH_FILTER (a Google Benchmark regex over
# CASE/PEER names; the table then shows only what ran; one that matches none
# exits 2 before the run); BENCH_SYSFS_ROOT (default /sys: where the
# cache sizes are read first; an empty directory tests the fallbacks) and
# BENCH_SKIP_SYSCONF=1 (skips the sysconf fallback, to test CPUID's);
# BENCH_TUNE=1 (plans each kernel as `bcastgen tune` measures it here);
# BENCH_AA=1 (times bcastgen's kernels a second time as a peer: the a/a line
# says how often a verdict of a kernel against itself is not a tie);
# BENCH_CONFIRM=0 (skips timing each "below" again against its peer in
# alternating rounds, the `confirmed:` line; bench/confirm.py).
# Results go to BUILD_DIR/bench/results/.
# Installs its own dependencies first (bench/install-deps.sh: the build's,
# plus XNNPACK, oneDNN, Eigen, Halide, libtorch, NumPy, Google Benchmark).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_kind=single
if [ "${1:-}" = --kind ]; then
  bench_kind=${2:?--kind needs a kind}
  shift 2
fi
kinds=(all single math half onnx rows transpose ulp scale plan_ab stream_threshold loop_straddle)
if [[ " ${kinds[*]} " != *" $bench_kind "* ]]; then
  echo "bench: unknown kind '$bench_kind' (${kinds[*]})" >&2
  exit 2
fi
# BUILD_DIR is the first argument where it is one: always for the single
# kind, which takes no other; for the others only an existing directory or a
# path with a slash, since a kind's arguments may be names (--kind ulp exp).
build=$root/build-bench
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ] &&
   { [ "$bench_kind" = single ] || [ -d "$1" ] || [ "${1#*/}" != "$1" ]; }; then
  build=$1
  shift
fi
build=$(mkdir -p "$build" && cd "$build" && pwd)
reps=${BENCH_REPETITIONS:-24}
min_time=${BENCH_MIN_TIME:-0.03}
results=$build/bench/results
start=$(date +%s)

bash "$root/bench/install-deps.sh"

# all: every kind with a table, one after another in this build, then the one
# report of them all, BUILD_DIR/bench/results/report.md (bench/report_all.py).
if [ "$bench_kind" = all ]; then
  mkdir -p "$results"
  status=0
  bash "$root/bench/run.sh" --kind single "$build" || status=1
  bash "$root/bench/run.sh" --kind math "$build" >"$results/math-speed.txt" 2>&1 || status=1
  bash "$root/bench/run.sh" --kind math "$build" --accuracy >"$results/math-accuracy.txt" 2>&1 || status=1
  for k in half onnx; do
    bash "$root/bench/run.sh" --kind "$k" "$build" >"$results/$k.txt" 2>&1 || status=1
  done
  /usr/bin/python3 "$root/bench/report_all.py" "$results" >"$results/report.md" || status=1
  grep -A8 '^| kind | verdicts' "$results/report.md"
  echo "bench: the report of every kind in $results/report.md; total $(( $(date +%s) - start )) s"
  exit $status
fi

# Only `bcastgen generate` (and `tune`) is needed: no tests, no libTooling-based commands.
configure() {
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBCASTGEN_BUILD_BENCH=ON -DBCASTGEN_BUILD_TESTS=OFF -DBCASTGEN_WITH_CLANG=OFF \
    -DBCASTGEN_BENCH_CPU="${BENCH_CPU:-native}" -DBCASTGEN_BENCH_WISDOM_DIR="$1" \
    -DBCASTGEN_BENCH_ONNX_LIGHT_ONLY="$([ -n "${BENCH_ONNX_LIGHT_ONLY:-}" ] && echo ON || echo OFF)" >/dev/null
}
# BENCH_TUNE=1: each spec's kernels planned per kernel as `bcastgen tune`
# measures them on this machine (docs/design/planner.md, "Plans per CPU kind"), else as the
# CPU kind's row says.
wisdom_dir=""
if [ "${BENCH_TUNE:-0}" = 1 ]; then
  configure ""
  ninja -C "$build" -j2 bcastgen
  wisdom_dir=$build/bench/wisdom
  mkdir -p "$wisdom_dir"
  for spec in cases fused_cases fused_chain; do
    "$build/generator/bcastgen" tune "$root/bench/$spec.yaml" -o "$wisdom_dir/$spec.json" --cpu "${BENCH_CPU:-native}" \
      > "$wisdom_dir/$spec.txt"
  done
  echo "bench: tuned in $(( $(date +%s) - start )) s (wisdom files in $wisdom_dir)"
fi
configure "$wisdom_dir"
if [ "$bench_kind" != single ]; then
  # Each kind's programs are built by its CMakeLists.txt (target bench_KIND);
  # transpose needs only bcastgen (`bcastgen run`), plan_ab and scale compile
  # what they are given or measure.
  case $bench_kind in
    transpose | plan_ab | scale) ninja -C "$build" -j2 bcastgen ;;
    *) ninja -C "$build" -j2 bcastgen "bench_$bench_kind" ;;
  esac
  echo "bench: built in $(( $(date +%s) - start )) s; kind $bench_kind"
  bcastgen=$build/generator/bcastgen
  case $bench_kind in
    math | half | onnx | scale | stream_threshold | loop_straddle) exec bash "$root/bench/$bench_kind/run.sh" "$build" "$@" ;;
    rows | transpose) exec /usr/bin/python3 "$root/bench/$bench_kind/${bench_kind}_bench.py" --bcastgen "$bcastgen" "$@" ;;
    ulp) exec bash "$root/bench/ulp/run.sh" "$build" -- "$@" ;;
    plan_ab) exec bash "$root/bench/plan_ab/run.sh" "$bcastgen" "$@" ;;
  esac
fi
ninja -C "$build" -j2 bcastgen_bench bench_rows
echo "bench: built in $(( $(date +%s) - start )) s"

# A filter that matches no benchmark would leave nothing to report: say so
# before any round (exit 2), with how the names are made.
if [ -n "${BENCH_FILTER:-}" ] &&
   [ -z "$("$build/bench/bcastgen_bench" --benchmark_list_tests=true --benchmark_filter="$BENCH_FILTER" 2>/dev/null)" ]; then
  echo "bench: BENCH_FILTER='$BENCH_FILTER' matches no benchmark: the names are CASE/PEER, e.g." \
       "f1_bn_relu/bcastgen or c05_attn_mask/halide_s0 (all of them: $build/bench/bcastgen_bench --benchmark_list_tests=true)" >&2
  exit 2
fi

mkdir -p "$results"
rm -rf "$results/ort"
rm -f "$results"/*.json "$results"/results.csv "$results"/fused.csv "$results"/table.md

# One thread everywhere: oneDNN's OpenMP, and any BLAS NumPy might touch.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

status=0
# The C++ peers run in this process, NumPy in its own: so that both see the
# same machine conditions (this VM's load drifts), the run alternates between
# them in $rounds rounds of $reps/$rounds repetitions each; report.py pools
# the repetitions of all rounds and takes medians.
rounds=${BENCH_ROUNDS:-3}
per_round=$(( (reps + rounds - 1) / rounds ))
for r in $(seq 1 "$rounds"); do
  # Correctness first, in the same process before any timing: each peer
  # against bcastgen, printed per (case, peer); a mismatch is reported loudly
  # and makes this script exit 1 after the table.
  "$build/bench/bcastgen_bench" \
    --cases-json="$results/cases.json" --fused-json="$results/fused.json" --status-json="$results/status.json" \
    --caches-json="$results/caches.json" \
    --benchmark_repetitions="$per_round" --benchmark_min_time="$min_time" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_filter="${BENCH_FILTER:-.}" \
    --benchmark_out="$results/cpp_r$r.json" --benchmark_out_format=json \
    >"$results/cpp_r$r.txt" 2>"$results/cpp_r$r.err" || status=1
  if [ "$r" = 1 ]; then grep -E '^check|MISMATCH' "$results/cpp_r$r.err" || true; fi
  grep -q MISMATCH "$results/cpp_r$r.err" && status=1
  echo "bench: round $r/$rounds: C++ peers done at $(( $(date +%s) - start )) s"
  /usr/bin/python3 "$root/bench/numpy_bench.py" "$results/cases.json" "$results/numpy_r$r.json" --fused "$results/fused.json" \
    --repeat "$per_round" --min-time "$min_time" 2>"$results/numpy_r$r.err" || status=1
  if [ "$r" = 1 ]; then cat "$results/numpy_r$r.err"; fi
  echo "bench: round $r/$rounds: NumPy done at $(( $(date +%s) - start )) s"
  /usr/bin/python3 "$root/bench/ort/ort_bench.py" "$results/cases.json" "$results/ort_r$r.json" --fused "$results/fused.json" \
    --runs $(( per_round * 3 )) --work "$results/ort" 2>"$results/ort_r$r.err" || status=1
  if [ "$r" = 1 ]; then grep -E '^check|MISMATCH' "$results/ort_r$r.err" || true; fi
  echo "bench: round $r/$rounds: ONNX Runtime done at $(( $(date +%s) - start )) s"
done

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(getconf _NPROCESSORS_ONLN) cpus," \
       "flags: $(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'avx2|fma|bmi2|avx512f' | sort -u | tr '\n' ' ')"
  echo "cpuid: $(grep -m1 '^vendor_id' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') family $(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "$("$build/generator/bcastgen" explain 1 1 --cpu "${BENCH_CPU:-native}" | grep -m1 '^cpu ' | sed 's/^cpu */planned for cpu kind: /')"
  [ -z "$wisdom_dir" ] || echo "tuned per kernel: bcastgen tune's wisdom files in $wisdom_dir"
  echo "bcastgen variant: $(grep -m1 -o 'isa [a-z0-9]*' "$results/status.json" || echo '?')"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$results/machine.txt"
echo
/usr/bin/python3 "$root/bench/report.py" "$results" || status=1
# Each case below a peer of this process, timed again against it turn about
# (bench/confirm.py says why): the `confirmed:` line. BENCH_CONFIRM=0 skips it.
if [ "${BENCH_CONFIRM:-1}" = 1 ] && [ -f "$results/results.csv" ]; then
  : > "$results/versus.txt"
  /usr/bin/python3 "$root/bench/confirm.py" list "$results" | while read -r kernel peer; do
    echo "$kernel $peer" >> "$results/versus.txt"
    for _ in 1 2 3; do
      "$build/bench/bcastgen_bench" --versus="bcastgen,$peer,$kernel" </dev/null 2>/dev/null | tail -n +2 >> "$results/versus.txt"
    done
  done
  /usr/bin/python3 "$root/bench/confirm.py" summary "$results"
fi
# The transposed read (issue 74): bcastgen's kernel against ONNX Runtime's
# Transpose + Mul + Add and PyTorch, with its roof. BENCH_TRANSPOSE=0 skips it.
if [ "${BENCH_TRANSPOSE:-1}" = 1 ]; then
  /usr/bin/python3 "$root/bench/transpose/transpose_bench.py" --bcastgen "$build/generator/bcastgen" \
    | tee "$results/transpose.txt" || status=1
fi
# The row kernels (issue 75): LayerNorm, RMSNorm and Softmax against ONNX
# Runtime, PyTorch and oneDNN, with their roofs. BENCH_ROWS=0 skips it.
if [ "${BENCH_ROWS:-1}" = 1 ]; then
  /usr/bin/python3 "$root/bench/rows/rows_bench.py" --bcastgen "$build/generator/bcastgen" \
    | tee "$results/rows.txt" || status=1
fi
# The results, named after the day and the CPU kind they were measured on.
kind=$("$build/generator/bcastgen" explain 1 1 --cpu native | sed -n 's/^cpu *\([a-z0-9-]*\).*/\1/p')
[ -z "$wisdom_dir" ] || kind=$kind-tuned
[ -f "$results/results.csv" ] && cp "$results/results.csv" "$results/$(date -u +%Y-%m-%d)-$kind.csv"
[ -f "$results/fused.csv" ] && cp "$results/fused.csv" "$results/$(date -u +%Y-%m-%d)-$kind-fused.csv"
[ -f "$results/versus.txt" ] && cp "$results/versus.txt" "$results/$(date -u +%Y-%m-%d)-$kind-versus.txt"
[ -f "$results/transpose.txt" ] && cp "$results/transpose.txt" "$results/$(date -u +%Y-%m-%d)-$kind-transpose.txt"
[ -f "$results/rows.txt" ] && cp "$results/rows.txt" "$results/$(date -u +%Y-%m-%d)-$kind-rows.txt"
echo "bench: results in $results (results.csv, table.md); total $(( $(date +%s) - start )) s"
exit $status
