#!/usr/bin/env bash
# Packaging test (ctest: install_consumer_test). Installs the current build
# into a temporary prefix, then builds and runs examples/consumer against it
# with find_package(bcastgen) + bcastgen_generate(), and checks that the
# generate step reruns exactly when the spec or the generator changes.
#
#   install_consumer_test.sh <bcastgen build dir> <bcastgen source dir> <cmake generator> <c++ compiler>
set -euo pipefail
build_dir=$1 source_dir=$2 generator=$3 cxx=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bcastgen_install_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
start=$SECONDS
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== [$((SECONDS - start))s] $*"; }

step "cmake --install $build_dir --prefix <tmp>/prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/bcastgen include/bcastgen/rules.h include/bcastgen/reference.h include/bcastgen/registry.h \
         include/bcastgen/gen/spec.h include/bcastgen/gen/version.h \
         lib/cmake/bcastgen/bcastgenConfig.cmake lib/cmake/bcastgen/bcastgenConfigVersion.cmake \
         lib/cmake/bcastgen/bcastgenTargets.cmake lib/cmake/bcastgen/BcastgenGenerate.cmake; do
  [[ -e "$prefix/$f" ]] || fail "the install has no $f"
done
"$prefix/bin/bcastgen" --version

# Build from a copy, so the test can touch the spec without touching the checkout.
cp -r "$source_dir/examples/consumer" "$tmp/src"
# At -O1: the test checks the packaging and the values, not the code's speed
# (the consumer's 32 kernels on every ISA took 53 s at Release's -O3).
configure() {  # <source> <build> [cmake args...]
  local src=$1 bld=$2
  shift 2
  cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure $src"; }
}
build() {  # <build dir> <log file>
  cmake --build "$1" -j2 >"$2" 2>&1 || { cat "$2"; fail "build $1"; }
}

step "configure + build examples/consumer against the prefix"
configure "$tmp/src" "$tmp/build"
build "$tmp/build" "$tmp/build.log"
grep -q "bcastgen generate resnet50" "$tmp/build.log" || { cat "$tmp/build.log"; fail "the build did not run bcastgen"; }

step "run resnet50_check"
"$tmp/build/resnet50_check" >"$tmp/run.log" || { cat "$tmp/run.log"; fail "resnet50_check"; }
tail -n 2 "$tmp/run.log"

if [[ -e "$build_dir/generator/bcastgen-clang.so" ]]; then
  step "inspect the generated source: the installed tool finds its Clang module"
  [[ -e "$prefix/lib/bcastgen/bcastgen-clang.so" ]] || fail "the install has no lib/bcastgen/bcastgen-clang.so"
  generated=$(grep -rl --include='*.cpp' 'bcastgen.kernel:' "$tmp/build" | head -n 1)
  "$prefix/bin/bcastgen" inspect "$generated" >"$tmp/inspect.log" 2>&1 || { cat "$tmp/inspect.log"; fail "bcastgen inspect"; }
  tail -n 1 "$tmp/inspect.log"
fi

if [[ $generator == Ninja ]]; then
  step "rebuild: nothing to do"
  build "$tmp/build" "$tmp/log"
  grep -q "no work to do" "$tmp/log" || { cat "$tmp/log"; fail "a second build was not a no-op"; }

  step "touch the spec: the generator reruns; unchanged output is not recompiled"
  touch "$tmp/src/resnet50.yaml"
  build "$tmp/build" "$tmp/log"
  grep -q "bcastgen generate resnet50" "$tmp/log" || { cat "$tmp/log"; fail "touching the spec did not rerun bcastgen"; }
  if grep -q "Building CXX" "$tmp/log"; then cat "$tmp/log"; fail "unchanged generated files were recompiled"; fi

  step "touch the generator: the generator reruns"
  touch "$prefix/bin/bcastgen"
  build "$tmp/build" "$tmp/log"
  grep -q "bcastgen generate resnet50" "$tmp/log" || { cat "$tmp/log"; fail "a newer bcastgen did not rerun the generator"; }
fi

step "NAMESPACE, ISA and OUTPUT_DIR options of bcastgen_generate; bcastgen::core"
mkdir "$tmp/opts"
cat >"$tmp/opts/fc.yaml" <<'EOF'
namespace: from_spec
kernels:
  - {name: fc_bias, op: add, dtype: f32, rule: numpy, a: [1, 1000], b: [1000]}
EOF
cat >"$tmp/opts/main.cpp" <<'EOF'
#include <vector>
#include "fc.h"
int main() {
  std::vector<float> a(1000, 1.0f), b(1000, 2.0f), out(1000);
  my::kernels::fc_bias(a.data(), b.data(), out.data());
  return out[0] == 3.0f && out[999] == 3.0f ? 0 : 1;
}
EOF
# bcastgen::core: the generator library, in-process, as an AOT compiler uses it.
cat >"$tmp/opts/core_user.cpp" <<'EOF'
#include <cstdio>
#include "bcastgen/gen/emit.h"
int main() {
  bcastgen::gen::Spec spec;
  spec.ns = "aot";
  spec.kernels.push_back(bcastgen::gen::binary_kernel("bias", bcastgen::Op::Add, bcastgen::DType::F32,
                                                      bcastgen::Rule::Numpy, {4, 8}, {8}));
  bcastgen::gen::GenerateOptions options;
  options.stem = "aot";
  const auto out = bcastgen::gen::generate(spec, options);
  std::printf("bcastgen::core generated %zu files\n", out.files.size());
  return out.files.count("aot.cpp") == 1 && out.files.count("aot.h") == 1 ? 0 : 1;
}
EOF
cat >"$tmp/opts/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(opts LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(bcastgen 0.1 CONFIG REQUIRED COMPONENTS core)
add_library(fc STATIC)
bcastgen_generate(fc SPEC fc.yaml NAMESPACE my::kernels ISA scalar OUTPUT_DIR kernels)
add_executable(opts main.cpp)
target_link_libraries(opts PRIVATE fc)
add_executable(core_user core_user.cpp)
target_link_libraries(core_user PRIVATE bcastgen::core)
EOF
configure "$tmp/opts" "$tmp/opts-build"
build "$tmp/opts-build" "$tmp/opts.log"
"$tmp/opts-build/opts" || fail "opts: wrong result"
header="$tmp/opts-build/kernels/fc.h"
[[ -f $header ]] || fail "OUTPUT_DIR: no $header"
grep -q "namespace my::kernels" "$header" || fail "NAMESPACE: $header is not in namespace my::kernels"
grep -q "avx2" "$tmp/opts-build/kernels/fc.cpp" && fail "ISA scalar: fc.cpp has an avx2 variant"
"$tmp/opts-build/core_user" || fail "core_user: bcastgen::core did not generate aot.h/aot.cpp"

