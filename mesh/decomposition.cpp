#include "mesh/decomposition.hpp"

#include <algorithm>
#include <sstream>

#include "mesh/check.hpp"

namespace gridflow::mesh {

std::array<Index, 2> split_range(Index n_points, int parts, int part) {
  const Index base = n_points / parts, extra = n_points % parts;
  const Index lo = part * base + std::min<Index>(part, extra);
  return {lo, lo + base + (part < extra ? 1 : 0) - 1};
}

SharedComm adopt_comm(MPI_Comm comm) {
  return SharedComm(new MPI_Comm(comm), [](const MPI_Comm* c) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && *c != MPI_COMM_NULL) MPI_Comm_free(const_cast<MPI_Comm*>(c));
    delete c;
  });
}

namespace {
template <class A>
std::string list(const A& a) {
  std::ostringstream os;
  os << '[';
  for (std::size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os.str() + ']';
}
}  // namespace

template <int Dim>
Decomposition<Dim>::Decomposition(const Grid<Dim>& grid, MPI_Comm parent, std::array<int, Dim> dims, Index min_points)
    : m_grid(grid) {
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(parent, &m_size));
  long fixed = 1;
  for (int d = 0; d < Dim; ++d) {
    if (dims[d] < 0) throw InputError("decomposition " + list(dims) + ": entries must be >= 0 (0 lets MPI choose)");
    if (dims[d] > 0) fixed *= dims[d];
  }
  if (m_size % fixed != 0 || (fixed != m_size && std::count(dims.begin(), dims.end(), 0) == 0))
    throw InputError("decomposition " + list(dims) + " multiplies to " + std::to_string(fixed) + " but " +
                     std::to_string(m_size) + " ranks are running");
  GRIDFLOW_MPI_CHECK(MPI_Dims_create(m_size, Dim, dims.data()));
  m_dims = dims;

  for (int d = 0; d < Dim; ++d) {
    const Index points = grid.n[d] + 1;
    const Index smallest = points / m_dims[d];
    if (smallest < min_points)
      throw InputError("decomposition " + list(m_dims) + " leaves a rank " + std::to_string(smallest) +
                       " points along axis " + std::to_string(d) + " (grid has " + std::to_string(points) +
                       "), fewer than the " + std::to_string(min_points) + " the ghost width needs");
  }

  std::array<int, Dim> periods{};
  MPI_Comm cart = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Cart_create(parent, Dim, m_dims.data(), periods.data(), /*reorder=*/0, &cart));
  m_comm = adopt_comm(cart);
  GRIDFLOW_MPI_CHECK(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(cart, &m_rank));
  GRIDFLOW_MPI_CHECK(MPI_Cart_coords(cart, m_rank, Dim, m_coords.data()));
  m_owned = box_of(m_coords);
}

template <int Dim>
Box<Dim> Decomposition<Dim>::box_of(const std::array<int, Dim>& coords) const {
  Box<Dim> b;
  for (int d = 0; d < Dim; ++d) {
    const auto r = split_range(m_grid.n[d] + 1, m_dims[d], coords[d]);
    b.lo[d] = r[0];
    b.hi[d] = r[1];
  }
  return b;
}

template <int Dim>
Box<Dim> Decomposition<Dim>::owned_by(int r) const {
  std::array<int, Dim> c{};
  GRIDFLOW_MPI_CHECK(MPI_Cart_coords(comm(), r, Dim, c.data()));
  return box_of(c);
}

template <int Dim>
int Decomposition<Dim>::neighbour(const std::array<int, Dim>& offset) const {
  std::array<int, Dim> c{};
  for (int d = 0; d < Dim; ++d) {
    c[d] = m_coords[d] + offset[d];
    if (c[d] < 0 || c[d] >= m_dims[d]) return MPI_PROC_NULL;
  }
  int r = MPI_PROC_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Cart_rank(comm(), c.data(), &r));
  return r;
}

template class Decomposition<2>;
template class Decomposition<3>;

}  // namespace gridflow::mesh
