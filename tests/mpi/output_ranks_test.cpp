// The HDF5 file does not depend on the number of ranks that wrote it: the fields written
// collectively by all ranks equal those written by rank 0 alone.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <unistd.h>

#include <filesystem>
#include <vector>

#include "io/output_series.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace fs = std::filesystem;
using namespace gridflow;

namespace {

template <class T, int Dim>
std::string write_series(const mesh::Decomposition<Dim>& d, const std::string& dir, int ghost) {
  mesh::Field<T, Dim> f(d.owned(), ghost, mesh::MemorySpace::host);
  // ghosts hold garbage: only owned points may reach the file
  for (std::size_t e = 0; e < f.allocated_elements(); ++e) f.allocation()[e] = T(-999);
  const auto& o = d.owned();
  if constexpr (Dim == 2) {
    for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
      for (auto i = o.lo[0]; i <= o.hi[0]; ++i) f(i, j) = static_cast<T>(i + 1000 * j) / T(7);
  } else {
    for (auto k = o.lo[2]; k <= o.hi[2]; ++k)
      for (auto j = o.lo[1]; j <= o.hi[1]; ++j)
        for (auto i = o.lo[0]; i <= o.hi[0]; ++i) f(i, j, k) = static_cast<T>(i + 100 * j + 10000 * k) / T(7);
  }
  io::OutputSeries<Dim> series(d, dir, "field", {{"note", std::string("test")}}, {{"deck", std::string("x = 1\n")}});
  return series.template write<T>({3, 0.5, 0.1, 1.0}, {{"u", &f}});
}

std::vector<double> read_all(const std::string& path, std::vector<hsize_t>& dims) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t set = H5Dopen2(file, "u", H5P_DEFAULT);
  const hid_t space = H5Dget_space(set);
  dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  hsize_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<double> v(n);
  H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(set);
  H5Fclose(file);
  return v;
}

template <int Dim>
void check(const mesh::Grid<Dim>& grid, int ghost) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Unique per run: ctest runs the rank counts of this executable concurrently.
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const fs::path base = fs::temp_directory_path() / ("gridflow_output_ranks_" + std::to_string(Dim) + "d_" + std::to_string(id));
  if (rank == 0) {
    fs::remove_all(base);
    fs::create_directories(base / "all");
    fs::create_directories(base / "one");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const mesh::Decomposition<Dim> all(grid, MPI_COMM_WORLD, {}, ghost);
  const std::string path_all = write_series<float, Dim>(all, (base / "all").string(), ghost);
  if (rank == 0) {
    const mesh::Decomposition<Dim> one(grid, MPI_COMM_SELF, {}, ghost);
    const std::string path_one = write_series<float, Dim>(one, (base / "one").string(), 0);
    std::vector<hsize_t> dims_all, dims_one;
    const auto a = read_all(path_all, dims_all), b = read_all(path_one, dims_one);
    EXPECT_EQ(dims_all, dims_one);
    ASSERT_EQ(a.size(), static_cast<std::size_t>(grid.points().size()));
    std::size_t differ = 0, first = a.size();
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k] != b[k] && differ++ == 0) first = k;
    EXPECT_EQ(differ, 0u) << "first difference at element " << first << ": " << (first < a.size() ? a[first] : 0) << " vs "
                          << (first < b.size() ? b[first] : 0);
    EXPECT_TRUE(fs::exists(base / "all" / "field.xmf"));
    EXPECT_EQ(dims_all[0], static_cast<hsize_t>(grid.n[Dim - 1] + 1)) << "slowest axis first";
    fs::remove_all(base);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

TEST(OutputRanks, TwoDimensionalFileIsIndependentOfRankCount) {
  mesh::Grid<2> g;
  g.n = {45, 31};
  g.length = {1.0, 1.0};
  check(g, 2);
}

TEST(OutputRanks, ThreeDimensionalFileIsIndependentOfRankCount) {
  mesh::Grid<3> g;
  g.n = {17, 12, 9};
  g.length = {1.0, 1.0, 1.0};
  check(g, 1);
}