step "SHARDS auto: the installed generator's shard count, learned at configure time"
mkdir "$tmp/sharded"
{
  printf 'namespace: big\nisa: [avx2, scalar]\nkernels:\n'
  for i in $(seq 1 64); do
    echo "  - {name: k$i, op: add, dtype: f32, rule: numpy, a: [$i, 7, 33], b: [$i, 1, 33]}"
  done
} >"$tmp/sharded/big.yaml"
cat >"$tmp/sharded/main.cpp" <<'EOF'
#include <cstdio>
#include <cstring>
#include <vector>
#include "big.h"
#include "big_c.h"
// Kernels from different shards, through the kernel table of big.cpp, and
// a C entry's error through the one last error.
int main() {
  const bcastgen::KernelTable t = big::big_kernels();
  if (t.size != 64 || std::strcmp(t.entries[0].name, "k1") != 0 || std::strcmp(t.entries[63].name, "k64") != 0) return 1;
  for (int k : {1, 17, 64}) {
    std::vector<float> a(k * 7 * 33), b(k * 33), out(a.size()), ref(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.5f * static_cast<float>(i % 97);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 13) - 6.0f;
    const void* in[] = {a.data(), b.data()};
    t.entries[k - 1].run(bcastgen::active_isa(), in, out.data());
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < 7; ++j)
        for (int l = 0; l < 33; ++l) ref[(i * 7 + j) * 33 + l] = a[(i * 7 + j) * 33 + l] + b[i * 33 + l];
    if (out != ref) return 2;
  }
  std::vector<float> a(64 * 7 * 33);
  const int64_t dims[] = {64, 7, 33};
  if (big_k64_checked(a.data(), dims, 3, a.data(), dims, 3, a.data(), dims, 3) == BCASTGEN_OK) return 3;
  if (std::strstr(big_last_error(), "k64") == nullptr) return 4;
  std::puts("64 kernels from their shards match");
  return 0;
}
EOF
cat >"$tmp/sharded/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(sharded LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(bcastgen 0.1 CONFIG REQUIRED)
add_executable(sharded main.cpp)
bcastgen_generate(sharded SPEC big.yaml)
EOF
configure "$tmp/sharded" "$tmp/sharded-build"
build "$tmp/sharded-build" "$tmp/sharded.log"
"$tmp/sharded-build/sharded" || fail "sharded: wrong result"
listed=$("$prefix/bin/bcastgen" generate "$tmp/sharded/big.yaml" --list-outputs | grep -c '_shard[0-9]*\.cpp$')
built=$(find "$tmp/sharded-build/bcastgen/sharded" -name 'big_shard*.cpp' | wc -l)
[[ $listed -ge 2 && $built -eq $listed ]] || fail "SHARDS auto: $built shard files for the $listed that --list-outputs lists"
echo "$built shards"

if [[ -f "$prefix/include/bcastgen/onnx/import.h" ]]; then
  step "bcastgen::onnx: the ONNX frontend, in-process"
  mkdir "$tmp/onnx"
  cat >"$tmp/onnx/onnx_user.cpp" <<'EOF'
#include <cstdio>
#include <fstream>
#include <iterator>
#include "bcastgen/gen/emit.h"
#include "bcastgen/onnx/import.h"
int main(int, char** argv) {
  std::ifstream f(argv[1], std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(f), {}};
  const auto m = bcastgen::onnx_import::import_model(bytes, "light_squeezenet.onnx", {});
  bcastgen::gen::GenerateOptions options;
  options.stem = "squeezenet";
  const auto out = bcastgen::gen::generate(m.spec, options);
  std::printf("bcastgen::onnx: %zu kernels, %zu files\n", m.spec.kernels.size(), out.files.size());
  return m.spec.kernels.size() == 12 && out.files.count("squeezenet.cpp") == 1 ? 0 : 1;  // 11 elementwise, its Softmax
}
EOF
  cat >"$tmp/onnx/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(onnx_user LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(bcastgen 0.1 CONFIG REQUIRED COMPONENTS core onnx)
add_executable(onnx_user onnx_user.cpp)
target_link_libraries(onnx_user PRIVATE bcastgen::onnx)
EOF
  configure "$tmp/onnx" "$tmp/onnx-build"
  build "$tmp/onnx-build" "$tmp/onnx.log"
  "$tmp/onnx-build/onnx_user" "$source_dir/../shared/onnx-models/light_squeezenet.onnx" \
    || fail "onnx_user: bcastgen::onnx did not import light_squeezenet.onnx"
fi

step "done"
