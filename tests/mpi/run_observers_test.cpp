// The run's observers under the RunLoop on N ranks, with a counting steppable: the output writes
// its steps, the end and nothing twice, and names /Info from what the run knows when it first
// writes; the finite check stops every rank together when one rank's field is no longer finite,
// at its own steps only; progress lines come at their steps and the last; the phase table takes
// the slowest rank's seconds; the error against the exact solution is the largest over every rank
// and keeps a NaN.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/deck/expression.hpp"
#include "app/loop/exact_error.hpp"
#include "app/output/field_output.hpp"
#include "app/loop/finite_check.hpp"
#include "app/output/phase_table.hpp"
#include "app/loop/run_loop.hpp"
#include "app/loop/step_progress.hpp"
#include "kernels/core/non_finite_flag.hpp"
#include "mesh/check.hpp"
#include "mpi_test_support.hpp"
#include "run_loop_test_support.hpp"

namespace {

namespace app = gridflow::app;
namespace fs = std::filesystem;
using gridflow::testing::CountingSteps;
using gridflow::testing::decomposition;
using gridflow::testing::world_rank;
using gridflow::testing::world_size;

/// An empty directory of its own for this run (ctest runs the rank counts concurrently).
fs::path fresh_directory(const std::string& name) {
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const fs::path dir = fs::temp_directory_path() / ("gridflow_" + name + "_" + std::to_string(id));
  if (world_rank() == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

bool info_has(const fs::path& file, const std::string& attribute) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool has = f >= 0 && H5Aexists_by_name(f, "Info", attribute.c_str(), H5P_DEFAULT) > 0;
  if (f >= 0) H5Fclose(f);
  return has;
}

}  // namespace

TEST(RunObservers, OutputWritesItsStepsAndTheEndOnceWithTheInfoKnownAtItsFirstFile) {
  const auto d = decomposition();
  const fs::path dir = fresh_directory("field_output");
  CountingSteps steps(d, 10);
  int info_asked = 0;
  std::string device = "device before the tuning";
  app::FieldOutput<double, 2> output(
      d, {true, dir.string(), "run", 4},
      [&] {
        ++info_asked;
        return gridflow::io::Attributes{{"device", device}};
      },
      {}, MPI_Wtime());
  app::RunLoop<double, 2> loop(d);
  // Step 0 before the loop, as a run writes it before an on-line tuning takes steps.
  loop.fields().point_to(steps.fields(), nullptr);
  output.write(0, 0.0, 0.5, loop.fields());
  output.add_run_attributes({{"tuning_report", std::string("chosen")}});
  loop.add(output);
  loop.run(steps);

  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(files_in(dir), (std::set<std::string>{"run.xmf", "run_00000000.h5", "run_00000004.h5", "run_00000008.h5",
                                                   "run_00000010.h5"}));
  EXPECT_EQ(info_asked, 1);
  EXPECT_EQ(output.xdmf_path(), (dir / "run.xmf").string());
  EXPECT_TRUE(info_has(dir / "run_00000000.h5", "device"));
  EXPECT_FALSE(info_has(dir / "run_00000000.h5", "tuning_report")) << "added after the first file";
  EXPECT_TRUE(info_has(dir / "run_00000010.h5", "tuning_report"));
  EXPECT_EQ(steps.targets, (std::vector<std::int64_t>{4, 8, 10}));
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) fs::remove_all(dir);
}

TEST(RunObservers, DisabledOutputWritesNothingButKeepsItsSteps) {
  const auto d = decomposition();
  const fs::path dir = fresh_directory("field_output_off");
  CountingSteps steps(d, 10);
  app::FieldOutput<double, 2> output(d, {false, dir.string(), "run", 4}, [] { return gridflow::io::Attributes{}; }, {}, MPI_Wtime());
  app::RunLoop<double, 2> loop(d);
  loop.add(output);
  loop.run(steps);
  EXPECT_TRUE(files_in(dir).empty());
  EXPECT_EQ(steps.targets, (std::vector<std::int64_t>{4, 8, 10}));
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) fs::remove_all(dir);
}

