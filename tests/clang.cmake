# Tests of `bcastgen inspect`, `generate --verify` and `--format`
# (generator/clang/), included from tests/CMakeLists.txt when
# BCASTGEN_WITH_CLANG is on, after bcastgen_test_kernels exists.

# The checks on code strings, in-process.
bcastgen_add_test(inspect_test inspect_test.cpp)
target_link_libraries(inspect_test PRIVATE bcastgen_clang)
target_include_directories(inspect_test PRIVATE ${PROJECT_SOURCE_DIR}/generator/clang/src)  # intrinsic_families.h

# The checks on the generated test kernels (their sources are generated for
# bcastgen_test_kernels) and on examples/demo.yaml.
bcastgen_add_test(inspect_generated_test inspect_generated_test.cpp)
target_link_libraries(inspect_generated_test PRIVATE bcastgen_clang)
add_dependencies(inspect_generated_test bcastgen_test_kernels)
target_compile_definitions(inspect_generated_test PRIVATE BCASTGEN_TEST_KERNELS_DIR="${CMAKE_CURRENT_BINARY_DIR}/kernels")

# --verify on a broken test-only template (tests/clang/), --format, and the
# inspect command.
bcastgen_add_test(verify_test verify_test.cpp)
target_link_libraries(verify_test PRIVATE bcastgen_clang)
target_include_directories(verify_test PRIVATE ${PROJECT_SOURCE_DIR}/generator/src)  # render.h
