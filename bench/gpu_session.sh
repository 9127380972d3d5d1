#!/usr/bin/env bash
# bench/gpu_session.sh OUT [GPUS]: everything that must run on a GPU machine, in one go, from the
# repository root with a bundle made by ../shared/device/pack in .device/ (see README):
# GPU tests at 1, 2 and 4 ranks, the kernel benchmark, the scaling study, and the large deck.
# Logs and JSON results land in OUT. Steps run independently; the exit code is the worst.
set -uo pipefail
out=$1 gpus=${2:-$(nvidia-smi -L | wc -l)}
bin=.device/bin
status=0
step() { echo "### $*"; "$@" || { status=$?; echo "### FAILED ($status): $*"; }; }
{
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv
  nvidia-smi topo -m
} > "$out/machine.txt" 2>&1
{
  step $bin/gridflow_gpu_tests
  for n in 2 4; do
    [ "$n" -le "$gpus" ] && step mpirun -np $n $bin/gridflow_gpu_tests --gtest_filter='Halo*:HeatGpuDecomposition*'
  done
  step mpirun -np "$gpus" $bin/gridflow_mpi_tests --gtest_filter='HaloGpuBinding*:HeatDecomposition*'
  step mpirun -np 2 $bin/gridflow inputs/heat2d_small.toml device=gpu output.dir=/tmp/gf_small
  step mpirun -np "$gpus" $bin/gridflow inputs/heat2d_large.toml output.dir=/tmp/gf_large
} > "$out/tests.log" 2>&1
{
  step $bin/heat2d_kernel --variants --json "$out/heat2d_kernel.json"
  step bash bench/heat2d_scaling.sh $bin/gridflow /tmp/gf_scaling "$gpus"
  step python3 bench/scaling_report.py /tmp/gf_scaling "$out/heat2d_scaling.json" \
    --command "bench/heat2d_scaling.sh .device/bin/gridflow OUT $gpus"
} > "$out/bench.log" 2>&1
grep -E "^### FAILED|PASSED|FAILED  \]|SKIPPED \]" "$out/tests.log" | sort | uniq -c | head -40
tail -n 30 "$out/bench.log"
exit $status
