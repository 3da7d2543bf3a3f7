#!/usr/bin/env bash
# The 16-bit float benchmark (issue 22): bcastgen's f16 and bf16 kernels
# (cases.yaml) and its f32 kernels of the same shapes, against PyTorch,
# oneDNN and Eigen (half_bench.cpp) and NumPy's float16 (numpy_half.py),
# one thread, medians of BENCH_REPETITIONS (default 11). Prints the table
# (report.py); the raw lines are in BUILD_DIR/bench-half/results.tsv.
#
#   bash bench/half/run.sh [BUILD_DIR]   (default: build; needs its bcastgen and bench/install-deps.sh's peers)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
work=$build/bench-half
mkdir -p "$work"
"$build/generator/bcastgen" generate "$here/cases.yaml" -o "$work"
g++ -std=c++17 -O2 -I"$root/runtime/include" -c "$work/cases.cpp" -o "$work/cases.o"
g++ -std=c++17 -O2 -Wall -Wextra -isystem /usr/include/torch/csrc/api/include -c "$here/peer_half_torch.cpp" \
  -o "$work/peer_torch.o"
g++ -std=c++17 -O2 -Wall -Wextra -c "$here/peer_half_onednn.cpp" -o "$work/peer_onednn.o"
g++ -std=c++17 -O2 -march=native -ffp-contract=off -Wno-maybe-uninitialized -I/usr/include/eigen3 -c "$here/peer_half_eigen.cpp" \
  -o "$work/peer_eigen.o"
g++ -std=c++17 -O2 -Wall -Wextra -I"$root/runtime/include" -I"$work" -I"$here" "$here/half_bench.cpp" \
  "$work/cases.o" "$work/peer_torch.o" "$work/peer_onednn.o" "$work/peer_eigen.o" \
  -ltorch -ltorch_cpu -lc10 -ldnnl -o "$work/half_bench"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
"$work/half_bench" >"$work/results.tsv"
/usr/bin/python3 "$here/numpy_half.py" >>"$work/results.tsv"
/usr/bin/python3 "$here/report.py" "$work/results.tsv"
