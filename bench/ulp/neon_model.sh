#!/usr/bin/env bash
# The NEON lanes of f32 math functions against their scalar bits over all
# 2^32 inputs, natively: simd/neon.h compiled for x86 against SIMDe's model
# of the NEON intrinsics (neon_model/arm_neon.h; Debian's libsimde-dev,
# installed by bench/install-deps.sh), with same_bits.sh's driver and lanes
# file. The aarch64 stage of the tests runs the real NEON code under qemu on
# every 8191st input; all 2^32 there would take about 37 minutes a function. This checks the algorithm on NEON's
# lanes and wrappers everywhere, as far as the model is the hardware
# (README, "Math functions": "The NEON lanes over all 2^32 inputs").
#
#   bash bench/ulp/neon_model.sh FUNCTION...   (e.g. erf_f32 fast_gelu_f32)
#
# Prints, per function, the count of inputs whose bits differ (a NaN for a
# NaN counts as the same, as in simd_math_test) and the first; exits 1 if
# any does.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 FUNCTION..." >&2; exit 2; }
[ -f /usr/include/simde/arm/neon.h ] || { echo "$0: needs libsimde-dev (bench/install-deps.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++17 -O2 -c "$root/bench/ulp/same_bits_main.cpp" -o "$work/main.o"
flags=(-std=c++17 -O2 -ffp-contract=off -I"$root/runtime/include" -w)
status=0
for fn in "$@"; do
  g++ "${flags[@]}" -DSCALAR -DFN="$fn" -DSYM=lanes_old -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/scalar.o"
  g++ "${flags[@]}" -mavx2 -mfma -DBCASTGEN_SIMD_NEON_MODEL -DNEON -I"$root/bench/ulp/neon_model" -DFN="$fn" \
    -DSYM=lanes_new -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/neon.o"
  g++ "$work/main.o" "$work/scalar.o" "$work/neon.o" -o "$work/neon_model"
  out=$("$work/neon_model") || status=1
  echo "$fn: $out"
done
exit $status
