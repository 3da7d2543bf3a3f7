#!/usr/bin/env bash
# Builds the generated-kernel tests' avx512 variants against SIMDe's model of
# the AVX-512 intrinsics and runs them on this CPU, which need not have
# AVX-512 (tests/avx512_model/CMakeLists.txt): every test spec's kernels
# against the reference, in-place runs and ranges, and guard pages. For a
# change to avx512.h or to what the planner emits for avx512, on a machine
# without it (the native suite skips those cases there). The host's bcastgen
# generates the kernels:
#
#   bash scripts/test-avx512-model.sh [path/to/bcastgen]   (default build/generator/bcastgen)
#
# BCASTGEN_TEST_SAMPLE=1 builds the test command's sample (broadcast.yaml,
# fused.yaml and half.yaml: every shape class, fused form and 16-bit float
# path; and cpu_intel_xeon.yaml: rows peeled to the output's lines, an
# avx512-only form); the avx512-model stage of scripts/test.sh runs that. All specs take
# about 10 minutes on 2 cores, most of it compiling SIMDe's code. Needs
# libsimde-dev (scripts/install-deps.sh) and a CPU with AVX2, FMA and F16C.
set -euo pipefail
cd "$(dirname "$0")/.."
BCASTGEN=$(realpath "${1:-build/generator/bcastgen}")
AVX512_MODEL_BUILD_DIR=${AVX512_MODEL_BUILD_DIR:-build-avx512-model}
sample=OFF
[ "${BCASTGEN_TEST_SAMPLE:-0}" = 1 ] && sample=ON
cmake -S tests/avx512_model -B "$AVX512_MODEL_BUILD_DIR" -G Ninja -DBCASTGEN_EXE="$BCASTGEN" \
  -DBCASTGEN_TEST_SAMPLE="$sample"
cmake --build "$AVX512_MODEL_BUILD_DIR" -j2
ctest --test-dir "$AVX512_MODEL_BUILD_DIR" --output-on-failure -j2
