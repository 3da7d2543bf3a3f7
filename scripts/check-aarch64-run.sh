#!/usr/bin/env bash
# `bcastgen run` as it runs on an AArch64 host, checked on this x86 machine:
# bcastgen itself is cross-built for AArch64 (the core and the CLI, without
# the Clang- and ONNX-based parts) and run under qemu-user, where it reads
# the .npy inputs, generates the kernel for the ISA that its own detection
# picks (or --isa), compiles it (scripts/qemu-aarch64-cxx.sh stands in for
# the system compiler), runs it, writes the output and, with --check,
# compares it with the reference inside the AArch64 process. Each output is
# also compared, bit for bit, with NumPy on the host.
#
#   bash scripts/check-aarch64-run.sh        (about 2 minutes, most of it the cross build)
#
# Not a stage of scripts/test.sh: the cross build of the generator would add
# about 2 minutes to a CI run that is close to its budget, and the code it
# checks (cmd_run.cpp, npy.cpp) has no architecture-specific path; the
# aarch64 stage already runs every generated kernel's NEON variant.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/install-deps.sh
build=$(mkdir -p "${AARCH64_CLI_BUILD_DIR:-build-aarch64-cli}" && cd "${AARCH64_CLI_BUILD_DIR:-build-aarch64-cli}" && pwd)
# The generator's two compiled libraries, Debian's arm64 builds (the others are header-only).
bash scripts/arm64-packages.sh "$build/packages" libyaml-cpp-dev libyaml-cpp0.7 libfmt-dev libfmt9
cmake -S . -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DBCASTGEN_AARCH64_PACKAGES="$build/packages/root" -DCMAKE_BUILD_TYPE=Release -DBCASTGEN_WITH_CLANG=OFF \
  -DBCASTGEN_WITH_ONNX=OFF -DBCASTGEN_BUILD_TESTS=OFF -DBCASTGEN_INSTALL=OFF >/dev/null
cmake --build "$build" -j2 --target bcastgen
bcastgen=(qemu-aarch64 -L /usr/aarch64-linux-gnu -E "LD_LIBRARY_PATH=$build/packages/root/usr/lib/aarch64-linux-gnu"
  "$build/generator/bcastgen")
export CXX="$root/scripts/qemu-aarch64-cxx.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 - <<'EOF'
import numpy as np
rng = np.random.default_rng(24)
np.save("x.npy", rng.standard_normal((1, 64, 56, 56), dtype=np.float32))
np.save("b.npy", rng.standard_normal((1, 64, 1, 1), dtype=np.float32))
np.save("img.npy", rng.random((1, 224, 224, 3), dtype=np.float32))
np.save("mean.npy", np.array([0.485, 0.456, 0.406], dtype=np.float32))
np.save("h.npy", rng.standard_normal((8, 128, 77)).astype(np.float16))
np.save("hs.npy", rng.standard_normal(77).astype(np.float16))
# Every f32 class the math functions treat apart: tails, ±0, ±inf, NaN, subnormals.
special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-38, 88.7, -103.9, -10.0, 10.0], np.float32)
np.save("m.npy", np.concatenate([special, rng.standard_normal(4096, dtype=np.float32) * 4]))
EOF

run() {  # run NAME ARGS...: bcastgen run under qemu with --check, output NAME.npy
  local name=$1
  shift
  echo "check-aarch64-run: bcastgen run $* -o $name.npy --check"
  "${bcastgen[@]}" run "$@" -o "$name.npy" --check
}
run bias x=x.npy b=b.npy --expr 'x + b'
run nhwc img.npy mean.npy --op subtract --isa neon
run nhwc_scalar img.npy mean.npy --op subtract --isa scalar
run half h=h.npy s=hs.npy --expr 'h * s + 1'
run gelu_neon m=m.npy --expr 'gelu(m)' --isa neon
run gelu_scalar m=m.npy --expr 'gelu(m)' --isa scalar

/usr/bin/python3 - <<'EOF'
import numpy as np
def same(name, want):
    got = np.load(name + ".npy")
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), name + ": not NumPy's bits"
x, b = np.load("x.npy"), np.load("b.npy")
same("bias", x + b)
img, mean = np.load("img.npy"), np.load("mean.npy")
same("nhwc", img - mean)
same("nhwc_scalar", img - mean)
h, hs = np.load("h.npy"), np.load("hs.npy")
same("half", h * hs + np.float16(1))  # NumPy's float16: each op in f32, rounded to f16
same("gelu_neon", np.load("gelu_scalar.npy"))  # the same bits on every ISA
print("check-aarch64-run: 6 runs under qemu-aarch64, outputs equal to NumPy's and across ISAs")
EOF
