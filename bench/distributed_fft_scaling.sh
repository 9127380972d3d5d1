#!/usr/bin/env bash
# bench/distributed_fft_scaling.sh BENCH OUTDIR [MAX_GPUS]: the distributed 3D FFT of 1024^3
# complex float points, forward + inverse, on 1, 2 and 4 GPUs (up to MAX_GPUS, default 4), slab
# and pencil, over NCCL, and over MPI at MAX_GPUS; the 1-GPU runs also time cuFFT's own 3D
# transform of the same size. BENCH is the distributed_fft_bench binary; each run writes
# OUTDIR/<name>.json, which bench/distributed_fft_report.py collects. Run from the repository
# root, with mpirun on PATH.
set -uo pipefail
bench=$1 out=$2 max=${3:-4}
mkdir -p "$out"
run() {  # run NAME RANKS ARGS...
  local name=$1 ranks=$2; shift 2
  echo "== $name ($ranks GPU)"
  mpirun -np "$ranks" "$bench" --n 1024 --precision float "$@" --json "$out/$name.json"
}
for d in slab pencil; do
  for p in 1 2 4; do
    [ "$p" -le "$max" ] || continue
    extra=()
    [ "$p" = 1 ] && extra=(--cufft)
    run "${d}_nccl_np$p" "$p" --decomposition "$d" --transport nccl "${extra[@]}"
  done
  run "${d}_mpi_np$max" "$max" --decomposition "$d" --transport mpi
done
