#!/usr/bin/env bash
# Regenerates generated/, the checked-in output of bcastgen for the example
# spec(s), so that generated kernels can be read without building anything.
# Run it after any change to the emitter, the templates or the specs below:
#
#   bash scripts/regenerate.sh            # builds bcastgen in $BUILD_DIR (default build) if needed
#   bash scripts/regenerate.sh --check    # exit 1 if generated/ is stale (what the test runs)
#
# BCASTGEN=<path to bcastgen> uses that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

# The specs whose output is checked in, one generate call each.
SPECS=(examples/demo.yaml)
OUT_DIR=generated

mode=update
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if [[ -z "${BCASTGEN:-}" ]]; then
  BUILD_DIR=${BUILD_DIR:-build}
  log=$(mktemp)
  if ! { [[ -f "$BUILD_DIR/CMakeCache.txt" ]] || cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release; } >"$log" 2>&1 ||
     ! cmake --build "$BUILD_DIR" --target bcastgen -j2 >>"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "$0: could not build bcastgen in $BUILD_DIR" >&2
    exit 1
  fi
  rm -f "$log"
  BCASTGEN="$BUILD_DIR/generator/bcastgen"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fresh="$tmp/out"
mkdir "$fresh"
for spec in "${SPECS[@]}"; do
  "$BCASTGEN" generate "$spec" -o "$fresh"
done

if [[ $mode == check ]]; then
  if ! diff -u -r -x README.md "$OUT_DIR" "$fresh" >"$tmp/diff" 2>&1; then
    echo "generated/ is stale: it differs from what $("$BCASTGEN" --version) generates now."
    echo "Run scripts/regenerate.sh and commit generated/. First differences:"
    sed "s|$fresh|<fresh output>|g" "$tmp/diff" | head -60
    exit 1
  fi
  echo "generated/ is up to date (${SPECS[*]})"
  exit 0
fi

# Replace the generated files, keeping generated/README.md.
mkdir -p "$OUT_DIR"
find "$OUT_DIR" -maxdepth 1 -type f ! -name README.md -delete
cp "$fresh"/* "$OUT_DIR"/
echo "regenerated $OUT_DIR/ from ${SPECS[*]}:"
ls "$OUT_DIR"
