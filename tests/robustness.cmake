# Robustness tests (README, "Robustness: errors, fuzzing, sanitizers"),
# included from tests/CMakeLists.txt after bcastgen_test_kernels exists.

# Errors: spec limits and overflow through the command line; nothing lost
# in the output directory on a full disk, a read-only directory, a failed
# rename or a crash.
bcastgen_add_test(spec_limits_test spec_limits_test.cpp)
bcastgen_add_test(output_faults_test output_faults_test.cpp)

# Every test-spec kernel, on every ISA the CPU runs, with its operands
# against PROT_NONE guard pages at both ends.
bcastgen_add_test(guard_pages_test guard_pages_test.cpp)
target_link_libraries(guard_pages_test PRIVATE bcastgen_test_kernels)

# The fuzz targets' seed corpora and regression inputs, replayed through the
# same target code in the ordinary build (fuzz/README: the fuzzing itself is
# scripts/fuzz.sh, built with clang).
set(BCASTGEN_FUZZ_DIR ${PROJECT_SOURCE_DIR}/fuzz)
bcastgen_add_test(fuzz_replay_test fuzz_replay_test.cpp
  ${BCASTGEN_FUZZ_DIR}/spec_fuzzer.cpp ${BCASTGEN_FUZZ_DIR}/shape_rules_fuzzer.cpp ${BCASTGEN_FUZZ_DIR}/plan_fuzzer.cpp)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/spec_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_spec)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/shape_rules_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_shape_rules)
set_source_files_properties(${BCASTGEN_FUZZ_DIR}/plan_fuzzer.cpp PROPERTIES COMPILE_DEFINITIONS BCASTGEN_FUZZ_ENTRY=fuzz_plan)
target_include_directories(fuzz_replay_test PRIVATE ${BCASTGEN_FUZZ_DIR})
target_compile_definitions(fuzz_replay_test PRIVATE BCASTGEN_FUZZ_DIR="${BCASTGEN_FUZZ_DIR}")
