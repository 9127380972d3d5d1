#pragma once
// FieldOutput<T, Dim>: the observer that writes the run's fields into an io::OutputSeries (one
// HDF5 file per written step, and the XDMF index): every `every` steps, and at the end unless
// that step is written already. A run writes other steps itself with write() (step 0, before an
// on-line tuning takes steps).
//
// Asynchronous output (Options::async, where MPI grants MPI_THREAD_MULTIPLE): at an output the
// run's thread waits for the previous write, evaluates the sources (filters, diagnostics: they
// are collective and use the run's stream), takes an OutputSnapshot of the fields and hands the
// file, its datasets and the XDMF update to a BackgroundWrite, then returns to the stepping. At
// most one write is in flight; memory: one snapshot (a host copy of each field, page-locked, and
// a device copy of each device field) plus a host copy of each source's result. The writer's
// collectives go over a duplicate of the decomposition's communicator. HDF5 (Debian's parallel
// build is not thread-safe) is used by one thread at a time: whatever else reads or writes HDF5
// during the run (a checkpoint) waits for the write first (finish_writes(), series_steps()).
// A failed write raises this observer's flag: the run stops at the next step boundary with the
// write's own error, as a synchronous write does; the end of the run waits for the last write.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/output/background_write.hpp"
#include "app/loop/observer.hpp"
#include "app/output/output_snapshot.hpp"
#include "io/attribute.hpp"
#include "io/output_series.hpp"
#include "io/step_dataset.hpp"
#include "mesh/decomposition.hpp"
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
    /// Write on a background thread (the deck's output.async, default true there); synchronous
    /// when MPI does not grant MPI_THREAD_MULTIPLE (rank 0 prints one note line).
    bool async = false;
  };

  /// `run_info` is asked once, when the first file is written: the /Info attributes known then,
  /// which add_run_attributes() extends. `wall_start`: MPI_Wtime() when the run started (files
  /// carry the seconds since).
  FieldOutput(const mesh::Decomposition<Dim>& decomposition, Options options, std::function<io::Attributes()> run_info,
              io::Attributes input, double wall_start);
  /// Finishes the write in flight (its error, if any, is dropped: the run is failing already).
  ~FieldOutput() override;

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
  /// valid until the write call returns: an asynchronous write copies them) are written like the
  /// run's and listed in the XDMF index.
  using FieldSource = std::function<std::vector<io::NamedField<T, Dim>>(const FieldAccess<T, Dim>&)>;
  void add_fields(FieldSource source) { m_field_sources.push_back(std::move(source)); }
  /// Writes every field of `fields` (host copies made as needed) as step `step`, with the
  /// fields and datasets of the sources added. Collective. Asynchronous output returns once the
  /// fields are copied (device copies queued) and the write started; it first waits for the
  /// previous write and rethrows its error.
  void write(std::int64_t step, double time, double dt, const FieldAccess<T, Dim>& fields);
  /// Makes the buffers the writes copy the fields into now (not in the first output). Blocks.
  void allocate_buffers(const FieldAccess<T, Dim>& fields);
  /// Blocks until the write in flight, if any, has finished; rethrows its error. Collective
  /// wherever a write is in flight (every rank has one then).
  void finish_writes();

  std::string name() const override { return "output"; }
  std::int64_t next_step(const RunState<T, Dim>& state) const override { return next_multiple(state.step, m_options.every); }
  bool acts_at_end() const override { return true; }
  /// Raised when the write in flight has failed on this rank.
  bool flag_raised() const override { return m_writing.failed(); }
  void act(const RunState<T, Dim>& state, RunControl& control) override;
  void on_finish(const RunState<T, Dim>& state) override;

  /// Continues the series of the run a restart continues: the index lists `earlier` first.
  void continue_series(std::vector<io::XdmfStep> earlier);
  /// The steps of the index so far (those of an earlier run first), for a checkpoint; waits for
  /// the write in flight, so the checkpoint written next lists it and uses HDF5 alone.
  std::vector<io::XdmfStep> series_steps();

  /// Seconds the run's thread spent in the output: the stepping waited that long (the whole
  /// write when it is synchronous; else the copies, the sources and waits for a write in flight).
  double seconds() { return m_timer.seconds(); }
  /// Seconds the writes ran on the background thread (0 when synchronous), once finished.
  double background_seconds() const { return m_background_seconds; }
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
  bool m_async = false;
  mesh::SharedComm m_writer_comm;  // the series' collectives, when asynchronous
  OutputSnapshot<T, Dim> m_snapshot;
  std::map<std::string, mesh::Field<T, Dim>> m_source_copies;  // the sources' fields, by name
  double m_background_seconds = 0;
  BackgroundWrite m_writing;  // last: finished before the rest goes
};

extern template class FieldOutput<float, 2>;
extern template class FieldOutput<double, 2>;
extern template class FieldOutput<float, 3>;
extern template class FieldOutput<double, 3>;

}  // namespace gridflow::app
