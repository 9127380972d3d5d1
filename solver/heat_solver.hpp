#pragma once
// HeatSolver<T>: explicit 2D heat on this rank's part of the grid.
//
// With ghost width g the solver takes s = g steps per ghost exchange (the 5-point stencil has
// radius 1): after an exchange the ghosts are valid g deep, and step q of the cycle updates the
// owned box grown by s-1-q, recomputing the overlap with the neighbours instead of exchanging
// again. Every point is computed by the same point function from the same inputs whatever the
// rank count or g, so the result is bitwise independent of both.
//
// The first step of a cycle overlaps the exchange: points at least one away from the owned box's
// edge need no ghosts and are updated while the messages travel; the edge strips follow. On the
// GPU the interior kernel is queued first; the exchange and then the edge strips run on a
// high-priority stream of their own, joined to the compute stream by events, so their small
// kernels take SMs as the interior's blocks retire instead of queueing behind the whole kernel.
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <optional>

#include "halo/halo_exchange_set.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "kernels/stencil/heat.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "solver/deep_halo.hpp"
#include "solver/dirichlet_boundary.hpp"
#include "solver/heat2d_config.hpp"
#include "solver/phase_timer.hpp"

namespace gridflow::solver {

/// Seconds per phase of the stepping.
struct HeatTimes {
  double interior = 0;  ///< stencil on points that need no ghosts (overlaps the exchange)
  double edge = 0;      ///< stencil on the strips that need ghosts, after the exchange
  double boundary = 0;  ///< Dirichlet values: host evaluation and device unpack
  double exchange = 0;  ///< ghost exchange, host wall time of begin + finish (idle waiting included)
};

/// Where the constructor's time went on this rank (seconds, device work waited for).
struct HeatSetupTimes {
  double fields = 0;   ///< allocating (and zeroing) u and u_next
  double initial = 0;  ///< the initial values, both buffers
  double other = 0;    ///< boundary values, halo set-up, the rest
};

/// What may change between two advance() calls without changing a bit of the result (deep_halo.hpp
/// says why). Fused steps need a launch shape that takes them (HeatCudaParams::fits_shared_memory);
/// moving boundary values reach the launches' inner steps through DirichletBoundary::ring.
using HeatTunables = DeepHaloTunables<kernels::stencil::HeatCudaParams>;

template <class T>
class HeatSolver {
 public:
  /// Sets u(t=0) = initial expression, boundary points from the boundary expressions at t=0.
  /// Fields get `ghost_capacity` ghost layers (0: config.run.halo_width), so that set_tunables may
  /// later pick any ghost width up to it; the run starts with ghost width config.run.halo_width,
  /// one step per launch, `transport` and the launch shape `cuda`.
  HeatSolver(const HeatConfig& config, const mesh::Decomposition<2>& decomposition, mesh::MemorySpace space,
             StreamHandle stream, halo::Transport transport, const kernels::stencil::HeatCudaParams& cuda = {},
             int ghost_capacity = 0);

  /// Takes `count` steps (blocks for host fields; queued on the stream for device fields).
  void advance(std::int64_t count);
  /// Blocks until the steps queued so far have finished; returns at once for host fields.
  void wait() const;

  /// Continues the run where `other` stands: its step, and both of its buffers, ghosts included,
  /// copied from whichever memory space they are in, so the next advance() computes the same bits
  /// `other`'s would, and its non-finite flag. `other` must be a solver of the same run (configuration, decomposition and
  /// ghost capacity); throws Error for another ghost capacity. Blocks until the copy is done.
  void continue_from(const HeatSolver& other);

  /// Continues a run from a checkpoint: `u` (host memory, the layout of solution()) becomes the
  /// solution after `step` steps, in both buffers, so the next advance() computes the bits an
  /// uninterrupted run's would; the non-finite flag starts afresh. Blocks until the copy is done.
  void restore(std::int64_t step, const mesh::Field<T, 2>& u);

  /// Applies to the steps that follow. Collective over the decomposition's communicator the first
  /// time a width and transport are used together (their exchange is set up then, in the
  /// solver's HaloExchangeSet; the first NCCL one also creates the set's NCCL communicator, which
  /// later ones share). Throws Error for what check_deep_halo refuses, invalid CUDA parameters, and,
  /// on device fields, fused steps that the launch shape does not take.
  void set_tunables(const HeatTunables& tunables);
  const HeatTunables& tunables() const { return m_tunables; }
  int ghost_capacity() const { return m_u->ghost_width(); }

  mesh::MemorySpace space() const { return m_space; }
  /// Whether the boundary values change with time (then every launch evaluates them for its steps).
  bool boundary_moves() const { return m_boundary->time_dependent(); }
  StreamHandle stream() const { return m_stream; }
  halo::Transport transport() const { return m_tunables.transport; }
  std::int64_t step() const { return m_step; }
  double time() const { return static_cast<double>(m_step) * m_config.dt; }
  const mesh::Field<T, 2>& solution() const { return *m_u; }
  /// The points this rank updates each step (owned, boundary excluded).
  mesh::Box<2> updated_points() const { return m_decomposition.owned().intersect(m_decomposition.grid().interior()); }
  HeatTimes times();
  /// Where the first value that is not finite appeared (step and global point; the initial and
  /// boundary values included, step 0 for the initial ones): raised by the stencil kernels and the
  /// boundary evaluation as they write, read by whoever checks (reading waits for the stream).
  const kernels::core::NonFiniteFlag& non_finite() const { return m_non_finite; }
  const HeatSetupTimes& setup_times() const { return m_setup_times; }
  /// Ghost exchanges made so far, by width (none on one rank).
  const halo::ExchangeTally& exchanges_by_width() const { return m_halos->exchanges_by_width(); }

 private:
  /// `steps` steps in one launch per box, writing the owned box grown by `reach`.
  void take_steps(std::int64_t reach, int steps, bool exchange_first);
  void stencil(const mesh::Box<2>& box, int steps, StreamHandle stream, const kernels::stencil::HeatRing<T>& ring);

  HeatConfig m_config;
  const mesh::Decomposition<2>& m_decomposition;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  HeatTunables m_tunables;
  kernels::stencil::HeatCoefficients<T> m_coefficients;
  std::unique_ptr<mesh::Field<T, 2>> m_u, m_v;
  kernels::core::NonFiniteFlag m_non_finite;
  HeatSetupTimes m_setup_times;
  std::unique_ptr<DirichletBoundary<T, 2>> m_boundary;
  std::optional<mesh::Stream> m_halo_stream;          // device fields on several ranks only
  std::optional<halo::HaloExchangeSet<T, 2>> m_halos;  // on m_halo_stream when there is one
  std::optional<mesh::Event> m_u_ready, m_halo_done;
  std::int64_t m_step = 0;
  PhaseTimer m_interior, m_edge, m_boundary_timer, m_exchange;
};

extern template class HeatSolver<float>;
extern template class HeatSolver<double>;

}  // namespace gridflow::solver
