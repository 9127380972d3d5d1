// Heat 2D on N ranks against the same run on one rank: bitwise equal for every ghost width, process
// grid and precision, on grids that do not divide evenly, with boundaries that move in time.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "heat_test_support.hpp"
#include "mpi_test_support.hpp"

namespace {

template <class T>
class HeatDecomposition : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatDecomposition, Precisions);

using gridflow::testing::world_size;
const std::string deck =
    "[grid]\nn = [37, 29]\nlength = [1.0, 0.8]\n[heat]\na = 0.9\nsteps = 23\n"
    "initial = 'sin(5*x) * cos(3*y) + x'\n"
    "[heat.boundary]\nleft = 'y * cos(40*t)'\nright = '1 + sin(y + 30*t)'\nbottom = 'x * exp(-t)'\ntop = 'x^2'\n";

}  // namespace

TYPED_TEST(HeatDecomposition, NRanksEqualOneRankBitwise) {
  using T = TypeParam;
  const int n = world_size();
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const auto reference = gridflow::testing::run_heat_gathered<T>(gridflow::testing::heat_config(deck, {precision}), MPI_COMM_SELF);
  const std::array<std::string, 3> grids = {"decomposition=[0,0]", "decomposition=[" + std::to_string(n) + ",1]",
                                            "decomposition=[1," + std::to_string(n) + "]"};
  for (int width = 1; width <= 4; ++width)
    for (const auto& dims : grids) {
      const auto config = gridflow::testing::heat_config(deck, {precision, dims, "halo.width=" + std::to_string(width)});
      const auto got = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD);
      std::size_t differ = 0;
      for (std::size_t k = 0; k < got.size(); ++k) differ += got[k] != reference[k];
      EXPECT_EQ(differ, 0u) << n << " ranks, " << dims << ", halo.width=" << width;
    }
}

// Ghosts 8 and 16 deep, as fused launches of up to 16 steps need on several ranks: each rank takes
// that many steps between exchanges, setting its moving boundary points after each.
TYPED_TEST(HeatDecomposition, DeepGhostsWithAMovingBoundaryEqualOneRankBitwise) {
  using T = TypeParam;
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const std::vector<std::string> larger = {precision, "grid.n=[130, 100]", "heat.steps=37"};
  const auto reference = gridflow::testing::run_heat_gathered<T>(gridflow::testing::heat_config(deck, larger), MPI_COMM_SELF);
  for (const int width : {8, 16}) {
    auto overrides = larger;
    overrides.push_back("halo.width=" + std::to_string(width));
    const auto got = gridflow::testing::run_heat_gathered<T>(gridflow::testing::heat_config(deck, overrides), MPI_COMM_WORLD);
    std::size_t differ = 0;
    for (std::size_t k = 0; k < got.size(); ++k) differ += got[k] != reference[k];
    EXPECT_EQ(differ, 0u) << world_size() << " ranks, halo.width=" << width;
  }
}
