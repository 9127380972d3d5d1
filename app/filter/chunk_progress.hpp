#pragma once
// Progress of `gridflow filter`: "gridflow filter: k/K chunks (p%), t s, about r s left" (or
// frames) on stderr, every few seconds once the work has taken a few seconds (short runs stay quiet).
#include <chrono>
#include <cstdio>

namespace gridflow::app {

class ChunkProgress {
 public:
  /// `speaks`: this rank prints (rank 0); `unit`: what is counted ("chunks", "frames").
  ChunkProgress(long long steps, bool speaks, const char* unit = "chunks") : m_steps(steps), m_speaks(speaks), m_unit(unit) {}
  /// Steps 1..`step` are done.
  void done(long long step) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (!m_speaks || step >= m_steps || t < 3.0 || t - m_last < 3.0) return;
    m_last = t;
    std::fprintf(stderr, "gridflow filter: %lld/%lld %s (%.0f%%), %.1f s, about %.0f s left\n", step, m_steps, m_unit,
                 100.0 * step / m_steps, t, t / step * (m_steps - step));
    std::fflush(stderr);
  }

 private:
  long long m_steps;
  bool m_speaks;
  const char* m_unit;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  double m_last = 0;
};

}  // namespace gridflow::app
