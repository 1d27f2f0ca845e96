# Runs one command-line tool and checks what it did: exit status, standard output,
# standard error, and files it wrote. A test fails (with a diff) on any difference.
#
#   cmake -DTOOL=<exe> -DARGS=<a|b|...> -DWORKDIR=<dir> -DEXPECT_EXIT=<n>
#         -DSCRATCH=<dir for temporary files> -DNAME=<test name>
#         [-DSTDIN=<file>]
#         [-DSTDOUT=<golden> | -DSTDOUT_MATCH=<regex>] [-DSTDOUT_EMPTY=1]
#         [-DSTDERR=<golden> | -DSTDERR_MATCH=<regex>] [-DSTDERR_EMPTY=1]
#         [-DFILTER_TIMES=1] [-DCLEAN=<path|...>] [-DFILES=<actual|golden|...>]
#         -P run_tool.cmake
#
# ARGS, CLEAN and FILES separate their items with '|' (a ';' would be split by add_test);
# the item <empty> stands for an empty argument. FILTER_TIMES replaces the numbers of a
# timing table in the standard error ("  1.234 ms" -> " <t> ms", " 12.5%" -> " <p>%") before
# it is compared. With the environment variable CTIR_UPDATE_GOLDEN set, the golden files are
# rewritten from the actual output instead of compared (only when the exit status is the
# expected one, so that a failing run cannot empty them); run ctest -j1 then, since some
# golden files are also inputs of other tests.
cmake_minimum_required(VERSION 3.25)

foreach(required IN ITEMS TOOL WORKDIR EXPECT_EXIT SCRATCH NAME)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_tool.cmake: -D${required}=... is required")
  endif()
endforeach()

# Splits an '|'-separated list; <empty> is an empty item.
function(split_items out text)
  set(items "")
  if(NOT text STREQUAL "")
    string(REPLACE "|" ";" items "${text}")
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# The command, each argument as a bracket argument so that none is split or dropped.
split_items(args "${ARGS}")
set(command "[==[${TOOL}]==]")
set(shown "${TOOL}")
foreach(arg IN LISTS args)
  if(arg STREQUAL "<empty>")
    set(arg "")
  endif()
  string(APPEND command " [==[${arg}]==]")
  string(APPEND shown " '${arg}'")
endforeach()

split_items(clean "${CLEAN}")
foreach(path IN LISTS clean)
  file(REMOVE_RECURSE "${path}")
endforeach()

set(input_option "")
if(DEFINED STDIN)
  set(input_option "INPUT_FILE [==[${STDIN}]==]")
endif()
cmake_language(EVAL CODE "
  execute_process(COMMAND ${command}
    WORKING_DIRECTORY [==[${WORKDIR}]==]
    ${input_option}
    RESULT_VARIABLE status
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)")

set(failures "")
set(report "command: ${shown}\n(in ${WORKDIR})\n")

if(NOT status STREQUAL EXPECT_EXIT)
  string(APPEND failures "exit status ${status}, expected ${EXPECT_EXIT}\n")
endif()

if(FILTER_TIMES)
  # The blanks before a number go too: columns are right-aligned, so they vary with it.
  string(REGEX REPLACE " +[0-9]+\\.[0-9]+ ms" " <t> ms" err "${err}")
  string(REGEX REPLACE " +[0-9]+\\.[0-9]+%" " <p>%" err "${err}")
endif()

find_program(diff_program diff)

# Appends to `failures` (in the caller) unless `actual` equals the golden file `golden`.
function(compare what actual golden)
  if(DEFINED ENV{CTIR_UPDATE_GOLDEN} AND status STREQUAL EXPECT_EXIT)
    # Rewritten only when it changes: some goldens are the inputs of other tests.
    if(EXISTS "${golden}")
      file(READ "${golden}" expected)
    endif()
    if(NOT EXISTS "${golden}" OR NOT actual STREQUAL expected)
      file(WRITE "${golden}" "${actual}")
    endif()
    return()
  endif()
  if(NOT EXISTS "${golden}")
    set(failures "${failures}${what}: the golden file ${golden} does not exist; got:\n${actual}\n"
      PARENT_SCOPE)
    return()
  endif()
  file(READ "${golden}" expected)
  if(actual STREQUAL expected)
    return()
  endif()
  set(text "${what} differs from ${golden}:\n")
  if(diff_program)
    string(MD5 id "${NAME}${what}${golden}")
    set(actual_file "${SCRATCH}/run_tool_${id}.actual")
    file(WRITE "${actual_file}" "${actual}")
    execute_process(COMMAND "${diff_program}" -u "${golden}" "${actual_file}"
      OUTPUT_VARIABLE difference)
    file(REMOVE "${actual_file}")
    string(APPEND text "${difference}")
  else()
    string(APPEND text "--- expected\n${expected}\n+++ actual\n${actual}\n")
  endif()
  set(failures "${failures}${text}" PARENT_SCOPE)
endfunction()

# Checks one stream against its golden file, regex or emptiness.
function(check_stream name actual golden regex empty)
  if(NOT golden STREQUAL "")
    compare("${name}" "${actual}" "${golden}")
  endif()
  if(NOT regex STREQUAL "" AND NOT actual MATCHES "${regex}")
    string(APPEND failures "${name} does not match the regular expression\n  ${regex}\n"
      "${name} was:\n${actual}\n")
  endif()
  if(empty AND NOT actual STREQUAL "")
    string(APPEND failures "${name} should be empty; it was:\n${actual}\n")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

check_stream("standard output" "${out}" "${STDOUT}" "${STDOUT_MATCH}" "${STDOUT_EMPTY}")
check_stream("standard error" "${err}" "${STDERR}" "${STDERR_MATCH}" "${STDERR_EMPTY}")

split_items(files "${FILES}")
list(LENGTH files file_items)
math(EXPR odd "${file_items} % 2")
if(odd)
  message(FATAL_ERROR "run_tool.cmake: FILES needs pairs of actual|golden paths")
endif()
while(files)
  list(POP_FRONT files actual_path golden_path)
  if(NOT EXISTS "${actual_path}")
    string(APPEND failures "the tool did not write ${actual_path}\n")
    continue()
  endif()
  file(READ "${actual_path}" written)
  compare("file ${actual_path}" "${written}" "${golden_path}")
endwhile()

if(NOT failures STREQUAL "")
  # A plain message keeps the text as it is (FATAL_ERROR would rewrap it).
  message("${report}${failures}\n--- standard output was:\n${out}\n--- standard error was:\n${err}")
  message(FATAL_ERROR "the output of ${NAME} differs from what is expected (see above)")
endif()
