#!/usr/bin/env bash
# The NEON or AVX-512 lanes of f32 math functions against their scalar bits
# over all 2^32 inputs, on an x86 CPU that runs neither: simd/neon.h or
# simd/avx512.h compiled against SIMDe's model of the ISA's intrinsics
# (Debian's libsimde-dev, installed by scripts/install-deps.sh), with the
# shims in model/ISA/ where SIMDe lacks an instruction or models it otherwise
# than the architecture's manual, and same_bits.sh's driver and lanes file.
# The aarch64 stage of the tests runs the real NEON code under qemu on every
# 8191st input (all 2^32 there would take about 37 minutes a function); the
# real AVX-512 lanes need a CPU with AVX-512 (simd_math_test,
# BCASTGEN_SIMD_MATH_ALL=1). This checks the algorithm on the ISA's lanes and
# wrappers everywhere, as far as the model is the hardware (docs/design/accuracy.md,
# "Verification").
#
#   bash bench/ulp/isa_model.sh neon|avx512 FUNCTION...   (e.g. neon erf_f32 fast_gelu_f32)
#
# Prints, per function, the count of inputs whose bits differ (a NaN for a
# NaN counts as the same, as in simd_math_test) and the first; exits 1 if
# any does.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 neon|avx512 FUNCTION..." >&2; exit 2; }
isa=$1
shift
case $isa in
  neon) model=(-DBCASTGEN_SIMD_NEON_MODEL -DNEON) ;;
  avx512) model=(-DAVX512_MODEL -mf16c -mbmi -mbmi2 -Wno-psabi) ;;
  *) echo "$0: unknown ISA '$isa' (neon or avx512)" >&2; exit 2 ;;
esac
[ -d /usr/include/simde ] || { echo "$0: needs libsimde-dev (scripts/install-deps.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++17 -O2 -c "$root/bench/ulp/same_bits_main.cpp" -o "$work/main.o"
flags=(-std=c++17 -O2 -ffp-contract=off -I"$root/runtime/include" -w)
status=0
for fn in "$@"; do
  g++ "${flags[@]}" -DSCALAR -DFN="$fn" -DSYM=lanes_old -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/scalar.o"
  g++ "${flags[@]}" -mavx2 -mfma "${model[@]}" -I"$root/bench/ulp/model/$isa" -DFN="$fn" \
    -DSYM=lanes_new -c "$root/bench/ulp/same_bits_lanes.cpp" -o "$work/model.o"
  g++ "$work/main.o" "$work/scalar.o" "$work/model.o" -o "$work/isa_model"
  out=$("$work/isa_model") || status=1
  echo "$fn: $out"
done
exit $status
