#include "app/run/heat_start_check.hpp"

#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "mesh/check.hpp"
#include "solver/evaluate_on_box.hpp"

namespace gridflow::app {

namespace {

const char* keys[5] = {"heat.initial", "heat.boundary.left", "heat.boundary.right", "heat.boundary.bottom",
                       "heat.boundary.top"};

/// The first point of `box` where `f` at t = 0 is not finite once stored in T: {x, y, value}, or
/// nothing.
template <class T>
bool first_not_finite(const solver::CoordinateFunction& f, const mesh::Grid<2>& grid, const mesh::Box<2>& box,
                      std::array<double, 3>& found) {
  bool any = false;
  for (auto j = box.lo[1]; j <= box.hi[1] && !any; ++j)
    for (auto i = box.lo[0]; i <= box.hi[0] && !any; ++i) {
      const double x = grid.coordinate(0, i), y = grid.coordinate(1, j);
      const double v = f.eval(x, y, 0.0);
      if (!std::isfinite(static_cast<T>(v))) {
        found = {x, y, v};
        any = true;
      }
    }
  return any;
}

}  // namespace

template <class T>
void require_finite_start(const solver::HeatConfig& config, const mesh::Decomposition<2>& d,
                          const kernels::core::NonFiniteFlag& flag, StreamHandle stream) {
  const std::uint64_t local = flag.read(stream);
  std::uint64_t first_key = local;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &first_key, 1, MPI_UINT64_T, MPI_MIN, d.comm()));
  if (first_key == kernels::core::no_non_finite) return;
  // Rare and fatal: point by point, to name the formula and a point.
  const auto& grid = d.grid();
  const mesh::Box<2> owned = d.owned(), all_points = grid.points();
  std::array<mesh::Box<2>, 5> boxes{owned, owned, owned, owned, owned};
  for (int side = 0; side < 4; ++side) {  // the boundary line of each side, within this rank's box
    const int axis = side / 2;
    mesh::Box<2> line = all_points;
    line.lo[axis] = line.hi[axis] = side % 2 == 0 ? all_points.lo[axis] : all_points.hi[axis];
    boxes[1 + side] = owned.intersect(line);
  }
  const std::array<const solver::CoordinateFunction*, 5> formulas{config.initial.get(), config.boundary[0].get(),
                                                                    config.boundary[1].get(), config.boundary[2].get(),
                                                                    config.boundary[3].get()};
  int mine = 5;
  std::array<double, 3> point{};
  for (int k = 0; k < 5 && mine == 5; ++k)
    if (!boxes[k].empty() && first_not_finite<T>(*formulas[k], grid, boxes[k], point)) mine = k;
  int first = 5;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, d.comm()));
  if (first == 5)  // every formula finite at every point, but not the field: not an input error
    throw Error("the heat field is not finite at t = 0 although every initial and boundary value is");
  int holder = mine == first ? d.rank() : d.size(), lowest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&holder, &lowest, 1, MPI_INT, MPI_MIN, d.comm()));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(point.data(), 3, MPI_DOUBLE, lowest, d.comm()));
  const bool overflows = std::isfinite(point[2]);  // finite in double, not in T
  const std::string value = std::isnan(point[2]) ? std::string("NaN") : fmt::format("{}", point[2]);
  throw InputError(fmt::format("key '{}': '{}' is {} at (x, y) = ({}, {}){}; initial and boundary values must be finite",
                               keys[first], formulas[first]->text(), value, point[0], point[1],
                               overflows ? ", beyond the range of float (precision = \"float\")" : ", t = 0"));
}

template void require_finite_start<float>(const solver::HeatConfig&, const mesh::Decomposition<2>&,
                                          const kernels::core::NonFiniteFlag&, StreamHandle);
template void require_finite_start<double>(const solver::HeatConfig&, const mesh::Decomposition<2>&,
                                           const kernels::core::NonFiniteFlag&, StreamHandle);

}  // namespace gridflow::app
