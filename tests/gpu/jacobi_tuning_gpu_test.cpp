// On-line tuning of the CUDA Jacobi sweep's launch shape: the tuned solve has the untuned one's
// iterates bitwise and its iteration count (every shape computes each point with jacobi_point; no
// FMA contraction), and a cached run reuses the choice. On several ranks with a GPU each, the halo
// transport (NCCL or host-staged MPI) is tuned as well, with the same outcome. The residual history agrees to summation
// order only: the CUDA residual is summed per block and added with one double atomic per block,
// so its last bits follow the launch shape and the order the blocks finish in, even untuned.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <memory>
#include <string>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "jacobi_tuning_test_support.hpp"
#include "solver/jacobi_iteration.hpp"

namespace {

// 97^3 points: a sweep takes microseconds, and the solve tens of thousands of sweeps, so the
// tuning's half of the slowest-mode bound holds a local search of 8 shapes many times over.
const std::string deck =
    "solver = 'jacobi'\n[grid]\nn = [96, 96, 96]\n[poisson]\nmax_iterations = 100000\n"
    "rhs = '1 + x*y - z'\n[poisson.boundary]\nx_low = 'y'\nz_high = 'x*y + 1'\n";

template <class T>
class JacobiTuningGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(JacobiTuningGpu, Precisions);

}  // namespace

TYPED_TEST(JacobiTuningGpu, TunedLaunchShapeLeavesTheSolveUnchangedAndIsCached) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  using gridflow::testing::poisson_config;
  using gridflow::testing::solve_differences;
  using gridflow::testing::solve_jacobi_tuned;
  gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const auto device = gridflow::mesh::MemorySpace::device;
  const gridflow::testing::ScratchCache cache("jacobi_tuning_gpu", MPI_COMM_WORLD);
  // Float reaches about 2e-5 on this grid (its rounding floor); 1e-4 leaves room.
  const std::string p = sizeof(T) == 4 ? "precision=float" : "precision=double";
  const std::string tolerance = sizeof(T) == 4 ? "poisson.tolerance=1e-4" : "poisson.tolerance=1e-8";
  const double history_rtol = 1e-12;

  const auto off = solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "tuning.mode=off", cache.key()}),
                                         MPI_COMM_WORLD, device);
  ASSERT_TRUE(off.solve.report.converged) << off.solve.report.relative_residual;
  const auto online = solve_jacobi_tuned<T>(
      poisson_config(deck, {p, tolerance, "tuning.strategy=local", "tuning.budget=8", "tuning.repeats=1", cache.key()}),
      MPI_COMM_WORLD, device);
  ASSERT_TRUE(online.tuning);
  ASSERT_TRUE(online.tuning->outcome.report) << online.tuning->text();
  EXPECT_FALSE(online.tuning->outcome.report->from_cache);
  EXPECT_TRUE(online.tuning->outcome.chosen.has("block_x"));
  // On several ranks the exchange width is tuned too: "jacobi3d:cuda:ghost_width/<dims>".
  EXPECT_EQ(online.tuning->kernel.rfind("jacobi3d:cuda", 0), 0u) << online.tuning->kernel;
  const int ranks = gridflow::testing::world_size();
  EXPECT_EQ(online.tuning->kernel.find(":ghost_width/") != std::string::npos, ranks > 1) << online.tuning->kernel;
  EXPECT_GT(online.tuning->steps_taken, 0);
  EXPECT_LT(online.tuning->steps_taken, online.solve.report.iterations);
  EXPECT_EQ(solve_differences(online.solve, off.solve, history_rtol), 0u) << p << ": " << online.tuning->text();

  const auto cached = solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "tuning.mode=cached", cache.key()}),
                                            MPI_COMM_WORLD, device);
  ASSERT_TRUE(cached.tuning);
  ASSERT_TRUE(cached.tuning->outcome.report) << cached.tuning->text();
  EXPECT_TRUE(cached.tuning->outcome.report->from_cache);
  EXPECT_EQ(cached.tuning->outcome.chosen, online.tuning->outcome.chosen);
  EXPECT_EQ(cached.tuning->steps_taken, 0);
  EXPECT_EQ(solve_differences(cached.solve, off.solve, history_rtol), 0u) << p;
}

