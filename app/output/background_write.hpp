#pragma once
// BackgroundWrite: one write at a time on a thread of its own, while the run steps on. The write
// runs to its end (a collective HDF5 write cannot be left half-way on one rank); its exception is
// kept and rethrown by finish() on the run's thread, which is where errors are reported.
#include <atomic>
#include <exception>
#include <functional>
#include <thread>

namespace gridflow::app {

class BackgroundWrite {
 public:
  BackgroundWrite() = default;
  /// Waits for a write still running; its error, if any, is dropped (the run is already failing).
  ~BackgroundWrite();
  BackgroundWrite(const BackgroundWrite&) = delete;
  BackgroundWrite& operator=(const BackgroundWrite&) = delete;

  /// Starts `write` on a new thread. Throws Error when a write is still unfinished (busy()).
  void start(std::function<void()> write);
  /// A write was started and finish() has not been called since.
  bool busy() const { return m_thread.joinable(); }
  /// The started write has ended with an exception. Does not block; any thread.
  bool failed() const { return m_failed.load(std::memory_order_acquire); }
  /// Blocks until the started write has ended; rethrows its exception. Returns the seconds it
  /// ran on its thread (0 when none was started).
  double finish();

 private:
  std::thread m_thread;
  std::exception_ptr m_error;  // written by the thread, read after join
  double m_seconds = 0;        // likewise
  std::atomic<bool> m_failed{false};
};

}  // namespace gridflow::app
