# gridflow_add_test(NAME <name> TARGET <exe> [ARGS ...] [RANKS 1 2 4 ...] [LABELS ...] [TIMEOUT s]
#                   [SKIP_RETURN_CODE code])
# Registers one CTest test per rank count; counts above 1 run under mpirun --oversubscribe.
# SKIP_RETURN_CODE: the exit code with which the executable says it cannot run here at all
# (CTest reports the test skipped); every rank must return it (mpirun passes the first non-zero on).
# Tests run as root in CI containers, which Open MPI refuses unless told otherwise.
set(GRIDFLOW_TEST_ENVIRONMENT
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
  # Runs tune themselves by default: keep their cache in the build tree, not in $HOME.
  GRIDFLOW_TUNING_CACHE=${PROJECT_BINARY_DIR}/tests/tuning-cache.json)

function(gridflow_add_test)
  cmake_parse_arguments(T "" "NAME;TARGET;TIMEOUT;SKIP_RETURN_CODE" "ARGS;RANKS;LABELS" ${ARGN})
  if(NOT T_RANKS)
    set(T_RANKS 1)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  foreach(n IN LISTS T_RANKS)
    if(n GREATER GRIDFLOW_TEST_MAX_RANKS)
      continue()
    endif()
    set(name ${T_NAME})
    list(LENGTH T_RANKS nranks)
    if(nranks GREATER 1 OR n GREATER 1)
      set(name ${T_NAME}.np${n})
    endif()
    if(n EQUAL 1)
      add_test(NAME ${name} COMMAND $<TARGET_FILE:${T_TARGET}> ${T_ARGS})
    else()
      add_test(NAME ${name} COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} --oversubscribe
               ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${T_TARGET}> ${MPIEXEC_POSTFLAGS} ${T_ARGS})
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT} PROCESSORS ${n}
                         ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
    if(DEFINED T_SKIP_RETURN_CODE)
      set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${T_SKIP_RETURN_CODE})
    endif()
  endforeach()
endfunction()
