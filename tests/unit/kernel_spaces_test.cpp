// The CUDA stencil kernels' search spaces: defaults are the parameter structs' defaults, the
// conversions round-trip, and no illegal launch shape reaches an evaluator under any strategy.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "autotune/coordinate_descent.hpp"
#include "autotune/exhaustive.hpp"
#include "autotune/legal_only_evaluator.hpp"
#include "autotune/timer.hpp"
#include "autotune/tuner.hpp"
#include "solver/heat_tuning.hpp"
#include "autotune/kernel_spaces.hpp"

namespace {

using gridflow::autotune::Configuration;

/// Records what it is asked to run; the cost favours large blocks so the search walks to the
/// constraint boundary.
class RecordingEvaluator final : public gridflow::autotune::Evaluator {
 public:
  gridflow::autotune::CheckResult check(const Configuration&) override { return gridflow::autotune::CheckResult::pass(); }
  void run(const Configuration& c) override { seen.push_back(c); }
  std::vector<Configuration> seen;
};

class FakeTimer final : public gridflow::autotune::Timer {
 public:
  explicit FakeTimer(const RecordingEvaluator& e) : m_e(e) {}
  void start() override {}
  double stop() override {
    const auto& c = m_e.seen.back();
    return 1.0 / (c.at("block_x") * c.at("block_y")) + 1e-3 * c.values().size();
  }

 private:
  const RecordingEvaluator& m_e;
};

template <class Check>
void expect_only_legal(const gridflow::autotune::SearchSpace& space, gridflow::autotune::Strategy& strategy, Check legal) {
  RecordingEvaluator recorder;
  gridflow::autotune::LegalOnlyEvaluator guarded(space, recorder);
  FakeTimer timer(recorder);
  gridflow::autotune::tune("test", space, guarded, timer, strategy);
  ASSERT_FALSE(recorder.seen.empty());
  for (const auto& c : recorder.seen) EXPECT_TRUE(legal(c)) << c;
}

}  // namespace

TEST(KernelSpaces, HeatDefaultIsTheStructDefaultAndRoundTrips) {
  const auto space = gridflow::autotune::heat_cuda_space(sizeof(double));
  const auto d = gridflow::autotune::heat_cuda_params(space.default_configuration());
  const gridflow::kernels::stencil::HeatCudaParams expected;
  EXPECT_EQ(d.block_x, expected.block_x);
  EXPECT_EQ(d.block_y, expected.block_y);
  EXPECT_EQ(d.cells_per_thread, expected.cells_per_thread);
  EXPECT_EQ(space.default_configuration().at("fused_steps"), 1) << "one step per launch is legal everywhere";
  for (const auto& c : space.enumerate()) {
    Configuration back{{"fused_steps", c.at("fused_steps")}};  // the solver's, not the launch shape's
    gridflow::autotune::set_heat_cuda_params(back, gridflow::autotune::heat_cuda_params(c));
    EXPECT_EQ(back, c);
    EXPECT_TRUE(gridflow::autotune::heat_cuda_params(c).valid()) << c;
  }
  EXPECT_LT(space.enumerate().size(), space.unconstrained_size());  // the thread limit bites
}

TEST(KernelSpaces, JacobiRespectsThreadsAndSharedMemoryPerPrecision) {
  for (const std::size_t bytes : {sizeof(float), sizeof(double)}) {
    const auto space = gridflow::autotune::jacobi_cuda_space(bytes);
    const auto d = gridflow::autotune::jacobi_cuda_params(space.default_configuration());
    EXPECT_EQ(d.block_x, gridflow::kernels::stencil::JacobiCudaParams{}.block_x);
    for (const auto& c : space.enumerate()) {
      const auto p = gridflow::autotune::jacobi_cuda_params(c);
      EXPECT_TRUE(p.valid()) << c;
      if (p.shared_tile) {
        EXPECT_LE((p.block_x + 2) * (p.block_y + 2) * bytes, 48u * 1024u) << c;
      }
      Configuration back;
      gridflow::autotune::set_jacobi_cuda_params(back, p);
      EXPECT_EQ(back, c);
    }
  }
}

