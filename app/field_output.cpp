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
  }
  if (m_measure) m_series->set_run_attributes(m_measure());
  std::vector<io::NamedField<T, Dim>> host;
  for (const auto& f : fields.all()) host.push_back({f.name, &fields.host(f.name)});
  std::vector<io::StepDataset> datasets;
  for (auto& source : m_sources)
    for (auto& d : source(m_files_written, fields)) datasets.push_back(std::move(d));
  m_series->template write<T>({step, time, dt, MPI_Wtime() - m_wall_start}, host, datasets);
  m_last_written = step;
  ++m_files_written;
}

template <class T, int Dim>
void FieldOutput<T, Dim>::act(const RunState<T, Dim>& state, RunControl&) {
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
