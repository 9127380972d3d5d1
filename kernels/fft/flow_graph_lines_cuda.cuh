#pragma once
// The contiguous-lines on-chip FFT kernel and its launcher (flow_graph_lines_cuda.hpp), included by
// flow_graph_lines_float.cu and flow_graph_lines_double.cu, one precision each so that the two
// compile side by side.
//
// Thread t of a line holds x[t + q N/R], q = 0..R-1, as the onchip kernel (flow_graph_onchip.cuh):
// the first Stockham pass reads them straight from global memory (or from the staged copy), the
// last one leaves X[t + q N/R] in the same registers, stored straight to global memory; a warp's
// loads and stores of one q cover consecutive elements. In between, each exchange writes pass
// output (s, k) of butterfly v = t + s N/R to index i = (v / Ns) Ns r + v mod Ns + k Ns of the line
// and reads index t + q N/R back, through a plane padded by one word per 128 bytes
// (p(i) = i + i / W, W = 128 / sizeof(T)). Because Ns, r and N/R are powers of two,
// p(i(v, k)) = p(i(v, 0)) + k Ns + floor(k Ns / W) and p(t + q N/R) = p(t) + q N/R + floor(q N/R / W):
// one index computation per butterfly (per thread for the reads), the rest immediate offsets.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "kernels/fft/flow_graph_cuda.hpp"
#include "kernels/fft/flow_graph_lines_cuda.hpp"
#include "kernels/fft/flow_graph_onchip.cuh"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace lines_detail {

/// The kernel's view of a launch, resolved on the host.
struct LinesArgs {
  std::int64_t batch;         // lines in all
  std::int64_t in_distance;   // elements between neighbouring lines' starts, input
  std::int64_t out_distance;  // and output
  int lines;                  // per block
  int line_blocks;            // ceil(batch / lines)
  bool two_planes;            // real and imaginary parts exchanged at once
  bool staged;                // prefetch the next line block into shared memory (cp.async)
  bool chunked;               // staged in 16-byte chunks (float: two values), read after a barrier
  bool inverse;               // conjugate on load and on store
};

template <bool IM, class T>
__device__ __forceinline__ T& part(Complex<T>& c) {
  if constexpr (IM) return c.im;
  else return c.re;
}

/// One exchange after a pass of radix RP at stride NS: pass output (s, k), held in x[s + k S], goes
/// to its Stockham place; x[q] comes back as the next pass's input t + q N/R. Planes `re` and `im`
/// (the same plane when one) start at this line's first element. Synchronises the block.
template <int N, int R, int RP, int NS, class T>
__device__ __forceinline__ void exchange(Complex<T> (&x)[R], unsigned t, T* re, T* im, bool two_planes) {
  constexpr unsigned TPL = N / R, S = R / RP, W = 128 / sizeof(T);
  unsigned write_at[S];
#pragma unroll
  for (unsigned s = 0; s < S; ++s) {
    const unsigned v = t + s * TPL;
    const unsigned g = (v / NS) * (NS * RP) + v % NS;
    write_at[s] = g + g / W;
  }
  const unsigned read_at = t + (TPL >= W ? t / W : 0u);
  const auto write = [&](auto im_, T* plane) {
    constexpr bool IM = decltype(im_)::value;
    onchip::static_for<0, R>([&](auto q_) {
      constexpr unsigned q = decltype(q_)::value, s = q % S, k = q / S;
      plane[write_at[s] + (k * NS + k * NS / W)] = part<IM>(x[q]);
    });
  };
  const auto read = [&](auto im_, const T* plane) {
    constexpr bool IM = decltype(im_)::value;
    onchip::static_for<0, R>([&](auto q_) {
      constexpr unsigned q = decltype(q_)::value;
      part<IM>(x[q]) = plane[read_at + (q * TPL + q * TPL / W)];
    });
  };
  using Re = std::integral_constant<bool, false>;
  using Im = std::integral_constant<bool, true>;
  if (two_planes) {
    write(Re{}, re);
    write(Im{}, im);
    __syncthreads();
    read(Re{}, re);
    read(Im{}, im);
    __syncthreads();
  } else {
    write(Re{}, re);
    __syncthreads();
    read(Re{}, re);
    __syncthreads();
    write(Im{}, re);
    __syncthreads();
    read(Im{}, re);
    __syncthreads();
  }
}

