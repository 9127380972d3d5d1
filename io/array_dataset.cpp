#include "io/array_dataset.hpp"

#include <cstdint>
#include <filesystem>
#include <type_traits>

#include "io/h5_attribute_reader.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow::io {

namespace fs = std::filesystem;

namespace {

template <class T>
hid_t native_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "arrays move as float or double");
  return std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}

/// Rank 0's look at the dataset: its shape, or the reason it cannot be used.
struct Probe {
  ArrayShape shape;
  std::string error;
};

Probe probe_on_this_rank(const std::string& path, const std::string& name) {
  Probe p;
  const std::string file = "input file '" + path + "'";
  std::error_code ec;
  if (!fs::exists(path, ec)) return {{}, file + ": no such file"};
  if (!fs::is_regular_file(path, ec)) return {{}, file + ": not a regular file"};
  QuietHdf5 quiet;
#if H5_VERSION_GE(1, 12, 0)
  const htri_t is_hdf5 = H5Fis_accessible(path.c_str(), H5P_DEFAULT);
#else
  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
#endif
  if (is_hdf5 <= 0) return {{}, file + ": not an HDF5 file, or not readable"};
  H5File f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (f.get() < 0) return {{}, file + ": cannot open it as HDF5"};
  const std::string where = "dataset '" + name + "' in '" + path + "'";
#if H5_VERSION_GE(1, 12, 0)
  H5O_info2_t info{};
  const bool found = !name.empty() && H5Oget_info_by_name3(f, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) >= 0;
#else
  H5O_info_t info{};
  const bool found = !name.empty() && H5Oget_info_by_name2(f, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) >= 0;
#endif
  if (!found) return {{}, where + ": no such dataset"};
  if (info.type != H5O_TYPE_DATASET) return {{}, where + ": not a dataset (a group or a named type)"};
  H5Dataset d(H5Dopen2(f, name.c_str(), H5P_DEFAULT));
  if (d.get() < 0) return {{}, where + ": cannot open it"};
  H5Type type(H5Dget_type(d));
  const H5T_class_t cls = H5Tget_class(type);
  const std::size_t bytes = H5Tget_size(type);
  if (cls == H5T_FLOAT && bytes == 4) p.shape.type = ElementType::float32;
  else if (cls == H5T_FLOAT && bytes == 8) p.shape.type = ElementType::float64;
  else if (cls == H5T_INTEGER) p.shape.type = ElementType::integer;
  else if (cls == H5T_FLOAT) return {{}, where + ": floats of " + std::to_string(bytes) + " bytes are not supported (float32 or float64)"};
  else return {{}, where + ": not numeric (integers, float32 or float64)"};
  H5Space space(H5Dget_space(d));
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 1 || rank > 3)
    return {{}, where + ": rank " + std::to_string(rank) + " (a scalar or more than 3 axes); arrays of rank 1 to 3 are taken"};
  p.shape.extent.resize(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, p.shape.extent.data(), nullptr);
  for (hsize_t n : p.shape.extent)
    if (n == 0) return {{}, where + ": an axis of extent 0 (the array is empty)"};
  return p;
}

/// The memory of a block as a dataspace with the block selected.
H5Space memory_space(const ArrayBlock& b) {
  const int rank = static_cast<int>(b.count.size());
  std::vector<hsize_t> dims(b.count.size()), zero(b.count.size(), 0);
  dims[0] = b.count[0];
  for (int a = 1; a < rank; ++a) dims[a] = b.pitch[a - 1] / b.pitch[a];
  H5Space space(GRIDFLOW_H5_CHECK(H5Screate_simple(rank, dims.data(), nullptr)));
  if (b.empty()) GRIDFLOW_H5_CHECK(H5Sselect_none(space));
  else GRIDFLOW_H5_CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, zero.data(), nullptr, b.count.data(), nullptr));
  return space;
}

H5Space file_space(hid_t dataset, const ArrayBlock& b) {
  H5Space space(GRIDFLOW_H5_CHECK(H5Dget_space(dataset)));
  GRIDFLOW_REQUIRE(H5Sget_simple_extent_ndims(space) == static_cast<int>(b.count.size()), "array block of the wrong rank");
  if (b.empty()) GRIDFLOW_H5_CHECK(H5Sselect_none(space));
  else GRIDFLOW_H5_CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, b.start.data(), nullptr, b.count.data(), nullptr));
  return space;
}

