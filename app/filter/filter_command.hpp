#pragma once
// gridflow filter IN.h5 --dataset NAME --out OUT.h5 --filter KIND [options]: scipy.ndimage's
// convolution filters (mean, gaussian, correlate) and the background whitening of frame stacks on
// a dataset of rank 1 to 3, under mpirun or alone, on the CPU or the GPU. The subcommand's
// options, their checks (app/filter_request.hpp) and the run; README "gridflow filter" says more.
#include <mpi.h>

#include "app/filter/filter_request.hpp"

namespace CLI {
class App;
}

namespace gridflow::app {

/// Adds the `filter` subcommand to `app`; parsing fills `arguments` (and `settings`: key=value
/// words, of which `device=...` is taken, as in decks).
CLI::App* add_filter_subcommand(CLI::App& app, FilterArguments& arguments, std::vector<std::string>& settings);

/// Collective: runs the parsed subcommand. Bad input: InputError on every rank, before any output
/// file exists. Returns the exit status (0).
int run_filter_command(const CLI::App& subcommand, FilterArguments arguments, const std::vector<std::string>& settings, MPI_Comm comm);

}  // namespace gridflow::app
