#pragma once
// PhaseTimer: seconds spent in one phase of the run, summed over many intervals. Device phases
// are timed with CUDA events on the stream (no synchronization per interval); host phases with
// the steady clock.
#include <chrono>
#include <memory>

#include "mesh/device.hpp"

namespace gridflow::solver {

class PhaseTimer {
 public:
  PhaseTimer() = default;
  PhaseTimer(mesh::MemorySpace space, StreamHandle stream)
      : m_stream(stream), m_device(space == mesh::MemorySpace::device ? std::make_unique<mesh::DeviceIntervalTimer>() : nullptr) {}

  void start() {
    if (m_device) m_device->start(m_stream);
    else m_started = std::chrono::steady_clock::now();
  }
  void stop() {
    if (m_device) m_device->stop(m_stream);
    else m_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
  }
  /// Blocks on device phases until their intervals have completed.
  double seconds() { return m_device ? m_device->seconds() : m_seconds; }

 private:
  StreamHandle m_stream = nullptr;
  std::unique_ptr<mesh::DeviceIntervalTimer> m_device;
  std::chrono::steady_clock::time_point m_started;
  double m_seconds = 0;
};

/// Starts a phase for the lifetime of the scope.
class PhaseScope {
 public:
  explicit PhaseScope(PhaseTimer& t) : m_timer(t) { m_timer.start(); }
  ~PhaseScope() { m_timer.stop(); }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  PhaseTimer& m_timer;
};

}  // namespace gridflow::solver
