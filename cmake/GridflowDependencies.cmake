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

# FFTW 3 in double (fftw3) and float (fftw3f): the CPU reference of the FFT kernels. Debian ships
# no CMake config for it; pkg-config (when present) and FFTW_ROOT only give hints to the search.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(GRIDFLOW_FFTW_PC QUIET fftw3 fftw3f)
endif()
find_path(GRIDFLOW_FFTW_INCLUDE fftw3.h HINTS ${GRIDFLOW_FFTW_PC_INCLUDE_DIRS} $ENV{FFTW_ROOT}/include)
find_library(GRIDFLOW_FFTW_DOUBLE fftw3 HINTS ${GRIDFLOW_FFTW_PC_LIBRARY_DIRS} $ENV{FFTW_ROOT}/lib)
find_library(GRIDFLOW_FFTW_FLOAT fftw3f HINTS ${GRIDFLOW_FFTW_PC_LIBRARY_DIRS} $ENV{FFTW_ROOT}/lib)
if(NOT GRIDFLOW_FFTW_INCLUDE OR NOT GRIDFLOW_FFTW_DOUBLE OR NOT GRIDFLOW_FFTW_FLOAT)
  message(FATAL_ERROR
    "FFTW 3 with both double (libfftw3) and float (libfftw3f) libraries is required (found header "
    "'${GRIDFLOW_FFTW_INCLUDE}', double '${GRIDFLOW_FFTW_DOUBLE}', float '${GRIDFLOW_FFTW_FLOAT}').\n"
    "On Debian: apt-get install libfftw3-dev (or set FFTW_ROOT to an installation built with --enable-float too).")
endif()
message(STATUS "FFTW: ${GRIDFLOW_FFTW_DOUBLE}, ${GRIDFLOW_FFTW_FLOAT}")
add_library(gridflow_fftw INTERFACE)
target_include_directories(gridflow_fftw SYSTEM INTERFACE ${GRIDFLOW_FFTW_INCLUDE})
target_link_libraries(gridflow_fftw INTERFACE ${GRIDFLOW_FFTW_DOUBLE} ${GRIDFLOW_FFTW_FLOAT})
add_library(gridflow::fftw ALIAS gridflow_fftw)

# libxml2 writes the XDMF index (io/xdmf.cpp), escaping names as XML requires. Debian: libxml2-dev.
find_package(LibXml2 REQUIRED)

find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(muparser REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

if(GRIDFLOW_TESTS)
  find_package(GTest REQUIRED)
endif()