TEST(KernelSpaces, NoIllegalConfigurationReachesTheKernel) {
  const auto heat = gridflow::autotune::heat_cuda_space(sizeof(double));
  const auto jacobi = gridflow::autotune::jacobi_cuda_space(sizeof(double));
  auto heat_legal = [](const Configuration& c) {
    const auto p = gridflow::autotune::heat_cuda_params(c);
    const int fused = c.at("fused_steps");
    return p.valid() && (fused == 1 || p.fused_shared_bytes(fused, sizeof(double)) <= 48u * 1024u);
  };
  auto jacobi_legal = [](const Configuration& c) {
    const auto p = gridflow::autotune::jacobi_cuda_params(c);
    return p.valid() && (!p.shared_tile || (p.block_x + 2) * (p.block_y + 2) * sizeof(double) <= 48u * 1024u);
  };
  gridflow::autotune::Exhaustive exhaustive;
  gridflow::autotune::CoordinateDescent local({12});
  expect_only_legal(heat, exhaustive, heat_legal);
  expect_only_legal(heat, local, heat_legal);
  expect_only_legal(jacobi, exhaustive, jacobi_legal);
  expect_only_legal(jacobi, local, jacobi_legal);
}

TEST(KernelSpaces, TheGuardRefusesAnIllegalConfigurationAsABug) {
  const auto space = gridflow::autotune::heat_cuda_space(sizeof(double));
  RecordingEvaluator recorder;
  gridflow::autotune::LegalOnlyEvaluator guarded(space, recorder);
  const Configuration too_many_threads{{"block_x", 256}, {"block_y", 16}, {"cells_per_thread", 1}, {"fused_steps", 1}};
  EXPECT_THROW(guarded.run(too_many_threads), std::logic_error);
  EXPECT_THROW(guarded.check(too_many_threads), std::logic_error);
  EXPECT_TRUE(recorder.seen.empty());
  guarded.run(space.default_configuration());
  EXPECT_EQ(guarded.forwarded(), 1u);
}

TEST(KernelSpaces, HeatFusedStepsRespectSharedMemoryTheCapAndTheGhostWidth) {
  using gridflow::kernels::stencil::HeatCudaParams;
  for (const std::size_t bytes : {sizeof(float), sizeof(double)}) {
    std::size_t fused = 0;
    for (const auto& c : gridflow::autotune::heat_cuda_space(bytes).enumerate()) {
      const auto p = gridflow::autotune::heat_cuda_params(c);
      const int k = c.at("fused_steps");
      if (k == 1) continue;
      ++fused;
      // two tiles of block_x x (block_y cells_per_thread + 2k) values
      const std::size_t tile = p.block_x * (p.block_y * p.cells_per_thread + 2 * k);
      EXPECT_LE(2 * tile * bytes, HeatCudaParams::max_shared_bytes) << c;
    }
    EXPECT_GT(fused, 50u);
  }
  // a 256 x 32 tile fused 8 deep: 2 * 256 * 48 doubles, over the limit
  EXPECT_FALSE((HeatCudaParams{256, 4, 8}.fits_shared_memory(8, sizeof(double))));
  EXPECT_TRUE((HeatCudaParams{256, 4, 8}.fits_shared_memory(1, sizeof(double))));  // one step: no tile
  EXPECT_FALSE((HeatCudaParams{32, 1, 1}.fits_shared_memory(16, sizeof(float)))) << "a tile no wider than its rims";

  for (const auto& c : gridflow::autotune::heat_cuda_space(sizeof(float), 2).enumerate())
    EXPECT_LE(c.at("fused_steps"), 2) << c;
  EXPECT_EQ(gridflow::autotune::heat_cuda_space(sizeof(float), 1).parameter("fused_steps").values.size(), 1u);

  gridflow::solver::HeatSpaceOptions options;
  options.value_bytes = sizeof(float);
  options.ghost_width.candidates = {1, 2, 4};
  std::size_t deep = 0;
  for (const auto& c : gridflow::solver::heat_space(gridflow::mesh::MemorySpace::device, options).enumerate()) {
    EXPECT_LE(c.at("fused_steps"), c.at("ghost_width")) << c;
    deep += c.at("fused_steps") == 4;
  }
  EXPECT_GT(deep, 0u);
}
