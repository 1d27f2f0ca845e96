# Fails when an object file runs code before main: checks that `nm` lists no initialization
# function of the translation unit (GCC and Clang name it _GLOBAL__sub_I_<file>), run by
# CTest as `cmake -DNM=<nm> -DOBJECTS=<object>... -P check_no_static_init.cmake`.
cmake_minimum_required(VERSION 3.25)

foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND "${NM}" "${object}" OUTPUT_VARIABLE symbols COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX MATCHALL "[^\n]*_GLOBAL__sub_I_[^\n]*" initializers "${symbols}")
  if(initializers)
    message(FATAL_ERROR "${object} runs code before main (${initializers}): something "
                        "included registers itself during static initialization")
  endif()
endforeach()
message(STATUS "no static initialization in: ${OBJECTS}")
