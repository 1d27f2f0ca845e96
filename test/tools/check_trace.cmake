# Runs ctir-opt with --time-trace and checks the trace file: valid JSON, one complete event
# ("ph":"X") per pass run with the expected names in start order, ts/dur numbers in
# microseconds, and intervals that nest (each one inside or after the ones before it).
#
#   cmake -DTOOL=<ctir-opt> -DWORKDIR=<dir> -DARGS=<a|b|...> -DTRACE=<file>
#         -DNAMES=<name|name|...> [-DEXPECT_EXIT=<n>] [-DFAILED=<index|...>]
#         -P check_trace.cmake
#
# FAILED lists the events that must carry "failed":true in their args (the others must not).
cmake_minimum_required(VERSION 3.25)

foreach(required IN ITEMS TOOL WORKDIR ARGS TRACE NAMES)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "check_trace.cmake: -D${required}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" names "${NAMES}")
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
set(failed_events "")
if(DEFINED FAILED)
  string(REPLACE "|" ";" failed_events "${FAILED}")
endif()

file(REMOVE "${TRACE}")
execute_process(COMMAND "${TOOL}" ${args} --time-trace "${TRACE}"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "ctir-opt exited with ${status}, expected ${EXPECT_EXIT}:\n${err}")
endif()
file(READ "${TRACE}" trace)

# A number of microseconds (as string(JSON) writes it back: `0.0`, `365.25299999999999`) as
# an integer number of nanoseconds, rounded.
function(nanoseconds out text)
  if(NOT text MATCHES "^([0-9]+)(\\.([0-9]*))?$")
    message(FATAL_ERROR "not a number of microseconds: '${text}'")
  endif()
  set(whole "${CMAKE_MATCH_1}")
  string(SUBSTRING "${CMAKE_MATCH_3}0000" 0 4 fraction)
  string(REGEX REPLACE "^0+([0-9])" "\\1" whole "${whole}")
  string(REGEX REPLACE "^0+([0-9])" "\\1" fraction "${fraction}")
  math(EXPR ns "(${whole} * 10000 + ${fraction} + 5) / 10")
  set(${out} "${ns}" PARENT_SCOPE)
endfunction()

string(JSON count ERROR_VARIABLE json_error LENGTH "${trace}" traceEvents)
if(json_error)
  message(FATAL_ERROR "not a trace file: ${json_error}\n${trace}")
endif()
list(LENGTH names expected)
if(NOT count EQUAL expected)
  message(FATAL_ERROR "${count} events, expected ${expected} (${NAMES}):\n${trace}")
endif()
set(open_ends "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${trace}" traceEvents ${i} name)
  string(JSON ph GET "${trace}" traceEvents ${i} ph)
  string(JSON ts GET "${trace}" traceEvents ${i} ts)
  string(JSON dur GET "${trace}" traceEvents ${i} dur)
  string(JSON pid GET "${trace}" traceEvents ${i} pid)
  string(JSON level GET "${trace}" traceEvents ${i} args opt_level)
  list(GET names ${i} want)
  if(NOT name STREQUAL want OR NOT ph STREQUAL "X" OR NOT pid STREQUAL "1"
     OR NOT level MATCHES "^[0-9]+$")
    message(FATAL_ERROR "event ${i}: name '${name}' (expected '${want}'), ph '${ph}', pid "
                        "'${pid}', opt_level '${level}'")
  endif()
  string(JSON failed ERROR_VARIABLE no_failed GET "${trace}" traceEvents ${i} args failed)
  if(no_failed)
    set(failed OFF)
  endif()
  if(i IN_LIST failed_events AND NOT failed)
    message(FATAL_ERROR "event ${i} (${name}) is not marked failed:\n${trace}")
  elseif(NOT i IN_LIST failed_events AND failed)
    message(FATAL_ERROR "event ${i} (${name}) is marked failed:\n${trace}")
  endif()
  nanoseconds(begin "${ts}")
  nanoseconds(length "${dur}")
  math(EXPR end "${begin} + ${length}")
  # Close the enclosing runs that ended before this one began; the innermost still open
  # must contain it.
  while(open_ends)
    list(GET open_ends -1 top)
    math(EXPR begin_with_rounding "${begin} + 1")
    if(begin_with_rounding LESS top)
      break()
    endif()
    list(POP_BACK open_ends)
  endwhile()
  if(open_ends)
    list(GET open_ends -1 top)
    math(EXPR top_with_rounding "${top} + 1")
    if(end GREATER top_with_rounding)
      message(FATAL_ERROR "event ${i} (${name}) overlaps the run it began in:\n${trace}")
    endif()
  endif()
  list(APPEND open_ends "${end}")
endforeach()
