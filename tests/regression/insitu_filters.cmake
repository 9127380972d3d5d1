# In-situ [[filters]] through the executable (check_insitu_filters.py says what each part checks):
# heat 2D (inputs/heat2d_filtered.toml) and Poisson 3D with every filter kind in every mode at 1,
# 2, 3 and 4 ranks, bitwise between rank counts and against scipy.ndimage on each file's /u, the
# datasets in the XDMF; and bad [[filters]] blocks refused with the key named and nothing written.
# Outputs lie outside ${out}, so regression.xdmf_files never reads a series being rewritten.
if(GRIDFLOW_SYSTEM_PYTHON)
  foreach(part heat poisson errors)
    add_test(NAME regression.insitu_filters.${part}
             COMMAND ${GRIDFLOW_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_insitu_filters.py ${part} $<TARGET_FILE:gridflow>
                     ${MPIEXEC_EXECUTABLE} ${CMAKE_CURRENT_BINARY_DIR}/insitu_filters_${part} ${GRIDFLOW_TEST_MAX_RANKS}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(regression.insitu_filters.${part} PROPERTIES LABELS "regression;mpi" PROCESSORS 4 TIMEOUT 600
                         ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
  endforeach()
endif()
