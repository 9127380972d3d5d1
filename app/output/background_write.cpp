#include "app/output/background_write.hpp"

#include <chrono>
#include <utility>

#include "mesh/check.hpp"

namespace gridflow::app {

BackgroundWrite::~BackgroundWrite() {
  if (m_thread.joinable()) m_thread.join();
}

void BackgroundWrite::start(std::function<void()> write) {
  if (busy()) throw Error("a background write was started while the previous one is unfinished");
  m_error = nullptr;
  m_seconds = 0;
  m_failed.store(false, std::memory_order_release);
  m_thread = std::thread([this, write = std::move(write)] {
    const auto started = std::chrono::steady_clock::now();
    try {
      write();
    } catch (...) {
      m_error = std::current_exception();
      m_failed.store(true, std::memory_order_release);
    }
    m_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  });
}

double BackgroundWrite::finish() {
  if (!m_thread.joinable()) return 0;
  m_thread.join();
  m_failed.store(false, std::memory_order_release);
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
  return m_seconds;
}

}  // namespace gridflow::app
