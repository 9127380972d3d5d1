# Failures that every rank meets alike end cleanly (status 1, one message from rank 0, no
# MPI_Abort). Heat: the top boundary value turns NaN at t = 0.00505 (between steps 46 and 47 of
# dt = 1.0870e-4); at 1 rank and at 3 with deep ghosts, the run stops at step 47 naming a point on
# y = 0.75, and the series keeps only the finite files of steps 0..40 (check_non_finite.py).
if(GRIDFLOW_SYSTEM_PYTHON)
  foreach(ranks 1 3)
    set(dir ${out}/nan_boundary_np${ranks})
    if(ranks EQUAL 1)
      set(launch $<TARGET_FILE:gridflow>)
    else()
      set(launch ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} --oversubscribe $<TARGET_FILE:gridflow>)
    endif()
    add_test(NAME regression.heat2d_nan_boundary.np${ranks}
             COMMAND sh -c "rm -rf '${dir}' && exec \"$@\"" run ${GRIDFLOW_SYSTEM_PYTHON}
                     ${CMAKE_CURRENT_SOURCE_DIR}/check_non_finite.py ${dir} heat2d 10 0.00505 "y = 0.75" --
                     ${launch} ${deck} device=cpu output.dir=${dir} output.every=10 halo.width=${ranks}
                     "heat.boundary.top=x^2 + 2*a*t + 0*sqrt(0.00505 - t)"
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(regression.heat2d_nan_boundary.np${ranks} PROPERTIES LABELS regression PROCESSORS ${ranks}
                         ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
  endforeach()

  # The same through the device path (device fields, CUDA kernels, host-staged halos), labelled gpu:
  # skipped where no GPU is visible.
  if(GRIDFLOW_HAVE_CUDA)
    foreach(ranks 1 2)
      set(dir ${out}/nan_boundary_gpu_np${ranks})
      add_test(NAME regression.heat2d_nan_boundary.gpu.np${ranks}
               COMMAND sh -c "rm -rf '${dir}' && exec \"$@\"" run ${GRIDFLOW_SYSTEM_PYTHON}
                       ${CMAKE_CURRENT_SOURCE_DIR}/check_non_finite.py ${dir} heat2d 10 0.00505 "y = 0.75" --gpu --
                       ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} --oversubscribe $<TARGET_FILE:gridflow>
                       ${deck} device=gpu device_sharing=true output.dir=${dir} output.every=10 halo.width=2
                       "heat.boundary.top=x^2 + 2*a*t + 0*sqrt(0.00505 - t)"
               WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      set_tests_properties(regression.heat2d_nan_boundary.gpu.np${ranks} PROPERTIES LABELS "gpu;regression"
                           PROCESSORS ${ranks} SKIP_RETURN_CODE 77 ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
    endforeach()
  endif()

  # Poisson: multigrid limited to 2 cycles ends unconverged (16:1 stretched spacing, which once
  # needed about 90 cycles, now takes 9 with semi-coarsening). A
  # float right-hand side of 3e37 overflows the residual: each solver stops at that check, and no
  # file of it is written.
  set(dir ${out}/poisson_not_converged_np2)
  add_test(NAME regression.poisson_not_converged.np2
           COMMAND sh -c "rm -rf '${dir}' && exec \"$@\"" run ${GRIDFLOW_SYSTEM_PYTHON}
                   ${CMAKE_CURRENT_SOURCE_DIR}/check_solve_failure.py ${dir}
                   --expect "the multigrid solver did not converge: relative residual [0-9.e+-]+ at iteration 2"
                   --expect "poisson.max_iterations = 2" --expect "cg-mg" --expect "spectral" --
                   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe $<TARGET_FILE:gridflow>
                   ${PROJECT_SOURCE_DIR}/inputs/poisson3d_small.toml device=cpu grid.length=[16,1,1]
                   poisson.max_iterations=2 output.dir=${dir}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(regression.poisson_not_converged.np2 PROPERTIES LABELS regression PROCESSORS 2
                       ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
  foreach(solver jacobi multigrid cg-mg)
    set(dir ${out}/poisson_overflow_${solver}_np2)
    add_test(NAME regression.poisson_overflow.${solver}.np2
             COMMAND sh -c "rm -rf '${dir}' && exec \"$@\"" run ${GRIDFLOW_SYSTEM_PYTHON}
                     ${CMAKE_CURRENT_SOURCE_DIR}/check_solve_failure.py ${dir}
                     --expect "the ${solver} solver failed: its relative residual is -?nan at iteration [0-9]+"
                     --expect "precision = \"double\"" --no-files --
                     ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe $<TARGET_FILE:gridflow>
                     ${PROJECT_SOURCE_DIR}/inputs/poisson3d_small.toml device=cpu solver=${solver} precision=float
                     poisson.rhs=3e37 poisson.exact=0 output.dir=${dir}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(regression.poisson_overflow.${solver}.np2 PROPERTIES LABELS regression PROCESSORS 2
                         ENVIRONMENT "${GRIDFLOW_TEST_ENVIRONMENT}")
  endforeach()
endif()
