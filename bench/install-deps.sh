#!/usr/bin/env bash
# Installs what the benchmark needs (bench/run.sh calls it): the build's
# dependencies (scripts/install-deps.sh) plus the peers, all from Debian's
# packages, in one `apt-get update` + `apt-get install` if anything is missing;
# then ONNX Runtime from the npm registry into bench/ort/node_modules
# (its version pinned by ort/package-lock.json). ONNXRUNTIME_NODE_INSTALL=skip:
# without it the package's install script fetches CUDA files from a host
# outside the registries, which fails; the CPU library is in the package.
#
#   bash bench/install-deps.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Debian's nodejs has npm as a separate package; other builds of nodejs (such
# as NodeSource's) bundle it and conflict with Debian's npm.
npm=()
command -v npm >/dev/null || npm=(npm)
bash "$root/scripts/install-deps.sh" \
  libbenchmark-dev libsleef-dev \
  libxnnpack-dev libpthreadpool-dev \
  libdnnl-dev \
  libeigen3-dev \
  libhalide14-0-dev \
  libtorch-dev \
  python3-numpy python3-onnx python3-torch python3-yaml \
  distcc \
  nodejs "${npm[@]}"
if [ ! -d "$root/bench/ort/node_modules/onnxruntime-node" ]; then
  (cd "$root/bench/ort" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
fi
