#!/usr/bin/env bash
# Installs what bcastgen's build and its tests need, from Debian's packages:
#
#   bash scripts/install-deps.sh [EXTRA_PACKAGE...]
#
# scripts/test.sh, scripts/demo.sh and .ci/run call it without arguments. The
# benchmark's peers (XNNPACK, oneDNN, Eigen, Halide, libtorch, NumPy, Google
# Benchmark) are not installed here: bench/install-deps.sh passes them as
# EXTRA_PACKAGEs, so that a machine that only builds and tests never pulls
# them. Idempotent: rerunning it on a machine that has them is a no-op apart
# from dpkg's checks; `apt-get update` runs once, and only if something is
# missing. Needs root and access to the Debian package registry.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ clang-14 pkg-config
  # the linker of the build (CMakeLists.txt, BCASTGEN_USE_LLD): faster than ld.bfd
  lld
  # libraries the generator links
  libcli11-dev libfmt-dev libyaml-cpp-dev nlohmann-json3-dev libkainjow-mustache-dev
  # Clang libTooling (inspect / verify / format); libFuzzer and the sanitizer runtimes
  libclang-14-dev llvm-14-dev clang-format-14 libclang-rt-14-dev
  # tests: GoogleTest; NumPy is the oracle of tests/ops_numpy_test.cpp (/usr/bin/python3)
  libgtest-dev libgmock-dev python3-numpy
  # tests: MPFR, the correctly rounded oracle of the math functions' ulp bounds
  libmpfr-dev
  # tests: ONNX's backend node tests and the Python module that reads them
  libonnx-testdata python3-onnx
  # tests: the aarch64 stage cross-builds the kernel tests and runs them under qemu-user
  g++-aarch64-linux-gnu qemu-user
  # tests: SIMDe's model of the AVX-512 intrinsics (the avx512-model stage) and of NEON's
  # (bench/ulp/isa_model.sh)
  libsimde-dev
  # the ONNX frontend (generator/onnx/, `bcastgen onnx`): the model reader and shape inference
  libonnx-dev libprotobuf-dev
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
# Package lists may be absent or stale on a fresh machine: refresh them once.
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
