#!/usr/bin/env bash
# A/B of two bcastgen generators on the math bench's one-input kernels
# (kernels.sh), in one process that alternates them (ab_driver.cpp): a run
# of run.sh each moves by 10% to 30% on a busy host, which hides a 5%
# change. Both sides compile against this tree's runtime headers, or the
# base against AB_BASE_INCLUDE (a change of the math itself).
#
#   bash bench/math/ab.sh BASE_BCASTGEN [NEW_BCASTGEN [FILTER]]
#
# BASE_BCASTGEN is the generator to compare against, e.g. built from an
# earlier commit (git worktree add /tmp/base REV; cmake -S /tmp/base -B
# /tmp/base/build -G Ninja; cmake --build /tmp/base/build --target bcastgen).
# NEW_BCASTGEN defaults to build/generator/bcastgen; FILTER keeps the kernels
# whose name contains it. Prints, per kernel, the medians of A's and B's ns
# per element and of the ratio B/A over 41 rounds (below 1: B is faster).
#
# AB_CPU=KIND plans both sides for that row of the CPU-kind table (default
# generic; `native` for this machine's). AB_CXXFLAGS adds flags to every
# compile, e.g. '-falign-loops=64 -falign-functions=64', so that where the
# link puts a loop is not part of the difference. On a Zen 4 one kernel's
# time moved by up to 25% from one build of the driver to the next (0.85
# to 1.07 ns per element) while the ratio moved by about 3%: take two runs
# for a 5% effect.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BASE_BCASTGEN [NEW_BCASTGEN [FILTER]]" >&2; exit 2; }
base=$1
new=${2:-$root/build/generator/bcastgen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$root/bench/math/kernels.sh" "$work"
mkdir -p "$work/a" "$work/b"
"$base" generate "$work/math_kernels.yaml" -o "$work/a" --shards 1 --cpu "${AB_CPU:-generic}" >/dev/null
"$new" generate "$work/math_kernels.yaml" -o "$work/b" --shards 1 --cpu "${AB_CPU:-generic}" >/dev/null
g++ -std=c++17 -O2 ${AB_CXXFLAGS:-} -I"${AB_BASE_INCLUDE:-$root/runtime/include}" -Dmk=mkA -c "$work/a/math_kernels.cpp" -o "$work/a.o"
g++ -std=c++17 -O2 ${AB_CXXFLAGS:-} -I"$root/runtime/include" -Dmk=mkB -c "$work/b/math_kernels.cpp" -o "$work/b.o"
# Both define the same C ABI (mk_*): A's stay local to its object.
nm "$work/a.o" | awk '$2 == "T" && $3 ~ /^mk_/ {print "--localize-symbol=" $3}' >"$work/localize.txt"
objcopy @"$work/localize.txt" "$work/a.o"
# The one-input kernels: X(NAME, ELEMENTS).
sed -n 's/.*name: \([a-z0-9_]*\), inputs: {x: \[\([0-9, ]*\)\]}, expr.*/\1 \2/p' "$work/math_kernels.yaml" |
  while read -r name dims; do echo "X($name, $(echo "$dims" | tr -d ' ' | tr ',' '*'))"; done >"$work/ab_kernels.inc"
g++ -std=c++17 -O2 ${AB_CXXFLAGS:-} -I"$root/runtime/include" -I"$root/bench" -I"$work" "$root/bench/math/ab_driver.cpp" "$work/a.o" "$work/b.o" \
  -o "$work/ab_driver"
echo "# A: $base$([ -n "${AB_BASE_INCLUDE:-}" ] && echo " (headers $AB_BASE_INCLUDE)"); B: $new; cpu kind ${AB_CPU:-generic};$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)${AB_CXXFLAGS:+; $AB_CXXFLAGS}"
"$work/ab_driver" "${3:-}"
