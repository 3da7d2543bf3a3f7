#!/usr/bin/env bash
# Issue 14: every node of a fused kernel rounds as NumPy rounds it, so the
# generated code must not let the compiler contract a*b + c into an FMA
# under a user's default flags (g++ contracts by default, even in ISO mode;
# the generated file turns contraction off with pragmas).
#
#   contraction_test.sh BCASTGEN SOURCE_DIR WORK_DIR
#
# For g++ and clang++-14 at -O2 and -O3 (-march=native, so every variant,
# the scalar one too, may use FMA instructions): compiles the generated
# contraction.cpp warning-free, checks that it has no FMA instruction and
# that every kernel on every ISA equals the reference bit for bit. Then a
# control: the same file with the pragmas removed, under g++ -O3, must have
# FMAs and must differ, or this test could not notice contraction.
set -euo pipefail
bcastgen=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$bcastgen" generate "$src/tests/contraction/contraction.yaml" -o "$work" --shards 1
include=(-I"$src/runtime/include" -I"$src/tests" -I"$work")
fma_pattern='vf(n)?m(add|sub)'

compilers=(g++ clang++-14)
# The check, never contracted: compiled once, by g++, and linked with every
# compiler's kernels (one C++ ABI, libstdc++'s; a clang++ copy cost 31 s).
g++ -std=c++17 -march=native -O2 -ffp-contract=off "${include[@]}" \
  -c "$src/tests/contraction/contraction_check.cpp" -o "$work/check.o"

# build CXX NAME KERNEL_SOURCE FLAGS...: the kernels compiled with FLAGS and
# linked with the check into $work/NAME; sets fmas to the number of FMA
# instructions in the kernels' object.
build() {
  local cxx=$1 name=$2 source=$3
  shift 3
  "$cxx" -std=c++17 -march=native "$@" -Wall -Wextra -Werror "${include[@]}" -c "$source" -o "$work/$name.o"
  "$cxx" "$work/$name.o" "$work/check.o" -o "$work/$name"
  fmas=$(objdump -d "$work/$name.o" | grep -c -E "$fma_pattern" || true)
}

failed=0
for cxx in "${compilers[@]}"; do
  for opt in -O2 -O3; do
    name="${cxx}${opt}"
    build "$cxx" "$name" "$work/contraction.cpp" "$opt"
    status=ok
    if [ "$fmas" -ne 0 ]; then
      objdump -d "$work/$name.o" | grep -E "$fma_pattern" | head -5
      status="FAIL ($fmas FMA instructions in the generated kernels)"
    fi
    if ! "$work/$name"; then status="FAIL (kernels differ from the reference)"; fi
    echo "$cxx $opt: $status"
    [ "$status" = ok ] || failed=1
  done
done

# The control: without the pragmas g++ contracts, and the check sees it.
sed -e '/fp-contract=off/d' -e '/fp contract(off)/d' "$work/contraction.cpp" >"$work/contracted.cpp"
build g++ control "$work/contracted.cpp" -O3
if [ "$fmas" -eq 0 ]; then
  echo "FAIL control: g++ -O3 without the pragmas emitted no FMA; this test cannot see contraction"
  failed=1
elif "$work/control" >"$work/control.txt"; then
  echo "FAIL control: $fmas FMAs without the pragmas, yet the check found no difference"
  failed=1
else
  echo "control: without the pragmas g++ -O3 emits $fmas FMAs and the check fails, as it should:"
  cat "$work/control.txt"
fi
[ "$failed" = 0 ] && echo "contraction_test: passed"
exit "$failed"
