#!/usr/bin/env bash
# bench/heat2d_scaling.sh GRIDFLOW OUTDIR [MAX_GPUS]: strong and weak scaling of heat 2D on one
# node, untuned and tuned, plus the effect of the ghost width and of the halo transport at
# MAX_GPUS (default 4).
#   strong:        20480^2 float, 1000 steps, on 1, 2, 4 GPUs, tuning off, one ghost layer
#   strong_tuned:  the same tuned on line (kernel shape, fused steps, ghost width, transport,
#                  overlap), each run with a fresh tuning cache
#   weak, weak_tuned: 20480^2 float per GPU
#   ghost:         halo.width = 1, 2, 4, 8 at MAX_GPUS (strong size), transports nccl and mpi, tuned
# Each run writes OUTDIR/<name>.json (gridflow --summary); bench/scaling_report.py turns them
# into one results file. Run from the repository root, with mpirun on PATH.
set -euo pipefail
gridflow=$1 out=$2 max=${3:-4}
mkdir -p "$out"
deck=inputs/heat2d_large.toml
common=(heat.steps=1000 output.enabled=false progress.every=500 device=gpu precision=float)

run() {  # run NAME RANKS KEY=VALUE...
  local name=$1 ranks=$2; shift 2
  echo "== $name ($ranks GPU)"
  rm -f "$out/$name.cache"
  mpirun -np "$ranks" --oversubscribe "$gridflow" "$deck" "${common[@]}" "tuning.cache=$out/$name.cache" "$@" --summary "$out/$name.json" |
    tail -n 9
}

n=20480
untuned=(tuning.mode=off halo.width=1 halo.transport=auto)
tuned=(tuning.mode=online halo.transport=auto)
for p in 1 2 4; do
  [ "$p" -le "$max" ] || continue
  run "strong_np$p" "$p" "grid.n=[$((n - 1)),$((n - 1))]" "${untuned[@]}"
  run "strong_tuned_np$p" "$p" "grid.n=[$((n - 1)),$((n - 1))]" "${tuned[@]}"
done
for p in 2 4; do
  [ "$p" -le "$max" ] || continue
  if [ "$p" -eq 2 ]; then dims="[2,1]" nx=$((2 * n)) ny=$n; else dims="[2,2]" nx=$((2 * n)) ny=$((2 * n)); fi
  run "weak_np$p" "$p" "grid.n=[$((nx - 1)),$((ny - 1))]" "decomposition=$dims" "${untuned[@]}"
  run "weak_tuned_np$p" "$p" "grid.n=[$((nx - 1)),$((ny - 1))]" "decomposition=$dims" "${tuned[@]}"
done
for g in 1 2 4 8; do
  for t in nccl mpi; do
    run "ghost${g}_${t}_np$max" "$max" "grid.n=[$((n - 1)),$((n - 1))]" tuning.mode=online "halo.width=$g" "halo.transport=$t"
  done
done
