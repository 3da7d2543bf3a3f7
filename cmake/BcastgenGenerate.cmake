# bcastgen_generate(<target> SPEC <file.yaml> [NAMESPACE <ns>] [ISA <isa>...]
#                   [OUTPUT_DIR <dir>] [SHARDS <n>|auto])
#
# Runs `bcastgen generate` at build time on SPEC and adds the outputs to
# <target>: <stem>.cpp (compiled), <stem>.h (the C++ API), <stem>_c.h (the C
# entry points) and <stem>.manifest.json (<stem> is SPEC's file name without
# its last extension), with their directory as an include path and the
# runtime headers (bcastgen::runtime). The command reruns when the
# spec or the bcastgen executable changes; files whose content did not
# change are not rewritten, so dependents are not recompiled needlessly.
#
#   NAMESPACE   overrides the spec's `namespace:`
#   ISA         overrides the spec's `isa:` list, e.g. ISA avx2 scalar
#   OUTPUT_DIR  where the files go (relative: to the current binary dir);
#               default ${CMAKE_CURRENT_BINARY_DIR}/bcastgen/<target>
#   SHARDS      the kernels in <n> translation units, <stem>_shard0.cpp ..
#               <stem>_shard<n-1>.cpp, beside <stem>.cpp (the kernel table):
#               a parallel or distributed build (distcc, icecream) compiles
#               them side by side. `auto` (the default when bcastgen is a
#               package) asks the installed generator at configure time
#               (`generate --list-outputs`: one shard per ~512 KiB of kernel
#               code) and reconfigures when the spec changes. In a source
#               tree (add_subdirectory) the generator is not built yet when
#               CMake configures, so the default there is one file: give
#               SHARDS <n> to shard.
#
# Call it in the directory that created <target>. It links with the keyword
# form of target_link_libraries (PUBLIC for libraries, PRIVATE for
# executables). The generator is the in-tree `bcastgen` target when bcastgen
# was added with add_subdirectory, else the imported bcastgen::bcastgen from
# find_package(bcastgen).
include_guard(GLOBAL)

function(bcastgen_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "SPEC;NAMESPACE;OUTPUT_DIR;SHARDS" "ISA")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bcastgen_generate: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "bcastgen_generate: '${target}' is not a target")
  endif()
  if(NOT ARG_SPEC)
    message(FATAL_ERROR "bcastgen_generate(${target}): SPEC <file.yaml> is required")
  endif()

  # The generator: the real target behind bcastgen::bcastgen (an alias in a
  # source tree, an imported executable from an install).
  if(NOT TARGET bcastgen::bcastgen)
    message(FATAL_ERROR "bcastgen_generate: no bcastgen::bcastgen target; use find_package(bcastgen) or add_subdirectory(<bcastgen source>)")
  endif()
  get_target_property(exe bcastgen::bcastgen ALIASED_TARGET)
  if(NOT exe)
    set(exe bcastgen::bcastgen)
  endif()

  get_filename_component(spec "${ARG_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(stem "${spec}" NAME_WLE)
  if(ARG_OUTPUT_DIR)
    get_filename_component(out_dir "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/bcastgen/${target}")
  endif()

  set(options "")
  if(DEFINED ARG_NAMESPACE)
    if(NOT ARG_NAMESPACE MATCHES "^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")
      message(FATAL_ERROR "bcastgen_generate(${target}): NAMESPACE '${ARG_NAMESPACE}' is not a C++ namespace")
    endif()
    list(APPEND options --namespace "${ARG_NAMESPACE}")
  endif()
  if(ARG_ISA)
    # The names are checked by bcastgen itself, against its ISA table.
    list(JOIN ARG_ISA "," isa_text)
    list(APPEND options --isa "${isa_text}")
  endif()

  # The shard count, fixed here so that the build writes exactly the files
  # listed: SHARDS <n>, or the installed generator's own choice for the spec.
  set(shards 1)
  if(DEFINED ARG_SHARDS AND NOT ARG_SHARDS STREQUAL "auto")
    if(NOT ARG_SHARDS MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "bcastgen_generate(${target}): SHARDS '${ARG_SHARDS}' is not auto or a count from 1")
    endif()
    set(shards ${ARG_SHARDS})
  else()
    get_target_property(imported ${exe} IMPORTED)
    if(imported)
      get_target_property(exe_path ${exe} LOCATION)
      execute_process(
        COMMAND "${exe_path}" generate "${spec}" --list-outputs --shards auto ${options}
        OUTPUT_VARIABLE listed ERROR_VARIABLE listing_error RESULT_VARIABLE listing_status)
      if(NOT listing_status EQUAL 0)
        message(FATAL_ERROR "bcastgen_generate(${target}): bcastgen generate --list-outputs failed:\n${listing_error}")
      endif()
      string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" stem_pattern "${stem}")
      string(REGEX MATCHALL "${stem_pattern}_shard[0-9]+\\.cpp" listed_shards "${listed}")
      list(LENGTH listed_shards shards)
      if(shards EQUAL 0)
        set(shards 1)
      endif()
      # The count follows the spec (and the generator): configure again when either changes.
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}" "${exe_path}")
    endif()
  endif()
  list(APPEND options --shards ${shards})

  set(header "${out_dir}/${stem}.h")
  set(c_header "${out_dir}/${stem}_c.h")
  set(source "${out_dir}/${stem}.cpp")
  set(manifest "${out_dir}/${stem}.manifest.json")
  set(shard_sources "")
  if(shards GREATER 1)
    math(EXPR last "${shards} - 1")
    foreach(k RANGE ${last})
      list(APPEND shard_sources "${out_dir}/${stem}_shard${k}.cpp")
    endforeach()
  endif()
  add_custom_command(
    OUTPUT "${header}" "${source}" "${c_header}" "${manifest}" ${shard_sources}
    COMMAND ${exe} generate "${spec}" -o "${out_dir}" ${options}
    DEPENDS "${spec}" ${exe} "$<TARGET_FILE:${exe}>"
    COMMENT "bcastgen generate ${stem} for ${target}"
    VERBATIM)

  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  elseif(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
    message(FATAL_ERROR "bcastgen_generate: '${target}' cannot compile the generated source (use an executable or a STATIC, SHARED or OBJECT library)")
  else()
    set(scope PUBLIC)
  endif()
  target_sources(${target} PRIVATE "${header}" "${c_header}" "${source}" ${shard_sources})
  target_include_directories(${target} ${scope} "$<BUILD_INTERFACE:${out_dir}>")
  target_link_libraries(${target} ${scope} bcastgen::runtime)
endfunction()
