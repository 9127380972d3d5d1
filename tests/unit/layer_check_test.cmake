# cmake -DMODULE=<GridflowLayerCheck.cmake> -DWORK=<scratch dir> [-DGENERATOR=<generator>] -P layer_check_test.cmake
#
# Proves gridflow_forbid_links works: configures throwaway projects (no build) whose targets link
# the way gridflow's do (ALIAS targets, IMPORTED targets from "find_package", PRIVATE links of a
# static library that CMake records as $<LINK_ONLY:...>, links added from another directory, a
# link under a $<CONFIG> condition) and checks the outcome of each:
#   forbidden  a forbidden library reached through a chain of aliases and a PRIVATE link, and
#              another under a condition: the configure fails and names both paths
#   allowed    the same graph linking only allowed libraries: the configure succeeds
#   direct     the target links the forbidden library itself (today's gridflow_solver and toml++)
#   missing    a target that does not exist: the configure fails saying so
foreach(v MODULE WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "layer_check_test.cmake: pass -D${v}=...")
  endif()
endforeach()
set(generator_args "")
if(GENERATOR)
  set(generator_args -G "${GENERATOR}")
endif()

# Writes a project into ${WORK}/<name>/src. `links` is CMake code run after the common targets
# exist; `check` the gridflow_forbid_links call.
function(write_project name links check)
  set(src "${WORK}/${name}/src")
  file(REMOVE_RECURSE "${WORK}/${name}")
  file(WRITE "${src}/lib.c" "int gridflow_layer_check_test(void) { return 0; }\n")
  file(WRITE "${src}/sub/CMakeLists.txt" [[
# A library defined in a subdirectory, as gridflow's layers are.
add_library(mid_impl STATIC ../lib.c)
add_library(proj::mid ALIAS mid_impl)
]])
  file(WRITE "${src}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.24)
project(layer_check_${name} LANGUAGES C)
include([[${MODULE}]])
# What find_package would give: imported targets of other projects.
add_library(vendor::forbidden INTERFACE IMPORTED)
add_library(vendor::conditional INTERFACE IMPORTED)
add_library(vendor::allowed INTERFACE IMPORTED)
add_library(deep_impl INTERFACE)
add_library(proj::deep ALIAS deep_impl)
add_subdirectory(sub)
add_library(top_impl STATIC lib.c)
add_library(proj::top ALIAS top_impl)
target_link_libraries(top_impl PUBLIC proj::mid m)
${check}
${links}
")
endfunction()

# Configures project `name`; expects failure (want_failure) or success, and each regex of
# `patterns` in the output.
function(expect name want_failure)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${generator_args} -S "${WORK}/${name}/src" -B "${WORK}/${name}/build"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \t\r\n]+" " " all "${out}${err}")  # CMake wraps long messages
  if(want_failure AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: the configure succeeded but the check should have stopped it:\n${all}")
  elseif(NOT want_failure AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: the configure failed but nothing forbidden is linked:\n${all}")
  endif()
  foreach(pattern IN LISTS ARGN)
    if(NOT all MATCHES "${pattern}")
      message(FATAL_ERROR "${name}: the output lacks '${pattern}':\n${all}")
    endif()
  endforeach()
  message(STATUS "${name}: ${rc} as expected")
endfunction()

set(check "gridflow_forbid_links(TARGET proj::top FORBIDDEN vendor::forbidden vendor::conditional)")
# mid links deep PRIVATE (a static library passes that on as $<LINK_ONLY:proj::deep>), from this
# directory rather than its own (CMake brackets such entries with ::@ markers); deep links the
# forbidden library; top links the conditional one only in Debug builds. The check is declared
# before the links that break it: it must see the whole graph.
set(forbidden_links [[
target_link_libraries(mid_impl PRIVATE proj::deep)
target_link_libraries(deep_impl INTERFACE vendor::allowed vendor::forbidden)
target_link_libraries(top_impl PRIVATE $<$<CONFIG:Debug>:vendor::conditional>)
]])
string(REPLACE "vendor::forbidden" "vendor::allowed" allowed_links "${forbidden_links}")
string(REPLACE "vendor::conditional" "vendor::allowed" allowed_links "${allowed_links}")

write_project(forbidden "${forbidden_links}" "${check}")
expect(forbidden TRUE "proj::top must not link vendor::forbidden, vendor::conditional"
       "proj::top -> proj::mid -> proj::deep -> vendor::forbidden"
       "proj::top -> vendor::conditional")

write_project(allowed "${allowed_links}" "${check}")
expect(allowed FALSE)

write_project(direct "target_link_libraries(top_impl PUBLIC vendor::forbidden)"
              "gridflow_forbid_links(TARGET top_impl FORBIDDEN vendor::forbidden)")
expect(direct TRUE "top_impl -> vendor::forbidden")

write_project(missing "" "gridflow_forbid_links(TARGET proj::nothing FORBIDDEN vendor::forbidden)")
expect(missing TRUE "'proj::nothing' is not a target")
