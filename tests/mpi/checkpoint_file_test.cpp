// io/checkpoint_file: a checkpoint written on every rank reads back bit for bit on another
// decomposition (rank 0 alone) and on the same one, with every kind of content; only `keep` of
// them stay, the newest is found, no temporary file is left, and a damaged file is refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include "io/checkpoint_file.hpp"
#include "mesh/check.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace fs = std::filesystem;
using namespace gridflow;

namespace {

double value_at(std::int64_t i, std::int64_t j, std::int64_t k) {
  return std::sin(0.1 * double(i) + 0.37 * double(j) + 0.011 * double(k)) / 3.0;  // every bit matters
}

template <class T>
void fill(mesh::Field<T, 3>& f, T ghost_value) {
  for (std::size_t e = 0; e < f.allocated_elements(); ++e) f.allocation()[e] = ghost_value;
  const auto& o = f.owned();
  for (auto k = o.lo[2]; k <= o.hi[2]; ++k)
    for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
      for (auto i = o.lo[0]; i <= o.hi[0]; ++i) f(i, j, k) = static_cast<T>(value_at(i, j, k));
}

template <class T>
std::size_t differing_points(const mesh::Field<T, 3>& f) {
  std::size_t differ = 0;
  const auto& o = f.owned();
  for (auto k = o.lo[2]; k <= o.hi[2]; ++k)
    for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
      for (auto i = o.lo[0]; i <= o.hi[0]; ++i) {
        const T expected = static_cast<T>(value_at(i, j, k));
        if (std::memcmp(&f(i, j, k), &expected, sizeof(T)) != 0) ++differ;
      }
  return differ;
}

fs::path scratch(const std::string& what) {
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const fs::path base = fs::temp_directory_path() / ("gridflow_checkpoint_" + what + "_" + std::to_string(id));
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    fs::remove_all(base);
    fs::create_directories(base);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return base;
}

io::CheckpointContent sample_content(std::int64_t step) {
  io::CheckpointContent c;
  c.step = step;
  c.time = 0.1 * double(step);
  c.dt = 0.1;
  c.problem = "poisson3d";
  c.precision = "float";
  c.ranks = 5;
  c.memory_space = "device";
  c.code_version = "test";
  c.deck = "problem = \"poisson3d\"\n[grid]\nn = [17, 9, 12]\n";
  c.keys = {{"grid.n", "[17, 9, 12]"}, {"poisson.rhs", "\"x & <y>\""}};
  c.integers = {{"tuning.ghost_width", 4}, {"big", std::numeric_limits<std::int64_t>::max()}};
  c.scalars = {{"cg.rho", 1.0 / 3.0}, {"tiny", std::numeric_limits<double>::denorm_min()}};
  c.arrays = {{"history", {1.0, 0.5, 1e-300}}, {"empty", {}}};
  return c;
}

}  // namespace

TEST(CheckpointFile, RoundTripOnAnyDecomposition) {
  const fs::path base = scratch("roundtrip");
  mesh::Grid<3> grid;
  grid.n = {17, 9, 12};
  grid.length = {1, 1, 1};
  const mesh::Decomposition<3> all(grid, MPI_COMM_WORLD);
  mesh::Field<float, 3> u(all.owned(), 2, mesh::MemorySpace::host, "u");
  fill(u, -999.f);
  const std::string path = (base / io::checkpoint_file_name("run", 7)).string();
  io::write_checkpoint<float, 3>(path, all, sample_content(7), {{"u", &u}});
  EXPECT_TRUE(fs::exists(path));
  for (const auto& entry : fs::directory_iterator(base))
    EXPECT_EQ(entry.path().filename().string().find("partial"), std::string::npos) << entry.path();

  // The same decomposition, and rank 0 alone (another rank count, another ghost width).
  const auto read_back = [&](const mesh::Decomposition<3>& d, int ghost) {
    io::CheckpointReader<3> reader(path, d);
    const auto expected = sample_content(7);
    const auto& c = reader.content();
    EXPECT_EQ(c.step, 7);
    EXPECT_EQ(c.time, expected.time);
    EXPECT_EQ(c.problem, expected.problem);
    EXPECT_EQ(c.memory_space, "device");
    EXPECT_EQ(c.deck, expected.deck);
    EXPECT_EQ(c.keys, expected.keys);
    EXPECT_EQ(c.integers, expected.integers);
    EXPECT_EQ(c.scalars, expected.scalars);
    EXPECT_EQ(c.arrays, expected.arrays);
    EXPECT_EQ(reader.field_names(), std::vector<std::string>{"u"});
    mesh::Field<float, 3> back(d.owned(), ghost, mesh::MemorySpace::host, "back");
    for (std::size_t e = 0; e < back.allocated_elements(); ++e) back.allocation()[e] = 0;
    reader.read_field("u", back);
    EXPECT_EQ(differing_points(back), 0u);
    mesh::Field<double, 3> wrong(d.owned(), ghost, mesh::MemorySpace::host, "wrong");
    EXPECT_THROW(reader.read_field("v", wrong), InputError);
  };
  read_back(all, 1);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const mesh::Decomposition<3> one(grid, MPI_COMM_SELF);
    read_back(one, 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) fs::remove_all(base);
}

TEST(CheckpointFile, KeepsTheNewestAndRefusesDamage) {
  const fs::path base = scratch("keep");
  mesh::Grid<3> grid;
  grid.n = {6, 5, 4};
  grid.length = {1, 1, 1};
  const mesh::Decomposition<3> all(grid, MPI_COMM_WORLD);
  mesh::Field<double, 3> u(all.owned(), 1, mesh::MemorySpace::host, "u");
  fill(u, 0.0);
  EXPECT_EQ(io::latest_checkpoint(base.string(), "run", MPI_COMM_WORLD), "");
  for (std::int64_t step : {10, 30, 20, 40}) {
    io::write_checkpoint<double, 3>((base / io::checkpoint_file_name("run", step)).string(), all, sample_content(step), {{"u", &u}});
    io::prune_checkpoints(base.string(), "run", 2, MPI_COMM_WORLD);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {  // another run's files and temporary names are never taken nor removed
    std::ofstream(base / "other_checkpoint_00000099.h5") << "x";
    std::ofstream(base / ".run_checkpoint_00000050.h5.partial") << "x";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(io::latest_checkpoint(base.string(), "run", MPI_COMM_WORLD), (base / "run_checkpoint_00000040.h5").string());
  if (rank == 0) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(base)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{".run_checkpoint_00000050.h5.partial", "other_checkpoint_00000099.h5",
                                               "run_checkpoint_00000030.h5", "run_checkpoint_00000040.h5"}));
    // A truncated copy and a missing file: InputError naming the path.
    const fs::path good = base / "run_checkpoint_00000040.h5";
    const fs::path cut = base / "cut.h5";
    fs::copy_file(good, cut);
    fs::resize_file(cut, fs::file_size(good) / 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (const std::string bad : {"cut.h5", "none.h5", "other_checkpoint_00000099.h5"}) {
    try {
      io::CheckpointReader<3> reader((base / bad).string(), all);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) fs::remove_all(base);
}
