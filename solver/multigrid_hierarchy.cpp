#include "solver/multigrid_hierarchy.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "kernels/multigrid/dense_solve.hpp"
#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/smoother.hpp"
#include "kernels/multigrid/transfer.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "mesh/check.hpp"
#include "solver/poisson_problem.hpp"

namespace gridflow::solver {

namespace mg = kernels::multigrid;

template <class T>
double coarse_solve_reduction() {
  return std::max(1e-10, 100 * static_cast<double>(std::numeric_limits<T>::epsilon()));
}

namespace {

/// The ranks of `parent` reduced to its rank 0 (MPI_COMM_NULL elsewhere). Collective.
mesh::SharedComm root_only(MPI_Comm parent) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(parent, &rank));
  MPI_Comm root = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_split(parent, rank == 0 ? 0 : MPI_UNDEFINED, 0, &root));
  if (root != MPI_COMM_NULL) GRIDFLOW_MPI_CHECK(MPI_Comm_set_errhandler(root, MPI_ERRORS_RETURN));
  return mesh::adopt_comm(root);
}

std::int64_t interior_points(const mesh::Grid<3>& grid) { return grid.interior().size(); }

/// The other ranks a halo exchange over `d` talks to: across faces, edges and corners.
std::vector<int> halo_neighbours(const mesh::Decomposition<3>& d) {
  std::vector<int> ranks;
  for (int z = -1; z <= 1; ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const int r = d.neighbour({x, y, z});
        if (r != MPI_PROC_NULL && r != d.rank() && std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
      }
  return ranks;
}

/// Whether red-black sweeps on a level go out of place, between u and the scratch field (one pass
/// over memory per sweep on the device instead of one per colour), when the options ask for it;
/// only where no exchange is due between the colours.
bool out_of_place_gauss_seidel(const MultigridOptions& o, const mesh::Decomposition<3>& d, mesh::MemorySpace space) {
  return o.out_of_place_smoother && d.size() == 1 && space == mesh::MemorySpace::device;
}

}  // namespace

template <class T>
MultigridHierarchy<T>::MultigridHierarchy(const PoissonContext& context)
    : m_options(context.config.multigrid), m_stream(context.stream) {
  const auto& finest = context.decomposition;
  m_plan = plan_multigrid(finest.grid(), finest.dims(), m_options.coarse_points);
  const bool jacobi = m_options.smoother == "jacobi";
  if (context.transport == halo::Transport::nccl && finest.size() > 1) {
    m_nccl = std::make_shared<const halo::NcclComm>(finest.comm());
    m_nccl->connect(halo_neighbours(finest));  // every distributed level exchanges with these
  }

  const auto level = [&](int l, const mesh::Decomposition<3>& d) {
    const bool scratch = jacobi || out_of_place_gauss_seidel(m_options, d, context.space);
    return std::make_unique<MultigridLevel<T>>(m_plan[l], d, l == 0, scratch, context.space, context.transport, context.stream,
                                               m_plan[l].gathered ? nullptr : m_nccl);
  };
  m_levels.push_back(level(0, finest));
  for (int l = 1; l < levels(); ++l) {
    m_levels.emplace_back();
    if (!takes_part(l - 1)) continue;
    const auto& fine = m_levels[l - 1]->decomposition();
    if (m_plan[l - 1].to_coarser == CoarseTransfer::gather) {
      m_gather = std::make_unique<halo::MultigridGather<T>>(fine, m_plan[l].grid, m_plan[l - 1].coarsening, context.space,
                                                            context.stream);
      const mesh::SharedComm root = root_only(fine.comm());
      if (*root != MPI_COMM_NULL) m_levels[l] = level(l, mesh::Decomposition<3>(m_plan[l].grid, *root, {1, 1, 1}));
    } else {
      m_levels[l] = level(l, mesh::Decomposition<3>(m_plan[l].grid, fine.comm(), m_plan[l].dims));
    }
  }

  // On a device, where a level lives on one rank and the next halves every axis (so the coarse
  // points' footprint lies in the level's own updated points), its residual is formed where the
  // full weighting reads it: one pass over u and f instead of the residual field written and read
  // back. (A level on one rank decides alike wherever it lives: no exchange is skipped on some
  // ranks.) Not on the host, where computing each fine residual for every coarse point that weighs
  // it costs more than the memory it saves (128^3 multigrid solve 0.48-0.50 s against 0.39-0.40).
  m_fused_restriction.assign(levels(), false);
  for (int l = 0; l + 1 < levels(); ++l)
    m_fused_restriction[l] = context.space == mesh::MemorySpace::device && takes_part(l) && takes_part(l + 1) &&
                             m_plan[l].dims == std::array<int, 3>{1, 1, 1} && m_plan[l].to_coarser == CoarseTransfer::halo &&
                             m_plan[l].coarsening.halves_all() &&
                             m_levels[l]->updated().contains(mg::restriction_footprint(m_levels[l + 1]->updated()));

  const int last = levels() - 1;
  const auto coarsest_interior = m_plan[last].grid.interior();
  if (takes_part(last) && m_levels[last]->decomposition().size() == 1 && last > 0 &&
      coarsest_interior.size() <= mg::dense_solve_max_points) {
    const auto& g = m_plan[last].grid;
    const auto k = kernels::stencil::poisson_coefficients<double>(g.spacing(0), g.spacing(1), g.spacing(2));
    const auto inverse = mg::dense_inverse(coarsest_interior, k);
    const std::vector<T> values(inverse.begin(), inverse.end());
    m_coarse_inverse = mesh::Buffer(values.size() * sizeof(T), context.space);
    mesh::copy_bytes_async(m_coarse_inverse.data(), context.space, values.data(), mesh::MemorySpace::host, values.size() * sizeof(T),
                           m_stream);
    mesh::synchronize(context.space, m_stream);  // `values` dies here
  } else if (takes_part(last)) {
    const auto& coarsest = *m_levels[last];
    m_coarse_solver = std::make_unique<ConjugateGradient<T>>(coarsest.decomposition(), m_plan[last].ghost, context.space,
                                                             coarsest.coefficients(), context.transport, context.stream,
                                                             m_plan[last].gathered ? nullptr : m_nccl);
    m_coarse_options.tolerance = coarse_solve_reduction<T>();
    m_coarse_options.max_iterations = std::max<std::int64_t>(10, interior_points(m_plan[last].grid));
    m_coarse_options.reference_norm = 0;  // relative to the coarse right-hand side
  }
}

