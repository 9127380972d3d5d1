#!/usr/bin/env bash
# tests/cluster/cluster_test.sh slurm|pbs GRIDFLOW_EXE SCRATCH: the job scripts of jobs/, end to
# end, on a one-node Slurm cluster started here (tests/cluster/slurm_cluster.sh); pbs goes through
# slurm-wlm-torque's qsub. Exit 77 (skipped) without root or without the packages.
#   1. the CPU script as shipped: the HDF5 it writes holds the right field (srun and mpirun
#      for Slurm: the same field bitwise);
#   2. a longer run gets the scheduler's warning signal, checkpoints, exits 75, is queued again,
#      continues from the checkpoint, and ends with the files of an uninterrupted run, bitwise;
#   3. (Slurm) a run cancelled with scancel checkpoints but is not requeued.
# Every wait is bounded; the trap stops the daemons (and so the jobs) on any exit.
set -euo pipefail
mode=$1 exe=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd starts jobs as their user, munged runs as munge)"
for cmd in slurmctld slurmd munged sbatch scontrol squeue scancel qsub mpirun h5diff python3 setpriv; do
  command -v "$cmd" > /dev/null || PATH=$PATH:/usr/sbin command -v "$cmd" > /dev/null ||
    skip "$cmd not installed (bootstrap.sh installs slurm-wlm, slurm-wlm-torque, munge)"
done
# Debian's python3 has h5py (python3-h5py); a python3 earlier in PATH may not.
python=${GRIDFLOW_PYTHON:-/usr/bin/python3}
"$python" -c 'import h5py, numpy' 2> /dev/null || skip "$python cannot import h5py (python3-h5py)"

fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch"
# shellcheck source=tests/cluster/slurm_cluster.sh
source "$here/slurm_cluster.sh"
trap 'cluster_stop' EXIT
trap 'exit 1' INT TERM
cluster_start "$scratch/cluster" || fail "the cluster did not start"
# The jobs run as root: Open MPI refuses that unless told; the jobs inherit this environment.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export GRIDFLOW_EXE=$exe
# The scripts are submitted from a folder that stands for the repository root (they run
# jobs/gridflow_job.sh from there), so the logs and a continuation's log land in the scratch
# folder; the PBS CPU script is a copy sized for this node, as its comment asks.
mkdir -p "$scratch/root/jobs"
ln -s "$src"/jobs/{gridflow_job.sh,slurm_cpu.sbatch} "$scratch/root/jobs/"
sed 's/ncpus=32:mpiprocs=32/ncpus=2:mpiprocs=2/' "$src/jobs/pbs_cpu.pbs" > "$scratch/root/jobs/pbs_cpu.pbs"
cd "$scratch/root"
deck=$src/inputs/heat2d_small.toml

# check_run DIR STEP: DIR holds STEP's file whose /u is the exact solution of the deck's decaying
# sine mode on its grid to the scheme's accuracy, and an XDMF index.
check_run() {
  "$python" - "$1" "$2" << 'PY' || fail "output in $1"
import glob, math, sys, h5py, numpy as np
d, step = sys.argv[1], int(sys.argv[2])
with h5py.File(f"{d}/heat2d_{step:08d}.h5", "r") as f:
    u = f["u"][...]
n = u.shape[0]
x = np.linspace(0, 1, n)
assert u.shape == (n, n) and np.isfinite(u).all(), u.shape
peak = u.max()
exact = np.outer(np.sin(np.pi * x), np.sin(np.pi * x)) * peak
assert 0.3 < peak < 0.45, peak          # sin mode decayed to about 0.373 at t = 0.05
assert np.abs(u - exact).max() < 1e-3 * peak, np.abs(u - exact).max()
assert glob.glob(f"{d}/*.xmf"), "no XDMF index"
print(f"{d}: step {step}, {n}x{n}, peak {peak:.4f}")
PY
}

# same_fields DIR_A DIR_B: every step file of A exists in B with a bitwise equal /u.
same_fields() {
  local f count=0
  for f in "$1"/heat2d_[0-9]*.h5; do
    h5diff -q "$f" "$2/$(basename "$f")" /u /u || fail "$(basename "$f"): /u differs between $1 and $2"
    count=$((count + 1))
  done
  [ "$count" -gt 1 ] || fail "no step files in $1"
  diff <(grep -o 'heat2d_[0-9]*\.h5' "$1/heat2d.xmf") <(grep -o 'heat2d_[0-9]*\.h5' "$2/heat2d.xmf") ||
    fail "the XDMF indexes of $1 and $2 list different steps"
  echo "$count step files and the XDMF index equal in $1 and $2"
}

last_step() {
  local files=("$1"/heat2d_[0-9]*.h5)
  basename "${files[-1]}" .h5 | sed 's/^heat2d_0*//'
}

# wait_queue_empty SECONDS: until no job is pending or running (the continuations included).
wait_queue_empty() {
  local limit=$1 i
  for ((i = 0; i < limit * 2; ++i)); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.5
  done
  squeue >&2
  return 1
}

