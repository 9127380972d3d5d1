// launch_onchip_fft: batches of complex transforms of length 2..4096, each done whole in one block's
// registers and shared memory (flow_graph_onchip.cuh), one read and one write of global memory.
//
// A block takes `lines` lines. Its threads are arranged by the input layout: neighbouring threads
// take neighbouring elements of one line when a line's elements are closer than its neighbour
// lines (stride 1: contiguous lines), or the same element of neighbouring lines otherwise
// (distance 1: interleaved lines, the column pass of a four-step transform). Loads go straight into
// registers; when the output prefers the other arrangement (the row pass writing transposed), the
// result is restaged through shared memory and written by the threads rearranged.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kernels/fft/flow_graph_cuda.hpp"
#include "kernels/fft/flow_graph_lines_cuda.hpp"
#include "kernels/fft/flow_graph_onchip.cuh"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace onchip {

template <class T>
const Complex<T>* twiddle_table() {
  constexpr int max_devices = 64;
  static std::mutex mutex;
  static std::array<Complex<T>*, max_devices> tables{};
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  GRIDFLOW_REQUIRE(device < max_devices, "device " + std::to_string(device) + " beyond the twiddle tables' 64");
  const std::lock_guard<std::mutex> lock(mutex);
  if (!tables[device]) {
    std::vector<Complex<T>> host(twiddle_table_length);
    for (int length = 1; length < twiddle_table_length; length *= 2)
      for (int m = 0; m < length; ++m) {
        const long double angle = -2.0L * 3.141592653589793238462643383279502884L * m / length;
        host[length + m] = {static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle))};
      }
    Complex<T>* table = nullptr;
    GRIDFLOW_CUDA_CHECK(cudaMalloc(&table, host.size() * sizeof(Complex<T>)));
    GRIDFLOW_CUDA_CHECK(cudaMemcpy(table, host.data(), host.size() * sizeof(Complex<T>), cudaMemcpyHostToDevice));
    tables[device] = table;  // kept for the process: kernels of any stream may still read it
  }
  return tables[device];
}
template const Complex<float>* twiddle_table<float>();
template const Complex<double>* twiddle_table<double>();

}  // namespace onchip

