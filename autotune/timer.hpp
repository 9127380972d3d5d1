#pragma once
// Timer: measures one Evaluator::run. CUDA events on the caller's stream time device work
// without host overhead; the steady clock times host work (or work the evaluator waits for).
#include <chrono>
#include <memory>
#include <optional>

#include "mesh/device.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::autotune {

class Timer {
 public:
  virtual ~Timer() = default;
  virtual void start() = 0;
  /// Seconds since start(); blocks until the timed work has finished.
  virtual double stop() = 0;
};

/// Host wall time (std::chrono::steady_clock).
class SteadyTimer final : public Timer {
 public:
  void start() override { m_start = std::chrono::steady_clock::now(); }
  double stop() override;

 private:
  std::chrono::steady_clock::time_point m_start;
};

/// Device time between two events recorded on `stream`. Throws gridflow::Error without CUDA.
class EventTimer final : public Timer {
 public:
  explicit EventTimer(StreamHandle stream) : m_stream(stream) {}
  void start() override;
  double stop() override;

 private:
  StreamHandle m_stream;
  mesh::Event m_start;
  mesh::Event m_stop;
};

/// An EventTimer on `stream` when one is given (nullptr being the legacy default stream), a
/// SteadyTimer otherwise.
std::unique_ptr<Timer> make_timer(std::optional<StreamHandle> stream);

}  // namespace gridflow::autotune
