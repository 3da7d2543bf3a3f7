#!/usr/bin/env bash
# The scale of bcastgen's output (issue 77), a script, not a CI stage:
#   bash bench/scale/run.sh [BUILD_DIR] [--sizes "10 100 1000"] [--compile "10 100"]
# For each size, a fixed random spec (make_spec.py) and the ResNet-50-like one:
#   generation: wall time and peak memory of `bcastgen generate` (/usr/bin/time -v);
#   source bytes of the .cpp and the manifest;
#   for the sizes in --compile: g++ -O2 -c of the one .cpp, its wall time and
#   peak memory, and its code bytes (`size`: text) per kernel.
# A 1,000-kernel source takes about ten minutes of g++ here, so it is not
# compiled by default.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build
sizes="10 100 1000"
compile="10 100"
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --compile) compile=$2; shift 2 ;;
    *) build=$1; shift ;;
  esac
done
bcastgen=$build/generator/bcastgen
[ -x "$bcastgen" ] || { echo "run.sh: $bcastgen is not built (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d /tmp/bcastgen-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Prints "<wall seconds> <peak KiB>" of a command, from /usr/bin/time -v.
measure() {
  /usr/bin/time -v "$@" > "$work/time.out" 2> "$work/time.err" || { cat "$work/time.err" >&2; exit 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]}
              /Maximum resident set size/ {m = $2} END {printf "%.2f %d\n", s, m}' "$work/time.err"
}

printf "%-10s %8s %10s %12s %12s %10s %12s %12s\n" spec kernels "gen s" "gen MiB" "cpp bytes" "g++ s" "g++ MiB" "text/kernel"
run_spec() {
  local name=$1 spec=$2 compile_it=$3
  local n dir gen cpp gcc="-" gccmem="-" per="-"
  n=$(grep -c '^  - ' "$spec")
  dir=$work/$name
  read -r gen_s gen_kb < <(measure "$bcastgen" generate "$spec" -o "$dir" --emit-runtime)
  cpp=$(stat -c %s "$dir"/*.cpp)
  if [ "$compile_it" = 1 ]; then
    read -r gcc gcc_kb < <(measure g++ -std=c++17 -O2 -I"$dir" -c "$dir"/*.cpp -o "$dir/k.o")
    gccmem=$((gcc_kb / 1024))
    per=$(size -A "$dir/k.o" | awk -v n="$n" '$1 ~ /^\.text/ {t += $2} END {printf "%.0f", t / n}')
  fi
  printf "%-10s %8d %10s %12d %12d %10s %12s %12s\n" "$name" "$n" "$gen_s" $((gen_kb / 1024)) "$cpp" "$gcc" "$gccmem" "$per"
}
for n in $sizes; do
  /usr/bin/python3 "$root/bench/scale/make_spec.py" "$n" "$work/random_$n.yaml"
  c=0
  for m in $compile; do [ "$m" = "$n" ] && c=1; done
  run_spec "random_$n" "$work/random_$n.yaml" $c
done
/usr/bin/python3 "$root/bench/scale/make_spec.py" --resnet "$work/resnet.yaml"
run_spec resnet "$work/resnet.yaml" 1
