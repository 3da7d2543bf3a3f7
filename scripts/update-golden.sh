#!/usr/bin/env bash
# Regenerates the golden outputs that tests/golden_test.cpp compares with:
# tests/golden/golden.h, golden.cpp and the other files `bcastgen generate`
# writes for tests/golden/golden.yaml. Run it after an intended change to
# the generated code, then review and commit the diff.
#
# Usage: scripts/update-golden.sh [BUILD_DIR]
#   BUILD_DIR (or $BCASTGEN_BUILD_DIR) is the CMake build directory holding
#   bcastgen, default "build" under the repository root; it is configured if
#   it does not exist, and bcastgen is rebuilt there if it is out of date.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-${BCASTGEN_BUILD_DIR:-build}}"
case "$build_dir" in
  /*) ;;
  *) build_dir="$root/$build_dir" ;;
esac

if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  echo "update-golden: configuring $build_dir" >&2
  cmake -S "$root" -B "$build_dir"
fi
cmake --build "$build_dir" --target bcastgen

exe="$build_dir/generator/bcastgen"
if [[ ! -x "$exe" ]]; then
  echo "update-golden: $exe not found after the build" >&2
  exit 1
fi

# Generate into a scratch directory first, so that a failure leaves the
# checked-in files alone; then replace every output (a file no longer
# generated is removed). The banner names only the spec's file name.
cd "$root"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp tests/golden/golden.yaml "$scratch/golden.yaml"
"$exe" generate "$scratch/golden.yaml" -o "$scratch/out" --shards 1
find tests/golden -maxdepth 1 -type f ! -name golden.yaml -delete
cp "$scratch"/out/* tests/golden/
echo "update-golden: tests/golden now holds:" $(cd tests/golden && ls) >&2
git --no-pager diff --stat -- tests/golden 2>/dev/null || true
