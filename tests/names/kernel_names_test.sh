#!/usr/bin/env bash
# Kernels may bear any name of the SIMD wrapper vocabulary (issue 73): the
# generated code calls the wrappers through a block-scope alias
# (`namespace v = bcastgen::simd::avx512; v::add_f32(...)`), which no entry
# point of the user's namespace hides.
#
#   kernel_names_test.sh BCASTGEN SOURCE_DIR WORK_DIR
#
# Generates the spec of every wrapper name that `bcastgen list --json`
# lists (tests/names/make_names_spec.py: about 800 kernels, each calling
# its namesake where the name says how) and compiles it warning-free with
# g++ and clang++-14 for x86-64, and with aarch64-linux-gnu-g++ where it is
# installed, as -fsyntax-only: name lookup is what this checks, and the
# whole file takes 2.5 minutes to compile to code at -Og. A sample of the
# same kernels is compiled and run on every ISA by generated_kernels_test
# and guard_pages_test (natively and under qemu). Then a control: the same
# file with the wrappers called unqualified under `using namespace`, as
# before the alias, must fail to compile, or this test could not see it.
set -euo pipefail
bcastgen=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
python3 "$src/tests/names/make_names_spec.py" --bcastgen "$bcastgen" --out "$work/names.yaml"
"$bcastgen" generate "$work/names.yaml" -o "$work/out" --shards 1 >/dev/null
flags=(-std=c++17 -fsyntax-only -Wall -Wextra -Werror -I"$src/runtime/include" -I"$work/out")

compilers=(g++ clang++-14)
if command -v aarch64-linux-gnu-g++ >/dev/null; then
  compilers+=(aarch64-linux-gnu-g++)
else
  echo "kernel_names_test: aarch64-linux-gnu-g++ not installed: the NEON variants are checked by the aarch64 stage only"
fi
failed=0
for cxx in "${compilers[@]}"; do
  if "$cxx" "${flags[@]}" "$work/out/names.cpp" >"$work/$cxx.log" 2>&1 && [ ! -s "$work/$cxx.log" ]; then
    echo "ok: $cxx compiles $(grep -c '^  - name:' "$work/names.yaml") vocabulary-named kernels"
  else
    echo "FAIL: $cxx does not compile the vocabulary-named kernels warning-free:"
    head -20 "$work/$cxx.log"
    failed=1
  fi
done

# The control: calls unqualified, as before the alias (the form of
# 7c62552), on the x86 variants.
sed -e 's/^\(  \)namespace v = \(bcastgen::simd::[a-z0-9]*\);/\1using namespace \2;/' -e 's/\bv::x\([24]\)::/x\1::/g' \
    -e 's/\bv::\([a-z]\)/\1/g' "$work/out/names.cpp" >"$work/out/unqualified.cpp"
if g++ "${flags[@]}" -fmax-errors=3 "$work/out/unqualified.cpp" >"$work/control.log" 2>&1; then
  echo "FAIL: the control compiled: kernels named like wrappers no longer hide unqualified calls, so this test is blind"
  failed=1
elif ! grep -q "too few arguments to function\|cannot convert" "$work/control.log"; then
  echo "FAIL: the control failed for another reason than the hidden wrappers:"
  head -5 "$work/control.log"
  failed=1
else
  echo "ok: control: called unqualified, the wrappers are hidden: $(grep -m1 'error:' "$work/control.log")"
fi
exit $failed