job_exit() { scontrol show job "$1" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p'; }

echo "== 1. the CPU script as shipped"
ref=$scratch/reference
mpirun -np 2 --oversubscribe "$exe" "$deck" device=cpu "grid.n=[128,128]" output.every=1000 output.dir="$ref" > "$scratch/reference.log"
if [ "$mode" = slurm ]; then
  for launcher in srun mpirun; do
    GRIDFLOW_LAUNCHER=$launcher GRIDFLOW_OUTPUT_DIR=$scratch/cpu_$launcher timeout 120 \
      sbatch --wait --output="cpu_$launcher.out" jobs/slurm_cpu.sbatch "$deck" \
      "grid.n=[128,128]" output.every=1000 || { cat "cpu_$launcher.out"; fail "CPU job under $launcher"; }
    grep -q "2 rank" "cpu_$launcher.out" || { cat "cpu_$launcher.out"; fail "not 2 ranks (one per core)"; }
    check_run "$scratch/cpu_$launcher" "$(last_step "$ref")"
    same_fields "$ref" "$scratch/cpu_$launcher"
  done
else
  # -V: the variables with spaces and commas cannot go through -v (see jobs/gridflow_job.sh).
  GRIDFLOW_DECK=$deck GRIDFLOW_OVERRIDES="grid.n=[128,128] output.every=1000" GRIDFLOW_OUTPUT_DIR=$scratch/cpu_pbs \
    timeout 120 qsub -V -W block=true -j oe -o cpu_pbs.log jobs/pbs_cpu.pbs ||
    { cat cpu_pbs.log; fail "qsub"; }
  grep -q "2 rank" cpu_pbs.log || { cat cpu_pbs.log; fail "not 2 ranks"; }
  check_run "$scratch/cpu_pbs" "$(last_step "$ref")"
  same_fields "$ref" "$scratch/cpu_pbs"
fi

echo "== 2. the time-limit warning: checkpoint, exit 75, continuation"
# Long enough (about 5 s on 2 ranks of an idle machine) that the signal lands mid-run.
long=("grid.n=[512,512]" output.every=10000)
ref=$scratch/reference_long
mpirun -np 2 --oversubscribe "$exe" "$deck" device=cpu "${long[@]}" output.dir="$ref" > "$scratch/reference_long.log"
out=$scratch/interrupted
if [ "$mode" = slurm ]; then
  id=$(GRIDFLOW_OUTPUT_DIR=$out sbatch --parsable jobs/slurm_cpu.sbatch "$deck" "${long[@]}")
else
  id=$(GRIDFLOW_DECK=$deck GRIDFLOW_OVERRIDES="${long[*]}" GRIDFLOW_OUTPUT_DIR=$out qsub -V jobs/pbs_cpu.pbs)
fi
# Once the run is under way, the signal --signal=B:USR1@120 sends: USR1 to the batch shell only.
# (PBS sends none; there gridflow reads the walltime itself. The shell's trap is the same.)
for ((i = 0; i < 600; ++i)); do [ -e "$out/heat2d_00010000.h5" ] && break; sleep 0.1; done
[ -e "$out/heat2d_00010000.h5" ] || fail "job $id wrote no step 10000 in 60 s"
scancel --batch --signal=USR1 "$id" || fail "job $id ended before the signal could reach it"
wait_queue_empty 150 || fail "job $id and its continuation still queued after 150 s"
logs=$(cat gridflow-*.out ./*.[oe][0-9]* 2> /dev/null || true)
echo "$logs" | grep -E "^checkpoint: step|^stopped at|queueing|continuing" || true
echo "$logs" | grep -q "USR1 received, asking gridflow" || fail "the batch shell's trap did not run"
ckpt=$(echo "$logs" | sed -n 's/^checkpoint: step [0-9]* -> //p' | head -1)
[[ -n $ckpt && -e $ckpt ]] || fail "no checkpoint written (or it is gone): '$ckpt'"
echo "$logs" | grep -q "queueing the continuation" || fail "exit 75 did not queue a continuation"
echo "$logs" | grep -q "continuing (resubmission 1)" || fail "no continuation ran"
if [ "$mode" = slurm ]; then
  scontrol show job "$id" | grep -q "Restarts=1 " || fail "job $id was not requeued once"
fi
# The last job (the continuation) ended well; its files are those of the uninterrupted run.
last=$(scontrol show job | sed -n 's/^JobId=\([0-9]*\).*/\1/p' | sort -n | tail -1)
[ "$(job_exit "$last")" = 0:0 ] || fail "job $last ended with $(job_exit "$last")"
check_run "$out" "$(last_step "$ref")"
same_fields "$ref" "$out"
if [ "$mode" = slurm ]; then
  echo "== 3. scancel (TERM): a checkpoint, but no continuation"
  rm -f gridflow-*.out
  out=$scratch/cancelled
  id=$(GRIDFLOW_OUTPUT_DIR=$out sbatch --parsable jobs/slurm_cpu.sbatch "$deck" "${long[@]}")
  for ((i = 0; i < 600; ++i)); do [ -e "$out/heat2d_00010000.h5" ] && break; sleep 0.1; done
  [ -e "$out/heat2d_00010000.h5" ] || fail "job $id wrote no step 10000 in 60 s"
  scancel "$id" || fail "job $id ended before scancel could reach it"
  wait_queue_empty 60 || fail "job $id still queued 60 s after scancel"
  grep -q "no continuation queued" gridflow-"$id".out || { cat gridflow-"$id".out; fail "no 'no continuation' message"; }
  compgen -G "$out/heat2d_checkpoint_*.h5" > /dev/null || fail "no checkpoint after scancel"
  scontrol show job "$id" | grep -q "Restarts=0 " || fail "job $id was requeued after scancel"
fi
echo "PASS ($mode)"
