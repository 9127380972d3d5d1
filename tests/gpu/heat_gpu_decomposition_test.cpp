// Heat 2D on every GPU rank this test runs with (mpirun -np 1, 2, 4), over both transports and
// ghost widths 1..4, against the one-rank host oracle: bitwise equal.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "heat_test_support.hpp"

namespace {

template <class T>
class HeatGpuDecomposition : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeatGpuDecomposition, Precisions);

const std::string deck =
    "[grid]\nn = [203, 157]\nlength = [1.0, 0.8]\n[heat]\na = 0.9\nsteps = 37\n"
    "initial = 'sin(5*x) * cos(3*y) + x'\n"
    "[heat.boundary]\nleft = 'y * cos(40*t)'\nright = '1 + sin(y + 30*t)'\nbottom = 'x * exp(-t)'\ntop = 'x^2'\n";

}  // namespace

TYPED_TEST(HeatGpuDecomposition, EveryTransportAndWidthEqualsTheHostOracle) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  using namespace gridflow;
  halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const int ranks = gridflow::testing::world_size();
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  const auto oracle = gridflow::testing::run_heat_gathered<T>(gridflow::testing::heat_config(deck, {precision}), MPI_COMM_SELF);
  std::vector<halo::Transport> transports{halo::Transport::mpi};
  if (ranks > 1 && halo::nccl_available() && !halo::ranks_share_gpu(MPI_COMM_WORLD)) transports.push_back(halo::Transport::nccl);
  else if (ranks > 1) gridflow::testing::note_nccl_not_tested(gridflow::testing::nccl_unusable_reason(MPI_COMM_WORLD));
  for (const auto transport : transports)
    for (int width = 1; width <= 4; ++width) {
      const auto config = gridflow::testing::heat_config(deck, {precision, "halo.width=" + std::to_string(width)});
      const auto got = gridflow::testing::run_heat_gathered<T>(config, MPI_COMM_WORLD, mesh::MemorySpace::device, transport);
      std::size_t differ = 0;
      for (std::size_t k = 0; k < got.size(); ++k) differ += got[k] != oracle[k];
      EXPECT_EQ(differ, 0u) << ranks << " GPU ranks, " << halo::to_string(transport) << ", halo.width=" << width;
    }
}
