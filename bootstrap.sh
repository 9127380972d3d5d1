#!/usr/bin/env bash
# bootstrap.sh run|test|build: install what is missing (Debian 12, as root), build gridflow into
# ./build, then run the default heat problem under mpirun (run) or the whole test suite (test).
#   GRIDFLOW_BUILD_DIR   build directory (default: build)
#   GRIDFLOW_CUDA        ON, OFF or AUTO (default AUTO: CUDA kernels when nvcc is found)
#   GRIDFLOW_RANKS       ranks for the default run (default 2)
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
case $mode in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

packages=(cmake make g++ git pkg-config openmpi-bin libopenmpi-dev libhdf5-openmpi-dev hdf5-tools
          libtrilinos-kokkos-dev libtomlplusplus-dev libcli11-dev libmuparser-dev libspdlog-dev libfmt-dev
          nlohmann-json3-dev
          libfftw3-dev libgtest-dev python3 python3-h5py python3-numpy python3-matplotlib python3-pip libxml2-dev
          python3-meshio python3-scipy
          slurm-wlm slurmctld slurmd slurm-client slurm-wlm-torque munge shellcheck)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || { echo "bootstrap: run as root to install packages (or install them yourself)" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${GRIDFLOW_BUILD_DIR:-build}
jobs=$(nproc)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRIDFLOW_CUDA="${GRIDFLOW_CUDA:-AUTO}" >/dev/null
cmake --build "$build" -j "$jobs"

# Open MPI refuses root unless told, and a laptop or CI box may have fewer cores than ranks.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
case $mode in
  run)  mpirun -np "${GRIDFLOW_RANKS:-2}" --oversubscribe "$build/gridflow" inputs/heat2d_small.toml ;;
  test) ctest --test-dir "$build" --output-on-failure -j "$jobs" ;;
  build) ;;
esac
