#include "app/output/field_output.hpp"

#include <mpi.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

}  // namespace

template <class T, int Dim>
FieldOutput<T, Dim>::FieldOutput(const mesh::Decomposition<Dim>& decomposition, Options options,
                                 std::function<io::Attributes()> run_info, io::Attributes input, double wall_start)
    : m_decomposition(decomposition),
      m_options(std::move(options)),
      m_run_info(std::move(run_info)),
      m_input(std::move(input)),
      m_wall_start(wall_start) {
  if (!m_options.enabled || !m_options.async) return;
  // A writer thread makes MPI calls while the run's thread makes its own. The same answer on
  // every rank.
  int provided = MPI_THREAD_SINGLE;
  GRIDFLOW_MPI_CHECK(MPI_Query_thread(&provided));
  m_async = provided == MPI_THREAD_MULTIPLE;
  if (!m_async) {
    if (decomposition.rank() == 0) {
      std::printf("  note: output.async: MPI grants %s, not MPI_THREAD_MULTIPLE; output is written synchronously\n",
                  thread_level_name(provided));
      std::fflush(stdout);
    }
    return;
  }
  MPI_Comm dup = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_dup(decomposition.comm(), &dup));
  m_writer_comm = mesh::adopt_comm(dup);
  GRIDFLOW_MPI_CHECK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
}

template <class T, int Dim>
FieldOutput<T, Dim>::~FieldOutput() = default;  // m_writing, destroyed first, waits for its write

template <class T, int Dim>
void FieldOutput<T, Dim>::add_run_attributes(const io::Attributes& more) {
  finish_writes();  // the series' attributes are read by the write in flight
  if (m_series) m_series->add_run_attributes(more);
  else m_added.insert(m_added.end(), more.begin(), more.end());
}

template <class T, int Dim>
void FieldOutput<T, Dim>::finish_writes() {
  m_background_seconds += m_writing.finish();
}

template <class T, int Dim>
void FieldOutput<T, Dim>::allocate_buffers(const FieldAccess<T, Dim>& fields) {
  if (!m_options.enabled) return;
  finish_writes();  // a write in flight (step 0's) may read the buffers allocate() replaces
  if (m_async) m_snapshot.allocate(fields);
  else fields.allocate_host_buffers();
}

template <class T, int Dim>
void FieldOutput<T, Dim>::write(std::int64_t step, double time, double dt, const FieldAccess<T, Dim>& fields) {
  if (!m_options.enabled) return;
  solver::PhaseScope timed(m_timer);
  finish_writes();  // at most one in flight: its buffers are taken again below
  if (!m_series) {
    io::Attributes run = m_run_info();
    run.insert(run.end(), m_added.begin(), m_added.end());
    m_series.emplace(m_decomposition, m_options.directory, m_options.basename, std::move(run), m_input,
                     m_writer_comm ? *m_writer_comm : MPI_COMM_NULL);
    m_series->continue_series(m_earlier);
  }
  if (m_measure) m_series->set_run_attributes(m_measure());
  std::vector<io::NamedField<T, Dim>> host;
  if (m_async) host = m_snapshot.take(fields);
  else
    for (const auto& f : fields.all()) host.push_back({f.name, &fields.host(f.name)});
  for (auto& source : m_field_sources)
    for (auto& f : source(fields)) {
      if (m_async) {  // the source keeps its result only until its next call
        const auto make = [&] { return mesh::Field<T, Dim>(f.field->owned(), f.field->ghost_width(), mesh::MemorySpace::host, f.name); };
        mesh::Field<T, Dim>& kept = m_source_copies.try_emplace(f.name, make()).first->second;
        if (!kept.same_layout(*f.field)) kept = make();
        kept.copy_from(*f.field);
        f.field = &kept;
      }
      host.push_back(std::move(f));
    }
  std::vector<io::StepDataset> datasets;
  for (auto& source : m_sources)
    for (auto& d : source(m_files_written, fields)) datasets.push_back(std::move(d));
  const io::StepInfo info{step, time, dt, MPI_Wtime() - m_wall_start};
  auto write_file = [this, info, host = std::move(host), datasets = std::move(datasets)] {
    m_snapshot.wait_until_copied();
    m_series->template write<T>(info, host, datasets);
  };
  if (m_async) m_writing.start(std::move(write_file));
  else write_file();
  m_last_written = step;
  ++m_files_written;
}

template <class T, int Dim>
void FieldOutput<T, Dim>::continue_series(std::vector<io::XdmfStep> earlier) {
  finish_writes();
  if (!earlier.empty()) m_last_written = earlier.back().step;
  if (m_series) m_series->continue_series(earlier);
  m_earlier = std::move(earlier);
}

template <class T, int Dim>
std::vector<io::XdmfStep> FieldOutput<T, Dim>::series_steps() {
  finish_writes();
  return m_series ? m_series->steps() : m_earlier;
}

template <class T, int Dim>
void FieldOutput<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
  const bool regular = m_options.every > 0 && state.step % m_options.every == 0;
  // Neither an output step nor the end: the flag of a failed write brought the loop here, on
  // every rank. The write's error is thrown (on the ranks whose write failed).
  if (!regular && !state.ending) {
    finish_writes();
    return;
  }
  // A run stopped with a checkpoint continues later: its last state is no output of the run (the
  // series of the continued run then has the steps of an uninterrupted one).
  if (state.ending && state.stop && state.stop->checkpointed() && !regular) return;
  if (state.step != m_last_written) write(state.step, state.time, state.dt, state.fields);
}

template <class T, int Dim>
void FieldOutput<T, Dim>::on_finish(const RunState<T, Dim>&) {
  solver::PhaseScope timed(m_timer);  // the run waits for its last write
  finish_writes();
}

template <class T, int Dim>
const std::string& FieldOutput<T, Dim>::xdmf_path() const {
  GRIDFLOW_REQUIRE(m_series.has_value(), "no output has been written");
  return m_series->xdmf_path();
}

template class FieldOutput<float, 2>;
template class FieldOutput<double, 2>;
template class FieldOutput<float, 3>;
template class FieldOutput<double, 3>;

}  // namespace gridflow::app
