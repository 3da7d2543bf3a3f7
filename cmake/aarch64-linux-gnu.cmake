# Cross-compiling for AArch64 Linux with Debian's g++-aarch64-linux-gnu;
# programs run under qemu-user (Debian's qemu-user), with the cross
# libraries' sysroot. Used by tests/aarch64/ (scripts/test-aarch64.sh):
#   cmake -S tests/aarch64 -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
# -DBCASTGEN_AARCH64_PACKAGES=DIR: Debian arm64 packages unpacked into DIR
# (scripts/arm64-packages.sh) add their libraries and CMake packages, and /
# the architecture-independent ones (CLI11, nlohmann-json, their headers).
# Used to cross-build bcastgen itself (scripts/check-aarch64-run.sh).
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BCASTGEN_AARCH64_PACKAGES)
if(BCASTGEN_AARCH64_PACKAGES)
  list(APPEND CMAKE_FIND_ROOT_PATH ${BCASTGEN_AARCH64_PACKAGES} /)
  set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest and gtest_discover_tests run the test programs through this.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