/// Collective transfers where the file is open through MPI-IO (file_access), plain ones otherwise.
H5Plist transfer(hid_t file) {
  H5Plist dxpl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)));
  H5Plist fapl(GRIDFLOW_H5_CHECK(H5Fget_access_plist(file)));
  if (GRIDFLOW_H5_CHECK(H5Pget_driver(fapl)) == H5FD_MPIO) GRIDFLOW_H5_CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  return dxpl;
}

/// MPI-IO for several ranks; one rank reads and writes through POSIX, which moves a large array
/// several times faster than MPI-IO does for one process.
H5Plist file_access(MPI_Comm comm) {
  H5Plist fapl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)));
  int ranks = 1;
  GRIDFLOW_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  if (ranks > 1) GRIDFLOW_H5_CHECK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
  return fapl;
}

/// A dataset and its missing groups; no fill (every value is written).
H5Dataset create_dataset(hid_t file, const std::string& name, hid_t type, const std::vector<hsize_t>& extent) {
  H5Space space(GRIDFLOW_H5_CHECK(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr)));
  H5Plist links(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_LINK_CREATE)));
  GRIDFLOW_H5_CHECK(H5Pset_create_intermediate_group(links, 1));
  H5Plist dcpl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_CREATE)));
  GRIDFLOW_H5_CHECK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
  return H5Dataset(GRIDFLOW_H5_CHECK(H5Dcreate2(file, name.c_str(), type, space, links, dcpl, H5P_DEFAULT)));
}

}  // namespace

const char* to_string(ElementType type) {
  switch (type) {
    case ElementType::float32: return "float32";
    case ElementType::float64: return "float64";
    case ElementType::integer: return "integer";
  }
  return "?";
}

bool ArrayBlock::empty() const {
  for (hsize_t n : count)
    if (n == 0) return true;
  return false;
}

ArrayShape probe_array(const std::string& path, const std::string& name, MPI_Comm comm) {
  Probe p;
  if (rank_of(comm) == 0) p = probe_on_this_rank(path, name);
  share_rank0_input_error(p.error, comm);
  std::uint64_t head[2] = {p.shape.extent.size(), static_cast<std::uint64_t>(p.shape.type)};
  GRIDFLOW_MPI_CHECK(MPI_Bcast(head, 2, MPI_UINT64_T, 0, comm));
  p.shape.extent.resize(head[0]);
  p.shape.type = static_cast<ElementType>(head[1]);
  static_assert(sizeof(hsize_t) == sizeof(std::uint64_t), "hsize_t is 64 bits");
  GRIDFLOW_MPI_CHECK(MPI_Bcast(p.shape.extent.data(), static_cast<int>(head[0]), MPI_UINT64_T, 0, comm));
  return p.shape;
}

std::vector<double> read_small_array(const std::string& path, const std::string& name, MPI_Comm comm) {
  std::vector<double> values;
  std::uint64_t count = 0;
  if (rank_of(comm) == 0) {
    H5File f(GRIDFLOW_H5_CHECK(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)));
    H5Dataset d(GRIDFLOW_H5_CHECK(H5Dopen2(f, name.c_str(), H5P_DEFAULT)));
    H5Space space(GRIDFLOW_H5_CHECK(H5Dget_space(d)));
    count = static_cast<std::uint64_t>(GRIDFLOW_H5_CHECK(H5Sget_simple_extent_npoints(space)));
    values.resize(count);
    GRIDFLOW_H5_CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()));
  }
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&count, 1, MPI_UINT64_T, 0, comm));
  values.resize(count);
  GRIDFLOW_MPI_CHECK(MPI_Bcast(values.data(), static_cast<int>(count), MPI_DOUBLE, 0, comm));
  return values;
}

ArrayReader::ArrayReader(const std::string& path, const std::string& name, MPI_Comm comm) {
  const H5Plist fapl = file_access(comm);
  m_file = H5File(GRIDFLOW_H5_CHECK(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl)));
  m_dataset = H5Dataset(GRIDFLOW_H5_CHECK(H5Dopen2(m_file, name.c_str(), H5P_DEFAULT)));
  H5Space space(GRIDFLOW_H5_CHECK(H5Dget_space(m_dataset)));
  m_shape.extent.resize(static_cast<std::size_t>(GRIDFLOW_H5_CHECK(H5Sget_simple_extent_ndims(space))));
  GRIDFLOW_H5_CHECK(H5Sget_simple_extent_dims(space, m_shape.extent.data(), nullptr));
  H5Type type(GRIDFLOW_H5_CHECK(H5Dget_type(m_dataset)));
  const bool is_float = H5Tget_class(type) == H5T_FLOAT;
  m_shape.type = !is_float ? ElementType::integer : H5Tget_size(type) == 4 ? ElementType::float32 : ElementType::float64;
}

