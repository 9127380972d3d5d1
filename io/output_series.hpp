#pragma once
// OutputSeries<Dim>: one parallel HDF5 file per output step plus an XDMF index of all of them.
//
// Every rank writes its owned box of each field collectively (MPI-IO) into one dataset of the
// global grid, stored slowest axis first ((y, x) or (z, y, x)), so the file does not depend on the
// number of ranks. A file is written under a hidden temporary name and renamed when complete, so
// a file with the final name is always whole.
//
// File layout: /<field> datasets; the step's other datasets (StepDataset, e.g. /spectrum/k); /Info attributes (step, time, dt, wall_time, grid_points,
// spacing, origin: per-axis lists x first; precision, ranks; and the run's own, such as
// code_version and the ghost widths);
// /Input attributes: the deck as used (attribute "deck", TOML text) and one attribute per key.
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "io/attribute.hpp"
#include "io/step_dataset.hpp"
#include "io/xdmf.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace gridflow::io {

struct StepInfo {
  long long step = 0;
  double time = 0;
  double dt = 0;
  double wall_time = 0;  ///< seconds since the run started (rank 0's clock is stored)
};

/// "<basename>_<step, 8 digits>.h5": the file of one output step.
std::string output_file_name(const std::string& basename, long long step);

template <class T, int Dim>
struct NamedField {
  std::string name;
  const mesh::Field<T, Dim>* field;  ///< host memory
};

template <int Dim>
class OutputSeries {
 public:
  /// Collective. `directory` must exist and be writable; `run` goes into every file's /Info and
  /// `input` into /Input. `comm`: the communicator of every collective of the series (the
  /// decomposition's ranks in its order; a writer thread's own duplicate, so its collectives never
  /// meet the run's); MPI_COMM_NULL: the decomposition's.
  OutputSeries(const mesh::Decomposition<Dim>& decomposition, std::string directory, std::string basename,
               Attributes run, Attributes input, MPI_Comm comm = MPI_COMM_NULL);

  /// Collective: writes <directory>/<basename>_<step>.h5, with `datasets` beside the fields
  /// (tables, not grid fields: the XDMF index leaves them out), and rewrites <basename>.xmf.
  /// Returns the path of the file written.
  template <class T>
  std::string write(const StepInfo& info, const std::vector<NamedField<T, Dim>>& fields,
                    const std::vector<StepDataset>& datasets = {});

  /// Adds to the /Info of the files written from now on (what the run learns as it goes, such as
  /// its tuning report). Every rank must add the same attributes.
  void add_run_attributes(const Attributes& more) { m_run.insert(m_run.end(), more.begin(), more.end()); }
  /// The same, replacing the values of attributes already added under those names (what the run
  /// has measured so far).
  void set_run_attributes(const Attributes& values);

  const std::string& xdmf_path() const { return m_xdmf_path; }
  /// The steps in the index so far, oldest first.
  const std::vector<XdmfStep>& steps() const { return m_steps; }
  /// Continues the series of an earlier run (a restart): its index lists `earlier` before the steps
  /// written from now on. Steps at or after the first one written again are dropped from it then,
  /// so a series restarted from a checkpoint has each step once.
  void continue_series(std::vector<XdmfStep> earlier) { m_steps = std::move(earlier); }

 private:
  void update_xdmf(const XdmfStep& step, const std::string& precision);

  const mesh::Decomposition<Dim>& m_decomposition;
  MPI_Comm m_comm;
  std::string m_directory;
  std::string m_basename;
  Attributes m_run;
  Attributes m_input;
  std::string m_xdmf_path;
  std::vector<XdmfStep> m_steps;
};

extern template class OutputSeries<2>;
extern template class OutputSeries<3>;

}  // namespace gridflow::io
