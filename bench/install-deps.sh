#!/usr/bin/env bash
# Installs what the benchmark needs (bench/run.sh calls it): the build's
# dependencies (scripts/install-deps.sh) plus the peers, all from Debian's
# packages, in one `apt-get update` + `apt-get install` if anything is missing.
#
#   bash bench/install-deps.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec bash "$root/scripts/install-deps.sh" \
  libbenchmark-dev libsleef-dev \
  libxnnpack-dev libpthreadpool-dev \
  libdnnl-dev \
  libeigen3-dev \
  libhalide14-0-dev \
  libtorch-dev \
  python3-numpy
