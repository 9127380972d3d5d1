#include "solver/jacobi_tuning.hpp"

#include <algorithm>
#include <cmath>

#include "mesh/check.hpp"
#include "autotune/ghost_width_tuning.hpp"
#include "autotune/kernel_spaces.hpp"
#include "autotune/transport_tuning.hpp"
#include "solver/deep_halo_steps.hpp"

namespace gridflow::solver {

GhostWidthPlan plan_jacobi_ghost_width(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition) {
  return plan_ghost_width(config.run, decomposition, config.check_every);
}

int jacobi_max_fused_sweeps(const PoissonConfig& config, const mesh::Decomposition<3>& decomposition,
                            const GhostWidthPlan& ghost_width) {
  // The checking sweep is taken alone, so a launch takes at most check_every - 1.
  int most = static_cast<int>(std::clamp<std::int64_t>(config.check_every - 1, 1, kernels::stencil::JacobiCudaParams::max_fused_sweeps));
  if (decomposition.size() > 1 && !ghost_width.tuned()) most = std::min(most, ghost_width.requested);
  return most;
}

autotune::SearchSpace jacobi_space(mesh::MemorySpace space, std::size_t value_bytes, const GhostWidthPlan& ghost_width,
                                   bool tunes_transport, halo::Transport transport, int max_fused_sweeps) {
  const bool device = space == mesh::MemorySpace::device;
  autotune::SearchSpace s = device ? autotune::jacobi_cuda_space(value_bytes, max_fused_sweeps) : autotune::SearchSpace{};
  autotune::add_ghost_width(s, ghost_width.candidates, ghost_width.requested);
  if (device && max_fused_sweeps > 1 && ghost_width.tuned())
    s.require("fused_steps <= ghost_width (ghosts stay valid for that many sweeps)",
              [](const autotune::Configuration& c) { return c.at("fused_steps") <= c.at("ghost_width"); });
  autotune::add_halo_transport(s, tunes_transport, transport);
  return s;
}

std::string jacobi_kernel_label(mesh::MemorySpace space, bool tunes_width, const mesh::Decomposition<3>& decomposition,
                                bool tunes_transport) {
  return autotune::deep_halo_kernel_label(space == mesh::MemorySpace::device ? "jacobi3d:cuda" : "jacobi3d:host", tunes_width,
                                decomposition, tunes_transport);
}

std::int64_t jacobi_slowest_sweeps(const PoissonConfig& config) {
  // rho = sum_d w_d cos(pi / n_d) / sum_d w_d with w_d = 1 / h_d^2; 1 - cos(x) = 2 sin^2(x / 2)
  // keeps 1 - rho accurate on fine grids, where it is tiny.
  double weights = 0, gap = 0;
  for (int d = 0; d < 3; ++d) {
    const double w = 1 / (config.grid.spacing(d) * config.grid.spacing(d));
    const double s = std::sin(M_PI / (2.0 * static_cast<double>(config.grid.n[d])));
    weights += w;
    gap += w * 2 * s * s;
  }
  const double one_minus_rho = gap / weights;
  if (one_minus_rho >= 1) return 1;  // rho = 0: one sweep solves the system
  const double sweeps = std::ceil(std::log(config.tolerance) / std::log1p(-one_minus_rho));
  return static_cast<std::int64_t>(std::clamp(sweeps, 1.0, 1e18));
}

std::int64_t jacobi_tuning_sweeps(const PoissonConfig& config) {
  return std::min(config.max_iterations, jacobi_slowest_sweeps(config)) / 2;
}

template <class T>
autotune::OnlineTuningResult tune_jacobi(JacobiIteration<T>& iteration, const PoissonContext& context,
                               const GhostWidthPlan& ghost_width, std::optional<std::int64_t> max_sweeps, bool remeasure) {
  const auto& config = context.config;
  const auto& decomposition = context.decomposition;
  const bool transports =
      autotune::halo_transport_is_tuned(config.run.halo_transport, context.space, iteration.tunables().transport, decomposition.size());
  const autotune::SearchSpace search_space =
      jacobi_space(context.space, sizeof(T), ghost_width, transports, iteration.tunables().transport,
                   jacobi_max_fused_sweeps(config, decomposition, ghost_width));
  const std::string kernel = jacobi_kernel_label(context.space, ghost_width.tuned(), decomposition, transports);
  if (search_space.parameters().empty())
    return {kernel,
            autotune::nothing_to_tune(config.run.tuning.mode == autotune::TuningMode::off && !remeasure,
                            "the host Jacobi kernel has no launch parameters, and the ghost width is tuned only on "
                            "several ranks with halo.width left unset and poisson.check_every >= 2")};
  GRIDFLOW_REQUIRE(iteration.step() % config.check_every == 0, "Jacobi tuning must start on a check boundary");
  autotune::OnlineTuning setup;
  setup.request = autotune::tuning_request(config.run.tuning, config.run.precision, kernel, context.space, decomposition.owned(), remeasure);
  setup.space = context.space;
  setup.stream = context.stream;
  setup.comm = decomposition.comm();
  setup.max_steps = max_sweeps;
  setup.probe_steps = config.check_every;
  setup.run_multiple = config.check_every;
  DeepHaloSteps sweeps(iteration, autotune::jacobi_cuda_params);
  return autotune::tune_online(sweeps, search_space, setup);
}

template autotune::OnlineTuningResult tune_jacobi<float>(JacobiIteration<float>&, const PoissonContext&,
                                                         const GhostWidthPlan&, std::optional<std::int64_t>, bool);
template autotune::OnlineTuningResult tune_jacobi<double>(JacobiIteration<double>&, const PoissonContext&,
                                                          const GhostWidthPlan&, std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
