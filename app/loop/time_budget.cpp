#include "app/loop/time_budget.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <regex>

#include "app/deck/duration.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

/// The first line a command prints (its stderr dropped), given 10 s.
std::string first_line_of(const std::string& command) {
  std::string out;
  FILE* pipe = popen(("timeout 10 " + command + " 2>/dev/null").c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  pclose(pipe);
  return out;
}

bool safe_id(const std::string& id) {
  return !id.empty() && id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-[]") == std::string::npos;
}

std::optional<TimeBudget> slurm_budget() {
  const char* id = std::getenv("SLURM_JOB_ID");
  if (const char* end = std::getenv("SLURM_JOB_END_TIME")) {
    char* tail = nullptr;
    const double at = std::strtod(end, &tail);
    if (tail != end && at > 0) {
      const double left = at - static_cast<double>(std::time(nullptr));
      return TimeBudget{left, std::string("Slurm job ") + (id ? id : "?") + " ends at " + end + " (SLURM_JOB_END_TIME)"};
    }
  }
  if (!id || !safe_id(id)) return std::nullopt;
  const auto left = parse_clock_duration(first_line_of(std::string("squeue -h -j ") + id + " -o %L"));
  if (!left) return std::nullopt;
  return TimeBudget{*left, std::string("Slurm job ") + id + ": " + std::to_string(static_cast<long long>(*left)) + " s left"};
}

std::optional<TimeBudget> pbs_budget() {
  const char* id = std::getenv("PBS_JOBID");
  if (id && safe_id(id)) {
    const std::string status = first_line_of(std::string("qstat -f ") + id);
    std::smatch limit, used;
    const std::regex limit_re("Resource_List\\.walltime\\s*=\\s*([0-9:]+)"), used_re("resources_used\\.walltime\\s*=\\s*([0-9:]+)");
    if (std::regex_search(status, limit, limit_re)) {
      const auto total = parse_clock_duration(limit[1]);
      const auto spent = std::regex_search(status, used, used_re) ? parse_clock_duration(used[1]) : std::optional<double>(0.0);
      if (total && spent) return TimeBudget{*total - *spent, std::string("PBS job ") + id + " (qstat)"};
    }
  }
  if (const char* walltime = std::getenv("PBS_WALLTIME")) {
    if (const auto total = parse_clock_duration(walltime))
      return TimeBudget{*total, std::string("PBS_WALLTIME = ") + walltime + " (time already used not known)"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<TimeBudget> find_time_budget(double wall_limit, double elapsed, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::optional<TimeBudget> best;
  if (rank == 0) {
    const auto consider = [&best](std::optional<TimeBudget> b) {
      if (b && (!best || b->seconds < best->seconds)) best = std::move(b);
    };
    if (wall_limit > 0)
      consider(TimeBudget{wall_limit - elapsed, "run.wall_limit = " + std::to_string(static_cast<long long>(wall_limit)) + " s"});
    consider(slurm_budget());
    consider(pbs_budget());
  }
  double seconds = best ? best->seconds : -1;
  int length = best ? static_cast<int>(best->source.size()) : 0;
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&seconds, 1, MPI_DOUBLE, 0, comm));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
  std::string source = best ? best->source : std::string(static_cast<std::size_t>(length), '\0');
  GRIDFLOW_MPI_CHECK(MPI_Bcast(source.data(), length, MPI_CHAR, 0, comm));
  if (seconds < 0 && length == 0) return std::nullopt;
  return TimeBudget{seconds, source};
}

}  // namespace gridflow::app
