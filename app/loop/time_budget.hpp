#pragma once
// The wall-clock time a run has before it is stopped from outside: run.wall_limit, and the
// remaining time of the Slurm or PBS job it runs in, read once at start.
//
// Slurm: SLURM_JOB_END_TIME (Unix time; newer Slurm sets it in the batch environment), else
// `squeue -h -j $SLURM_JOB_ID -o %L` (time left, as Debian 12's Slurm 22.05 prints it). PBS (best
// effort): PBS_WALLTIME (seconds or hh:mm:ss) less the time the job has run, from `qstat -f
// $PBS_JOBID` when it answers (Resource_List.walltime - resources_used.walltime), else
// PBS_WALLTIME as it is.
#include <mpi.h>

#include <optional>
#include <string>

namespace gridflow::app {

struct TimeBudget {
  double seconds = 0;  ///< left from now
  std::string source;  ///< "run.wall_limit = 5400 s", "Slurm job 42: 3599 s left", ...
};

/// The smallest of the limits found, or nullopt. `wall_limit`: run.wall_limit in seconds (0:
/// none), of which the run has taken `elapsed` already (its set-up). Collective: rank 0 looks (a
/// command it runs is given 10 s), every rank gets the answer.
std::optional<TimeBudget> find_time_budget(double wall_limit, double elapsed, MPI_Comm comm);

}  // namespace gridflow::app
