#include "io/checkpoint_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "io/h5_attribute_reader.hpp"
#include "io/h5_attributes.hpp"
#include "io/h5_handle.hpp"
#include "io/owned_hyperslab.hpp"
#include "io/write_failure.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* format_name = "gridflow checkpoint 1";

template <class T>
hid_t native_type() {
  return std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

template <class V>
std::vector<std::string> names_of(const std::vector<std::pair<std::string, V>>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.first);
  return out;
}
template <class V>
std::vector<V> values_of(const std::vector<std::pair<std::string, V>>& entries) {
  std::vector<V> out;
  for (const auto& e : entries) out.push_back(e.second);
  return out;
}

/// fsync of a file or folder, so that a rename publishes data that is on disk.
void sync_path(const fs::path& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) throw Error("cannot open " + path.string() + " to sync it: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  if (rc != 0 && !(directory && saved == EINVAL))  // some file systems cannot sync a folder
    throw Error("cannot sync " + path.string() + " to disk: " + std::strerror(saved));
}

template <class V>
std::vector<std::pair<std::string, V>> zip(const std::vector<std::string>& names, const std::vector<V>& values,
                                           const std::string& what, const std::string& path) {
  if (names.size() != values.size())
    throw InputError("checkpoint " + path + ": " + what + " has " + std::to_string(names.size()) + " names and " +
                     std::to_string(values.size()) + " values");
  std::vector<std::pair<std::string, V>> out;
  for (std::size_t i = 0; i < names.size(); ++i) out.emplace_back(names[i], values[i]);
  return out;
}

}  // namespace

std::optional<std::int64_t> CheckpointContent::integer(const std::string& name) const {
  for (const auto& [n, v] : integers)
    if (n == name) return v;
  return std::nullopt;
}
std::optional<double> CheckpointContent::scalar(const std::string& name) const {
  for (const auto& [n, v] : scalars)
    if (n == name) return v;
  return std::nullopt;
}
const std::vector<double>* CheckpointContent::array(const std::string& name) const {
  for (const auto& [n, v] : arrays)
    if (n == name) return &v;
  return nullptr;
}