/// The roots a pass of radix RP at stride NS > 1 needs from thread t: W_{NS RP}^{v mod NS} of each
/// of its butterflies v = t + s N/R.
template <int N, int R, int RP, int NS, class T>
__device__ __forceinline__ void pass_roots(Complex<T> (&w)[R / RP], unsigned t, const Complex<T>* table) {
  constexpr unsigned TPL = N / R;
#pragma unroll
  for (unsigned s = 0; s < R / RP; ++s) w[s] = onchip::root<NS * RP>(static_cast<int>((t + s * TPL) % NS), table);
}

/// One Stockham pass of radix RP at stride NS on thread t's registers, given its roots (NS > 1).
template <int R, int RP, int NS, class T>
__device__ __forceinline__ void pass(Complex<T> (&x)[R], const Complex<T> (&w)[R / RP]) {
  constexpr int S = R / RP;
  onchip::static_for<0, S>([&](auto s_) {
    constexpr int s = decltype(s_)::value;
    Complex<T> a[RP];
#pragma unroll
    for (int k = 0; k < RP; ++k) a[k] = x[s + k * S];
    if constexpr (NS > 1) {
      // Powers of the root with a rounding depth of log2(RP), each applied as soon as it is made.
      Complex<T> p[RP];
      p[1] = w[s];
      a[1] = onchip::cmul(a[1], p[1]);
#pragma unroll
      for (int k = 2; k < RP; ++k) {
        p[k] = onchip::cmul(p[k / 2], p[k - k / 2]);
        a[k] = onchip::cmul(a[k], p[k]);
      }
    }
    onchip::dft<RP>(a);
#pragma unroll
    for (int k = 0; k < RP; ++k) x[s + k * S] = a[k];
  });
}

/// The passes from stride NS on (radix P, the last one smaller where needed); `w` holds this pass's
/// roots. The next pass's roots are read before the exchange, so that their latency passes under
/// its barriers.
template <int N, int R, int P, int NS, class T>
__device__ __forceinline__ void passes(Complex<T> (&x)[R], const Complex<T> (&w)[R / (N / NS >= P ? P : N / NS)], unsigned t,
                                       T* re, T* im, bool two_planes, const Complex<T>* table) {
  constexpr int RP = N / NS >= P ? P : N / NS;
  pass<R, RP, NS>(x, w);
  if constexpr (NS * RP < N) {
    constexpr int NS2 = NS * RP, RP2 = N / NS2 >= P ? P : N / NS2;
    Complex<T> w2[R / RP2];
    pass_roots<N, R, RP2, NS2>(w2, t, table);
    exchange<N, R, RP, NS>(x, t, re, im, two_planes);
    passes<N, R, P, NS2>(x, w2, t, re, im, two_planes, table);
  }
}

template <class T, int N, int R>
inline constexpr int max_threads = onchip::lines_max_threads(N, R);

