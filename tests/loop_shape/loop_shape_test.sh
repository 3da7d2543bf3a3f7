#!/usr/bin/env bash
# A row's main loop stays the loop its plan describes: the generated code
# keeps g++ and clang++ from unrolling it whole (`#pragma GCC unroll 1`;
# README "Per CPU kind: AMD Zen 5": a broadcast row unrolled whole was one
# 904-byte body, 1.1x to 1.6x slower wherever it straddled a 4 KiB page).
#
#   loop_shape_test.sh BCASTGEN SOURCE_DIR WORK_DIR
#
# For g++ and clang++-14 at -O3 (default target: each variant names its
# own ISA): compiles the generated loop_shape.cpp warning-free and counts
# the vector stores in each kernel's avx512 and avx2 functions: a loop of
# the plan's steps holds one step's stores, a row unrolled whole one per
# vector of the row. Then a control: the same file without the pragma,
# under g++ -O3, must unroll the rows whole, or this test could not see it.
set -euo pipefail
bcastgen=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$bcastgen" generate "$src/tests/loop_shape/loop_shape.yaml" -o "$work" --shards 1
include=(-I"$src/runtime/include" -I"$work")

# stores DISASSEMBLY KERNEL ISA: the vector stores in the kernel's variant
# function (namespace kt_loop_shape::KERNEL_impl, function ISA; not its _range
# twin), read from objdump's listing of the object.
stores() {
  awk -v f="kt_loop_shape::$2_impl::(anonymous namespace)::$3(" '
    /^[0-9a-f]+ <.*>:$/ { inside = index($0, f) > 0 }
    inside && /vmovups[ \t]+%[xyz]mm[0-9]+,/ { n++ }
    END { print n + 0 }' "$1"
}

# Each kernel: name, and how many stores its avx512 and avx2 functions hold
# as loops of the plan's steps (its 4 vectors; the rows have no tail).
kernels=(copy_row:4:4 add_row:4:4)
# Without the pragma, g++ -O3 unrolls these whole: one store per vector of the
# row (512 floats: 32 and 64; 384: 24 on avx512, while its avx2 loop of 12
# steps of 16 instructions is past g++'s limit for unrolling whole, 0 here).
whole=(copy_row:32:64 add_row:24:0)

failed=0
# check OBJECT LABEL MODE LIST: MODE loop wants each function's stores from
# 1 (none: the function was not found) to LIST's count; whole, at least it.
check() {
  local obj=$1 label=$2 mode=$3 spec kernel a512 a2 n512 n2
  local -n list=$4
  objdump -d --no-show-raw-insn -C "$obj" >"$obj.dis"
  for spec in "${list[@]}"; do
    IFS=: read -r kernel a512 a2 <<<"$spec"
    n512=$(stores "$obj.dis" "$kernel" avx512)
    n2=$(stores "$obj.dis" "$kernel" avx2)
    if [ "$mode" = loop ] && { [ "$n512" -lt 1 ] || [ "$n2" -lt 1 ] || [ "$n512" -gt "$a512" ] || [ "$n2" -gt "$a2" ]; }; then
      echo "FAIL $label: $kernel has $n512 avx512 and $n2 avx2 stores, not 1 to the plan's $a512 and $a2"
      failed=1
    elif [ "$mode" = whole ] && { [ "$n512" -lt "$a512" ] || [ "$n2" -lt "$a2" ]; }; then
      echo "FAIL $label: without the pragma $kernel has only $n512 avx512 and $n2 avx2 stores;" \
           "this test cannot see a row unrolled whole"
      failed=1
    else
      echo "$label: $kernel: $n512 avx512 and $n2 avx2 stores"
    fi
  done
}

for cxx in g++ clang++-14; do
  "$cxx" -std=c++17 -O3 -Wall -Wextra -Werror "${include[@]}" -c "$work/loop_shape.cpp" -o "$work/$cxx.o"
  check "$work/$cxx.o" "$cxx -O3" loop kernels
done
sed -e '/#pragma GCC unroll 1/d' "$work/loop_shape.cpp" >"$work/unrolled.cpp"
g++ -std=c++17 -O3 "${include[@]}" -c "$work/unrolled.cpp" -o "$work/control.o"
check "$work/control.o" "control (no pragma, g++ -O3)" whole whole
[ "$failed" = 0 ] && echo "loop_shape_test: passed"
exit "$failed"
