#pragma once
// Host-side sizing shared by the launchers of on-chip transform kernels (launch_onchip_fft and the
// fused DST-I lines): shared memory per block, the opt-in above 48 KB, the default lines per block.
// Defined in flow_graph_onchip_cuda.cu; no CUDA syntax.
#include <cstddef>
#include <cstdint>

#include "mesh/host_device.hpp"

namespace gridflow::kernels::fft::onchip {

/// Elements of one shared plane (real or imaginary parts) for `lines` lines of length n: one word
/// of padding per 128 bytes (flow_graph_onchip.cuh, SharedLine).
template <class T>
GRIDFLOW_HOST_DEVICE inline int plane_elements(int lines, int n) {
  constexpr int pad_shift = sizeof(T) == 4 ? 5 : 4;
  return lines * n + ((lines * n - 1) >> pad_shift) + 1;
}

/// Values each thread holds for a transform of length n at pass radix `radix`: the radix, or more
/// where a block of 1024 threads could not hold one line otherwise (radix 2 at length 4096).
constexpr int registers_per_thread(int n, int radix) { return radix > n / 1024 ? radix : n / 1024; }

/// Dynamic shared memory of a block transforming `lines` lines of length n.
template <class T>
std::size_t block_shared_bytes(int lines, int n) {
  return 2 * static_cast<std::size_t>(plane_elements<T>(lines, n)) * sizeof(T);
}

/// Lets `kernel` take `bytes` of dynamic shared memory (the opt-in attribute above 48 KB).
void allow_shared_bytes(const void* kernel, std::size_t bytes);

/// The device's largest dynamic shared memory per block (opted in).
std::size_t shared_limit();

/// The most threads a block of `kernel` may have (its registers considered).
int max_threads_per_block(const void* kernel);

/// Lines whose elements of type E, side by side, fill a 32-byte sector: the fewest interleaved
/// lines (neighbouring threads taking neighbouring lines) that coalesce.
template <class E>
constexpr int sector_lines() {
  return sizeof(E) >= 32 ? 1 : static_cast<int>(32 / sizeof(E));
}

/// Lines whose elements of type E, side by side, fill a 128-byte cache line: the lines a block of
/// a column pass (or a pass storing transposed) takes by default.
template <class E>
constexpr int cache_line_lines() {
  return sizeof(E) >= 128 ? 1 : static_cast<int>(128 / sizeof(E));
}

/// Lines per block when the tunables leave it 0 (threads per line: n / registers): 64 threads
/// up to length 256 and 128 beyond (or one line), at most half the device's shared memory per
/// block and two blocks per multiprocessor where the batch allows, never fewer than min_lines
/// unless max_threads (the kernel's, registers considered) forbids.
int default_lines_per_block(int n, int registers, int min_lines, std::int64_t batch, std::size_t shared_per_line,
                            int max_threads);

}  // namespace gridflow::kernels::fft::onchip
