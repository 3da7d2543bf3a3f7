#!/usr/bin/env bash
# The fuzz stage of scripts/test.sh: builds the libFuzzer targets of fuzz/
# with clang-14 (-fsanitize=fuzzer,address,undefined) in build-fuzz/ and runs
# each for FUZZ_SECONDS (default 60), all in parallel. New inputs go
# to build-fuzz/corpus/<target>/ (the checked-in seeds in fuzz/corpus/ are
# only read); a crash leaves build-fuzz/artifacts/<target>-crash-* and makes
# this script fail. Turn a crash into a regression test by copying it into
# fuzz/regressions/<target>/ (tests/fuzz_replay_test.cpp replays them).
#   FUZZ_SECONDS=600 bash scripts/fuzz.sh            # fuzz longer
#   bash scripts/fuzz.sh plan                        # one target
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec shape_rules plan expr onnx)

# Line tables only: a report's stack names file and line, and full debug
# information of the templates (fmt, nlohmann/json) only made the build longer.
CC=clang-14 CXX=clang++-14 cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-gline-tables-only -DNDEBUG" \
  -DBCASTGEN_FUZZ=ON -DBCASTGEN_BUILD_TESTS=OFF -DBCASTGEN_INSTALL=OFF -DBCASTGEN_WITH_CLANG=OFF \
  -DBCASTGEN_BUILD_BENCH=OFF >/dev/null
# The expression dictionary takes the tables' names from the tool (the
# main build's, else one built here): fuzz/expr.dict has the grammar's.
BCASTGEN=${BCASTGEN:-build/generator/bcastgen}
tool=()
[ -x "$BCASTGEN" ] || { tool=(bcastgen); BCASTGEN=$BUILD_DIR/generator/bcastgen; }
cmake --build "$BUILD_DIR" -j2 --target "${targets[@]/%/_fuzzer}" "${tool[@]}"
{
  cat fuzz/expr.dict
  /usr/bin/python3 -c '
import json, sys
sys.path.insert(0, "tests")
from bcastgen_tables import Tables
t = Tables.load(sys.argv[1])
for name in t.ops + t.functions:
    print(json.dumps(name + "("))
for name in t.dtypes:
    print(json.dumps(name))' "$BCASTGEN"
} >"$BUILD_DIR/expr.dict"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$BUILD_DIR/artifacts"
pids=()
for t in "${targets[@]}"; do
  mkdir -p "$BUILD_DIR/corpus/$t"
  extra=()
  if [ -f "$BUILD_DIR/$t.dict" ]; then extra+=("-dict=$BUILD_DIR/$t.dict")
  elif [ -f "fuzz/$t.dict" ]; then extra+=("-dict=fuzz/$t.dict"); fi
  "$BUILD_DIR/fuzz/${t}_fuzzer" "$BUILD_DIR/corpus/$t" "fuzz/corpus/$t" \
    -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$BUILD_DIR/artifacts/$t-" "${extra[@]}" >"$BUILD_DIR/$t.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  if wait "${pids[$i]}"; then
    echo "fuzz: $t: $(grep -E '^stat::number_of_executed_units' "$BUILD_DIR/$t.log" | awk '{print $2}') runs" \
         "in ${SECONDS_EACH}s, no crash ($(ls "$BUILD_DIR/corpus/$t" | wc -l) new corpus inputs)"
  else
    status=1
    echo "fuzz: $t FAILED; log $BUILD_DIR/$t.log, last lines:"
    tail -40 "$BUILD_DIR/$t.log"
    ls "$BUILD_DIR/artifacts/$t-"* 2>/dev/null || true
  fi
done
exit $status
