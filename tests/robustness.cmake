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
