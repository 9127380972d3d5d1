#!/usr/bin/env bash
# jobs/gridflow_job.sh [DECK] [key=value ...]: the body the Slurm and PBS scripts in jobs/ exec,
# in the submission directory (the repository root), inside the job. Not for direct use.
#
# It runs gridflow with one rank per GPU (or per core on CPU nodes), writes into one output folder
# per job, passes a scheduler warning signal on to gridflow, and when gridflow stops with exit
# status 75 (checkpoint written, "resubmit with restart=latest") queues the job again, which then
# continues from the latest checkpoint in the same folder; at most GRIDFLOW_MAX_RESUBMITS times.
#
# Set by the calling script: GRIDFLOW_SCHEDULER (slurm or pbs), GRIDFLOW_DEVICE (cpu on CPU
# nodes), GRIDFLOW_JOB_SCRIPT (PBS: the script to submit again).
# Set by the user: GRIDFLOW_DECK (default inputs/heat2d_large.toml), GRIDFLOW_OVERRIDES (key=value
# words; for qsub, which passes no arguments), GRIDFLOW_EXE (default build/gridflow),
# GRIDFLOW_OUTPUT_DIR (default output/<deck name>_<job id>), GRIDFLOW_LAUNCHER (Slurm: srun or
# mpirun, default srun), GRIDFLOW_MAX_RESUBMITS (default 10).
set -euo pipefail

deck=${GRIDFLOW_DECK:-inputs/heat2d_large.toml}
if [ $# -gt 0 ] && [[ $1 != *=* ]]; then
  deck=$1
  shift
fi
# Whitespace-separated; an expression containing spaces belongs in the deck.
read -r -a env_overrides <<< "${GRIDFLOW_OVERRIDES:-}"
overrides=("${env_overrides[@]}" "$@")
exe=${GRIDFLOW_EXE:-build/gridflow}
scheduler=${GRIDFLOW_SCHEDULER:-slurm}
max_resubmits=${GRIDFLOW_MAX_RESUBMITS:-10}
# device=cpu comes before the user's overrides, so they can still say otherwise.
device=()
[ -n "${GRIDFLOW_DEVICE:-}" ] && device=("device=$GRIDFLOW_DEVICE")

case $scheduler in
  slurm)
    job=${SLURM_JOB_ID:?run this inside a Slurm job}
    # A requeued job keeps its id, options and arguments; Slurm counts the requeues.
    resubmits=${SLURM_RESTART_COUNT:-0}
    # The CPU script asks for whole nodes without a task count: one rank per CPU of the node.
    per_node=()
    [ -n "${SLURM_NTASKS:-}" ] || per_node=(--ntasks-per-node="$SLURM_CPUS_ON_NODE")
    case ${GRIDFLOW_LAUNCHER:-srun} in
      # srun does not take --cpus-per-task from the job since Slurm 22.05: without it each rank
      # would get one core for its OpenMP threads.
      srun) launch=(srun --mpi=pmix "${per_node[@]}" --cpus-per-task="${SLURM_CPUS_PER_TASK:-1}") ;;
      # mpirun starts one rank per task slot of the allocation. --bind-to none: Open MPI's default
      # binding can pin a rank to one core, where its OpenMP threads would queue.
      mpirun) launch=(mpirun --bind-to none) ;;
      *) echo "gridflow job: GRIDFLOW_LAUNCHER must be srun or mpirun" >&2; exit 2 ;;
    esac
    ;;
  pbs)
    # slurm-wlm-torque's qsub runs the job under Slurm, which sets no PBS_* variables.
    job_full=${PBS_JOBID:-${SLURM_JOB_ID:?run this inside a PBS job}}
    job=${job_full%%.*}   # 1234.server: the folder takes 1234, the dependency the full id
    resubmits=${GRIDFLOW_RESUBMIT_COUNT:-0}
    # One rank per line of the node file (PBS lists each node once per mpiprocs), or per task
    # slot of the Slurm allocation under Slurm's qsub.
    launch=(mpirun --bind-to none)
    [ -z "${PBS_NODEFILE:-}" ] || launch+=(--hostfile "$PBS_NODEFILE")
    ;;
  *) echo "gridflow job: GRIDFLOW_SCHEDULER must be slurm or pbs" >&2; exit 2 ;;
esac

# One folder per job, kept by its continuations: gridflow's restart=latest finds the checkpoint
# there and appends to the same output series. It must be on a file system every node sees.
out=${GRIDFLOW_OUTPUT_DIR:-output/$(basename "$deck" .toml)_$job}
restart=()
[ "$resubmits" -gt 0 ] && restart=(restart=latest)
echo "gridflow job $job: $deck, ${launch[*]}, output in $out${restart:+, continuing (resubmission $resubmits)}"

# The launcher runs in the background so that this shell handles signals at once (bash runs a
# trap only after the foreground command ends). The scheduler's warning (--signal=B:USR1@120)
# goes to srun or mpirun, and both forward USR1 to every rank: gridflow then writes a checkpoint
# at the next step and exits with 75. A TERM (scancel, qdel, preemption, a hard time limit) is
# passed on as USR1 too, since mpirun would kill the ranks on a TERM, but then the job is being
# ended on purpose and queues no continuation.
pid=
ended=0
# shellcheck disable=SC2317  # called from the traps
forward() { echo "gridflow job $job: $1 received, asking gridflow for a checkpoint"; [ -z "$pid" ] || kill -USR1 "$pid" 2>/dev/null || true; }
trap 'forward USR1' USR1
trap 'ended=1; forward TERM' TERM
"${launch[@]}" "$exe" "$deck" "output.dir=$out" "${device[@]}" "${overrides[@]}" "${restart[@]}" &
pid=$!
# wait returns early (status > 128) when a trap ran; wait again until the launcher is gone.
while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done
status=0
wait "$pid" || status=$?

if [ "$status" -ne 75 ]; then
  exit "$status"
fi
if [ "$ended" -eq 1 ] || [ "$resubmits" -ge "$max_resubmits" ]; then
  why="the job was sent TERM"
  [ "$ended" -eq 1 ] || why="$resubmits resubmissions reached GRIDFLOW_MAX_RESUBMITS"
  echo "gridflow job $job: checkpoint written, but $why: no continuation queued;" \
       "continue with GRIDFLOW_OUTPUT_DIR=$out and restart=latest" >&2
  exit 75
fi
echo "gridflow job $job: checkpoint written, queueing the continuation"
case $scheduler in
  # The job goes back to the queue under the same id; this script is stopped meanwhile.
  slurm) scontrol requeue "$job" ;;
  # PBS Pro lets only operators rerun a job, so submit a new one that starts after this one.
  # The resources come from the script's #PBS lines; the deck, overrides and folder travel in
  # the environment (-V: qsub -v splits at commas and Slurm's qsub at spaces).
  pbs) export GRIDFLOW_DECK=$deck GRIDFLOW_OUTPUT_DIR=$out GRIDFLOW_RESUBMIT_COUNT=$((resubmits + 1))
       export GRIDFLOW_OVERRIDES="${overrides[*]}"
       qsub -V -W "depend=afterany:$job_full" "${GRIDFLOW_JOB_SCRIPT:?}" ;;
esac
exit 75
