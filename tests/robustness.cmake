# Robustness tests (README, "Robustness: errors, fuzzing, sanitizers"),
# included from tests/CMakeLists.txt after bcastgen_test_kernels exists.

# Errors: spec limits and overflow through the command line; nothing lost
# in the output directory on a full disk, a read-only directory, a failed
# rename or a crash.
bcastgen_add_test(spec_limits_test spec_limits_test.cpp)
bcastgen_add_test(output_faults_test output_faults_test.cpp)
