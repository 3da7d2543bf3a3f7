#!/usr/bin/env bash
# Installs the dependencies, builds bcastgen and runs its main job on the
# bundled example: generate kernels for examples/demo.yaml, show the plan of
# one, then compile the generated code and check every kernel against the
# runtime reference. Run as root on a fresh Debian 12 machine: bash scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-out/demo}
bash scripts/install-deps.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j2 --target bcastgen
BCASTGEN="$BUILD_DIR/generator/bcastgen"

echo "== bcastgen generate examples/demo.yaml -o $OUT --emit-runtime"
"$BCASTGEN" generate examples/demo.yaml -o "$OUT" --emit-runtime
echo "== bcastgen explain --rule numpy [1,64,56,56] [1,64,1,1]"
"$BCASTGEN" explain --rule numpy '[1,64,56,56]' '[1,64,1,1]'
echo "== compile $OUT/demo.cpp with examples/demo_main.cpp and run it"
"${CXX:-c++}" -std=c++17 -O2 -Wall -Wextra -I"$OUT" -Iexamples "$OUT/demo.cpp" examples/demo_main.cpp -o "$OUT/demo"
"$OUT/demo"
