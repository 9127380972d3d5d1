#include "solver/poisson3d_config.hpp"

namespace gridflow::solver {

int multigrid_levels(const mesh::Grid<3>& grid, std::int64_t coarse_points) {
  int levels = 1;
  std::array<mesh::Index, 3> n = grid.n;
  for (;;) {
    for (int d = 0; d < 3; ++d)
      if (n[d] % 2 != 0 || n[d] / 2 < coarse_points) return levels;
    for (auto& v : n) v /= 2;
    ++levels;
  }
}

}  // namespace gridflow::solver