/// Jacobi whose halo transport and exchange width change every 40 sweeps, as the on-line tuner
/// changes them between measured runs.
template <class T>
class SwitchingJacobi final : public gridflow::solver::PoissonSolver<T> {
 public:
  explicit SwitchingJacobi(const gridflow::solver::PoissonContext& context) : m_context(context) {}
  /// Takes every sweep here: the solve returned has finished.
  std::unique_ptr<gridflow::solver::PoissonSolve<T>> start(
      gridflow::mesh::Field<T, 3>& u, const gridflow::mesh::Field<T, 3>& f, double b_norm,
      std::function<void(const gridflow::solver::ResidualRecord&)> progress) override {
    using gridflow::halo::Transport;
    auto iteration = std::make_unique<gridflow::solver::JacobiIteration<T>>(
        m_context, u, f, b_norm, std::move(progress), gridflow::solver::default_jacobi_tunables(m_context));
    for (int k = 0; !iteration->finished(); ++k) {
      auto t = iteration->tunables();
      t.transport = k % 2 ? Transport::mpi : Transport::nccl;
      t.ghost_width = k % 3 == 0 ? 2 : 1;
      iteration->set_tunables(t);
      iteration->advance(40);
    }
    return iteration;
  }
  std::string name() const override { return "switching-jacobi"; }

 private:
  gridflow::solver::PoissonContext m_context;
};

TYPED_TEST(JacobiTuningGpu, SwitchingTheHaloTransportBetweenSweepsLeavesTheSolveUnchanged) {
  GRIDFLOW_REQUIRE_NCCL_RANKS();
  using T = TypeParam;
  using gridflow::testing::poisson_config;
  namespace halo = gridflow::halo;
  const auto device = gridflow::mesh::MemorySpace::device;
  const std::string p = sizeof(T) == 4 ? "precision=float" : "precision=double";
  const std::string tolerance = sizeof(T) == 4 ? "poisson.tolerance=1e-4" : "poisson.tolerance=1e-8";
  const auto config = poisson_config(deck, {p, tolerance, "halo.width=2", "tuning.mode=off"});
  const auto steady = gridflow::testing::solve_gathered<T>(config, MPI_COMM_WORLD, device, halo::Transport::nccl);
  ASSERT_TRUE(steady.report.converged) << steady.report.relative_residual;
  const auto switching = gridflow::testing::solve_gathered_with<T>(
      config, MPI_COMM_WORLD, device, halo::Transport::nccl,
      [](const gridflow::solver::PoissonContext& c) { return std::make_unique<SwitchingJacobi<T>>(c); });
  // Same launch shape throughout: even the residuals, summed per block, may differ only in the
  // order the blocks finish in.
  EXPECT_EQ(gridflow::testing::solve_differences(switching, steady, 1e-12), 0u) << p;
}

TYPED_TEST(JacobiTuningGpu, TunedHaloTransportLeavesTheSolveUnchanged) {
  GRIDFLOW_REQUIRE_NCCL_RANKS();
  using T = TypeParam;
  using gridflow::testing::poisson_config;
  using gridflow::testing::solve_differences;
  using gridflow::testing::solve_jacobi_tuned;
  namespace halo = gridflow::halo;
  const auto device = gridflow::mesh::MemorySpace::device;
  const gridflow::testing::ScratchCache cache("jacobi_transport_gpu", MPI_COMM_WORLD);
  const std::string p = sizeof(T) == 4 ? "precision=float" : "precision=double";
  const std::string tolerance = sizeof(T) == 4 ? "poisson.tolerance=1e-4" : "poisson.tolerance=1e-8";
  const auto off = solve_jacobi_tuned<T>(poisson_config(deck, {p, tolerance, "tuning.mode=off", cache.key()}),
                                         MPI_COMM_WORLD, device, halo::Transport::nccl);
  ASSERT_TRUE(off.solve.report.converged) << off.solve.report.relative_residual;
  const auto online = solve_jacobi_tuned<T>(
      poisson_config(deck, {p, tolerance, "tuning.strategy=local", "tuning.budget=12", "tuning.repeats=1", cache.key()}),
      MPI_COMM_WORLD, device, halo::Transport::nccl);
  ASSERT_TRUE(online.tuning);
  ASSERT_TRUE(online.tuning->outcome.report) << online.tuning->text();
  EXPECT_NE(online.tuning->kernel.find(":transport"), std::string::npos) << online.tuning->kernel;
  EXPECT_TRUE(online.tuning->outcome.chosen.has("nccl")) << online.tuning->text();
  EXPECT_EQ(solve_differences(online.solve, off.solve, 1e-12), 0u) << p << ": " << online.tuning->text();
}