template <class T>
void ArrayReader::read(const ArrayBlock& block, T* first) const {
  const H5Space memory = memory_space(block);
  const H5Space file = file_space(m_dataset, block);
  const H5Plist dxpl = transfer(m_file);
  GRIDFLOW_H5_CHECK(H5Dread(m_dataset, native_type<T>(), memory, file, dxpl, first));
}

ArrayWriter::ArrayWriter(const std::string& path, const std::string& name, const ArrayShape& shape, MPI_Comm comm)
    : m_path(path), m_comm(comm), m_rank(rank_of(comm)) {
  GRIDFLOW_REQUIRE(shape.type != ElementType::integer, "array output is float32 or float64");
  const fs::path final_path(path);
  m_partial = (final_path.parent_path() / ("." + final_path.filename().string() + ".partial")).string();
  const H5Plist fapl = file_access(comm);
  const hid_t file = H5Fcreate(m_partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (file < 0) throw Error("cannot create " + m_partial + " (the temporary file of " + path + ")");
  m_file = H5File(file);
  m_dataset = create_dataset(m_file, name, shape.type == ElementType::float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, shape.extent);
}

ArrayWriter::~ArrayWriter() {
  if (m_committed) return;
  // A failure path: the other ranks may never reach a collective close, so the handles are given
  // up (the process is aborted next) and the temporary file is removed by whoever gets here.
  m_dataset.release();
  m_file.release();
  std::error_code ec;
  fs::remove(m_partial, ec);
}

template <class T>
void ArrayWriter::write(const ArrayBlock& block, const T* first) {
  const H5Space memory = memory_space(block);
  const H5Space file = file_space(m_dataset, block);
  const H5Plist dxpl = transfer(m_file);
  GRIDFLOW_H5_CHECK(H5Dwrite(m_dataset, native_type<T>(), memory, file, dxpl, first));
}

void ArrayWriter::add_small_array(const std::string& name, const std::vector<hsize_t>& extent, const std::vector<double>& values) {
  H5Dataset d = create_dataset(m_file, name, H5T_IEEE_F64LE, extent);
  ArrayBlock block{std::vector<hsize_t>(extent.size(), 0), extent, std::vector<hsize_t>(extent.size(), 1)};
  for (std::size_t a = extent.size() - 1; a > 0; --a) block.pitch[a - 1] = block.pitch[a] * extent[a];
  if (m_rank != 0) block.count.assign(extent.size(), 0);
  const H5Space memory = memory_space(block);
  const H5Space file = file_space(d, block);
  const H5Plist dxpl = transfer(m_file);
  GRIDFLOW_H5_CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, memory, file, dxpl, values.data()));
}

void ArrayWriter::commit() {
  GRIDFLOW_H5_CHECK(m_dataset.close());
  GRIDFLOW_H5_CHECK(m_file.close());
  GRIDFLOW_MPI_CHECK(MPI_Barrier(m_comm));  // every rank's part is in the file before it is published
  std::string error;
  if (m_rank == 0) {
    std::error_code ec;
    fs::rename(m_partial, m_path, ec);
    if (ec) error = "cannot rename " + m_partial + " to " + m_path + ": " + ec.message();
  }
  int length = static_cast<int>(error.size());
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, m_comm));
  if (length) {
    error.resize(static_cast<std::size_t>(length));
    GRIDFLOW_MPI_CHECK(MPI_Bcast(error.data(), length, MPI_CHAR, 0, m_comm));
    throw Error(error);
  }
  m_committed = true;
}

template void ArrayReader::read<float>(const ArrayBlock&, float*) const;
template void ArrayReader::read<double>(const ArrayBlock&, double*) const;
template void ArrayWriter::write<float>(const ArrayBlock&, const float*);
template void ArrayWriter::write<double>(const ArrayBlock&, const double*);

}  // namespace gridflow::io
