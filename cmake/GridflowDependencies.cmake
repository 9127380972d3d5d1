# Every external dependency, found once; each layer links only what it uses.

find_package(MPI REQUIRED COMPONENTS C CXX)
find_package(OpenMP REQUIRED COMPONENTS CXX)  # sizes the thread pool of OpenMP-parallel libraries

# Parallel HDF5 is required: the writer uses collective MPI-IO hyperslab writes.
set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR
    "The HDF5 found (${HDF5_C_LIBRARIES}) is serial; gridflow needs parallel HDF5.\n"
    "On Debian: apt-get install libhdf5-openmpi-dev (or point HDF5_ROOT at a parallel build).")
endif()
add_library(gridflow_hdf5 INTERFACE)
target_include_directories(gridflow_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS})
target_link_libraries(gridflow_hdf5 INTERFACE ${HDF5_C_LIBRARIES} MPI::MPI_C)
target_compile_definitions(gridflow_hdf5 INTERFACE ${HDF5_C_DEFINITIONS})
add_library(gridflow::hdf5 ALIAS gridflow_hdf5)

# Kokkos (host execution space for the CPU reference kernels). A correct installation (Spack,
# source build) provides Kokkos::kokkos. Debian's libtrilinos-kokkos-dev ships a config whose
# target points at a missing /usr/lib/include, so there we assemble the target by hand.
add_library(gridflow_kokkos INTERFACE)
find_path(GRIDFLOW_TRILINOS_KOKKOS_INCLUDE Kokkos_Core.hpp PATHS /usr/include/trilinos NO_DEFAULT_PATH)
find_library(GRIDFLOW_TRILINOS_KOKKOS_CORE trilinos_kokkoscore)
if(GRIDFLOW_TRILINOS_KOKKOS_INCLUDE AND GRIDFLOW_TRILINOS_KOKKOS_CORE)
  message(STATUS "Kokkos: Debian Trilinos package (${GRIDFLOW_TRILINOS_KOKKOS_CORE})")
  target_include_directories(gridflow_kokkos SYSTEM INTERFACE ${GRIDFLOW_TRILINOS_KOKKOS_INCLUDE})
  target_link_libraries(gridflow_kokkos INTERFACE ${GRIDFLOW_TRILINOS_KOKKOS_CORE} dl)
else()
  find_package(Kokkos REQUIRED)
  message(STATUS "Kokkos: ${Kokkos_DIR}")
  target_link_libraries(gridflow_kokkos INTERFACE Kokkos::kokkos)
endif()
add_library(gridflow::kokkos ALIAS gridflow_kokkos)

find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(muparser REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

if(GRIDFLOW_TESTS)
  find_package(GTest REQUIRED)
endif()
