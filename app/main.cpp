// gridflow DECK.toml [key=value ...]: runs the problem the deck describes on every rank of
// MPI_COMM_WORLD. gridflow tune DECK.toml [key=value ...]: tunes its kernels and stores the
// choice in the tuning cache, without running it. gridflow filter IN.h5 --dataset NAME --out OUT.h5
// --filter KIND [...]: filters a dataset (app/filter_command.hpp). Bad input exits with status 2
// and one message from rank 0; a failure inside a run (CUDA, MPI, HDF5) prints "[rank r] ..." and
// aborts every rank, so none is left hanging; a failure every rank meets alike (a solution no
// longer finite, a solve that did not converge) exits with status 1 and one message from rank 0.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "gridflow/config.hpp"
#include "io/mpiio_workaround.hpp"
#include "mesh/check.hpp"
#include "mesh/host_threads.hpp"
#include "app/deck/deck.hpp"
#include "app/filter/filter_command.hpp"
#include "app/run/heat2d_run.hpp"
#include "app/run/heat2d_tune.hpp"
#include "app/run/poisson3d_run.hpp"
#include "app/run/poisson3d_tune.hpp"
#include "app/run/run_setup.hpp"
#include "app/loop/stop_signals.hpp"

namespace {

std::string version_text() {
  return std::string("gridflow ") + GRIDFLOW_VERSION + " (git " + GRIDFLOW_GIT_HASH + ", CUDA " +
         (GRIDFLOW_HAVE_CUDA ? "on" : "off") + ", NCCL " + (GRIDFLOW_HAVE_NCCL ? "on" : "off") + ")";
}

gridflow::app::Deck read_deck(const std::string& deck_path, const std::vector<std::string>& overrides) {
  using namespace gridflow;
  const std::string text = app::read_text_on_rank0(deck_path, "deck", MPI_COMM_WORLD);
  app::Deck deck = app::Deck::parse(text, deck_path);
  for (const auto& o : overrides) deck.apply_override(o);
  return deck;
}

int run_deck(const std::string& deck_path, const std::vector<std::string>& overrides, const std::string& summary) {
  using namespace gridflow;
  app::Deck deck = read_deck(deck_path, overrides);
  const std::string problem = deck.string("problem", std::nullopt, {"heat2d", "poisson3d"});
  return problem == "heat2d" ? app::run_heat2d(deck, MPI_COMM_WORLD, summary)
                            : app::run_poisson3d(deck, MPI_COMM_WORLD, summary);
}

int tune_deck(const std::string& deck_path, const std::vector<std::string>& overrides) {
  using namespace gridflow;
  app::Deck deck = read_deck(deck_path, overrides);
  const std::string problem = deck.string("problem", std::nullopt, {"heat2d", "poisson3d"});
  if (problem == "heat2d") app::tune_heat2d(deck, MPI_COMM_WORLD);
  else app::tune_poisson3d(deck, MPI_COMM_WORLD);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // SIGTERM, SIGINT and SIGUSR1 stop a run at its next step boundary with a checkpoint (exit
  // status 75) instead of killing it; installed before MPI_Init, since mpirun forwards a signal to
  // processes that may still be starting. Not for the tune subcommand, which has nothing to save.
  std::optional<gridflow::app::StopSignals> signals;
  signals.emplace();
  gridflow::io::avoid_broken_mpiio();
  // MPI_THREAD_MULTIPLE lets the output's writer thread make MPI calls (its own communicator)
  // while the run exchanges halos; where it is not granted, output is written synchronously.
  int thread_level = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &thread_level);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int status = 0;
  try {
    CLI::App app("gridflow: MPI + GPU structured-grid solver (2D heat, 3D Poisson)", "gridflow");
    std::string deck_path;
    std::vector<std::string> overrides;
    std::string summary;
    app.add_option("deck", deck_path, "input deck (TOML); see the README for every key");
    app.add_option("overrides", overrides, "key=value pairs that replace deck keys, e.g. grid.n=[2049,2049]");
    app.add_option("--summary", summary, "write the run's figures (throughput, phase times) as JSON to this file");
    app.set_version_flag("--version", version_text());
    app.footer("Checkpoints: checkpoint.every=N (steps) or =30m (wall clock); continue with restart=latest or restart=PATH.\n"
               "SIGTERM, SIGINT or SIGUSR1, and run.wall_limit or the Slurm/PBS job's end, stop a run with a checkpoint.\n"
               "Exit status: 0 done; 1 failure during the run; 2 bad input; 75 stopped early with a checkpoint\n"
               "(resubmit with restart=latest); 130 a second SIGINT.");
    CLI::App* tune = app.add_subcommand("tune", "tune the deck's kernels for its grid and store the choice in the "
                                                "tuning cache (tuning.cache), without running it");
    std::string tune_deck_path;
    std::vector<std::string> tune_overrides;
    tune->add_option("deck", tune_deck_path, "input deck (TOML)")->required();
    tune->add_option("overrides", tune_overrides, "key=value pairs that replace deck keys");
    gridflow::app::FilterArguments filter_arguments;
    std::vector<std::string> filter_settings;
    CLI::App* filter = gridflow::app::add_filter_subcommand(app, filter_arguments, filter_settings);
    app.require_subcommand(0, 1);
    try {
      app.parse(argc, argv);
      // The deck is optional only because the subcommands take their own arguments.
      if (!tune->parsed() && !filter->parsed() && deck_path.empty()) throw CLI::RequiredError("deck");
    } catch (const CLI::ParseError& e) {
      // Every rank parses the same arguments; only rank 0 speaks.
      if (rank == 0) app.exit(e);
      status = e.get_exit_code() == 0 ? 0 : 2;
      MPI_Finalize();
      return status;
    }
    if (tune->parsed() || filter->parsed()) signals.reset();
    gridflow::mesh::share_host_threads(MPI_COMM_WORLD);
    // Kokkos reads a `--device N` of its own (and stops at 'gpu'): the filter's --device is not for it.
    int kokkos_argc = filter->parsed() ? 1 : argc;
    Kokkos::ScopeGuard kokkos(kokkos_argc, argv);
    if (filter->parsed()) status = gridflow::app::run_filter_command(*filter, filter_arguments, filter_settings, MPI_COMM_WORLD);
    else status = tune->parsed() ? tune_deck(tune_deck_path, tune_overrides) : run_deck(deck_path, overrides, summary);
  } catch (const gridflow::InputError& e) {
    if (rank == 0) std::fprintf(stderr, "gridflow: error: %s\n", e.what());
    status = 2;
  } catch (const gridflow::RunError& e) {
    if (rank == 0) std::fprintf(stderr, "gridflow: error: %s\n", e.what());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[rank %d] gridflow: %s\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
