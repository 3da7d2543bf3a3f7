#!/usr/bin/env bash
# The measurement behind the default stream_threshold_bytes (README, "How
# kernels are planned"): the same generated kernels with and without
# streaming stores, over footprints from 16 to 128 MiB, for kernels that
# read and write in different shares (make_specs.py).
#
#   bash bench/stream_threshold/run.sh [BCASTGEN]   (default: build/generator/bcastgen)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bcastgen=${1:-$root/build/generator/bcastgen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$root/bench/stream_threshold/make_specs.py" "$work"
"$bcastgen" generate "$work/s.yaml" -o "$work" --shards 1 >/dev/null
"$bcastgen" generate "$work/n.yaml" -o "$work" --shards 1 >/dev/null
g++ -O2 -std=c++17 -I "$work" -I "$root/runtime/include" "$root/bench/stream_threshold/harness.cpp" \
  "$work/s.cpp" "$work/n.cpp" -o "$work/harness"
"$work/harness"