template <class T, int Dim>
void write_checkpoint(const std::string& path, const mesh::Decomposition<Dim>& decomposition, const CheckpointContent& content,
                      const std::vector<NamedField<T, Dim>>& fields) {
  const MPI_Comm comm = decomposition.comm();
  const fs::path final_path(path);
  const fs::path partial = final_path.parent_path() / ("." + final_path.filename().string() + ".partial");
  std::vector<std::string> field_names;
  for (const auto& f : fields) field_names.push_back(f.name);
  // The fields' share of the file: what a full disk lacks.
  const std::uintmax_t bytes = fields.size() * static_cast<std::uintmax_t>(decomposition.grid().points().size()) * sizeof(T);
  const QuietHdf5 quiet;  // a failure is reported as one message below, not as HDF5's stack
  errno = 0;              // what a failed write leaves there says why
  try {
    H5Plist fapl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)));
    GRIDFLOW_H5_CHECK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
    H5File file(GRIDFLOW_H5_CHECK(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)));
    H5Plist dxpl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)));
    GRIDFLOW_H5_CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));

    H5Group field_group(GRIDFLOW_H5_CHECK(H5Gcreate2(file, "Fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
    for (const auto& nf : fields) {
      GRIDFLOW_REQUIRE(nf.field->space() == mesh::MemorySpace::host, "checkpoint field '" + nf.name + "' must be in host memory");
      const OwnedHyperslab<Dim> slab(*nf.field, decomposition.grid());
      const H5Space memory_space = slab.memory_space();
      H5Space file_space(GRIDFLOW_H5_CHECK(H5Screate_simple(Dim, slab.global, nullptr)));
      slab.select_in_file(file_space);
      H5Dataset dataset(GRIDFLOW_H5_CHECK(
          H5Dcreate2(field_group, nf.name.c_str(), native_type<T>(), file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
      GRIDFLOW_H5_CHECK(H5Dwrite(dataset, native_type<T>(), memory_space, file_space, dxpl, nf.field->view().data));
    }
    field_group.close();

    // 1D arrays: rank 0 writes them whole, the others select nothing (the write is collective).
    H5Group array_group(GRIDFLOW_H5_CHECK(H5Gcreate2(file, "Arrays", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
    for (const auto& [name, values] : content.arrays) {
      const hsize_t n = values.size();
      H5Space file_space(GRIDFLOW_H5_CHECK(H5Screate_simple(1, &n, nullptr)));
      H5Dataset dataset(GRIDFLOW_H5_CHECK(
          H5Dcreate2(array_group, name.c_str(), H5T_NATIVE_DOUBLE, file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
      if (n == 0) continue;  // an empty history: the dataset of shape (0,) is all there is
      H5Space memory_space(GRIDFLOW_H5_CHECK(H5Screate_simple(1, &n, nullptr)));
      if (decomposition.rank() != 0) {
        GRIDFLOW_H5_CHECK(H5Sselect_none(file_space));
        GRIDFLOW_H5_CHECK(H5Sselect_none(memory_space));
      }
      GRIDFLOW_H5_CHECK(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, dxpl, values.data()));
    }
    array_group.close();

    write_attributes(file, {{"step", content.step},
                            {"time", content.time},
                            {"dt", content.dt},
                            {"problem", content.problem},
                            {"precision", content.precision},
                            {"ranks", content.ranks},
                            {"memory_space", content.memory_space},
                            {"code_version", content.code_version},
                            {"deck", content.deck},
                            {"key_names", names_of(content.keys)},
                            {"key_values", values_of(content.keys)},
                            {"integer_names", names_of(content.integers)},
                            {"integer_values", values_of(content.integers)},
                            {"scalar_names", names_of(content.scalars)},
                            {"scalar_values", values_of(content.scalars)},
                            {"array_names", names_of(content.arrays)},
                            {"field_names", field_names},
                            // last: a file that has it was written to the end
                            {"format", std::string(format_name)}});
    GRIDFLOW_H5_CHECK(file.close());
  } catch (const std::exception& e) {
    // Any rank that fails removes the partial file: MPI_Abort follows, and a failing rank other
    // than rank 0 may be the only one that knows.
    const int saved = errno;
    const std::string message = write_failure_message(path, saved, bytes, e.what(), "checkpoint.dir");
    remove_partial_file(partial.string());
    throw Error(message);
  }
  std::string error;
  if (decomposition.rank() == 0) {
    try {
      sync_path(partial, false);
      std::error_code ec;
      fs::rename(partial, final_path, ec);
      if (ec) throw Error("cannot rename " + partial.string() + " to " + final_path.string() + ": " + ec.message());
      sync_path(final_path.parent_path().empty() ? fs::path(".") : final_path.parent_path(), true);
    } catch (const std::exception& e) {
      const int saved = errno;  // a full disk shows at fsync on some file systems (NFS)
      error = write_failure_message(path, saved, bytes, e.what(), "checkpoint.dir");
      remove_partial_file(partial.string());
    }
  }
  share_rank0_error(error, comm);
}

template <int Dim>
CheckpointReader<Dim>::CheckpointReader(const std::string& path, const mesh::Decomposition<Dim>& decomposition)
    : m_path(path), m_decomposition(decomposition) {
  const MPI_Comm comm = decomposition.comm();
  const QuietHdf5 quiet;
  std::string error;
  if (decomposition.rank() == 0) {
    std::error_code ec;
    if (!fs::exists(path, ec)) error = "restart: the checkpoint " + path + " does not exist";
    else if (!fs::is_regular_file(path, ec)) error = "restart: " + path + " is not a regular file";
    else if (H5Fis_hdf5(path.c_str()) <= 0)
      error = "restart: " + path + " is not an HDF5 file (truncated or corrupt?); it cannot be a gridflow checkpoint";
  }
  share_rank0_input_error(error, comm);

  H5Plist fapl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)));
  GRIDFLOW_H5_CHECK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  // Open is collective: every rank sees the same outcome.
  if (file < 0) throw InputError("restart: cannot open the checkpoint " + path + " (truncated or corrupt?)");
  m_file = file;
  const AttributeReader a{file, "checkpoint " + path};
  if (a.string("format") != format_name)
    throw InputError("restart: " + path + " is not a '" + std::string(format_name) + "' file");
  auto& c = m_content;
  c.step = a.number<std::int64_t>("step", H5T_NATIVE_INT64);
  c.time = a.number<double>("time", H5T_NATIVE_DOUBLE);
  c.dt = a.number<double>("dt", H5T_NATIVE_DOUBLE);
  c.problem = a.string("problem");
  c.precision = a.string("precision");
  c.ranks = a.number<std::int64_t>("ranks", H5T_NATIVE_INT64);
  c.memory_space = a.string("memory_space");
  c.code_version = a.string("code_version");
  c.deck = a.string("deck");
  c.keys = zip(a.strings("key_names"), a.strings("key_values"), "the deck keys", path);
  c.integers = zip(a.strings("integer_names"), a.numbers<std::int64_t>("integer_values", H5T_NATIVE_INT64), "integers", path);
  c.scalars = zip(a.strings("scalar_names"), a.numbers<double>("scalar_values", H5T_NATIVE_DOUBLE), "scalars", path);
  m_field_names = a.strings("field_names");
  for (const auto& name : a.strings("array_names")) {
    const std::string where = "Arrays/" + name;
    H5Dataset d(H5Dopen2(file, where.c_str(), H5P_DEFAULT));
    if (d.get() < 0) throw InputError("checkpoint " + path + " has no dataset /" + where);
    H5Space s(H5Dget_space(d));
    std::vector<double> values(static_cast<std::size_t>(std::max<hssize_t>(0, H5Sget_simple_extent_npoints(s))));
    if (!values.empty() && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      throw InputError("checkpoint " + path + ": cannot read /" + where + " (corrupt?)");
    c.arrays.emplace_back(name, std::move(values));
  }
}

template <int Dim>
CheckpointReader<Dim>::~CheckpointReader() {
  if (m_file >= 0) H5Fclose(static_cast<hid_t>(m_file));
}

template <int Dim>
template <class T>
void CheckpointReader<Dim>::read_field(const std::string& name, mesh::Field<T, Dim>& out) const {
  const QuietHdf5 quiet;
  GRIDFLOW_REQUIRE(out.space() == mesh::MemorySpace::host, "checkpoint fields are read into host memory");
  const std::string where = "Fields/" + name;
  if (std::find(m_field_names.begin(), m_field_names.end(), name) == m_field_names.end())
    throw InputError("restart: the checkpoint " + m_path + " has no field '" + name + "'");
  H5Dataset dataset(H5Dopen2(static_cast<hid_t>(m_file), where.c_str(), H5P_DEFAULT));
  if (dataset.get() < 0) throw InputError("restart: the checkpoint " + m_path + " has no dataset /" + where);
  H5Space file_space(H5Dget_space(dataset));
  hsize_t stored[Dim];
  const bool shape_ok = H5Sget_simple_extent_ndims(file_space) == Dim && H5Sget_simple_extent_dims(file_space, stored, nullptr) == Dim;
  const OwnedHyperslab<Dim> slab(out, m_decomposition.grid());
  if (!shape_ok || !std::equal(stored, stored + Dim, slab.global))
    throw InputError("restart: field '" + name + "' of " + m_path + " does not have the grid's shape");
  slab.select_in_file(file_space);
  const H5Space memory_space = slab.memory_space();
  H5Plist dxpl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)));
  GRIDFLOW_H5_CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  if (H5Dread(dataset, native_type<T>(), memory_space, file_space, dxpl, out.view().data) < 0)
    throw Error("restart: cannot read field '" + name + "' of " + m_path + " (corrupt?)");
}

template class CheckpointReader<2>;
template class CheckpointReader<3>;
template void CheckpointReader<2>::read_field<float>(const std::string&, mesh::Field<float, 2>&) const;
template void CheckpointReader<2>::read_field<double>(const std::string&, mesh::Field<double, 2>&) const;
template void CheckpointReader<3>::read_field<float>(const std::string&, mesh::Field<float, 3>&) const;
template void CheckpointReader<3>::read_field<double>(const std::string&, mesh::Field<double, 3>&) const;
template void write_checkpoint<float, 2>(const std::string&, const mesh::Decomposition<2>&, const CheckpointContent&,
                                         const std::vector<NamedField<float, 2>>&);
template void write_checkpoint<double, 2>(const std::string&, const mesh::Decomposition<2>&, const CheckpointContent&,
                                          const std::vector<NamedField<double, 2>>&);
template void write_checkpoint<float, 3>(const std::string&, const mesh::Decomposition<3>&, const CheckpointContent&,
                                         const std::vector<NamedField<float, 3>>&);
template void write_checkpoint<double, 3>(const std::string&, const mesh::Decomposition<3>&, const CheckpointContent&,
                                          const std::vector<NamedField<double, 3>>&);

}  // namespace gridflow::io
