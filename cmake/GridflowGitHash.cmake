# cmake -DSOURCE_DIR=... -DOUTPUT=... -P GridflowGitHash.cmake
# Writes OUTPUT, the C++ definition of gridflow::git_hash(): the source tree's HEAD (12 hex
# digits), with "-dirty" when tracked files differ from it, or "unknown" outside a git checkout.
# Run at every build, so that a binary names the tree it was built from (results and tuning-cache
# entries cite it); OUTPUT is rewritten only when the text changes, so at most one file recompiles.
set(hash "unknown")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND head)
    set(hash "${head}")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND changes)
      set(hash "${hash}-dirty")
    endif()
  endif()
endif()
set(text "// Generated at build time by cmake/GridflowGitHash.cmake.\n#include \"gridflow/config.hpp\"\n\nconst char* gridflow::git_hash() { return \"${hash}\"; }\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