template <class T, int N, int R, int P>
__global__ void __launch_bounds__(max_threads<T, N, R>)
    lines_kernel(const Complex<T>* in, Complex<T>* out, const LinesArgs a,
                 const Complex<T>* __restrict__ table) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  constexpr unsigned TPL = N / R;
  constexpr int pitch = onchip::lines_pitch<T>(N);
  const unsigned l = threadIdx.x / TPL, t = threadIdx.x % TPL;
  T* const planes = reinterpret_cast<T*>(shared_bytes);
  T* const re = planes + l * pitch;
  T* const im = a.two_planes ? re + a.lines * pitch : re;
  // The staged copy: line after line, unpadded. A thread copies its own elements (then neither
  // side needs a barrier) or, chunked, 16-byte pairs of its line's elements (a float thread's own
  // elements are 8 bytes apart from its neighbours': cp.async moves 16 bytes at best), read after a
  // barrier and overwritten after another.
  Complex<T>* const stage =
      reinterpret_cast<Complex<T>*>(shared_bytes + (onchip::lines_shared_bytes<T>(a.lines, N, a.two_planes ? 2 : 1, false))) +
      l * N;
  const T sign = a.inverse ? T(-1) : T(1);

  const auto copy_async = [&](int block) {
    const std::int64_t b = static_cast<std::int64_t>(block) * a.lines + l;
    if (block < a.line_blocks && b < a.batch) {
      const Complex<T>* p = in + b * a.in_distance;
      if constexpr (sizeof(Complex<T>) == 8 && R >= 2) {
        if (a.chunked) {
#pragma unroll
          for (unsigned i = 0; i < R / 2; ++i) {
            const unsigned c = 2 * (t + i * TPL);
            __pipeline_memcpy_async(stage + c, p + c, 16);
          }
          __pipeline_commit();
          return;
        }
      }
#pragma unroll
      for (unsigned q = 0; q < R; ++q) __pipeline_memcpy_async(stage + t + q * TPL, p + t + q * TPL, sizeof(Complex<T>));
    }
    __pipeline_commit();
  };
  if (a.staged) copy_async(blockIdx.x);

  for (int block = blockIdx.x; block < a.line_blocks; block += gridDim.x) {
    const std::int64_t b = static_cast<std::int64_t>(block) * a.lines + l;
    const bool valid = b < a.batch;
    Complex<T> x[R];
    if (a.staged) {
      __pipeline_wait_prior(0);
      if (a.chunked) __syncthreads();  // every chunk of the line block landed
#pragma unroll
      for (unsigned q = 0; q < R; ++q) x[q] = stage[t + q * TPL];
      if (a.chunked) __syncthreads();  // every value read before the next copy overwrites them
      copy_async(block + gridDim.x);
    } else {
      const Complex<T>* p = in + (valid ? b * a.in_distance : 0) + t;
#pragma unroll
      for (int q = 0; q < R; ++q) x[q] = valid ? onchip::load(p + q * TPL) : Complex<T>{T(0), T(0)};
    }
#pragma unroll
    for (int q = 0; q < R; ++q) x[q].im *= sign;

    const Complex<T> none[R / P] = {};
    passes<N, R, P, 1>(x, none, t, re, im, a.two_planes, table);

    if (valid) {
      Complex<T>* p = out + b * a.out_distance + t;
#pragma unroll
      for (int q = 0; q < R; ++q) onchip::store(p + q * TPL, Complex<T>{x[q].re, x[q].im * sign});
    }
    // The next line block's first exchange writes the planes: every thread has read them (the
    // exchange's last barrier), so no further barrier is needed.
  }
}

/// Per device and kernel configuration: how many blocks of it fit on a multiprocessor, and the
/// device's multiprocessors (for the staged form's persistent grid).
inline int resident_blocks(const void* kernel, int threads, std::size_t shared) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, std::size_t, int>, int> known;
  int device = 0;
  GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = known.try_emplace({kernel, threads, shared, device}, 0);
  if (fresh) {
    int per_sm = 0, sms = 0;
    GRIDFLOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
    GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    it->second = std::max(1, per_sm) * sms;
  }
  return it->second;
}

