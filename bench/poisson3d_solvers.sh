#!/usr/bin/env bash
# bench/poisson3d_solvers.sh GRIDFLOW OUT [GPUS]: time to a relative residual of 1e-8 for the
# manufactured problem of inputs/poisson3d_small.toml, double precision: multigrid, CG-multigrid
# and spectral side by side at 256^3 and 512^3 on one GPU and at 1025^3 points on each GPU count
# of GPUS above 1 (a comma list, default "1,4"; the one-GPU cases run where it holds 1), with
# Jacobi for contrast: to the tolerance at 256^3 (~5x10^4 sweeps), its sweep rate over 200 sweeps
# at 512^3 (it would need ~2x10^5); multigrid and CG-multigrid on 16:1 stretched spacing at 256^3
# (semi-coarsening), and, where ROOF_BENCH names the jacobi3d_kernel binary, the device copy
# bandwidth of the same run (OUT/copy_bandwidth.txt). Each run writes OUT/<name>.json (gridflow
# --summary); bench/poisson_report.py collects them.
set -uo pipefail
gridflow=$1 out=$2
IFS=, read -ra counts <<< "${3:-1,4}"
mkdir -p "$out"
common=(precision=double device=gpu output.enabled=false poisson.tolerance=1e-8)
run() {  # run NAME RANKS KEY=VALUE...
  local name=$1 ranks=$2; shift 2
  echo "== $name"
  # Jacobi stops unconverged by design (exit 1): its residual lines give its rate.
  mpirun -np "$ranks" "$gridflow" inputs/poisson3d_small.toml "${common[@]}" "$@" --summary "$out/$name.json" 2>&1 |
    grep -E "residual|converged|error"
}
single=0
for g in "${counts[@]}"; do [ "$g" = 1 ] && single=1; done
[ "$single" = 1 ] && for n in 256 512; do
  for s in multigrid cg-mg spectral; do run "${s}_${n}_np1" 1 "solver=$s" "grid.n=[$n,$n,$n]"; done
  if [ "$n" = 256 ]; then
    run "jacobi_${n}_np1" 1 solver=jacobi "grid.n=[$n,$n,$n]" poisson.max_iterations=200000 poisson.check_every=1000
  else
    run "jacobi_${n}_np1" 1 solver=jacobi "grid.n=[$n,$n,$n]" poisson.max_iterations=200 poisson.check_every=100
  fi
done
[ "$single" = 1 ] && for s in multigrid cg-mg; do
  run "${s}_256_stretched_x16_np1" 1 "solver=$s" "grid.n=[256,256,256]" "grid.length=[16,1,1]"
  run "${s}_256_stretched_y1over16_np1" 1 "solver=$s" "grid.n=[256,256,256]" "grid.length=[1,0.0625,1]"
done
if [ "$single" = 1 ] && [ -n "${ROOF_BENCH:-}" ]; then "$ROOF_BENCH" --sizes 64 --sweeps 1 --repeats 5 > "$out/copy_bandwidth.txt" 2>&1; fi
for g in "${counts[@]}"; do
  [ "$g" -ge 2 ] || continue
  for s in multigrid cg-mg spectral; do run "${s}_1024_np$g" "$g" "solver=$s" "grid.n=[1024,1024,1024]"; done
done
