#!/usr/bin/env bash
# jobs/gpu_bind.sh PROGRAM ARGS...: run PROGRAM with CUDA_VISIBLE_DEVICES narrowed to one GPU,
# chosen by the node-local rank, for sites that want every rank to see exactly one GPU:
#   mpirun -np 8 jobs/gpu_bind.sh build/gridflow inputs/heat2d_large.toml
#
# Optional for gridflow: it binds one GPU per rank by node-local rank itself. Its check that no
# two ranks of a node share a GPU compares GPU UUIDs, so ranks that each see one distinct GPU
# under this wrapper pass it, and NCCL stays available.
#
# Where CUDA_VISIBLE_DEVICES is already set (by the scheduler, say), local rank r takes entry r of
# that list; otherwise it takes GPU r. A node with more ranks than GPUs is an error here, because
# every rank would otherwise quietly land on a GPU another rank already uses.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 PROGRAM [ARGS...]" >&2
  exit 2
fi

# The launchers' names for the node-local rank: Open MPI, Slurm, MPICH/Hydra, Intel MPI.
local_rank=${OMPI_COMM_WORLD_LOCAL_RANK:-${SLURM_LOCALID:-${PMI_LOCAL_RANK:-${MPI_LOCALRANKID:-}}}}
if [ -z "$local_rank" ]; then
  echo "gpu_bind.sh: no node-local rank in the environment (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID," \
       "PMI_LOCAL_RANK, MPI_LOCALRANKID); start it under mpirun or srun" >&2
  exit 2
fi

if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  IFS=, read -r -a gpus <<< "$CUDA_VISIBLE_DEVICES"
elif command -v nvidia-smi > /dev/null 2>&1; then
  count=$(nvidia-smi -L | grep -c '^GPU ' || true)
  gpus=()
  for ((i = 0; i < count; ++i)); do gpus+=("$i"); done
else
  echo "gpu_bind.sh: cannot count the GPUs (CUDA_VISIBLE_DEVICES unset, no nvidia-smi)" >&2
  exit 2
fi

if [ "$local_rank" -ge "${#gpus[@]}" ]; then
  echo "gpu_bind.sh: node-local rank $local_rank on $(hostname) but only ${#gpus[@]} GPU(s) there;" \
       "start at most one rank per GPU" >&2
  exit 2
fi

export CUDA_VISIBLE_DEVICES=${gpus[$local_rank]}
exec "$@"
