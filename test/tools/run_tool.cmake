# Runs one command-line tool and checks what it did: exit status, standard output,
# standard error, and files it wrote. A test fails (with a diff) on any difference.
#
#   cmake -DTOOL=<exe> -DARGS=<a|b|...> -DWORKDIR=<dir> -DEXPECT_EXIT=<n>
#         -DSCRATCH=<dir for temporary files> -DNAME=<test name>
#         [-DSTDIN=<file>]
#         [-DSTDOUT=<golden> | -DSTDOUT_MATCH=<regex>] [-DSTDOUT_EMPTY=1]
#         [-DSTDERR=<golden> | -DSTDERR_MATCH=<regex>] [-DSTDERR_EMPTY=1]
#         [-DFILTER_TIMES=1] [-DCLEAN=<path|...>] [-DFILES=<actual|golden|...>]
#         [-DABSENT=<path|...>]
#         [-DCOMPARE_ARGS=<a|b|...> -DCOMPARE=same|different [-DCOMPARE_LINES=<regex>]]
#         -P run_tool.cmake
#
# COMPARE_ARGS runs the tool a second time with those arguments (it must exit with status 0)
# and compares the two standard outputs: COMPARE=same requires them equal, different
# requires them to differ. With COMPARE_LINES only the lines matching the regex are
# compared, and there must be some.
#
# ABSENT names files the tool must not have written (remove them first with CLEAN).
#
# ARGS, CLEAN, FILES, ABSENT and COMPARE_ARGS separate their items with '|' (a ';' would be split by
# add_test);
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

# The command for the '|'-separated arguments `items`, each argument as a bracket argument so
# that none is split or dropped (in `command_var`), and as it is shown (in `shown_var`).
function(tool_command command_var shown_var items)
  split_items(args "${items}")
  set(command "[==[${TOOL}]==]")
  set(shown "${TOOL}")
  foreach(arg IN LISTS args)
    if(arg STREQUAL "<empty>")
      set(arg "")
    endif()
    string(APPEND command " [==[${arg}]==]")
    string(APPEND shown " '${arg}'")
  endforeach()
  set(${command_var} "${command}" PARENT_SCOPE)
  set(${shown_var} "${shown}" PARENT_SCOPE)
endfunction()

tool_command(command shown "${ARGS}")

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

# The lines of `text` that match `regex`, in order, each with its newline (in `out`). The
# text is cut at newlines by hand: as a list, brackets in it would hide separators.
function(matching_lines out text regex)
  set(kept "")
  while(NOT text STREQUAL "")
    string(FIND "${text}" "\n" newline)
    if(newline EQUAL -1)
      set(line "${text}")
      set(text "")
    else()
      string(SUBSTRING "${text}" 0 ${newline} line)
      math(EXPR rest "${newline} + 1")
      string(SUBSTRING "${text}" ${rest} -1 text)
    endif()
    if(line MATCHES "${regex}")
      string(APPEND kept "${line}\n")
    endif()
  endwhile()
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()

if(DEFINED COMPARE_ARGS)
  if(NOT COMPARE MATCHES "^(same|different)$")
    message(FATAL_ERROR "run_tool.cmake: COMPARE_ARGS needs -DCOMPARE=same or different")
  endif()
  tool_command(other_command other_shown "${COMPARE_ARGS}")
  cmake_language(EVAL CODE "
    execute_process(COMMAND ${other_command}
      WORKING_DIRECTORY [==[${WORKDIR}]==]
      RESULT_VARIABLE other_status
      OUTPUT_VARIABLE other_out
      ERROR_VARIABLE other_err)")
  string(APPEND report "compared with: ${other_shown}\n")
  if(NOT other_status STREQUAL "0")
    string(APPEND failures "the compared command exited with status ${other_status}; its "
      "standard error was:\n${other_err}\n")
  else()
    set(mine "${out}")
    set(theirs "${other_out}")
    if(DEFINED COMPARE_LINES)
      matching_lines(mine "${out}" "${COMPARE_LINES}")
      matching_lines(theirs "${other_out}" "${COMPARE_LINES}")
      if(mine STREQUAL "" OR theirs STREQUAL "")
        string(APPEND failures "no line of one of the standard outputs matches "
          "${COMPARE_LINES}, so there is nothing to compare\n")
      endif()
    endif()
    if(COMPARE STREQUAL "same" AND NOT mine STREQUAL theirs)
      string(APPEND failures "the standard output differs from the compared command's, "
        "which was:\n${other_out}\n")
    elseif(COMPARE STREQUAL "different" AND mine STREQUAL theirs)
      string(APPEND failures "the standard output is the same as the compared command's, "
        "but should differ\n")
    endif()
  endif()
endif()

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

split_items(absent "${ABSENT}")
foreach(path IN LISTS absent)
  if(EXISTS "${path}")
    string(APPEND failures "the tool wrote ${path}, which it must not write\n")
  endif()
endforeach()

if(NOT failures STREQUAL "")
  # A plain message keeps the text as it is (FATAL_ERROR would rewrap it).
  message("${report}${failures}\n--- standard output was:\n${out}\n--- standard error was:\n${err}")
  message(FATAL_ERROR "the output of ${NAME} differs from what is expected (see above)")
endif()
