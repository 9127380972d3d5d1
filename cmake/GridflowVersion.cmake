set(GRIDFLOW_GIT_HASH "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE _gf_hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _gf_rc)
  if(_gf_rc EQUAL 0 AND _gf_hash)
    set(GRIDFLOW_GIT_HASH "${_gf_hash}")
  endif()
endif()