namespace {

using onchip::SharedLine;

/// The kernel's view of an OnChipShape, resolved once on the host.
struct OnChipArgs {
  OnChipShape shape;
  int lines;            // lines per block
  bool inverse;         // conjugate on load and store
  bool line_fastest;    // thread arrangement of the load and the transform
  bool restage_output;  // the store takes the other arrangement, through shared memory
};

/// exp(sign 2 pi i m / L), m = (i k) mod L, the four-step twiddle; m / L exact for L a power of two.
template <class T>
__device__ __forceinline__ Complex<T> four_step_twiddle(std::int64_t line_in_group, std::int64_t k, std::int64_t length, bool inverse) {
  const std::int64_t m = (line_in_group * k) & (length - 1);
  T s, c;
  if constexpr (std::is_same_v<T, float>) sincospif(static_cast<float>(2.0 * static_cast<double>(m) / static_cast<double>(length)), &s, &c);
  else sincospi(2.0 * static_cast<double>(m) / static_cast<double>(length), &s, &c);
  return {c, inverse ? s : -s};
}

/// Elements between neighbouring lines in each plane when the result is restaged for the store:
/// the padding puts the threads of the line-fastest side (neighbouring lines, same element) on
/// different banks.
template <class T>
__host__ __device__ constexpr int restage_pitch(int n, int lines) {
  constexpr int per_128_bytes = 128 / static_cast<int>(sizeof(T));
  return n + (lines >= per_128_bytes ? 1 : per_128_bytes / lines);
}

template <class T>
std::size_t restage_shared_bytes(int n, int lines) {
  return 2 * static_cast<std::size_t>(lines) * restage_pitch<T>(n, lines) * sizeof(T);
}

template <class T, int N, int R, int P>
__global__ void __launch_bounds__(onchip::max_block_threads<T, R>) onchip_fft_kernel(const Complex<T>* in, Complex<T>* out, const OnChipArgs a, const Complex<T>* table) {
  extern __shared__ unsigned char shared_bytes[];
  constexpr int threads_per_line = N / R;
  T* planes = reinterpret_cast<T*>(shared_bytes);
  const int plane = onchip::plane_elements<T>(a.lines, N);

  int l, t;
  onchip::arrange(threadIdx.x, a.lines, threads_per_line, a.line_fastest, l, t);
  const SharedLine<T> line{planes, planes + plane, l, a.lines, N, a.line_fastest};
  const std::int64_t first_line = static_cast<std::int64_t>(blockIdx.x) * a.lines;

  const OnChipShape& shape = a.shape;
  Complex<T> x[R];
  {
    const std::int64_t b = first_line + l;
    const bool valid = b < shape.batch;
    const Complex<T>* p = in + (valid ? shape.line(b).in : 0);
#pragma unroll
    for (int q = 0; q < R; ++q) {
      x[q] = valid ? onchip::load(p + (t + q * threads_per_line) * shape.in_stride) : Complex<T>{T(0), T(0)};
      if (a.inverse) x[q].im = -x[q].im;
    }
  }

  onchip::fft_passes<N, R, P>(x, t, line, table);

  if (a.restage_output) {
    // Into the store's arrangement through the planes, line after line (the transform read its
    // last values from them before its final radix pass, behind a __syncthreads()).
    const int pitch = restage_pitch<T>(N, a.lines);
    T* re = planes;
    T* im = planes + a.lines * pitch;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const int e = l * pitch + t + q * threads_per_line;
      re[e] = x[q].re;
      im[e] = x[q].im;
    }
    __syncthreads();
    onchip::arrange(threadIdx.x, a.lines, threads_per_line, !a.line_fastest, l, t);
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const int e = l * pitch + t + q * threads_per_line;
      x[q] = {re[e], im[e]};
    }
  }
  const std::int64_t b = first_line + l;
  if (b >= shape.batch) return;
  const OnChipShape::Line where = shape.line(b);
  const std::int64_t i = where.inner;
  Complex<T>* p = out + where.out;
  // The four-step twiddle of element k = t + q N/R as W^{i t} (W^{i N/R})^q: two sines and cosines
  // per thread, then a product per element (rounding grows with q <= 16, far inside float's budget).
  Complex<T> w{T(1), T(0)}, step{T(1), T(0)};
  if (shape.twiddle_length) {
    w = four_step_twiddle<T>(i, t, shape.twiddle_length, a.inverse);
    step = four_step_twiddle<T>(i, threads_per_line, shape.twiddle_length, a.inverse);
  }
#pragma unroll
  for (int q = 0; q < R; ++q) {
    Complex<T> y = x[q];
    if (a.inverse) y.im = -y.im;
    if (shape.twiddle_length) {
      y = onchip::cmul(y, w);
      w = onchip::cmul(w, step);
    }
    onchip::store(p + (t + q * threads_per_line) * shape.out_stride, y);
  }
}

template <class T>
void check_shape(const OnChipShape& s, const FlowGraphTunables& tunables) {
  // Messages are built only on failure: this runs on every launch, and short batches are
  // launch-bound.
  const auto shape = [&] { return "on-chip FFT of length " + std::to_string(s.n) + " x " + std::to_string(s.batch) + ": "; };
  GRIDFLOW_REQUIRE(tunables.kernel == FlowGraphTunables::Kernel::onchip, shape() + "the tunables name another kernel than onchip");
  GRIDFLOW_REQUIRE(s.n >= 2 && s.n <= max_onchip_length<T>() && (s.n & (s.n - 1)) == 0,
                   shape() + "the length must be a power of two in 2.." + std::to_string(max_onchip_length<T>()));
  GRIDFLOW_REQUIRE(s.batch >= 1, shape() + "the batch must be at least 1");
  GRIDFLOW_REQUIRE(s.inner_lines >= 1 && s.mid_lines >= 1 && s.batch % (s.inner_lines * s.mid_lines) == 0,
                   shape() + "inner_lines " + std::to_string(s.inner_lines) + " and mid_lines " + std::to_string(s.mid_lines) +
                       " must be >= 1 and their product divide the batch");
  GRIDFLOW_REQUIRE(s.sign == -1 || s.sign == 1, shape() + "sign " + std::to_string(s.sign) + " is not -1 or +1");
  GRIDFLOW_REQUIRE(s.twiddle_length >= 0 && (s.twiddle_length & (s.twiddle_length - 1)) == 0,
                   shape() + "twiddle_length must be 0 or a power of two");
  GRIDFLOW_REQUIRE(tunables.radix == 2 || tunables.radix == 4 || tunables.radix == 8 || tunables.radix == 16,
                   shape() + "radix " + std::to_string(tunables.radix) + " is not 2, 4, 8 or 16");
  GRIDFLOW_REQUIRE(tunables.lines_per_block >= 0, shape() + "lines_per_block must be >= 0");
  GRIDFLOW_REQUIRE(tunables.planes >= 0 && tunables.planes <= 2, shape() + "planes " + std::to_string(tunables.planes) + " is not 0, 1 or 2");
  GRIDFLOW_REQUIRE(!tunables.staged || tunables.planes, shape() + "staged loads need the contiguous-lines kernel (planes 1 or 2)");
}

