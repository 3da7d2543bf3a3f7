#!/usr/bin/env bash
# Instructions per element of bcastgen's NEON kernels beside XNNPACK's NEON
# microkernels for the same ops and shapes (docs/design/isa-table.md, "Arm64:
# NEON"): the bias add [1,64,56,56] + [1,64,1,1] and NHWC [1,224,224,3] - [3] of
# examples/demo.yaml (generated/demo.cpp), against Debian's arm64 build of
# XNNPACK (unpacked by scripts/arm64-packages.sh), counted under qemu-user. Counts,
# not timings: speed on Arm hardware is not measured here.
#
#   bash bench/arm64/count-instructions.sh      (about a minute)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bash "$root/scripts/install-deps.sh"
work=$(mkdir -p "${COUNT_BUILD_DIR:-$root/build-arm64-count}" && cd "${COUNT_BUILD_DIR:-$root/build-arm64-count}" && pwd)
bash "$root/scripts/arm64-packages.sh" "$work/packages" libxnnpack-dev libxnnpack0 libpthreadpool-dev libpthreadpool0 \
  libcpuinfo0
packages=$work/packages/root/usr
aarch64-linux-gnu-g++ -std=c++17 -O2 -Wall -Wextra -I"$root/generated" -I"$root/runtime/include" -I"$packages/include" \
  "$root/bench/arm64/instructions_driver.cpp" "$root/generated/demo.cpp" -L"$packages/lib/aarch64-linux-gnu" -lXNNPACK \
  -Wl,-rpath-link,"$packages/lib/aarch64-linux-gnu" -o "$work/instructions_driver"
QEMU_LD_LIBRARY_PATH=$packages/lib/aarch64-linux-gnu /usr/bin/python3 "$root/bench/arm64/count_instructions.py" \
  "$work/instructions_driver"
