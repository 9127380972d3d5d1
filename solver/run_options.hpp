#pragma once
// RunOptions: the choices every problem shares (precision, device, decomposition, halo, output,
// progress, tuning), as plain values. The application reads them from the deck.
#include <array>
#include <cstdint>
#include <string>

#include "autotune/tuning_options.hpp"
#include "halo/transport.hpp"
#include "kernels/core/precision.hpp"

namespace gridflow::solver {

struct RunOptions {
  std::string problem;                ///< "heat2d" or "poisson3d"
  kernels::core::Precision precision = kernels::core::Precision::float64;
  std::string device = "auto";        ///< "cpu", "gpu" or "auto"
  std::array<int, 3> decomposition{}; ///< ranks per axis; 0 = chosen by MPI_Dims_create
  bool device_sharing = false;        ///< allow more ranks than GPUs on a node
  int halo_width = 1;                 ///< halo.width, or its default; solver::plan_ghost_width says what
                                      ///< a deep-halo run makes of it
  bool halo_width_given = false;      ///< set in the deck: the tuner leaves the ghost width alone
  halo::TransportChoice halo_transport = halo::TransportChoice::automatic;
  std::string output_dir = "output";
  std::string output_name;            ///< file prefix; defaults to the problem name
  std::int64_t output_every = 0;      ///< steps between outputs; 0 writes the final state only
  bool output_enabled = true;         ///< false writes nothing (benchmarks)
  bool output_async = true;           ///< write on a background thread while the run steps on
  std::int64_t progress_every = 0;    ///< steps between progress lines; 0 = about ten per run
  bool device_expressions = false;    ///< device runs evaluate the deck's formulas over whole fields on
                                      ///< the device (compiled at run time); false: on the host, as CPU runs do
  autotune::TuningOptions tuning;     ///< the [tuning] keys
};

}  // namespace gridflow::solver
