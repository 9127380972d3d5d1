#!/usr/bin/env bash
# bench/gpu_session.sh OUT PART: what must run on a GPU machine, in one device call per PART, from
# the repository root with a bundle made by ../shared/device/pack in .device/ (see README).
#
#   kernels  one lane per GPU, side by side (GPU i % count): the GPU tests on one rank and the
#            whitening bench; fft_bench and heat2d_kernel --fused; filter_bench with CuPy beside
#            it; the one-GPU Poisson solvers, the spectral solve's phases (spectral_poisson.sh),
#            jacobi3d_kernel --fused and the set-up times. Then
#            the GPU tests on 2 and 4 ranks (one GPU each where there are enough).
#   scaling  every GPU of the machine: bench/heat2d_scaling.sh, bench/distributed_fft_scaling.sh
#            and the 1025^3 Poisson solvers on 2 and 4 GPUs.
#
# Each step has a time limit so that the call ends inside the device tool's 10 minutes; logs and
# JSON land in a work folder that is packed into OUT/PART.tar.gz (the tool brings back 8 files at
# most), with the short OUT/PART.txt of what passed, failed or timed out.
set -uo pipefail
out=$1 part=$2
bin=.device/bin
work=/tmp/gridflow_session/$part
rm -rf "$work" && mkdir -p "$work"
gpus=$(nvidia-smi -L | wc -l)
report=$out/$part.txt
: > "$report"
step() {  # step SECONDS LOG COMMAND...: run COMMAND with a time limit, its output in LOG
  local limit=$1 log=$2; shift 2
  local start=$SECONDS rc=0
  timeout -k 10 "$limit" "$@" >> "$log" 2>&1 || rc=$?
  local what="ok"
  [ $rc -ne 0 ] && what="FAILED ($rc)"
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && what="TIMED OUT after ${limit} s"
  echo "$what  $((SECONDS - start)) s  $*" | tee -a "$report"
}
lane() {  # lane GPU NAME: the steps of one lane on GPU (index), logs under work/NAME.log
  CUDA_VISIBLE_DEVICES=$(($1 % gpus)) "lane_$2" "$work/$2.log"
}
lane_tests() {
  GRIDFLOW_TEST_REQUIRE_GPU=1 step 240 "$1" $bin/gridflow_gpu_tests
  step 60 "$1" $bin/whiten_bench --cpu-frames 2 --json "$work/whiten_bench.json"
}
lane_fft() {
  step 200 "$1" $bin/fft_bench --dst --json "$work/fft_bench.json"
  step 100 "$1" $bin/heat2d_kernel --fused 2,4,8,16 --json "$work/heat2d_kernel.json"
}
lane_filter() {
  step 200 "$1" $bin/filter_bench --json "$work/filter_bench.json"
  step 60 "$1" python3 bench/filter_cupy.py --json "$work/filter_cupy.json"
  step 10 "$1" python3 bench/filter_report.py "$work/filter_bench.json" "$work/filter_cupy.json"
}
lane_solvers() {
  ROOF_BENCH=$bin/jacobi3d_kernel step 150 "$1" bash bench/poisson3d_solvers.sh $bin/gridflow "$work/poisson" 1
  step 10 "$1" python3 bench/poisson_report.py "$work/poisson" "$work/poisson3d_solvers.json" \
    --command "bench/poisson3d_solvers.sh .device/bin/gridflow OUT 1"
  step 90 "$1" bash bench/spectral_poisson.sh $bin/gridflow "$work/spectral" 5
  step 80 "$1" $bin/jacobi3d_kernel --fused 2,3,4,8 --json "$work/jacobi3d_kernel.json"
  step 60 "$1" bash bench/setup_time.sh $bin/gridflow "$work/setup"
}

{
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv
  nvidia-smi topo -m
  git log -1 --format='%H %s' 2>/dev/null
} > "$work/machine.txt" 2>&1
echo "$part on $gpus GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" | tee -a "$report"
case $part in
  kernels)
    lane 0 tests & lane 1 fft & lane 2 filter & lane 3 solvers &
    wait
    for n in 2 4; do
      GRIDFLOW_TEST_REQUIRE_GPU=1 step 110 "$work/tests_np$n.log" mpirun -np $n $bin/gridflow_gpu_tests
    done
    ;;
  scaling)
    step 140 "$work/distributed_fft.log" bash bench/distributed_fft_scaling.sh $bin/distributed_fft_bench "$work/dfft" "$gpus"
    step 10 "$work/distributed_fft.log" python3 bench/distributed_fft_report.py "$work/dfft" "$work/distributed_fft.json" \
      --command "bench/distributed_fft_scaling.sh .device/bin/distributed_fft_bench OUT $gpus"
    step 130 "$work/poisson.log" bash bench/poisson3d_solvers.sh $bin/gridflow "$work/poisson" 2,4
    step 10 "$work/poisson.log" python3 bench/poisson_report.py "$work/poisson" "$work/poisson3d_scaling.json" \
      --command "bench/poisson3d_solvers.sh .device/bin/gridflow OUT 2,4"
    step 260 "$work/heat.log" bash bench/heat2d_scaling.sh $bin/gridflow "$work/heat" "$gpus"
    step 10 "$work/heat.log" python3 bench/scaling_report.py "$work/heat" "$work/heat2d_scaling.json" \
      --command "bench/heat2d_scaling.sh .device/bin/gridflow OUT $gpus"
    ;;
  *) echo "gpu_session.sh: PART is kernels or scaling, not '$part'" >&2; exit 2 ;;
esac
tar -C "$work/.." -czf "$out/$part.tar.gz" "$part"
grep -hE "^\[  (FAILED|PASSED|SKIPPED) " "$work"/*.log | sort | uniq -c | sort -rn | head -40
cat "$report"
! grep -qE "FAILED|TIMED" "$report"
