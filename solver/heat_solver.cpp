#include "solver/heat_solver.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mesh/check.hpp"
#include "solver/evaluate_on_box.hpp"
#include "solver/evaluate_on_device.hpp"

namespace gridflow::solver {

template <class T>
HeatSolver<T>::HeatSolver(const HeatConfig& config, const mesh::Decomposition<2>& decomposition, mesh::MemorySpace space,
                          StreamHandle stream, halo::Transport transport, const kernels::stencil::HeatCudaParams& cuda,
                          int ghost_capacity)
    : m_config(config), m_decomposition(decomposition), m_space(space), m_stream(stream),
      m_non_finite(decomposition.grid(), space), m_interior(space, stream), m_edge(space, stream),
      m_boundary_timer(space, stream), m_exchange(mesh::MemorySpace::host, nullptr) {
  auto last = std::chrono::steady_clock::now();
  const auto lap = [&] {  // seconds since the last lap, the stream's work included
    mesh::synchronize(space, stream);
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(last, now)).count();
  };
  const auto& grid = decomposition.grid();
  const double dx = grid.spacing(0), dy = grid.spacing(1);
  m_coefficients = {static_cast<T>(config.a * config.dt / (dx * dx)), static_cast<T>(config.a * config.dt / (dy * dy))};
  const int g = ghost_capacity > 0 ? ghost_capacity : config.run.halo_width;
  m_u = std::make_unique<mesh::Field<T, 2>>(decomposition.owned(), g, space, "u");
  m_v = std::make_unique<mesh::Field<T, 2>>(decomposition.owned(), g, space, "u_next");
  m_setup_times.fields = lap();
  m_boundary = std::make_unique<DirichletBoundary<T, 2>>(grid, config.boundary, space, stream);
  if (decomposition.size() > 1 && space == mesh::MemorySpace::device) {
    m_halo_stream.emplace(/*high_priority=*/true);
    m_u_ready.emplace();
    m_halo_done.emplace();
    m_edge = PhaseTimer(space, m_halo_stream->get());
  }
  m_halos.emplace(decomposition, transport, m_halo_stream ? m_halo_stream->get() : nullptr);
  HeatTunables untuned;
  untuned.cuda = cuda;
  untuned.ghost_width = config.run.halo_width;
  untuned.transport = transport;
  set_tunables(untuned);

  m_setup_times.other = lap();  // the boundary's and the halos' set-up

  // u(0) everywhere this rank can see (ghosts too: neighbours evaluate the same values), then the
  // boundary points from the boundary expressions, in both buffers: the stencil never writes them.
  const auto visible = m_u->ghosted().intersect(grid.points());
  const auto updated = updated_points();  // the boundary points take the boundary expressions' values
  const bool on_device = space == mesh::MemorySpace::device && config.run.device_expressions;
  if (zero_everywhere(*config.initial)) {
    // the fields were allocated zero, in either memory space
  } else if (on_device && has_device_form(*config.initial)) {
    evaluate_on_device(*config.initial, grid, visible, m_u->view(), stream, {m_non_finite.watch(0), updated});
    m_v->copy_from(*m_u);
  } else {
    mesh::Field<T, 2> start(decomposition.owned(), g, mesh::MemorySpace::host, "u0");
    evaluate_on_box(*config.initial, grid, visible, [&](const auto& p, double v) {
      const T value = static_cast<T>(v);
      start(p[0], p[1]) = value;
      if (!kernels::core::finite_value(value) && updated.contains(mesh::Box<2>{p, p})) m_non_finite.record_host(0, p[0], p[1]);
    });
    m_u->copy_from(start);
    m_v->copy_from(start);
  }
  m_setup_times.initial = lap();
  m_boundary->apply(*m_u, visible, 0.0, &m_non_finite, 0);
  m_boundary->apply(*m_v, visible, 0.0);
  m_setup_times.other += lap();
}

template <class T>
void HeatSolver<T>::set_tunables(const HeatTunables& tunables) {
  check_deep_halo("heat solver", tunables, ghost_capacity(), m_space, m_decomposition.size());
  if (!tunables.cuda.valid()) throw Error("heat solver: invalid CUDA parameters");
  if (m_space == mesh::MemorySpace::device && !tunables.cuda.fits_shared_memory(tunables.fused_steps, sizeof(T))) {
    std::ostringstream shape;
    shape << tunables.cuda;
    throw Error("heat solver: " + std::to_string(tunables.fused_steps) + " fused steps do not fit the launch shape " +
                shape.str() + " (its shared memory, or the streaming kernel's depth)");
  }
  m_halos->set_transport(tunables.transport);
  m_halos->prepare(*m_u, tunables.ghost_width);  // outside the steps, which the tuner times
  m_tunables = tunables;
}

template <class T>
void HeatSolver<T>::stencil(const mesh::Box<2>& box, int steps, StreamHandle stream,
                            const kernels::stencil::HeatRing<T>& ring) {
  kernels::stencil::heat_steps(*m_u, *m_v, box, m_decomposition.grid().interior(), steps, m_coefficients,
                               m_tunables.cuda, stream, m_non_finite.watch(m_step + 1), ring);
}

