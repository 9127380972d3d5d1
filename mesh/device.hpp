#pragma once
// The few CUDA runtime services host code needs (memory, copies, streams, the device in use),
// callable from plain C++ in a build with or without CUDA. Without CUDA every call that would
// touch a GPU throws gridflow::Error saying so.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::mesh {

/// True when this build has CUDA and at least one device is visible.
bool gpu_available();
/// Devices visible to this process; 0 without CUDA or without a driver.
int gpu_count();
/// Makes `device` current for this host thread.
void select_gpu(int device);
/// Name and compute capability of the current device, e.g. "NVIDIA H200 (sm_90)".
std::string current_gpu_description();

/// The current device's memory (cudaMemGetInfo) and its ordinal, which tells ranks of one node
/// that share it apart from the others.
struct GpuMemory {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  int device = 0;
};
GpuMemory current_gpu_memory();

/// Owns `bytes` of memory in `space` (device: cudaMalloc; host: page-locked cudaMallocHost when
/// `pinned` and CUDA is built, else aligned new). Movable, not copyable.
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::size_t bytes, MemorySpace space, bool pinned = false);
  /// Device memory ordered on `stream` (cudaMallocAsync / cudaFreeAsync): no device-wide
  /// synchronization, for scratch that lives as long as one call on a hot path.
  static Buffer on_stream(std::size_t bytes, StreamHandle stream);
  Buffer(Buffer&&) noexcept;
  Buffer& operator=(Buffer&&) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  void* data() const { return m_data; }
  std::size_t bytes() const { return m_bytes; }
  MemorySpace space() const { return m_space; }

 private:
  void release() noexcept;
  void* m_data = nullptr;
  std::size_t m_bytes = 0;
  MemorySpace m_space = MemorySpace::host;
  bool m_pinned = false;
  bool m_stream_ordered = false;
  StreamHandle m_stream = nullptr;
};

/// Copies `bytes` between any two spaces; blocks until done. A copy involving the device first
/// waits for all work queued on the device (every stream), then copies on a stream of its own.
void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes);
/// Asynchronous on `stream` where a device is involved (host memory must be pinned to overlap).
void copy_bytes_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                      std::size_t bytes, StreamHandle stream);
/// Sets `bytes` of device memory to the byte `value`, asynchronously on `stream`.
void fill_device_bytes(void* dst, int value, std::size_t bytes, StreamHandle stream);
/// Sets `bytes` of device memory to 0; blocks until done (on a stream of its own, not the legacy
/// default stream).
void zero_device_bytes(void* dst, std::size_t bytes);
/// Blocks until all work queued on `stream` has finished.
void synchronize(StreamHandle stream);
/// The same for work on fields of `space`: host work has already finished (and a CUDA build on a
/// machine without a GPU must not call the runtime for it).
inline void synchronize(MemorySpace space, StreamHandle stream) {
  if (space == MemorySpace::device) synchronize(stream);
}

/// A non-blocking CUDA stream owned for its lifetime. A high-priority stream's blocks are
/// scheduled ahead of waiting blocks of normal streams (small halo work beside a big kernel).
class Stream {
 public:
  explicit Stream(bool high_priority = false);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  StreamHandle get() const { return m_stream; }

 private:
  StreamHandle m_stream = nullptr;
};

/// A CUDA event (timing enabled) owned for its lifetime.
class Event {
 public:
  Event();
  ~Event();
  Event(Event&&) noexcept;
  Event& operator=(Event&&) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(StreamHandle stream);
  /// Blocks until the work before the last record() has finished.
  void synchronize() const;
  /// Milliseconds between two recorded, completed events.
  static float elapsed_ms(const Event& start, const Event& stop);
  /// Work queued on `stream` from now on waits until the last record() has completed.
  void make_wait(StreamHandle stream) const;

 private:
  ::CUevent_st* m_event = nullptr;
};

/// Device time spent between start() and stop() on a stream, summed over many intervals without
/// synchronizing each one: event pairs are kept and read back by seconds() (which blocks).
class DeviceIntervalTimer {
 public:
  void start(StreamHandle stream);
  void stop(StreamHandle stream);
  /// Total seconds of all completed intervals so far.
  double seconds();

 private:
  void harvest();
  std::vector<Event> m_events;  // start, stop, start, stop, ...
  std::size_t m_used = 0;
  double m_seconds = 0;
};

}  // namespace gridflow::mesh
