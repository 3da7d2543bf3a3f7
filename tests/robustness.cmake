# Robustness tests (README, "Robustness: errors, fuzzing, sanitizers"),
# included from tests/CMakeLists.txt after bcastgen_test_kernels exists.

# Errors: spec limits and overflow through the command line; nothing lost
# in the output directory on a full disk, a read-only directory, a failed
# rename or a crash.
bcastgen_add_test(spec_limits_test spec_limits_test.cpp)
bcastgen_add_test(output_faults_test COST 5 output_faults_test.cpp)

# Every test-spec kernel, on every ISA the CPU runs, with its operands
# against PROT_NONE guard pages at both ends.
bcastgen_add_test(guard_pages_test $<TARGET_OBJECTS:guard_pages_driver>)
target_link_libraries(guard_pages_test PRIVATE bcastgen_test_kernels)

# The fuzz targets' seed corpora and regression inputs, replayed through the
# same target code in the ordinary build (fuzz/README: the fuzzing itself is
# scripts/fuzz.sh, built with clang).
set(BCASTGEN_FUZZ_DIR ${PROJECT_SOURCE_DIR}/fuzz)
bcastgen_add_test(fuzz_replay_test fuzz_replay_test.cpp
  ${BCASTGEN_FUZZ_DIR}/spec_fuzzer.cpp ${BCASTGEN_FUZZ_DIR}/shape_rules_fuzzer.cpp ${BCASTGEN_FUZZ_DIR}/plan_fuzzer.cpp
  ${BCASTGEN_FUZZ_DIR}/expr_fuzzer.cpp)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/spec_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_spec)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/shape_rules_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_shape_rules)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/plan_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_plan)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/expr_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_expr)
target_include_directories(fuzz_replay_test PRIVATE ${BCASTGEN_FUZZ_DIR})
target_compile_definitions(fuzz_replay_test PRIVATE BCASTGEN_FUZZ_DIR="${BCASTGEN_FUZZ_DIR}")

# Differential testing: random (rule, op, dtype, shapes) kernels and random
# expression DAGs over 1-5 inputs from a fixed seed, generated, compiled
# (4 + 4 translation units, -O1) and compared with the reference by the
# generated_kernels_test driver; their operands are also put against guard
# pages. Explore other seeds with
#   BCASTGEN_DIFF_SEED=123 cmake -S . -B build && cmake --build build && ctest --test-dir build -R diff_
# (or -DBCASTGEN_DIFF_SEED=123; the environment variable wins).
set(BCASTGEN_DIFF_SEED 20261122 CACHE STRING "Seed of the differential test's random kernels")
set(BCASTGEN_DIFF_COUNT 512 CACHE STRING "Number of random kernels in the differential test")
if(NOT "$ENV{BCASTGEN_DIFF_SEED}" STREQUAL "")
  set(bcastgen_diff_seed "$ENV{BCASTGEN_DIFF_SEED}")
else()
  set(bcastgen_diff_seed "${BCASTGEN_DIFF_SEED}")
endif()

find_program(BCASTGEN_PYTHON3 NAMES python3 REQUIRED)
set(BCASTGEN_DIFF_EXPR_COUNT 512 CACHE STRING "Number of random expression kernels in the differential test")
set(bcastgen_diff_count ${BCASTGEN_DIFF_COUNT})
set(bcastgen_diff_expr_count ${BCASTGEN_DIFF_EXPR_COUNT})
if(BCASTGEN_TEST_SAMPLE)  # the sanitizer stage: a sample (tests/CMakeLists.txt)
  set(bcastgen_diff_count 64)
  set(bcastgen_diff_expr_count 64)
endif()
set(diff_dir ${CMAKE_CURRENT_BINARY_DIR}/diff)
bcastgen_diff_specs(diff_specs PYTHON ${BCASTGEN_PYTHON3} GENERATOR $<TARGET_FILE:bcastgen> DIR ${diff_dir} SEED ${bcastgen_diff_seed}
                    COUNT ${bcastgen_diff_count} EXPR_COUNT ${bcastgen_diff_expr_count})
message(STATUS "bcastgen differential test: seed ${bcastgen_diff_seed}, ${bcastgen_diff_count} + ${bcastgen_diff_expr_count} kernels")
bcastgen_kernel_tables(bcastgen_diff_kernels GENERATOR bcastgen DIR ${diff_dir} SPECS ${diff_specs})
target_link_libraries(bcastgen_diff_kernels PUBLIC bcastgen_runtime)
target_compile_options(bcastgen_diff_kernels PRIVATE ${BCASTGEN_WARNINGS} -Werror ${BCASTGEN_DIFF_KERNEL_OPT})
bcastgen_add_test(differential_test $<TARGET_OBJECTS:kernel_matrix_driver>)
target_link_libraries(differential_test PRIVATE bcastgen_diff_kernels)
bcastgen_add_test(differential_guard_pages_test $<TARGET_OBJECTS:guard_pages_driver>)
target_link_libraries(differential_guard_pages_test PRIVATE bcastgen_diff_kernels)