TEST(RunObservers, FiniteCheckStopsEveryRankAtTheNextBoundaryBeforeAnythingIsWritten) {
  const auto d = decomposition();
  const int last_rank = world_size() - 1;
  {
    // The last rank's kernels flag step 7 (as they would while stepping to 9): the check acts at
    // every boundary, first, so the output of step 9 is not written and every rank throws alike.
    gridflow::kernels::core::NonFiniteFlag flag(d.grid(), gridflow::mesh::MemorySpace::host);
    CountingSteps steps(d, 20, 0, CountingSteps::never, [&](std::int64_t step, int rank) {
      if (step >= 7 && rank == last_rank) flag.record_host(7, 3, 4);
      return 1.0;
    });
    const fs::path dir = fresh_directory("finite_check");
    app::FiniteCheck<double, 2> finite(5, flag, nullptr, "u", "a hint");
    app::FieldOutput<double, 2> output(d, {true, dir.string(), "run", 3}, [] { return gridflow::io::Attributes{}; }, {},
                                       MPI_Wtime());
    app::RunLoop<double, 2> loop(d);
    loop.add(finite);
    loop.add(output);
    std::string message;
    try {
      loop.run(steps);
    } catch (const gridflow::RunError& e) {
      message = e.what();
    }
    EXPECT_EQ(message, "the solution u is no longer finite: its first NaN or infinite value appeared at step 7 "
                       "(t = 3.500000e+00), global point (3, 4) at (x = 0.125, y = 0.222222); a hint");
    EXPECT_EQ(steps.step(), 9);
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"run.xmf", "run_00000003.h5", "run_00000006.h5"}));
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) fs::remove_all(dir);
  }
  {
    // Nothing flagged: the run ends normally.
    gridflow::kernels::core::NonFiniteFlag flag(d.grid(), gridflow::mesh::MemorySpace::host);
    CountingSteps steps(d, 20);
    app::FiniteCheck<double, 2> finite(5, flag, nullptr, "u", "a hint");
    app::RunLoop<double, 2> loop(d);
    loop.add(finite);
    EXPECT_NO_THROW(loop.run(steps));
  }
  {
    // The last step is checked, and a point on the boundary is named as such.
    gridflow::kernels::core::NonFiniteFlag flag(d.grid(), gridflow::mesh::MemorySpace::host);
    CountingSteps steps(d, 12, 0, CountingSteps::never, [&](std::int64_t step, int) {
      if (step == 12) flag.record_host(12, 24, 5);
      return 1.0;
    });
    app::FiniteCheck<double, 2> finite(5, flag, nullptr, "u", "a hint");
    app::RunLoop<double, 2> loop(d);
    loop.add(finite);
    std::string message;
    try {
      loop.run(steps);
    } catch (const gridflow::RunError& e) {
      message = e.what();
    }
    EXPECT_NE(message.find("at step 12 (t = 6.000000e+00), global point (24, 5) at (x = 1, y = 0.277778), on the boundary x = 1;"),
              std::string::npos)
        << message;
  }
}

TEST(RunObservers, ProgressLinesComeAtTheirStepsAndTheLastOnRankZero) {
  const auto d = decomposition();
  const auto lines_of = [&](std::int64_t start) {
    CountingSteps steps(d, 10, start);
    app::StepProgress<double, 2> progress(3, "u", world_rank() == 0);
    app::RunLoop<double, 2> loop(d);
    loop.add(progress);
    ::testing::internal::CaptureStdout();
    loop.run(steps);
    std::istringstream out(::testing::internal::GetCapturedStdout());
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);) lines.push_back(line.substr(0, line.find(']') + 1));  // no throughput
    return lines;
  };
  const auto line = [](int step, const char* t) {
    char text[160];
    std::snprintf(text, sizeof text, "step %2d/10  t = %s  u in [%.6e, %.6e]", step, t, static_cast<double>(step),
                  static_cast<double>(step + world_size() - 1));
    return std::string(text);
  };
  const auto from_zero = lines_of(0);
  if (world_rank() == 0)
    EXPECT_EQ(from_zero, (std::vector<std::string>{line(3, "1.500000e+00"), line(6, "3.000000e+00"), line(9, "4.500000e+00"),
                                                   line(10, "5.000000e+00")}));
  else
    EXPECT_TRUE(from_zero.empty());
  // A run whose steps were all taken before the loop has nothing to report.
  EXPECT_TRUE(lines_of(10).empty());
}

TEST(RunObservers, PhaseTableTakesTheSlowestRanksSeconds) {
  const auto d = decomposition();
  CountingSteps steps(d, 3);
  const double start = MPI_Wtime();
  app::PhaseTable<double, 2> table([] { return app::Phases{{"rank", static_cast<double>(world_rank())}, {"one", 1.0}}; }, start);
  app::RunLoop<double, 2> loop(d);
  loop.add(table);
  loop.run(steps);
  EXPECT_EQ(table.phases(), (app::Phases{{"rank", static_cast<double>(world_size() - 1)}, {"one", 1.0}}));
  EXPECT_GE(table.total(), 0.0);
  EXPECT_NE(table.text().find("rank"), std::string::npos);
}

TEST(RunObservers, ExactErrorIsTheLargestDifferenceOverEveryRankAndKeepsANaN) {
  gridflow::mesh::Grid<3> grid;
  grid.n = {12, 9, 10};
  const gridflow::mesh::Decomposition<3> d(grid, MPI_COMM_WORLD);
  const app::Expression exact("poisson.exact", "x*y - z/3", {"x", "y", "z"});
  gridflow::mesh::Field<double, 3> u(d.owned(), 1, gridflow::mesh::MemorySpace::host);
  const auto& owned = d.owned();
  for (auto k = owned.lo[2]; k <= owned.hi[2]; ++k)
    for (auto j = owned.lo[1]; j <= owned.hi[1]; ++j)
      for (auto i = owned.lo[0]; i <= owned.hi[0]; ++i)
        u(i, j, k) = exact.eval(grid.coordinate(0, i), grid.coordinate(1, j), grid.coordinate(2, k)) + 1e-3 * (i + j + k == 7);
  const auto error_of = [&](const gridflow::mesh::Field<double, 3>& field) {
    app::FieldAccess<double, 3> fields(d);
    fields.point_to({{"u", &field}}, nullptr);
    const app::RunState<double, 3> state{1, 0, 1, 0, 0, true, fields, d, 0, 0};
    app::ExactError<double> error(exact);
    app::RunControl control;
    error.act(state, control);
    return error.value();
  };
  // The one rank holding a point with i + j + k = 7 off by 1e-3, every other point exact (the
  // formula's operations are the same as the fill's): that is the max on every rank.
  const auto one_off = error_of(u);
  ASSERT_TRUE(one_off.has_value());
  EXPECT_NEAR(*one_off, 1e-3, 1e-15);
  // A NaN at the first point of rank 0's box, followed by larger differences: kept.
  if (world_rank() == 0) u(owned.lo[0], owned.lo[1], owned.lo[2]) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(*error_of(u)));
}
