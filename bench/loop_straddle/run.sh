#!/usr/bin/env bash
# Times case 13's row copy as a loop of 4-vector steps and as the row
# unrolled whole, each at five offsets from a 4 KiB page of code, and says
# which loops straddle a page boundary (docs/design/planner.md, "Plans per CPU kind";
# the generated code's `#pragma GCC unroll 1`).
#
#   bash bench/run.sh --kind loop_straddle [BUILD_DIR]   (the way to run it: installs and configures)
#   bash bench/loop_straddle/run.sh BUILD_DIR            (BUILD_DIR configured so already)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
ninja -C "$build" -j2 bench_loop_straddle >/dev/null
work=$build/bench/loop_straddle
# Where each form's loop over the rows (its last backward branch) lies.
objdump -d --no-show-raw-insn -C "$work/harness" | /usr/bin/python3 -c '
import re, sys
name, loops = None, {}
for line in sys.stdin:
    head = re.match(r"[0-9a-f]+ <\(anonymous namespace\)::((loop|whole)_[0-9]+)\(", line)
    if re.match(r"[0-9a-f]+ <", line):
        name = head.group(1) if head else None
    jump = re.match(r"\s+([0-9a-f]+):\s+j\w+\s+([0-9a-f]+) <", line)
    if name and jump and int(jump.group(2), 16) < int(jump.group(1), 16):
        loops[name] = (int(jump.group(2), 16), int(jump.group(1), 16))
for name, (lo, hi) in sorted(loops.items()):
    where = ", straddles a 4 KiB page" if lo // 4096 != hi // 4096 else ""
    print(f"{name:<11} loop {lo:x}..{hi:x}, {hi - lo:4d} bytes{where}")
'
"$work/harness"
