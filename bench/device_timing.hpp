#pragma once
// Timing helpers shared by the benchmark drivers: medians of CUDA-event timings after a warm-up,
// and the device's copy bandwidth (the memory roof) measured in the same run.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "mesh/device.hpp"

namespace gridflow::bench {

/// Median seconds of `repeats` timings of run() on `stream`, after one untimed warm-up.
template <class F>
double time_median(int repeats, StreamHandle stream, F&& run) {
  mesh::Event start, stop;
  run();
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    start.record(stream);
    run();
    stop.record(stream);
    stop.synchronize();
    t.push_back(1e-3 * mesh::Event::elapsed_ms(start, stop));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Median seconds per call of `repeats` timings of `calls` back-to-back calls of run(): with more
/// than one, the host's launch of each call overlaps the device's work on the one before, so the
/// figure is the device's time per call rather than a lone launch's (which counts the gap between
/// the start event and the kernel's arrival).
template <class F>
double time_median_per_call(int repeats, int calls, StreamHandle stream, F&& run) {
  return time_median(repeats, stream, [&] {
           for (int c = 0; c < calls; ++c) run();
         }) /
         calls;
}

/// Bytes per second of a device-to-device copy of `bytes`, counting bytes read plus written
/// (`calls` back-to-back copies per timing, as time_median_per_call).
inline double copy_bandwidth(std::size_t bytes, int repeats, StreamHandle stream, int calls = 1) {
  mesh::Buffer a(bytes, mesh::MemorySpace::device), b(bytes, mesh::MemorySpace::device);
  mesh::fill_device_bytes(a.data(), 1, bytes, stream);
  const double s = time_median_per_call(repeats, calls, stream, [&] {
    mesh::copy_bytes_async(b.data(), mesh::MemorySpace::device, a.data(), mesh::MemorySpace::device, bytes, stream);
  });
  return 2.0 * static_cast<double>(bytes) / s;
}

}  // namespace gridflow::bench
