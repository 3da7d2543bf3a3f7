#!/usr/bin/env bash
# Installs every build, test and benchmark dependency of bcastgen from Debian's
# packages. Idempotent: rerunning it on a machine that has them is a no-op apart
# from apt's own checks. Needs root and access to the Debian package registry.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ clang-14 pkg-config
  # libraries the generator links
  libcli11-dev libfmt-dev libyaml-cpp-dev nlohmann-json3-dev libkainjow-mustache-dev
  # Clang libTooling (inspect / verify / format)
  libclang-14-dev llvm-14-dev clang-format-14 libclang-rt-14-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev python3-numpy
  # peers for the benchmark
  libxnnpack-dev libpthreadpool-dev libdnnl-dev libeigen3-dev
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
