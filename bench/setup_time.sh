#!/usr/bin/env bash
# bench/setup_time.sh GRIDFLOW OUT: the set-up phase of device runs (issue 17) with a cold kernel
# cache (NVRTC compiles every formula), a warm one (the cubins are read back) and the host path
# (expressions.device=false): heat 20480^2 float with a non-zero initial formula and with the
# decks' "0" (which needs no evaluation), and inputs/poisson3d_large.toml (rhs and the exact
# solution's check). Each run writes OUT/<name>.json (gridflow --summary; its phases "set-up.*"
# break the set-up down). The kernel cache is OUT/kernels.
set -uo pipefail
gridflow=$1 out=$2
mkdir -p "$out"
export GRIDFLOW_KERNEL_CACHE=$out/kernels
heat=(inputs/heat2d_large.toml "grid.n=[20479,20479]" heat.steps=100 output.enabled=false tuning.mode=off)
sine="heat.initial=sin(3*x) * cos(2*y) + x*y"
poisson=(inputs/poisson3d_large.toml output.enabled=false)
run() {  # run NAME ARGS...
  local name=$1; shift
  echo "== $name"
  "$gridflow" "$@" --summary "$out/$name.json" 2>&1 | grep -E "error|done|converged" | head -3
}
rm -rf "$GRIDFLOW_KERNEL_CACHE"
run heat_sine_cold "${heat[@]}" "$sine"
run heat_sine_warm "${heat[@]}" "$sine"
run heat_sine_host "${heat[@]}" "$sine" expressions.device=false
run heat_zero "${heat[@]}"
run poisson_cold "${poisson[@]}"
run poisson_warm "${poisson[@]}"
run poisson_host "${poisson[@]}" expressions.device=false
grep -H '"set-up' "$out"/*.json