template <class T, int N, int P>
void launch(const Complex<T>* in, Complex<T>* out, LinesArgs args, const Complex<T>* table, StreamHandle stream) {
  constexpr int R = onchip::registers_per_thread(N, P), threads_per_line = N / R;
  const auto kernel = lines_kernel<T, N, R, P>;
  static const int kernel_threads = onchip::max_threads_per_block(reinterpret_cast<const void*>(kernel));
  const int planes = args.two_planes ? 2 : 1;
  if (args.lines == 0) {
    // About 128 threads per block (small blocks overlap one another's loads, passes and stores),
    // but enough blocks to fill the device twice where the batch is short.
    static const int sms = [] {
      int device = 0, count = 0;
      GRIDFLOW_CUDA_CHECK(cudaGetDevice(&device));
      GRIDFLOW_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
      return count;
    }();
    args.lines = std::max(1, 128 / threads_per_line);
    while (args.lines > 1 && (args.batch + args.lines - 1) / args.lines < 2 * sms) args.lines /= 2;
  }
  const int threads = args.lines * threads_per_line;
  GRIDFLOW_REQUIRE(threads <= kernel_threads,
                   "on-chip FFT (contiguous lines) of length " + std::to_string(N) + ": " + std::to_string(args.lines) +
                       " lines per block at radix " + std::to_string(P) + " need " + std::to_string(threads) +
                       " threads, more than the kernel's " + std::to_string(kernel_threads));
  const std::size_t shared = onchip::lines_shared_bytes<T>(args.lines, N, planes, args.staged);
  GRIDFLOW_REQUIRE(shared <= onchip::shared_limit(), "on-chip FFT (contiguous lines) of length " + std::to_string(N) +
                                                         ": " + std::to_string(args.lines) + " lines per block need " +
                                                         std::to_string(shared) + " bytes of shared memory, more than the device's " +
                                                         std::to_string(onchip::shared_limit()));
  onchip::allow_shared_bytes(reinterpret_cast<const void*>(kernel), shared);
  const std::int64_t line_blocks = (args.batch + args.lines - 1) / args.lines;
  GRIDFLOW_REQUIRE(line_blocks <= 0x7fffffff, "on-chip FFT: " + std::to_string(line_blocks) + " blocks exceed the grid");
  args.line_blocks = static_cast<int>(line_blocks);
  int grid = args.line_blocks;
  if (args.staged) grid = std::min(grid, resident_blocks(reinterpret_cast<const void*>(kernel), threads, shared));
  lines_kernel<T, N, R, P><<<static_cast<unsigned>(grid), threads, shared, stream>>>(in, out, args, table);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace lines_detail

template <class T>
void launch_onchip_lines_fft(const Complex<T>* in, Complex<T>* out, const OnChipShape& shape,
                             const FlowGraphTunables& tunables, StreamHandle stream) {
  GRIDFLOW_REQUIRE(onchip_lines_take(shape), "on-chip FFT of length " + std::to_string(shape.n) +
                                                 ": the contiguous-lines kernel needs unit strides and evenly spaced lines");
  GRIDFLOW_REQUIRE(tunables.planes == 1 || tunables.planes == 2,
                   "on-chip FFT: planes " + std::to_string(tunables.planes) + " is not 1 or 2");
  const int n = static_cast<int>(shape.n);
  const int radix = std::min(tunables.radix, n);
  lines_detail::LinesArgs args{shape.batch,
                               shape.batch > 1 ? shape.in_line_step() : shape.n,
                               shape.batch > 1 ? shape.out_line_step() : shape.n,
                               tunables.lines_per_block,
                               0,
                               tunables.planes == 2,
                               tunables.staged,
                               false,
                               shape.sign == 1};
  // 16-byte chunks where the lines start on 16 bytes (two float values, line distances even).
  args.chunked = tunables.staged && sizeof(Complex<T>) == 8 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                 (shape.batch == 1 || args.in_distance % 2 == 0);
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  const Complex<T>* table = tunables.twiddle_table ? onchip::twiddle_table<T>() : nullptr;
  onchip::dispatch_length_and_radix(log2n, radix, [&](auto length, auto pass_radix) {
    lines_detail::launch<T, decltype(length)::value, decltype(pass_radix)::value>(in, out, args, table, stream);
  });
}

}  // namespace gridflow::kernels::fft
