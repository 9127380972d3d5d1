# The git hash a binary reports (GRIDFLOW_GIT_HASH, gridflow::git_hash()) is written at every
# build by cmake/GridflowGitHash.cmake into generated/git_hash.cpp, part of gridflow_mesh; a
# configure-time value went stale as soon as the tree moved on without re-running CMake.
set(GRIDFLOW_GIT_HASH_SOURCE ${CMAKE_BINARY_DIR}/generated/git_hash.cpp)
set(_gf_hash_command ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${GRIDFLOW_GIT_HASH_SOURCE}
    -P ${CMAKE_CURRENT_LIST_DIR}/GridflowGitHash.cmake)
execute_process(COMMAND ${_gf_hash_command})  # the source exists before the first build
add_custom_target(gridflow_git_hash ALL COMMAND ${_gf_hash_command} BYPRODUCTS ${GRIDFLOW_GIT_HASH_SOURCE}
                  COMMENT "gridflow: git hash" VERBATIM)
file(READ ${GRIDFLOW_GIT_HASH_SOURCE} _gf_hash_text)
string(REGEX MATCH "return \"([^\"]*)\"" _gf_match "${_gf_hash_text}")
set(GRIDFLOW_GIT_HASH "${CMAKE_MATCH_1}")  # for the configure summary only
