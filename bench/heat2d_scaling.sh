#!/usr/bin/env bash
# bench/heat2d_scaling.sh GRIDFLOW OUTDIR [MAX_GPUS]: strong and weak scaling of heat 2D on one
# node, untuned and tuned, plus the effect of the ghost width and of the halo transport at
# MAX_GPUS (default 4).
#   strong:        20480^2 float, 1000 steps, on 1, 2, 4 GPUs, tuning off, one ghost layer
#   strong_tuned:  the same tuned (kernel shape, fused steps, ghost width, transport, overlap):
#                  `gridflow tune` fills a fresh cache (OUTDIR/tuning/, a budget of 60
#                  configurations), then the measured run reads it (tuning.mode = cached), as a
#                  user's runs after a tuning would (on line, 1000 steps are too few: the tuner's
#                  own steps run out before it reaches the fused kernels when the width is tuned too)
#   weak, weak_tuned: 20480^2 float per GPU
#   ghost:         halo.width = 1, 2, 4, 8 at MAX_GPUS (strong size), transports nccl and mpi, tuned
#                  as above with the width and transport pinned
# Each run writes OUTDIR/<name>.json (gridflow --summary); bench/scaling_report.py turns them
# into one results file. Run from the repository root, with mpirun on PATH.
set -euo pipefail
gridflow=$1 out=$2 max=${3:-4}
mkdir -p "$out/tuning"
deck=inputs/heat2d_large.toml
common=(heat.steps=1000 output.enabled=false progress.every=500 device=gpu precision=float)

run() {  # run NAME RANKS KEY=VALUE...
  local name=$1 ranks=$2; shift 2
  echo "== $name ($ranks GPU)"
  mpirun -np "$ranks" --oversubscribe "$gridflow" "$deck" "${common[@]}" "$@" --summary "$out/$name.json" | tail -n 9
}
run_tuned() {  # run_tuned NAME RANKS KEY=VALUE...: tune into a fresh cache, then run from it
  local name=$1 ranks=$2; shift 2
  local cache=$out/tuning/$name.cache
  rm -f "$cache"
  echo "== $name: gridflow tune ($ranks GPU)"
  mpirun -np "$ranks" --oversubscribe "$gridflow" tune "$deck" "${common[@]}" "$@" tuning.budget=60 "tuning.cache=$cache" |
    tail -n 4
  run "$name" "$ranks" "$@" tuning.mode=cached "tuning.cache=$cache"
}

n=20480
untuned=(tuning.mode=off halo.width=1 halo.transport=auto)
tuned=(halo.transport=auto)
for p in 1 2 4; do
  [ "$p" -le "$max" ] || continue
  run "strong_np$p" "$p" "grid.n=[$((n - 1)),$((n - 1))]" "${untuned[@]}"
  run_tuned "strong_tuned_np$p" "$p" "grid.n=[$((n - 1)),$((n - 1))]" "${tuned[@]}"
done
for p in 2 4; do
  [ "$p" -le "$max" ] || continue
  if [ "$p" -eq 2 ]; then dims="[2,1]" nx=$((2 * n)) ny=$n; else dims="[2,2]" nx=$((2 * n)) ny=$((2 * n)); fi
  run "weak_np$p" "$p" "grid.n=[$((nx - 1)),$((ny - 1))]" "decomposition=$dims" "${untuned[@]}"
  run_tuned "weak_tuned_np$p" "$p" "grid.n=[$((nx - 1)),$((ny - 1))]" "decomposition=$dims" "${tuned[@]}"
done
for g in 1 2 4 8; do
  for t in nccl mpi; do
    run_tuned "ghost${g}_${t}_np$max" "$max" "grid.n=[$((n - 1)),$((n - 1))]" "halo.width=$g" "halo.transport=$t"
  done
done
