#pragma once
// FieldOutput<T, Dim>: the observer that writes the run's fields into an io::OutputSeries (one
// HDF5 file per written step, and the XDMF index): every `every` steps, and at the end unless
// that step is written already. A run writes other steps itself with write() (step 0, before an
// on-line tuning takes steps).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/observer.hpp"
#include "io/attribute.hpp"
#include "io/output_series.hpp"
#include "io/step_dataset.hpp"
#include "solver/phase_timer.hpp"

namespace gridflow::app {

template <class T, int Dim>
class FieldOutput final : public Observer<T, Dim> {
 public:
  struct Options {
    /// false: writes nothing, but keeps its steps: a benchmark run with output.enabled = false
    /// then steps in the chunks of the run it stands for.
    bool enabled = true;
    std::string directory, basename;
    std::int64_t every = 0;  ///< steps between outputs; 0: the end only
  };

  /// `run_info` is asked once, when the first file is written: the /Info attributes known then,
  /// which add_run_attributes() extends. `wall_start`: MPI_Wtime() when the run started (files
  /// carry the seconds since).
  FieldOutput(const mesh::Decomposition<Dim>& decomposition, Options options, std::function<io::Attributes()> run_info,
              io::Attributes input, double wall_start);

  /// To the /Info of the files written from now on. Every rank must add the same.
  void add_run_attributes(const io::Attributes& more);
  /// `measure` is asked before every later write for attributes the run measures as it goes
  /// (the ghost width its exchanges use); they replace the earlier values of those names.
  void refresh_before_writes(std::function<io::Attributes()> measure) { m_measure = std::move(measure); }
  /// Something that writes tables into the output files beside the fields (a diagnostic): asked
  /// at every write, collectively, with the number of files this object has written before
  /// (0 for the first) and the fields; what it returns goes into that file.
  using DatasetSource = std::function<std::vector<io::StepDataset>(std::int64_t file_index, const FieldAccess<T, Dim>&)>;
  void add_datasets(DatasetSource source) { m_sources.push_back(std::move(source)); }
  /// Something that writes grid fields beside the run's own (an in-situ filter): asked at every
  /// write, collectively, with the fields; the host fields it returns (this rank's owned box,
  /// valid until the write returns) are written like the run's and listed in the XDMF index.
  using FieldSource = std::function<std::vector<io::NamedField<T, Dim>>(const FieldAccess<T, Dim>&)>;
  void add_fields(FieldSource source) { m_field_sources.push_back(std::move(source)); }
  /// Writes every field of `fields` (host copies made as needed) as step `step`, with the
  /// fields and datasets of the sources added. Collective.
  void write(std::int64_t step, double time, double dt, const FieldAccess<T, Dim>& fields);

  std::string name() const override { return "output"; }
  std::int64_t next_step(const RunState<T, Dim>& state) const override { return next_multiple(state.step, m_options.every); }
  bool acts_at_end() const override { return true; }
  void act(const RunState<T, Dim>& state, RunControl& control) override;

  /// Continues the series of the run a restart continues: the index lists `earlier` first.
  void continue_series(std::vector<io::XdmfStep> earlier);
  /// The steps of the index so far (those of an earlier run first), for a checkpoint.
  std::vector<io::XdmfStep> series_steps() const { return m_series ? m_series->steps() : m_earlier; }

  /// Seconds spent writing, host copies included.
  double seconds() { return m_timer.seconds(); }
  /// Whether a file has been written (by this run).
  bool written() const { return m_series.has_value(); }
  /// The XDMF index; once a file has been written.
  const std::string& xdmf_path() const;

 private:
  const mesh::Decomposition<Dim>& m_decomposition;
  Options m_options;
  std::function<io::Attributes()> m_run_info;
  io::Attributes m_added;  // add_run_attributes before the series opened
  std::function<io::Attributes()> m_measure;
  io::Attributes m_input;
  double m_wall_start;
  std::optional<io::OutputSeries<Dim>> m_series;  // opened by the first write
  std::int64_t m_last_written = -1;
  std::int64_t m_files_written = 0;
  std::vector<DatasetSource> m_sources;
  std::vector<FieldSource> m_field_sources;
  std::vector<io::XdmfStep> m_earlier;  // continue_series before the series opened
  solver::PhaseTimer m_timer{mesh::MemorySpace::host, nullptr};
};

extern template class FieldOutput<float, 2>;
extern template class FieldOutput<double, 2>;
extern template class FieldOutput<float, 3>;
extern template class FieldOutput<double, 3>;

}  // namespace gridflow::app