template <class T>
void HeatSolver<T>::take_steps(std::int64_t reach, int steps, bool exchange_first) {
  const auto& owned = m_decomposition.owned();
  const auto update = owned.grow(reach).intersect(m_decomposition.grid().interior());
  // Moving boundary values at the launch's inner steps, for every point it reads; staged before
  // the launches (and the halo stream's wait) that read them.
  kernels::stencil::HeatRing<T> ring;
  if (steps > 1 && m_boundary->time_dependent()) {
    PhaseScope t(m_boundary_timer);
    ring = m_boundary->ring(update.grow(steps).intersect(m_decomposition.grid().points()), m_step, m_config.dt, steps,
                            &m_non_finite);
  }
  if (exchange_first) {
    const auto inner = update.intersect(owned.grow(-steps));  // reads owned points only
    if (m_halo_stream) {
      m_u_ready->record(m_stream);
      m_u_ready->make_wait(m_halo_stream->get());
      {
        PhaseScope t(m_interior);
        stencil(inner, steps, m_stream, ring);
      }
      {
        PhaseScope t(m_exchange);
        m_halos->begin(*m_u, m_tunables.ghost_width);
        m_halos->finish(*m_u);
      }
      {
        PhaseScope t(m_edge);  // strips write other points of v than the interior does
        for (const auto& strip : mesh::box_difference(update, inner)) stencil(strip, steps, m_halo_stream->get(), ring);
      }
      m_halo_done->record(m_halo_stream->get());
      m_halo_done->make_wait(m_stream);
    } else {
      {
        PhaseScope t(m_exchange);
        m_halos->begin(*m_u, m_tunables.ghost_width);
      }
      {
        PhaseScope t(m_interior);
        stencil(inner, steps, m_stream, ring);
      }
      {
        PhaseScope t(m_exchange);
        m_halos->finish(*m_u);
      }
      PhaseScope t(m_edge);
      for (const auto& strip : mesh::box_difference(update, inner)) stencil(strip, steps, m_stream, ring);
    }
  } else {
    PhaseScope t(m_interior);
    stencil(update, steps, m_stream, ring);
  }
  if (m_boundary->time_dependent()) {  // the values after the launch's last step
    PhaseScope t(m_boundary_timer);
    m_boundary->apply(*m_v, owned.grow(reach).intersect(m_decomposition.grid().points()),
                      static_cast<double>(m_step + steps) * m_config.dt, &m_non_finite, m_step + steps);
  }
  std::swap(m_u, m_v);
  m_step += steps;
}

template <class T>
void HeatSolver<T>::advance(std::int64_t count) {
  const std::int64_t fused = m_space == mesh::MemorySpace::device ? m_tunables.fused_steps : 1;
  const bool exchanges = m_decomposition.size() > 1;
  const std::int64_t per_exchange = exchanges ? m_tunables.ghost_width : count;
  while (count > 0) {
    // An exchange cycle (the whole remainder on one rank) in launches of up to `fused` steps; the
    // last launch of a cycle writes the owned points, earlier ones the overlap the next ones read.
    const std::int64_t cycle = std::min(per_exchange, count);
    for (std::int64_t q = 0; q < cycle;) {
      const auto steps = static_cast<int>(std::min(fused, cycle - q));
      take_steps(exchanges ? cycle - q - steps : 0, steps, exchanges && q == 0);
      q += steps;
    }
    count -= cycle;
  }
}

template <class T>
void HeatSolver<T>::wait() const {
  mesh::synchronize(m_space, m_stream);
}

// Both buffers whole, so that the hand-over does not depend on which points of the buffer the next
// step writes are still read (boundary points that time-independent boundary values set once).
// A copy involving the device waits for the work queued there.
template <class T>
void HeatSolver<T>::continue_from(const HeatSolver& other) {
  if (&other == this) return;
  if (other.ghost_capacity() != ghost_capacity())
    throw Error("heat solver: cannot continue from a solver with " + std::to_string(other.ghost_capacity()) +
                " ghost layers on one with " + std::to_string(ghost_capacity()));
  m_u->copy_from(*other.m_u);
  m_v->copy_from(*other.m_v);
  m_non_finite.assign(other.m_non_finite.read(other.m_stream));
  m_step = other.m_step;
}

template <class T>
void HeatSolver<T>::restore(std::int64_t step, const mesh::Field<T, 2>& u) {
  m_u->copy_from(u);
  m_v->copy_from(u);  // its boundary points too, which time-independent boundary values never rewrite
  m_non_finite.assign(kernels::core::no_non_finite);
  m_step = step;
}

template <class T>
HeatTimes HeatSolver<T>::times() {
  return {m_interior.seconds(), m_edge.seconds(), m_boundary_timer.seconds(), m_exchange.seconds()};
}

template class HeatSolver<float>;
template class HeatSolver<double>;

}  // namespace gridflow::solver