template <class T>
std::unique_ptr<mesh::Field<T, 3>> MultigridHierarchy<T>::make_finest_field(const std::string& label) const {
  return m_levels[0]->make_field(label);
}

template <class T>
void MultigridHierarchy<T>::cycle(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  cycle(0, m_options.cycle == "F", u, f, false);
}

template <class T>
void MultigridHierarchy<T>::cycle_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  cycle(0, m_options.cycle == "F", u, f, true);
}

template <class T>
void MultigridHierarchy<T>::correction_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool full) {
  if (!full) {
    cycle_from_zero(u, f);
    return;
  }
  mg::fill_zero(u, m_stream);
  full_multigrid(u, f);
}

template <class T>
void MultigridHierarchy<T>::full_multigrid(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  const int last = levels() - 1;
  if (last == 0) {
    cycle(u, f);
    return;
  }
  restrict_residual(0, u, f);
  for (int l = 1; l < last && takes_part(l); ++l) restrict_to_coarser(l, m_levels[l]->rhs());  // residual of a zero correction
  if (takes_part(last)) {
    cycle(last, false, m_levels[last]->solution(), m_levels[last]->rhs(), true);
  }
  for (int l = last - 1; l >= 1; --l) {
    if (!takes_part(l)) continue;
    auto& level = *m_levels[l];
    mg::fill_zero(level.solution(), m_stream);
    prolong_correction(l, level.solution());
    cycle(l, m_options.cycle == "F", level.solution(), level.rhs(), false);
  }
  prolong_correction(0, u);
  cycle(u, f);
}

template <class T>
void MultigridHierarchy<T>::restrict_to_coarser(int l, mesh::Field<T, 3>& fine) {
  auto& level = *m_levels[l];
  if (m_plan[l].to_coarser == CoarseTransfer::halo) {
    auto& coarse = *m_levels[l + 1];
    level.exchange(fine, m_plan[l].restriction_width);
    mg::restrict_full_weighting(fine, coarse.rhs(), coarse.updated(), m_stream, m_plan[l].coarsening);
  } else {
    level.exchange(fine, 1);
    m_gather->restrict_to_root(fine, takes_part(l + 1) ? &m_levels[l + 1]->rhs() : nullptr);
  }
}

template <class T>
double MultigridHierarchy<T>::residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  auto& finest = *m_levels[0];
  finest.exchange(u, 1);
  return global_norm(kernels::stencil::residual_norm_squared(u, f, finest.updated(), finest.coefficients(), m_stream),
                     finest.decomposition().comm());
}

template <class T>
double MultigridHierarchy<T>::residual_norm(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<float, 3>& r) {
  auto& finest = *m_levels[0];
  finest.exchange(u, 1);
  return global_norm(mg::residual_and_norm(u, f, r, finest.updated(), finest.coefficients(), m_stream),
                     finest.decomposition().comm());
}