struct DeviceLimits {
  int sms = 0;
  int shared_optin = 0;
};

DeviceLimits device_limits() {
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  DeviceLimits d;
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device));
  GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&d.shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return d;
}

template <class T, int N, int P>
void launch(const Complex<T>* in, Complex<T>* out, OnChipArgs args, const Complex<T>* table, StreamHandle stream) {
  constexpr int R = onchip::registers_per_thread(N, P);
  const auto kernel = onchip_fft_kernel<T, N, R, P>;
  static const int max_threads = onchip::max_threads_per_block(reinterpret_cast<const void*>(kernel));
  // Where either side is read or written across lines (a column pass, or a pass storing
  // transposed), a block takes enough lines to fill whole 128-byte lines of memory, as far as 512
  // threads allow, and 32-byte sectors at least. On an H100 (bench/results/fft_bench_h100.json,
  // 16 x 2^20 float) blocks of 1024 threads ran such passes about 10% slower than 512.
  const bool across_lines = args.line_fastest || args.restage_output;
  const int min_lines =
      across_lines ? std::max(onchip::sector_lines<Complex<T>>(), std::min(onchip::cache_line_lines<Complex<T>>(), 512 / (N / R)))
                   : 1;
  if (args.lines == 0)
    args.lines = onchip::default_lines_per_block(N, R, min_lines, args.shape.batch, onchip::block_shared_bytes<T>(1, N),
                                                 max_threads);
  const int threads = args.lines * (N / R);
  GRIDFLOW_REQUIRE(threads <= max_threads, "on-chip FFT of length " + std::to_string(N) + ": " + std::to_string(args.lines) +
                                               " lines per block at radix " + std::to_string(P) + " need " +
                                               std::to_string(threads) + " threads, more than the kernel's " +
                                               std::to_string(max_threads) + " (registers)");
  const std::size_t shared = std::max(onchip::block_shared_bytes<T>(args.lines, N),
                                      args.restage_output ? restage_shared_bytes<T>(N, args.lines) : 0);
  GRIDFLOW_REQUIRE(shared <= onchip::shared_limit(),
                   "on-chip FFT of length " + std::to_string(N) + ": " + std::to_string(args.lines) + " lines per block need " +
                       std::to_string(shared) + " bytes of shared memory, more than the device's " +
                       std::to_string(onchip::shared_limit()));
  onchip::allow_shared_bytes(reinterpret_cast<const void*>(kernel), shared);
  const std::int64_t blocks = (args.shape.batch + args.lines - 1) / args.lines;
  GRIDFLOW_REQUIRE(blocks <= 0x7fffffff, "on-chip FFT: " + std::to_string(blocks) + " blocks exceed the grid");
  kernel<<<static_cast<unsigned>(blocks), threads, shared, stream>>>(in, out, args, table);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

namespace onchip {

void allow_shared_bytes(const void* kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  // The opt-in is per kernel and device; a driver call on every launch would cost a microsecond.
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, std::size_t> allowed;
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  std::size_t& done = allowed[{kernel, device}];
  if (bytes <= done) return;
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  done = bytes;
}

int max_threads_per_block(const void* kernel) {
  cudaFuncAttributes attributes{};
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return attributes.maxThreadsPerBlock;
}

int default_lines_per_block(int n, int registers, int min_lines, std::int64_t batch, std::size_t shared_per_line,
                            int max_threads) {
  static const DeviceLimits limits = device_limits();
  const int threads_per_line = n / registers;
  // Small blocks won on an H100 (bench/results/fft_bench_h100.json: the best variants ran 32 to 64
  // threads per block up to length 256, 128 to 256 beyond): a block waits at every exchange for
  // its slowest warp, and small blocks overlap one another's loads, passes and stores.
  const int target_threads = n <= 256 ? 64 : 128;
  int lines = std::max(1, target_threads / threads_per_line);
  // At most half the shared memory per block, where the coalescing minimum allows.
  while (lines > min_lines && lines * shared_per_line > std::size_t(limits.shared_optin) / 2) lines /= 2;
  // Enough blocks to fill the device before lines are packed into blocks.
  while (lines > min_lines && (batch + lines - 1) / lines < 2 * limits.sms) lines /= 2;
  return std::max(1, std::min(std::max(lines, min_lines), max_threads / threads_per_line));
}

std::size_t shared_limit() {
  static const DeviceLimits limits = device_limits();
  return static_cast<std::size_t>(limits.shared_optin);
}

}  // namespace onchip

template <class T>
std::int64_t max_onchip_length() {
  return std::int64_t(1) << onchip::max_log2_length;
}

bool onchip_lines_take(const OnChipShape& s) {
  if (s.in_stride != 1 || s.out_stride != 1 || s.twiddle_length != 0) return false;
  if (s.batch <= 1) return true;
  // Line b at b * step on a side: each level with more than one line a whole number of the level below.
  const auto evenly_spaced = [&](std::int64_t step, std::int64_t distance, std::int64_t mid, std::int64_t outer) {
    if (step < s.n) return false;
    if (s.inner_lines > 1 && distance != step) return false;
    if (s.mid_lines > 1 && mid != s.inner_lines * step) return false;
    return s.batch <= s.inner_lines * s.mid_lines || outer == s.inner_lines * s.mid_lines * step;
  };
  return evenly_spaced(s.in_line_step(), s.in_distance, s.in_mid_distance, s.in_outer_distance) &&
         evenly_spaced(s.out_line_step(), s.out_distance, s.out_mid_distance, s.out_outer_distance);
}

template <class T>
void launch_onchip_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape, const FlowGraphTunables& tunables,
                       StreamHandle stream) {
  check_shape<T>(shape, tunables);
  if (tunables.planes != 0 && onchip_lines_take(shape)) return launch_onchip_lines_fft<T>(in, out, shape, tunables, stream);
  const int n = static_cast<int>(shape.n);
  const int radix = std::min(tunables.radix, n);
  const bool in_line_fastest = std::abs(shape.in_line_step()) < std::abs(shape.in_stride);
  const bool out_line_fastest = std::abs(shape.out_line_step()) < std::abs(shape.out_stride);
  const OnChipArgs args{shape, tunables.lines_per_block, shape.sign == 1, in_line_fastest, in_line_fastest != out_line_fastest};
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  const Complex<T>* table = tunables.twiddle_table ? onchip::twiddle_table<T>() : nullptr;
  onchip::dispatch_length_and_radix(log2n, radix, [&](auto length, auto pass_radix) {
    launch<T, decltype(length)::value, decltype(pass_radix)::value>(in, out, args, table, stream);
  });
}

template std::int64_t max_onchip_length<float>();
template std::int64_t max_onchip_length<double>();
template void launch_onchip_fft<float>(const Complex<float>*, Complex<float>*, const OnChipShape&, const FlowGraphTunables&,
                                       StreamHandle);
template void launch_onchip_fft<double>(const Complex<double>*, Complex<double>*, const OnChipShape&,
                                        const FlowGraphTunables&, StreamHandle);

}  // namespace gridflow::kernels::fft
