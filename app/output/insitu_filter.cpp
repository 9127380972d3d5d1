#include "app/output/insitu_filter.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "app/output/periodic_ghosts.hpp"
#include "halo/halo_exchange_set.hpp"
#include "kernels/filter/correlate.hpp"
#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

namespace kf = kernels::filter;

template <class T, int Dim>
struct InsituFilter<T, Dim>::Work {
  kf::FilterPlan<T, Dim> plan;
  mesh::Field<T, Dim> input, output;
  mesh::Buffer staging;  // the owned points between the source and the input
  halo::HaloExchangeSet<T, Dim> exchange;
  std::optional<PeriodicGhosts<T, Dim>> periodic;  // mode wrap

  /// The input's ghost width is what the plan with `tunables` reads beyond a point.
  Work(const mesh::Decomposition<Dim>& d, const FilterBlock<Dim>& block, const kf::FilterTunables& tunables, mesh::MemorySpace space,
       StreamHandle stream)
      : plan(block.weights, block.boundary, global_of(d, block), tunables),
        input(d.owned(), plan.reach(), space, block.name + "_input"),
        output(d.owned(), 0, space, block.name),
        staging(static_cast<std::size_t>(d.owned().size()) * sizeof(T), space),
        exchange(d, halo::Transport::mpi, stream) {
    if (wrap(block)) periodic.emplace(d, axis_reach(block), space, stream);
  }
  /// Along each axis the filter reads this far beyond a point: the periodic ghosts it needs
  /// (fewer than `reach` on a short axis, whose images one period away would not cover `reach`).
  static std::array<int, Dim> axis_reach(const FilterBlock<Dim>& block) {
    std::array<int, Dim> r{};
    for (int a = 0; a < Dim; ++a) r[a] = std::max(block.weights.lo_reach(a), block.weights.hi_reach(a));
    return r;
  }
  static bool wrap(const FilterBlock<Dim>& block) { return block.boundary.mode == kf::BoundaryMode::wrap; }
  /// The array the plan filters: the grid, widened for `wrap` by the periodic ghosts, which it
  /// then reads as array values.
  static mesh::Box<Dim> global_of(const mesh::Decomposition<Dim>& d, const FilterBlock<Dim>& block) {
    mesh::Box<Dim> global = d.grid().points();
    if (wrap(block))
      for (int a = 0; a < Dim; ++a) global = global.grow(a, axis_reach(block)[a]);
    return global;
  }
};

namespace {

/// The filter's reach, checked against the grid as FilterPlan checks it.
template <class T, int Dim>
int reach_of(const mesh::Decomposition<Dim>& d, const FilterBlock<Dim>& block) {
  return kf::FilterPlan<T, Dim>(block.weights, block.boundary, d.grid().points()).reach();
}

}  // namespace

template <class T, int Dim>
InsituFilter<T, Dim>::InsituFilter(const mesh::Decomposition<Dim>& decomposition, FilterBlock<Dim> block, StreamHandle stream,
                                   autotune::TuningOptions tuning)
    : m_decomposition(decomposition),
      m_block(std::move(block)),
      m_stream(stream),
      m_tuning(std::move(tuning)),
      m_reach(reach_of<T>(decomposition, m_block)) {}

template <class T, int Dim>
InsituFilter<T, Dim>::~InsituFilter() = default;

template <class T, int Dim>
typename InsituFilter<T, Dim>::Work& InsituFilter<T, Dim>::work_for(mesh::MemorySpace space) {
  auto& work = space == mesh::MemorySpace::device ? m_device_work : m_host_work;
  if (work) return *work;
  const StreamHandle stream = space == mesh::MemorySpace::device ? m_stream : nullptr;
  const kf::FilterPlan<T, Dim> prototype(m_block.weights, m_block.boundary, Work::global_of(m_decomposition, m_block));
  const autotune::FilterMethod method = decomposed_method(m_block.method, m_block.boundary.mode);
  const auto tuning =
      autotune::choose_filter_tunables(prototype, m_decomposition.owned(), space, stream, method, m_tuning, m_decomposition.comm());
  if (const std::string text = autotune::describe(tuning, space); m_decomposition.rank() == 0 && !text.empty()) {
    std::printf("  filter '%s' (method %s): %s\n", m_block.name.c_str(), autotune::to_string(method).c_str(), text.c_str());
    std::fflush(stdout);
  }
  work = std::make_unique<Work>(m_decomposition, m_block, tuning.chosen, space, stream);
  return *work;
}

template <class T, int Dim>
const char* InsituFilter<T, Dim>::path(mesh::MemorySpace space) const {
  const auto& work = space == mesh::MemorySpace::device ? m_device_work : m_host_work;
  return work ? work->plan.path() : "none";
}

template <class T, int Dim>
const mesh::Field<T, Dim>& InsituFilter<T, Dim>::apply(const mesh::Field<T, Dim>& source) {
  const mesh::Box<Dim>& owned = m_decomposition.owned();
  GRIDFLOW_REQUIRE(source.owned() == owned, "filter '" + m_block.name + "': field '" + m_block.field + "' is not on this rank's box");
  const mesh::MemorySpace space = source.space();
  Work& w = work_for(space);
  const StreamHandle stream = space == mesh::MemorySpace::device ? m_stream : nullptr;
  T* staging = static_cast<T*>(w.staging.data());
  kernels::pack::pack(source, owned, staging, stream);
  kernels::pack::unpack(static_cast<const T*>(staging), owned, w.input, stream);
  const int ghosts = w.input.ghost_width();
  if (ghosts > 0) w.exchange.exchange(w.input, ghosts);
  if (w.periodic) w.periodic->fill(w.input);
  w.plan.apply(w.input, w.output, owned, stream);
  if (space == mesh::MemorySpace::host) return w.output;
  if (!m_host_result) m_host_result = std::make_unique<mesh::Field<T, Dim>>(owned, 0, mesh::MemorySpace::host, m_block.name + "_host");
  m_host_result->copy_from(w.output);  // waits for the work queued on the device
  return *m_host_result;
}

template class InsituFilter<float, 2>;
template class InsituFilter<double, 2>;
template class InsituFilter<float, 3>;
template class InsituFilter<double, 3>;

}  // namespace gridflow::app
