#!/usr/bin/env bash
# bcastgen generate for tests/avx512_model: BCASTGEN_EXE's arguments, the
# scalar and avx512 variants only, the avx512 ones retargeted to AVX2 (the
# instructions of SIMDe's model), so that none reaches the CPU as an AVX-512
# instruction, and the entries' check of a chosen ISA (bcastgen::check_isa)
# made the model's (avx512_model.h), which takes avx512 as runnable. The
# kernels are in <stem>.cpp or, sharded, in its shards: all are rewritten.
# The first argument is the host's bcastgen.
set -euo pipefail
bcastgen=$1
shift
[ "$1" = generate ] || { echo "$0: expects 'generate SPEC -o DIR ...'" >&2; exit 2; }
"$bcastgen" "$@" --isa scalar,avx512
spec=$2
dir=""
for ((i = 1; i <= $#; i++)); do
  if [ "${!i}" = -o ]; then j=$((i + 1)); dir=${!j}; fi
done
stem=$(basename "${spec%.*}")
# <stem>.cpp, and the shards where the kernels are when the output is sharded.
out=("$dir/$stem.cpp")
for f in "$dir/${stem}"_shard*.cpp; do [ -f "$f" ] && out+=("$f"); done
avx512=$(sed -n 's/.*BCASTGEN_TARGET_AVX512 "\(.*\)"$/\1/p' "$(dirname "$0")/../../runtime/include/bcastgen/cpu.h")
avx2=$(sed -n 's/.*BCASTGEN_TARGET_AVX2 "\(.*\)"$/\1/p' "$(dirname "$0")/../../runtime/include/bcastgen/cpu.h")
grep -q "target(\"$avx512\")" "${out[@]}" || { echo "$0: no avx512 target in ${out[*]}" >&2; exit 1; }
grep -q 'bcastgen::check_isa(' "${out[@]}" || { echo "$0: no check of the CPU in ${out[*]}" >&2; exit 1; }
sed -i -e "s/target(\"$avx512\")/target(\"$avx2\")/g" -e 's/bcastgen::check_isa(/avx512_model::check_isa(/g' "${out[@]}"
