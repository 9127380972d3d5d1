#include "app/loop/residual_progress.hpp"

#include <cstdio>

namespace gridflow::app {

template <class T>
void ResidualProgress<T>::print_new_checks() {
  const auto& history = m_stepping.history();
  for (; m_printed < history.size(); ++m_printed) {
    if (!m_prints) continue;
    const auto& r = history[m_printed];
    std::printf("  %s %8lld  residual %.6e  %.3f s\n", m_solver_name.c_str(), static_cast<long long>(r.iteration),
                r.relative_residual, r.seconds);
    std::fflush(stdout);
  }
}

template class ResidualProgress<float>;
template class ResidualProgress<double>;

}  // namespace gridflow::app
