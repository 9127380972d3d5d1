#include "autotune/timer.hpp"

namespace gridflow::autotune {

double SteadyTimer::stop() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void EventTimer::start() { m_start.record(m_stream); }

double EventTimer::stop() {
  m_stop.record(m_stream);
  m_stop.synchronize();
  return 1e-3 * mesh::Event::elapsed_ms(m_start, m_stop);
}

std::unique_ptr<Timer> make_timer(std::optional<StreamHandle> stream) {
  if (stream) return std::make_unique<EventTimer>(*stream);
  return std::make_unique<SteadyTimer>();
}

}  // namespace gridflow::autotune
