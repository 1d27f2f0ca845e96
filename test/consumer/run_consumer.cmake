# Builds and runs a consumer project of ctir, run by CTest as `cmake -P`:
#
#   cmake -DMODE=find_package|add_subdirectory -DCTIR_SOURCE_DIR=<ctir source>
#         -DWORK_DIR=<scratch dir> -DCXX=<compiler> -DGENERATOR=<generator>
#         [-DMAKE_PROGRAM=<ninja/make>] [-DBUILD_TYPE=<type>] [-DCTIR_BUILD_DIR=<build>]
#         -P run_consumer.cmake
#
# find_package:     `cmake --install`s ctir into WORK_DIR/prefix, then builds
#                   test/consumer/find_package against that prefix (and checks that it
#                   found that copy). With CTIR_BUILD_DIR, from that build tree, whose
#                   libctir.a is already built (the tests' own build); without, it
#                   configures and builds ctir alone first. Both consumer executables,
#                   one header-only (ctir::ctir) and one against the installed library
#                   (ctir::compiled), must run and exit with 0.
# add_subdirectory: configures test/consumer/add_subdirectory, which pulls in
#                   CTIR_SOURCE_DIR with add_subdirectory (generating it checks that both
#                   ctir::ctir and ctir::compiled exist), and builds and runs its
#                   header-only executable. Building libctir.a once more as a subproject
#                   took minutes of the stage and tests nothing the top-level build of the
#                   same CMakeLists does not: BUILD_COMPILED=ON builds and runs the compiled
#                   executable too.
cmake_minimum_required(VERSION 3.25)

foreach(var MODE CTIR_SOURCE_DIR WORK_DIR CXX GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer: -D${var}=... is required")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

set(common_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
if(MAKE_PROGRAM)
  list(APPEND common_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

# run(<command>...): echo the command, run it, stop on failure.
function(run)
  execute_process(COMMAND ${ARGN} COMMAND_ECHO STDOUT COMMAND_ERROR_IS_FATAL ANY)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer_build "${WORK_DIR}/consumer-build")

set(consumer_executables ctir_consumer ctir_consumer_compiled)
if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  if(NOT CTIR_BUILD_DIR)
    set(CTIR_BUILD_DIR "${WORK_DIR}/ctir-build")
    run("${CMAKE_COMMAND}" -S "${CTIR_SOURCE_DIR}" -B "${CTIR_BUILD_DIR}" ${common_args}
        -DCTIR_BUILD_TESTS=OFF -DCTIR_BUILD_EXAMPLES=OFF -DCTIR_BUILD_BENCHMARKS=OFF
        -DCTIR_BUILD_TOOLS=OFF -DCTIR_INSTALL=ON)
    run("${CMAKE_COMMAND}" --build "${CTIR_BUILD_DIR}" --target ctir_compiled) # for ctir::compiled
  endif()
  run("${CMAKE_COMMAND}" --install "${CTIR_BUILD_DIR}" --prefix "${prefix}")
  run("${CMAKE_COMMAND}" -S "${CTIR_SOURCE_DIR}/test/consumer/find_package" -B "${consumer_build}"
      ${common_args} "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

  # The consumer must have found the copy just installed, not another one.
  file(STRINGS "${consumer_build}/CMakeCache.txt" ctir_dir_line REGEX "^ctir_DIR:")
  string(REGEX REPLACE "^ctir_DIR:[A-Z]+=" "" ctir_dir "${ctir_dir_line}")
  file(REAL_PATH "${prefix}" real_prefix)
  file(REAL_PATH "${ctir_dir}" real_ctir_dir)
  string(FIND "${real_ctir_dir}" "${real_prefix}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "run_consumer: find_package(ctir) found '${ctir_dir}', not the copy in '${prefix}'")
  endif()
elseif(MODE STREQUAL "add_subdirectory")
  run("${CMAKE_COMMAND}" -S "${CTIR_SOURCE_DIR}/test/consumer/add_subdirectory" -B "${consumer_build}"
      ${common_args} "-DCTIR_SOURCE_DIR=${CTIR_SOURCE_DIR}")
  if(NOT BUILD_COMPILED)
    set(consumer_executables ctir_consumer)
  endif()
else()
  message(FATAL_ERROR "run_consumer: unknown MODE '${MODE}' (find_package or add_subdirectory)")
endif()

run("${CMAKE_COMMAND}" --build "${consumer_build}" --target ${consumer_executables})
foreach(executable IN LISTS consumer_executables)
  run("${consumer_build}/${executable}")
endforeach()
message(STATUS "run_consumer: ${MODE} consumers built and ran: ${consumer_executables}")
