// The translation unit of bcastgen_test_pch (tests/CMakeLists.txt), the
// target that compiles the tests' precompiled header; it has no code.
