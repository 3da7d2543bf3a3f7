#!/usr/bin/env bash
# Whether a change of the math headers keeps every bit: one f32 function's
# AVX2 lanes (simd/avx2.h, so its math_f32.inl) with an older runtime's
# headers and with this tree's, over all 2^32 inputs (about 15 s a
# function on Zen 3). For changes meant to be exact rewrites, which
# bench/ulp/run.sh (minutes per function) would only show as the same table.
#
#   bash bench/ulp/same_bits.sh OLD_INCLUDE_DIR FUNCTION...   (e.g. erf_f32 fast_tanh_f32)
#
# OLD_INCLUDE_DIR is a runtime/include of the other version, e.g. from
# `git worktree add /tmp/base REV` (/tmp/base/runtime/include). Prints the
# count of inputs whose bits differ and the first; exits 1 if any does. A
# NaN for a NaN counts as the same, as in simd_math_test (their other bits
# are counted apart).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 OLD_INCLUDE_DIR FUNCTION..." >&2; exit 2; }
old=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++17 -O2 -c "$root/bench/ulp/same_bits_main.cpp" -o "$work/main.o"
status=0
for fn in "$@"; do
  # The older headers' namespace is renamed, so both versions link into one program.
  g++ -std=c++17 -O2 -ffp-contract=off -I"$old" -Dbcastgen=bcastgen_old -DFN="$fn" -DSYM=lanes_old \
    -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/old.o"
  g++ -std=c++17 -O2 -ffp-contract=off -I"$root/runtime/include" -DFN="$fn" -DSYM=lanes_new \
    -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/new.o"
  g++ "$work/main.o" "$work/old.o" "$work/new.o" -o "$work/same_bits"
  out=$("$work/same_bits") || status=1
  echo "$fn: $out"
done
exit $status
