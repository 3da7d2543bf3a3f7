#!/usr/bin/env bash
# Cross-builds the generated-kernel tests for AArch64 and runs them under
# qemu-user (tests/aarch64/CMakeLists.txt): every test spec's kernels, the
# differential kernels and fused expressions, guard pages, in-place runs,
# the NEON math lanes against their scalar bits, and the runtime's scalar
# semantics. The host's bcastgen generates the kernels:
#
#   bash scripts/test-aarch64.sh [path/to/host/bcastgen]   (default build/generator/bcastgen)
#
# Needs g++-aarch64-linux-gnu and qemu-user (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
BCASTGEN=$(realpath "${1:-build/generator/bcastgen}")
AARCH64_BUILD_DIR=${AARCH64_BUILD_DIR:-build-aarch64}
cmake -S tests/aarch64 -B "$AARCH64_BUILD_DIR" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DBCASTGEN_EXE="$BCASTGEN"
cmake --build "$AARCH64_BUILD_DIR" -j2
ctest --test-dir "$AARCH64_BUILD_DIR" --output-on-failure -j2
