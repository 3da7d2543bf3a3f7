#!/usr/bin/env bash
# The exhaustive accuracy check of the f32 math functions (not a CI test:
# 5 to 12 minutes per function for the scalar and AVX2 variants on 2 cores,
# measured on an AMD EPYC; the scalar variant's std::fma is a libm call).
# Runs ulp_exhaustive (bench/ulp/CMakeLists.txt: one kernel per function,
# y = f(x) over 2^16 elements, for every ISA, against MPFR) on every 2^32
# input.
#
#   bash bench/run.sh --kind ulp [BUILD_DIR] [ARGS...]   (the way to run it: installs and configures)
#   bash bench/ulp/run.sh BUILD_DIR [-- ARGS...]          (BUILD_DIR configured so already)
#
# ARGS go to
# ulp_exhaustive: function names (default: all), --stride S to sample,
# --isa NAME (repeatable) to run only those ISAs (default: every one the CPU
# has; the scalar variant is the slow one, its fma a libm call).
# Needs libmpfr-dev (scripts/install-deps.sh installs it).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-bench}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
ninja -C "$build" -j2 bench_ulp >/dev/null
"$build/bench/ulp/ulp_exhaustive" "$@"