template <class T>
void MultigridHierarchy<T>::cycle(int l, bool f_cycle, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, bool from_zero) {
  if (l + 1 == levels()) {
    if (from_zero) mg::fill_zero(u, m_stream);
    if (m_coarse_solver)
      m_coarse_solver->solve(u, f, m_coarse_options);
    else
      mg::apply_dense_inverse(static_cast<const T*>(m_coarse_inverse.data()), f, u, m_levels[l]->updated(), m_stream);
    return;
  }
  smooth(l, u, f, m_options.pre_smooth, false, from_zero);
  restrict_residual(l, u, f);
  if (takes_part(l + 1)) {
    auto& coarse = *m_levels[l + 1];
    cycle(l + 1, f_cycle, coarse.solution(), coarse.rhs(), true);
    // F-cycle: an F-cycle then a V-cycle on the coarse level (one solve where it is the coarsest).
    if (f_cycle && l + 2 < levels()) cycle(l + 1, false, coarse.solution(), coarse.rhs(), false);
  }
  prolong_correction(l, u);
  smooth(l, u, f, m_options.post_smooth, m_options.symmetric_cycle, false);
}

template <class T>
void MultigridHierarchy<T>::smooth(int l, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, int sweeps, bool black_first,
                                   bool from_zero) {
  auto& level = *m_levels[l];
  const auto& box = level.updated();
  const auto& k = level.coefficients();
  const bool in_place_gauss_seidel =
      m_options.smoother == "rbgs" && !out_of_place_gauss_seidel(m_options, level.decomposition(), u.space());
  // The sweeps from zero write all of u's ghosted box: in place, the first colour's fill; out of
  // place, an even count of sweeps ending in u (the first from zero into the scratch field).
  const bool rbgs = m_options.smoother == "rbgs";
  const bool sweeps_write_u = sweeps > 0 && rbgs &&
                              (in_place_gauss_seidel || (sweeps % 2 == 0 && level.scratch().ghosted().contains(u.ghosted())));
  if (from_zero && !sweeps_write_u) mg::fill_zero(u, m_stream);
  if (rbgs) {
    const int first = black_first ? 1 : 0;
    if (!in_place_gauss_seidel) {
      mesh::Field<T, 3>* in = &u;
      mesh::Field<T, 3>* out = &level.scratch();
      for (int s = 0; s < sweeps; ++s) {
        if (from_zero && s == 0) mg::gauss_seidel_sweep_out_of_place_from_zero(*out, f, box, first, k, m_stream);
        else mg::gauss_seidel_sweep_out_of_place(*in, *out, f, box, first, k, m_stream);
        std::swap(in, out);
      }
      if (in != &u) mg::copy(*in, u, box, m_stream);
      return;
    }
    for (int s = 0; s < sweeps; ++s)
      for (int colour : {first, 1 - first}) {
        if (from_zero && s == 0 && colour == first) {
          mg::red_black_gauss_seidel_sweep_from_zero(u, f, box, colour, k, m_stream);  // zero ghosts: no exchange
          continue;
        }
        level.exchange(u, 1);
        mg::red_black_gauss_seidel_sweep(u, f, box, colour, k, m_stream);
      }
    return;
  }
  if (sweeps == 0) return;
  // Weighted Jacobi alternates between u and the scratch field, which takes u's boundary values.
  auto& scratch = level.scratch();
  mg::copy(u, scratch, level.decomposition().owned(), m_stream);
  mesh::Field<T, 3>* in = &u;
  mesh::Field<T, 3>* out = &scratch;
  for (int s = 0; s < sweeps; ++s) {
    level.exchange(*in, 1);
    mg::weighted_jacobi_sweep(*in, *out, f, box, k, static_cast<T>(m_options.jacobi_weight), m_stream);
    std::swap(in, out);
  }
  if (in != &u) mg::copy(*in, u, box, m_stream);
}

template <class T>
void MultigridHierarchy<T>::restrict_residual(int l, mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f) {
  auto& level = *m_levels[l];
  level.exchange(u, 1);
  if (m_fused_restriction[l]) {
    auto& coarse = *m_levels[l + 1];
    mg::restrict_residual_full_weighting(u, f, coarse.rhs(), coarse.updated(), level.coefficients(), m_stream);
    return;
  }
  mg::residual(u, f, level.residual(), level.updated(), level.coefficients(), m_stream);
  restrict_to_coarser(l, level.residual());
}

template <class T>
void MultigridHierarchy<T>::prolong_correction(int l, mesh::Field<T, 3>& u) {
  auto& level = *m_levels[l];
  if (m_plan[l].to_coarser == CoarseTransfer::halo) {
    auto& coarse = *m_levels[l + 1];
    coarse.exchange(coarse.solution(), m_plan[l + 1].prolongation_width);
    mg::prolong_and_add(coarse.solution(), u, level.updated(), m_stream, m_plan[l].coarsening);
  } else {
    m_gather->prolong_from_root(takes_part(l + 1) ? &m_levels[l + 1]->solution() : nullptr, u);
  }
}

template double coarse_solve_reduction<float>();
template double coarse_solve_reduction<double>();
template class MultigridHierarchy<float>;
template class MultigridHierarchy<double>;

}  // namespace gridflow::solver
