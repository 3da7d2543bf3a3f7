#!/usr/bin/env bash
# Prints the Halide 14 target for this machine (callers append their
# features, `-no_asserts` ...): `host`, unless Halide would take this CPU for a
# Sapphire Rapids without its AVX512-FP16. It does so on AMD Zen 5 (AVX512-BF16
# and AVX-VNNI, no AVX512-FP16): its `host` then enables avx512fp16 and LLVM
# emits vmovw, an illegal instruction there (seen in bench/half's f16
# pipelines). Such a CPU gets the AVX-512 features it has, spelled out.
set -euo pipefail
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
target=host
if grep -qw avx512_bf16 <<<"$flags" && ! grep -qw avx512_fp16 <<<"$flags"; then
  target=x86-64-linux-sse41-avx-f16c-fma-avx2-avx512-avx512_skylake
  grep -qw avx512ifma <<<"$flags" && grep -qw avx512vbmi <<<"$flags" && target+=-avx512_cannonlake
fi
echo "$target"
