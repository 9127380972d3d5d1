#include "app/residual_csv.hpp"

#include <filesystem>
#include <fstream>

#include "mesh/check.hpp"

namespace gridflow::app {

template <class T>
ResidualCsv<T>::ResidualCsv(const PoissonStepping<T>& stepping, const std::string& directory, const std::string& basename,
                            bool writes)
    : m_stepping(stepping), m_path((std::filesystem::path(directory) / (basename + "_residual.csv")).string()), m_writes(writes) {}

template <class T>
void ResidualCsv<T>::act(const RunState<T, 3>&, RunControl&) {
  if (!m_writes) return;
  std::ofstream out(m_path);
  out << "iteration,relative_residual,seconds\n";
  out.precision(17);
  for (const auto& r : m_stepping.history()) out << r.iteration << ',' << r.relative_residual << ',' << r.seconds << '\n';
  if (!out) throw Error("cannot write " + m_path);
}

template class ResidualCsv<float>;
template class ResidualCsv<double>;

}  // namespace gridflow::app
