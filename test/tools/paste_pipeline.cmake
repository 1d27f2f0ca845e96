# Checks that the pipeline `ctir-opt FLAGS [-p PIPELINE] --print-pipeline` prints, pasted
# back with `-p` under the same FLAGS, runs the same passes on INPUT: the module written
# and the IR after every pass (--print-ir-after all) must be the same as with PIPELINE
# (or, without it, the pipeline FLAGS choose).
#
#   cmake -DTOOL=<ctir-opt> -DWORKDIR=<dir> -DFLAGS=<a|b|...> [-DPIPELINE=<text>]
#         -DINPUT=<file> -P paste_pipeline.cmake
cmake_minimum_required(VERSION 3.25)

foreach(required IN ITEMS TOOL WORKDIR FLAGS INPUT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "paste_pipeline.cmake: -D${required}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" flags "${FLAGS}")
set(given "")
if(DEFINED PIPELINE)
  set(given -p "${PIPELINE}")
endif()

execute_process(COMMAND "${TOOL}" ${flags} ${given} --print-pipeline
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status OUTPUT_VARIABLE printed
  ERROR_VARIABLE printed_err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "--print-pipeline failed (${status}):\n${printed_err}")
endif()
string(REGEX REPLACE "\n.*" "" pipeline "${printed}")
message(STATUS "printed pipeline: ${pipeline}")

execute_process(COMMAND "${TOOL}" ${flags} ${given} --print-ir-after all "${INPUT}"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status OUTPUT_VARIABLE out_given
  ERROR_VARIABLE err_given)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the run with the given flags failed (${status}):\n${err_given}")
endif()
execute_process(COMMAND "${TOOL}" ${flags} -p "${pipeline}" --print-ir-after all "${INPUT}"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE status OUTPUT_VARIABLE out_pasted
  ERROR_VARIABLE err_pasted)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the run of the printed pipeline failed (${status}):\n${err_pasted}")
endif()
if(NOT out_given STREQUAL out_pasted)
  message(FATAL_ERROR "the modules differ:\n--- given flags\n${out_given}\n--- printed "
                      "pipeline\n${out_pasted}")
endif()
if(NOT err_given STREQUAL err_pasted)
  message(FATAL_ERROR "the passes run differ:\n--- given flags\n${err_given}\n--- printed "
                      "pipeline\n${err_pasted}")
endif()
