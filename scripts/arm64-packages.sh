#!/usr/bin/env bash
# Unpacks Debian's arm64 builds of the named packages into DIR/root, for
# programs cross-built for AArch64 on this x86-64 machine and run under
# qemu-user (scripts/check-aarch64-run.sh, bench/arm64/count-instructions.sh):
#
#   bash scripts/arm64-packages.sh DIR PACKAGE...
#
# Not installed through dpkg's multiarch: the -dev packages used here
# (libyaml-cpp-dev, libxnnpack-dev, libpthreadpool-dev) are not co-installable
# with their amd64 builds, so installing the arm64 one would remove what the
# native build and the benchmark link. apt reads the arm64 package lists into
# DIR/lists, and nothing of the system's apt or dpkg state changes. The
# caller names every package, dependencies included. Needs the Debian
# package registry; a package already unpacked is not fetched again.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
mkdir -p "$dir/lists/partial" "$dir/debs" "$dir/root"
apt_options=(-o APT::Architectures::=arm64 -o "Dir::State::Lists=$dir/lists"
  -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
missing=()
for p in "$@"; do
  [ -e "$dir/root/.unpacked.$p" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
apt-get "${apt_options[@]}" update -qq
for p in "${missing[@]}"; do
  rm -f "$dir"/debs/*.deb
  (cd "$dir/debs" && apt-get "${apt_options[@]}" download -qq "$p:arm64" 2>&1 | grep -v "unsandboxed" || true)
  dpkg-deb -x "$dir"/debs/*.deb "$dir/root"
  touch "$dir/root/.unpacked.$p"
done
echo "arm64-packages: unpacked ${missing[*]} into $dir/root"
