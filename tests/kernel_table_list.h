// The kernel tables of one set of generated test specs: {spec stem, table
// function} pairs, defined in the kernel_table_list.cpp that
// tests/kernel_tables.cmake generates beside the specs' sources. The
// drivers that iterate them (generated_kernels_test.cpp, guard_pages_test.cpp)
// are compiled once and linked against each set (the test specs, the
// differential test's random specs, the benchmark's on AArch64).
#pragma once

#include <utility>
#include <vector>

#include "bcastgen/registry.h"

using KernelTableEntry = std::pair<const char*, bcastgen::KernelTable (*)()>;

const std::vector<KernelTableEntry>& all_kernel_tables();
