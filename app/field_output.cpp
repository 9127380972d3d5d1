#include "app/field_output.hpp"

#include <mpi.h>

#include <utility>
#include <vector>

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T, int Dim>
FieldOutput<T, Dim>::FieldOutput(const mesh::Decomposition<Dim>& decomposition, Options options,
                                 std::function<io::Attributes()> run_info, io::Attributes input, double wall_start)
    : m_decomposition(decomposition),
      m_options(std::move(options)),
      m_run_info(std::move(run_info)),
      m_input(std::move(input)),
      m_wall_start(wall_start) {}

template <class T, int Dim>
void FieldOutput<T, Dim>::add_run_attributes(const io::Attributes& more) {
  if (m_series) m_series->add_run_attributes(more);
  else m_added.insert(m_added.end(), more.begin(), more.end());
}

template <class T, int Dim>
void FieldOutput<T, Dim>::write(std::int64_t step, double time, double dt, const FieldAccess<T, Dim>& fields) {
  if (!m_options.enabled) return;
  solver::PhaseScope timed(m_timer);
  if (!m_series) {
    io::Attributes run = m_run_info();
    run.insert(run.end(), m_added.begin(), m_added.end());
    m_series.emplace(m_decomposition, m_options.directory, m_options.basename, std::move(run), m_input);
    m_series->continue_series(m_earlier);
  }
  if (m_measure) m_series->set_run_attributes(m_measure());
  std::vector<io::NamedField<T, Dim>> host;
  for (const auto& f : fields.all()) host.push_back({f.name, &fields.host(f.name)});
  for (auto& source : m_field_sources)
    for (auto& f : source(fields)) host.push_back(std::move(f));
  std::vector<io::StepDataset> datasets;
  for (auto& source : m_sources)
    for (auto& d : source(m_files_written, fields)) datasets.push_back(std::move(d));
  m_series->template write<T>({step, time, dt, MPI_Wtime() - m_wall_start}, host, datasets);
  m_last_written = step;
  ++m_files_written;
}

template <class T, int Dim>
void FieldOutput<T, Dim>::continue_series(std::vector<io::XdmfStep> earlier) {
  if (!earlier.empty()) m_last_written = earlier.back().step;
  if (m_series) m_series->continue_series(earlier);
  m_earlier = std::move(earlier);
}

template <class T, int Dim>
void FieldOutput<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
  // A run stopped with a checkpoint continues later: its last state is no output of the run (the
  // series of the continued run then has the steps of an uninterrupted one).
  const bool regular = m_options.every > 0 && state.step % m_options.every == 0;
  if (state.ending && state.stop && state.stop->checkpointed() && !regular) return;
  if (state.step != m_last_written) write(state.step, state.time, state.dt, state.fields);
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
