# Warning and sanitizer flags for ctir's own targets (tests, benchmarks,
# examples, tools). Never applied to the ctir INTERFACE target: users choose
# their own flags.
include_guard(GLOBAL)

# ctir_set_warnings(<target>)
#
# Adds the house warning set, -Werror when CTIR_WARNINGS_AS_ERRORS is ON, and
# the sanitizers named by CTIR_SANITIZE (compile and link) to <target>.
function(ctir_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /permissive-)
    if(CTIR_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE /WX)
    endif()
  else()
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic
      -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
      -Wnon-virtual-dtor -Woverloaded-virtual)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC 12's -Wrestrict fires inside libstdc++ on `"text" + std::string`
      # at -O2 and above (GCC bug 105329), a false positive.
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(CTIR_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
  ctir_set_sanitizers(${target})
endfunction()

# ctir_set_sanitizers(<target>)
#
# Compiles and links <target> with -fsanitize=${CTIR_SANITIZE}; a no-op when
# CTIR_SANITIZE is empty.
function(ctir_set_sanitizers target)
  if(NOT CTIR_SANITIZE)
    return()
  endif()
  if(MSVC)
    message(FATAL_ERROR "CTIR_SANITIZE is only supported with GCC and Clang")
  endif()
  set(flags "-fsanitize=${CTIR_SANITIZE}" -fno-omit-frame-pointer)
  if(CTIR_SANITIZE MATCHES "undefined")
    # Make every UBSan finding fatal, so that a test fails instead of printing.
    list(APPEND flags -fno-sanitize-recover=all)
  endif()
  target_compile_options(${target} PRIVATE ${flags})
  target_link_options(${target} PRIVATE ${flags})
endfunction()

# ctir_link_library(<target>)
#
# Links <target> to the ctir that ctir's own tests, tools, examples and benchmarks
# use: ctir::compiled when CTIR_LINK_COMPILED is ON (the default), else the
# header-only ctir::ctir.
function(ctir_link_library target)
  if(CTIR_LINK_COMPILED)
    target_link_libraries(${target} PRIVATE ctir::compiled)
  else()
    target_link_libraries(${target} PRIVATE ctir::ctir)
  endif()
endfunction()

# ctir_add_executable(<name> <source>...)
#
# An executable of ctir's own, linked to ctir (see ctir_link_library), with the
# house warnings and sanitizers.
function(ctir_add_executable name)
  if(NOT ARGN)
    message(FATAL_ERROR "ctir_add_executable(${name}): no sources given")
  endif()
  add_executable(${name} ${ARGN})
  ctir_link_library(${name})
  ctir_set_warnings(${name})
endfunction()
