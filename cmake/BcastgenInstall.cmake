# Install rules and the exported CMake package (included by the top-level
# CMakeLists.txt). `cmake --install <build> --prefix <p>` gives:
#   <p>/bin/bcastgen
#   <p>/lib/bcastgen/bcastgen-clang.so  inspect, --verify, --format (loaded by the tool), where built
#   <p>/include/bcastgen/*.h, *.inl     runtime headers (bcastgen::runtime)
#   <p>/include/bcastgen/gen/*.h        generator library headers (bcastgen::core)
#   <p>/lib/libbcastgen_core.a
#   <p>/include/bcastgen/onnx/import.h, <p>/lib/libbcastgen_onnx.a   the ONNX frontend
#                                       (bcastgen::onnx), where it is built
#   <p>/lib/cmake/bcastgen/             bcastgenConfig.cmake, bcastgenConfigVersion.cmake,
#                                       bcastgenTargets.cmake, bcastgenCoreTargets.cmake,
#                                       bcastgenOnnxTargets.cmake, BcastgenGenerate.cmake
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BCASTGEN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/bcastgen" CACHE STRING
    "Where bcastgen's CMake package files are installed, relative to the prefix")

# The tool and the runtime: all a consumer of bcastgen_generate() needs.
install(TARGETS bcastgen bcastgen_runtime
  EXPORT bcastgenTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/bcastgen"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inl")
install(EXPORT bcastgenTargets
  NAMESPACE bcastgen::
  DESTINATION "${BCASTGEN_INSTALL_CMAKEDIR}")
# The Clang-based commands' module, where the tool looks for it
# (generator/cli/clang_module.cpp: <bindir>/../<libdir>/bcastgen).
if(TARGET bcastgen_clang_plugin)
  install(TARGETS bcastgen_clang_plugin LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/bcastgen")
endif()

# The generator library, for AOT compilers that emit kernels themselves. A
# separate export set, so that the tool works without fmt/json/yaml-cpp's
# CMake packages.
install(TARGETS bcastgen_core
  EXPORT bcastgenCoreTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# (npy.h and output.h belong to the command line's bcastgen_io, which is not installed.)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/generator/include/bcastgen/gen"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/bcastgen"
  FILES_MATCHING PATTERN "*.h" PATTERN "npy.h" EXCLUDE PATTERN "output.h" EXCLUDE)
install(FILES "${PROJECT_BINARY_DIR}/generator/include/bcastgen/gen/version.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/bcastgen/gen")
install(EXPORT bcastgenCoreTargets
  NAMESPACE bcastgen::
  DESTINATION "${BCASTGEN_INSTALL_CMAKEDIR}")

# The ONNX frontend, for compilers that read models themselves: its own
# export set, which needs ONNX's and protobuf's packages besides the core's.
if(BCASTGEN_ONNX_FOUND)
  set_target_properties(bcastgen_onnx PROPERTIES EXPORT_NAME onnx)
  install(TARGETS bcastgen_onnx
    EXPORT bcastgenOnnxTargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/generator/onnx/include/bcastgen/onnx"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/bcastgen")
  install(EXPORT bcastgenOnnxTargets
    NAMESPACE bcastgen::
    DESTINATION "${BCASTGEN_INSTALL_CMAKEDIR}")
endif()

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/bcastgenConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/bcastgenConfig.cmake"
  INSTALL_DESTINATION "${BCASTGEN_INSTALL_CMAKEDIR}")
# 0.x: a minor version may break compatibility.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/bcastgenConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/bcastgenConfig.cmake"
  "${PROJECT_BINARY_DIR}/bcastgenConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/BcastgenGenerate.cmake"
  DESTINATION "${BCASTGEN_INSTALL_CMAKEDIR}")
