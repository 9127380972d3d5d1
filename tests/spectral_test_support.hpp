#pragma once
// Helpers for tests of the spectral solver: a solve over any communicator with SpectralSolver
// built directly (not through the factory), u gathered on every rank; and the manufactured decks.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "poisson_test_support.hpp"
#include "solver/spectral_solver.hpp"

namespace gridflow::testing {

/// u = sin(pi x) sin(2 pi y) sin(3 pi z), zero faces, f = -14 pi^2 u.
inline const std::string spectral_sine_deck =
    "solver = 'spectral'\n[grid]\nn = [12, 10, 14]\n[poisson]\ntolerance = 1e-12\n"
    "rhs = '-14 * pi^2 * sin(pi*x) * sin(2*pi*y) * sin(3*pi*z)'\n";

/// u = x^2 + y z + 3, which the 7-point operator reproduces exactly (A u = 2), with every face
/// non-zero and a different spacing per axis.
inline std::string spectral_polynomial_deck() {
  std::string deck = "solver = 'spectral'\n[grid]\nn = [12, 10, 14]\nlength = [1.0, 0.8, 1.3]\norigin = [-0.2, 0.1, 0.0]\n"
                     "[poisson]\ntolerance = 1e-12\nrhs = '2'\n[poisson.boundary]\n";
  for (const char* face : {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"})
    deck += std::string(face) + " = 'x^2 + y*z + 3'\n";
  return deck;
}
inline double spectral_polynomial_exact(double x, double y, double z) { return x * x + y * z + 3; }

/// Solves `config` over `comm` with SpectralSolver on fields in `space`; u on every rank, x fastest.
template <class T>
PoissonResult<T> solve_spectral_gathered(const solver::PoissonConfig& config, MPI_Comm comm,
                                         mesh::MemorySpace space = mesh::MemorySpace::host,
                                         halo::Transport transport = halo::Transport::mpi) {
  const mesh::Decomposition<3> d(config.grid, comm,
                                 {config.run.decomposition[0], config.run.decomposition[1], config.run.decomposition[2]},
                                 config.run.halo_width);
  std::optional<mesh::Stream> stream;
  if (space == mesh::MemorySpace::device) stream.emplace();
  const StreamHandle s = stream ? stream->get() : nullptr;
  solver::PoissonProblem<T> problem(config, d, space, s);
  solver::SpectralSolver<T> spectral(solver::PoissonContext{config, d, space, s, transport});
  PoissonResult<T> result;
  result.report = spectral.solve(problem.u(), problem.f(), problem.b_norm(), {});
  mesh::Field<T, 3> host(d.owned(), config.run.halo_width, mesh::MemorySpace::host);
  host.copy_from(problem.u());
  const auto points = config.grid.points();
  std::vector<T> local(static_cast<std::size_t>(points.size()), T(0));
  result.u.resize(local.size());
  const auto& o = d.owned();
  for (auto k = o.lo[2]; k <= o.hi[2]; ++k)
    for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
      for (auto i = o.lo[0]; i <= o.hi[0]; ++i)
        local[(k * points.extent(1) + j) * points.extent(0) + i] = host(i, j, k);
  // Each point is owned once: the sum over ranks assembles the field exactly.
  MPI_Allreduce(local.data(), result.u.data(), static_cast<int>(local.size()), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                MPI_SUM, comm);
  return result;
}

/// Max |a - b| over two gathered fields.
template <class T>
double max_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0;
  for (std::size_t q = 0; q < a.size(); ++q) d = std::max(d, std::abs(static_cast<double>(a[q]) - static_cast<double>(b[q])));
  return d;
}

}  // namespace gridflow::testing
