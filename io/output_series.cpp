#include "io/output_series.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <type_traits>

#include "io/h5_attribute_reader.hpp"
#include "io/h5_attributes.hpp"
#include "io/h5_handle.hpp"
#include "io/owned_hyperslab.hpp"
#include "io/text_file.hpp"
#include "io/write_failure.hpp"
#include "mesh/check.hpp"
#include "mesh/rank0_error.hpp"

namespace gridflow::io {

namespace fs = std::filesystem;

namespace {

template <class T>
hid_t native_type() {
  return std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}
template <class T>
hid_t file_type() {
  return std::is_same_v<T, float> ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

/// Rank 0 renames `from` to `to`; all ranks throw if that failed.
void collective_rename(MPI_Comm comm, const fs::path& from, const fs::path& to) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string error;
  if (rank == 0) {
    std::error_code ec;
    fs::rename(from, to, ec);
    if (ec) error = "cannot rename " + from.string() + " to " + to.string() + ": " + ec.message();
  }
  share_rank0_error(error, comm);
}

}  // namespace

std::string output_file_name(const std::string& basename, long long step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%08lld", step);
  return basename + "_" + digits + ".h5";
}

template <int Dim>
OutputSeries<Dim>::OutputSeries(const mesh::Decomposition<Dim>& decomposition, std::string directory, std::string basename,
                                Attributes run, Attributes input, MPI_Comm comm)
    : m_decomposition(decomposition), m_comm(comm == MPI_COMM_NULL ? decomposition.comm() : comm),
      m_directory(std::move(directory)), m_basename(std::move(basename)),
      m_run(std::move(run)), m_input(std::move(input)),
      m_xdmf_path((fs::path(m_directory) / (m_basename + ".xmf")).string()) {
  // Every rank has the same name, so every rank throws alike, before any file is written.
  require_xdmf_name(m_basename, "output name");
}

template <int Dim>
void OutputSeries<Dim>::set_run_attributes(const Attributes& values) {
  for (const auto& [name, value] : values) {
    const auto same = std::find_if(m_run.begin(), m_run.end(), [&, &n = name](const auto& a) { return a.first == n; });
    if (same != m_run.end()) same->second = value;
    else m_run.emplace_back(name, value);
  }
}

template <int Dim>
template <class T>
std::string OutputSeries<Dim>::write(const StepInfo& local_info, const std::vector<NamedField<T, Dim>>& fields,
                                     const std::vector<StepDataset>& datasets) {
  const MPI_Comm comm = m_comm;
  StepInfo info = local_info;  // attributes must be identical on every rank: rank 0's values win
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&info, sizeof info, MPI_BYTE, 0, comm));

  const std::string name = output_file_name(m_basename, info.step);
  const fs::path final_path = fs::path(m_directory) / name;
  const fs::path partial_path = fs::path(m_directory) / ("." + name + ".partial");
  const auto& grid = m_decomposition.grid();
  // The fields' share of the file: what a full disk lacks.
  const std::uintmax_t bytes = fields.size() * static_cast<std::uintmax_t>(grid.points().size()) * sizeof(T);
  const QuietHdf5 quiet;  // a failure is reported as one message below, not as HDF5's stack
  errno = 0;              // what a failed write leaves there says why
  try {
    H5Plist fapl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)));
    GRIDFLOW_H5_CHECK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
    H5File file(GRIDFLOW_H5_CHECK(H5Fcreate(partial_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)));

    for (const auto& nf : fields) {
      const auto& f = *nf.field;
      GRIDFLOW_REQUIRE(f.space() == mesh::MemorySpace::host, "output field '" + nf.name + "' must be in host memory");
      const OwnedHyperslab<Dim> slab(f, grid);
      H5Space file_space(GRIDFLOW_H5_CHECK(H5Screate_simple(Dim, slab.global, nullptr)));
      H5Dataset dataset(GRIDFLOW_H5_CHECK(
          H5Dcreate2(file, nf.name.c_str(), file_type<T>(), file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
      slab.select_in_file(file_space);
      const H5Space memory_space = slab.memory_space();
      H5Plist dxpl(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)));
      GRIDFLOW_H5_CHECK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
      GRIDFLOW_H5_CHECK(H5Dwrite(dataset, native_type<T>(), memory_space, file_space, dxpl, f.view().data));
    }

    for (const auto& extra : datasets) write_step_dataset(file, extra, m_decomposition.rank());

    H5Group info_group(GRIDFLOW_H5_CHECK(H5Gcreate2(file, "Info", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
    std::vector<std::int64_t> points;
    std::vector<double> spacing, origin;
    for (int d = 0; d < Dim; ++d) {
      points.push_back(grid.n[d] + 1);
      spacing.push_back(grid.spacing(d));
      origin.push_back(grid.origin[d]);
    }
    write_attributes(info_group, {{"step", std::int64_t(info.step)},
                                  {"time", info.time},
                                  {"dt", info.dt},
                                  {"wall_time", info.wall_time},
                                  {"grid_points", points},
                                  {"spacing", spacing},
                                  {"origin", origin},
                                  {"precision", std::string(std::is_same_v<T, float> ? "float" : "double")},
                                  {"ranks", std::int64_t(m_decomposition.size())}});
    write_attributes(info_group, m_run);
    H5Group input_group(GRIDFLOW_H5_CHECK(H5Gcreate2(file, "Input", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)));
    write_attributes(input_group, m_input);
    input_group.close();
    info_group.close();
    GRIDFLOW_H5_CHECK(file.close());
  } catch (const std::exception& e) {
    // MPI_Abort follows on this rank (the others may be inside a collective write): leave no
    // partial file, and say why and what to do.
    const int saved = errno;
    const std::string message = write_failure_message(final_path.string(), saved, bytes, e.what(), "output.dir");
    remove_partial_file(partial_path.string());
    throw Error(message);
  }
  collective_rename(comm, partial_path, final_path);

  XdmfStep step{info.step, info.time, name, {}};
  for (const auto& nf : fields) step.fields.push_back(nf.name);
  update_xdmf(step, std::is_same_v<T, float> ? "float" : "double");
  return final_path.string();
}

template <int Dim>
void OutputSeries<Dim>::update_xdmf(const XdmfStep& step, const std::string& precision) {
  while (!m_steps.empty() && m_steps.back().step >= step.step) m_steps.pop_back();  // written again after a restart
  m_steps.push_back(step);
  const MPI_Comm comm = m_comm;
  std::string error;
  if (m_decomposition.rank() == 0) {
    const auto& grid = m_decomposition.grid();
    XdmfMesh mesh;
    mesh.dim = Dim;
    mesh.precision = precision;
    for (int d = 0; d < Dim; ++d) {
      mesh.points[d] = grid.n[d] + 1;
      mesh.origin[d] = grid.origin[d];
      mesh.spacing[d] = grid.spacing(d);
    }
    try {  // rank 0's failure reaches every rank below: none may be left in the collective
      write_text_file_atomically(m_xdmf_path, xdmf_document(m_basename, mesh, m_steps), "output.dir");
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  share_rank0_error(error, comm);
}

template class OutputSeries<2>;
template class OutputSeries<3>;
template std::string OutputSeries<2>::write<float>(const StepInfo&, const std::vector<NamedField<float, 2>>&,
                                                     const std::vector<StepDataset>&);
template std::string OutputSeries<2>::write<double>(const StepInfo&, const std::vector<NamedField<double, 2>>&,
                                                     const std::vector<StepDataset>&);
template std::string OutputSeries<3>::write<float>(const StepInfo&, const std::vector<NamedField<float, 3>>&,
                                                     const std::vector<StepDataset>&);
template std::string OutputSeries<3>::write<double>(const StepInfo&, const std::vector<NamedField<double, 3>>&,
                                                     const std::vector<StepDataset>&);

}  // namespace gridflow::io
