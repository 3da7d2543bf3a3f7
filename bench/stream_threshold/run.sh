#!/usr/bin/env bash
# The measurement behind the default stream_threshold_bytes
# (docs/design/planner.md): the same generated kernels with and without
# streaming stores, over footprints from 16 to 128 MiB, for kernels that read
# and write in different shares (make_specs.py).
#
# make_specs.py's kernels, planned for the CPU kind the build was configured
# with, and harness.cpp are built by bench/stream_threshold/CMakeLists.txt.
#
#   bash bench/run.sh --kind stream_threshold [BUILD_DIR]   (the way to run it: installs and configures)
#   bash bench/stream_threshold/run.sh BUILD_DIR            (BUILD_DIR configured so already)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
ninja -C "$build" -j2 bench_stream_threshold >/dev/null
"$build/bench/stream_threshold/harness"
