#!/usr/bin/env bash
# Every generated test spec has NEON variants: a spec whose `isa:` list left
# neon out would run its scalar variant in the NEON cases and pass. A spec's
# kernels are in <stem>.cpp or, sharded, in <stem>_shard<k>.cpp; the row
# kernels' specs (rows.yaml, the differential rows_0.yaml) are left out: NEON
# has no masked loads, so their neon variants are the scalar loop in the same
# order (docs/guide/spec.md, "Reductions: row kernels").
#   every_spec_has_neon.sh <dir>...
set -euo pipefail
missing=()
checked=0
for dir in "$@"; do
  for header in "$dir"/*.h; do
    stem=$(basename "${header%.h}")
    case $stem in *_c | rows | rows_[0-9]*) continue ;; esac
    sources=("$dir/$stem.cpp")
    for f in "$dir/$stem"_shard*.cpp; do [ -f "$f" ] && sources+=("$f"); done
    checked=$((checked + 1))
    grep -q 'namespace v = bcastgen::simd::neon;' "${sources[@]}" || missing+=("$dir/$stem")
  done
done
[ "$checked" -gt 0 ] || { echo "no generated spec found in: $*"; exit 1; }
[ ${#missing[@]} -eq 0 ] || { echo "no NEON variant in: ${missing[*]}"; exit 1; }
echo "$checked specs, each with NEON variants"
