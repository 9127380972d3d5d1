#include "app/loop/residual_csv.hpp"

#include <filesystem>
#include <sstream>

#include "io/text_file.hpp"

namespace gridflow::app {

template <class T>
ResidualCsv<T>::ResidualCsv(const PoissonStepping<T>& stepping, const std::string& directory, const std::string& basename,
                            bool writes)
    : m_stepping(stepping), m_path((std::filesystem::path(directory) / (basename + "_residual.csv")).string()), m_writes(writes) {}

template <class T>
void ResidualCsv<T>::act(const RunState<T, 3>&, RunControl&) {
  if (!m_writes) return;
  std::ostringstream out;
  out << "iteration,relative_residual,seconds\n";
  out.precision(17);
  for (const auto& r : m_stepping.history()) out << r.iteration << ',' << r.relative_residual << ',' << r.seconds << '\n';
  io::write_text_file_atomically(m_path, out.str(), "output.dir");
}

template class ResidualCsv<float>;
template class ResidualCsv<double>;

}  // namespace gridflow::app
