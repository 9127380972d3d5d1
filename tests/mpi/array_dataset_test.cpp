// io/array_dataset: an array written by blocks of rows from every rank (padded memory, any split)
// reads back bit for bit by other blocks; integers read as float64; a writer dropped without
// commit() leaves neither its file nor a temporary one and keeps an older file; and probe_array
// refuses missing files, missing datasets and unsupported ranks with the same message everywhere.
#include <gtest/gtest.h>
#include <mpi.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/array_dataset.hpp"
#include "mesh/check.hpp"

namespace fs = std::filesystem;
using namespace gridflow;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

fs::path scratch(const std::string& what) {
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const fs::path base = fs::temp_directory_path() / ("gridflow_array_" + what + "_" + std::to_string(id));
  if (world_rank() == 0) {
    fs::remove_all(base);
    fs::create_directories(base);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return base;
}

double value_at(hsize_t i, hsize_t j, hsize_t k) { return std::sin(0.3 * double(i) + 0.17 * double(j) + 0.011 * double(k)) / 7.0; }

constexpr hsize_t n0 = 7, n1 = 5, n2 = 6;

/// Rows lo..hi of the (n0, n1, n2) array in memory padded to (rows, n1 + 1, n2 + 3).
std::vector<double> padded_rows(hsize_t lo, hsize_t hi) {
  std::vector<double> m((hi - lo + 1) * (n1 + 1) * (n2 + 3), -99.0);
  for (hsize_t i = lo; i <= hi; ++i)
    for (hsize_t j = 0; j < n1; ++j)
      for (hsize_t k = 0; k < n2; ++k) m[((i - lo) * (n1 + 1) + j) * (n2 + 3) + k] = value_at(i, j, k);
  return m;
}

}  // namespace

TEST(ArrayDataset, RowBlocksFromEveryRankReadBackBitwise) {
  const fs::path dir = scratch("roundtrip");
  const std::string path = (dir / "a.h5").string();
  const int rank = world_rank(), ranks = world_size();
  // An uneven split; ranks past the last row write nothing.
  const hsize_t lo = n0 * rank / ranks, hi_plus = n0 * (rank + 1) / ranks;
  {
    io::ArrayWriter writer(path, "g/data", io::ArrayShape{{n0, n1, n2}, io::ElementType::float64}, MPI_COMM_WORLD);
    const std::vector<double> mine = padded_rows(lo, hi_plus == 0 ? 0 : hi_plus - 1);
    const io::ArrayBlock block{{lo, 0, 0}, {hi_plus - lo, n1, n2}, {(n1 + 1) * (n2 + 3), n2 + 3, 1}};
    writer.write(block, mine.data());
    writer.commit();
  }
  EXPECT_FALSE(fs::exists(dir / ".a.h5.partial"));
  const io::ArrayShape shape = io::probe_array(path, "g/data", MPI_COMM_WORLD);
  EXPECT_EQ(shape.extent, (std::vector<hsize_t>{n0, n1, n2}));
  EXPECT_EQ(shape.type, io::ElementType::float64);
  const io::ArrayReader reader(path, "/g/data", MPI_COMM_WORLD);
  // Every rank reads a different block: row rank % n0 and the one after, columns 1..4 into a pitch of 5.
  const hsize_t r0 = static_cast<hsize_t>(rank) % (n0 - 1);
  std::vector<double> got(2 * n1 * 5, 0.0);
  reader.read(io::ArrayBlock{{r0, 0, 1}, {2, n1, 4}, {n1 * 5, 5, 1}}, got.data());
  std::size_t differ = 0;
  for (hsize_t i = 0; i < 2; ++i)
    for (hsize_t j = 0; j < n1; ++j)
      for (hsize_t k = 0; k < 4; ++k) {
        const double want = value_at(r0 + i, j, k + 1);
        differ += std::memcmp(&got[(i * n1 + j) * 5 + k], &want, sizeof want) != 0;
      }
  EXPECT_EQ(differ, 0u);
  std::vector<float> single(n1 * n2);
  reader.read(io::ArrayBlock{{n0 - 1, 0, 0}, {1, n1, n2}, {n1 * n2, n2, 1}}, single.data());
  EXPECT_EQ(single[n2 + 2], static_cast<float>(value_at(n0 - 1, 1, 2)));
}

TEST(ArrayDataset, IntegersReadAsFloat64) {
  const fs::path dir = scratch("integers");
  const std::string path = (dir / "i.h5").string();
  if (world_rank() == 0) {
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t n = 5;
    const hid_t s = H5Screate_simple(1, &n, nullptr);
    const hid_t d = H5Dcreate2(f, "counts", H5T_STD_I16LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const short v[5] = {-3, 0, 7, 300, -32768};
    H5Dwrite(d, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(d), H5Sclose(s), H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(io::probe_array(path, "counts", MPI_COMM_WORLD).type, io::ElementType::integer);
  const io::ArrayReader reader(path, "counts", MPI_COMM_WORLD);
  std::vector<double> v(5);
  reader.read(io::ArrayBlock{{0}, {5}, {1}}, v.data());
  EXPECT_EQ(v, (std::vector<double>{-3, 0, 7, 300, -32768}));
}

TEST(ArrayDataset, WriterDroppedWithoutCommitLeavesNoFileAndKeepsAnOlderOne) {
  const fs::path dir = scratch("uncommitted");
  const fs::path path = dir / "out.h5";
  if (world_rank() == 0) std::ofstream(path) << "older\n";
  MPI_Barrier(MPI_COMM_WORLD);
  {
    io::ArrayWriter writer(path.string(), "x", io::ArrayShape{{4, 3}, io::ElementType::float32}, MPI_COMM_WORLD);
    const std::vector<float> v(12, 1.5f);
    writer.write(io::ArrayBlock{{0, 0}, {world_rank() == 0 ? 4u : 0u, 3}, {3, 1}}, v.data());
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_TRUE(fs::exists(dir / ".out.h5.partial"));
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before any removes it
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_FALSE(fs::exists(dir / ".out.h5.partial"));
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "older");
}

TEST(ArrayDataset, ProbeRefusesWhatItCannotRead) {
  const fs::path dir = scratch("probe");
  const std::string path = (dir / "p.h5").string();
  if (world_rank() == 0) {
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims[4] = {2, 2, 2, 2};
    const hid_t s = H5Screate_simple(4, dims, nullptr);
    H5Dclose(H5Dcreate2(f, "four", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Gclose(H5Gcreate2(f, "group", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Sclose(s), H5Fclose(f);
  }
  auto message = [](const std::string& file, const std::string& name) {
    try {
      io::probe_array(file, name, MPI_COMM_WORLD);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message((dir / "none.h5").string(), "x"), "input file '" + (dir / "none.h5").string() + "': no such file");
  EXPECT_EQ(message(path, "missing"), "dataset 'missing' in '" + path + "': no such dataset");
  EXPECT_NE(message(path, "four").find("rank 4"), std::string::npos);
  EXPECT_NE(message(path, "group").find("not a dataset"), std::string::npos);
}
