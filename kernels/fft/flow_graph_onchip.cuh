#pragma once
// The block-level on-chip FFT (CUDA only): the building blocks of launch_onchip_fft
// (flow_graph_onchip_cuda.cu) and of fused kernels that transform lines on chip (the DST-I lines of
// dst1_onchip_cuda.cu).
//
// A line of N = 2^L complex values is held by N / R threads with R values each in registers.
// Thread t holds x[t + q N/R], q = 0..R-1, before and after the transform (natural order both
// times), so a thread group reading or writing consecutive t touches consecutive elements. In
// between, Stockham radix passes (Govindaraju et al., SC08): pass p of radix r (R, and a last
// smaller one when L is not a multiple of log2 R) works on butterflies v = t + s N/R, reading
// x[v + k N/r], multiplying by W_{Ns r}^{(v mod Ns) k} and writing its DFT_r to
// (v / Ns) Ns r + (v mod Ns) + k Ns, Ns the product of the earlier radices. Between passes the values
// cross threads through shared memory, one padded plane for real parts and one for imaginary parts.
//
// Every transform here is forward (exponent sign -1); an inverse conjugates on load and on store.
// Complex products use explicit fma: the family is built with --fmad=false (bitwise host/device
// stencils), which would otherwise forbid contraction and cost the FFT a third of its flops.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/fft/complex.hpp"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft::onchip {

/// The launch bound of a kernel holding R values of T per thread: 1024 threads (so at most 64
/// registers, and a whole multiprocessor's 2048 threads resident in two blocks) where the values
/// fit, 512 (128 registers) for radix-16 double, whose 64 registers of values alone fill 64.
template <class T, int R>
inline constexpr int max_block_threads = sizeof(T) == 8 && R >= 16 ? 512 : 1024;

/// The twiddle table holds, for every power of two L = 1..4096, the roots W_L^m, m = 0..L-1, at
/// entries L + m: a pass reading W_L^j for neighbouring j reads neighbouring entries (one strided
/// table W_4096^{j 4096/L} put every thread of a warp on its own cache line).
inline constexpr int twiddle_table_length = 2 * 4096;
inline constexpr int max_log2_length = 12;

/// The table above (W_L^m = exp(-2 pi i m / L), computed in long double) on the current device,
/// made on first use (blocking) and kept for the process. Defined in flow_graph_onchip_cuda.cu.
template <class T>
const Complex<T>* twiddle_table();

/// A compile-time loop index: f(Step<I>{}) for I = first..end-1 (read it as decltype(i)::value).
template <int I>
struct Step {
  static constexpr int value = I;
};
template <int I, int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
  if constexpr (I < N) {
    f(Step<I>{});
    static_for<I + 1, N>(f);
  }
}

__device__ __forceinline__ float fmadd(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fmadd(double a, double b, double c) { return __fma_rn(a, b, c); }

template <class T>
__device__ __forceinline__ Complex<T> operator+(Complex<T> a, Complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T>
__device__ __forceinline__ Complex<T> operator-(Complex<T> a, Complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T>
__device__ __forceinline__ Complex<T> cmul(Complex<T> a, Complex<T> b) {
  return {fmadd(a.re, b.re, -a.im * b.im), fmadd(a.re, b.im, a.im * b.re)};
}
template <class T>
__device__ __forceinline__ Complex<T> conj(Complex<T> a) { return {a.re, -a.im}; }

/// Vector loads and stores of one complex value (8 or 16 bytes in one instruction).
template <class T>
struct Vec2;
template <>
struct Vec2<float> { using type = float2; };
template <>
struct Vec2<double> { using type = double2; };
template <class T>
__device__ __forceinline__ Complex<T> load(const Complex<T>* p) {
  const auto v = *reinterpret_cast<const typename Vec2<T>::type*>(p);
  return {v.x, v.y};
}
template <class T>
__device__ __forceinline__ void store(Complex<T>* p, Complex<T> a) {
  *reinterpret_cast<typename Vec2<T>::type*>(p) = {a.re, a.im};
}

/// cos(2 pi m / 16), exactly rounded to double: the constants of the radix-16 and smaller DFTs.
__host__ __device__ constexpr double cos_sixteenth(int m) {
  constexpr double c[5] = {1.0, 0.92387953251128675613, 0.70710678118654752440, 0.38268343236508977173, 0.0};
  m = ((m % 16) + 16) % 16;
  if (m > 8) m = 16 - m;
  return m <= 4 ? c[m] : -c[8 - m];
}

/// x W_R^K, W_R = exp(-2 pi i / R), with the trivial and eighth roots of unity spelled out.
template <int R, int K, class T>
__device__ __forceinline__ Complex<T> mul_root(Complex<T> x) {
  constexpr int m = (K * 16 / R) % 16;
  constexpr T h = T(0.70710678118654752440);
  if constexpr (m == 0) return x;
  else if constexpr (m == 4) return {x.im, -x.re};
  else if constexpr (m == 8) return {-x.re, -x.im};
  else if constexpr (m == 12) return {-x.im, x.re};
  else if constexpr (m == 2) return {(x.re + x.im) * h, (x.im - x.re) * h};
  else if constexpr (m == 6) return {(x.im - x.re) * h, -(x.re + x.im) * h};
  else {
    constexpr T c = T(cos_sixteenth(m)), s = T(-cos_sixteenth(m - 4));
    return cmul(x, Complex<T>{c, s});
  }
}

/// In-place forward DFT of R values in registers (radix-2 decimation in time, unrolled).
template <int R, class T>
__device__ __forceinline__ void dft(Complex<T>* a) {
  if constexpr (R == 2) {
    const Complex<T> b = a[1];
    a[1] = a[0] - b;
    a[0] = a[0] + b;
  } else if constexpr (R > 2) {
    Complex<T> even[R / 2], odd[R / 2];
#pragma unroll
    for (int i = 0; i < R / 2; ++i) {
      even[i] = a[2 * i];
      odd[i] = a[2 * i + 1];
    }
    dft<R / 2>(even);
    dft<R / 2>(odd);
    static_for<0, R / 2>([&](auto k_) {
      constexpr int k = decltype(k_)::value;
      const Complex<T> b = mul_root<R, k>(odd[k]);
      a[k] = even[k] + b;
      a[k + R / 2] = even[k] - b;
    });
  }
}

/// W_L^m = exp(-2 pi i m / L) for 0 <= m < L <= 4096 (powers of two): from the table, or computed.
template <int L, class T>
__device__ __forceinline__ Complex<T> root(int m, const Complex<T>* table) {
  if (table) return table[L + m];
  T s, c;
  if constexpr (std::is_same_v<T, float>) sincospif(-2.0f * m / L, &s, &c);
  else sincospi(-2.0 * m / L, &s, &c);
  return {c, s};
}

/// One line's slice of the block's shared planes. Lines of a block are laid out line after line
/// (contiguous: threads of one line are neighbours) or element-interleaved (line_fastest: threads
/// of neighbouring lines are neighbours), and every 128 bytes of a plane get one word of padding
/// so that the strided writes of a pass spread over the banks.
template <class T>
struct SharedLine {
  T* re;
  T* im;
  int line, lines, n;
  bool line_fastest;
  static constexpr int pad_shift = sizeof(T) == 4 ? 5 : 4;  // as plane_elements<T>

  // (One form per layout, not a precomputed first + index * step: that cost float radix-16
  // kernels 48 bytes of register spills per thread, ptxas -v on sm_90.)
  __device__ int address(int index) const {
    const int a = line_fastest ? index * lines + line : line * n + index;
    return a + (a >> pad_shift);
  }
  __device__ void put(int index, Complex<T> v) const {
    const int a = address(index);
    re[a] = v.re;
    im[a] = v.im;
  }
  __device__ Complex<T> get(int index) const {
    const int a = address(index);
    return {re[a], im[a]};
  }
};

/// Where pass (radix RP after Ns) writes its output k of butterfly s of thread t.
template <int N, int R, int RP, int NS>
__device__ __forceinline__ int pass_output_index(int t, int s, int k) {
  const int v = t + s * (N / R);
  return (v / NS) * NS * RP + (v % NS) + k * NS;
}

/// One Stockham pass of radix RP on the R registers of thread t (R / RP butterflies).
template <int N, int R, int RP, int NS, class T>
__device__ __forceinline__ void radix_pass(Complex<T> (&x)[R], int t, const Complex<T>* table) {
  constexpr int S = R / RP;
  static_for<0, S>([&](auto s_) {
    constexpr int s = decltype(s_)::value;
    Complex<T> a[RP];
#pragma unroll
    for (int k = 0; k < RP; ++k) a[k] = x[s + k * S];
    if constexpr (NS > 1) {
      // One root looked up (a table gather costs a cache-line access per distinct j in the warp),
      // its powers multiplied out with a rounding depth of log2(RP), each applied as soon as it
      // is made so that only the powers still to be multiplied stay in registers.
      Complex<T> w[RP];
      w[1] = root<NS * RP>((t + s * (N / R)) % NS, table);
      a[1] = cmul(a[1], w[1]);
#pragma unroll
      for (int k = 2; k < RP; ++k) {
        w[k] = cmul(w[k / 2], w[k - k / 2]);
        a[k] = cmul(a[k], w[k]);
      }
    }
    dft<RP>(a);
#pragma unroll
    for (int k = 0; k < RP; ++k) x[s + k * S] = a[k];
  });
}

/// The passes of radix P (the last one smaller where needed) from Ns = NS on, R >= P values per
/// thread: on entry thread t holds the input of pass NS at t + q N/R, on exit the transform's output
/// X[t + q N/R]. Every thread of the block calls it (it synchronises). `table` is
/// twiddle_table<T>() or null (sincospi).
template <int N, int R, int P, int NS = 1, class T>
__device__ __forceinline__ void fft_passes(Complex<T> (&x)[R], int t, const SharedLine<T>& line, const Complex<T>* table) {
  static_assert(R % P == 0 && N % R == 0, "a thread holds whole butterflies of a line");
  constexpr int RP = N / NS >= P ? P : N / NS;
  radix_pass<N, R, RP, NS>(x, t, table);
  if constexpr (NS * RP < N) {
    static_for<0, R>([&](auto q_) {
      constexpr int q = decltype(q_)::value, S = R / RP;
      line.put(pass_output_index<N, R, RP, NS>(t, q % S, q / S), x[q]);
    });
    __syncthreads();
#pragma unroll
    for (int q = 0; q < R; ++q) x[q] = line.get(t + q * (N / R));
    __syncthreads();  // every value read before the next pass overwrites the planes
    fft_passes<N, R, P, NS * RP>(x, t, line, table);
  }
}

/// The thread of index tid in a block as (line within the block, thread within the line), lines
/// contiguous (neighbouring threads in one line) or line_fastest (neighbouring lines).
__device__ __forceinline__ void arrange(int tid, int lines, int threads_per_line, bool line_fastest, int& line, int& t) {
  if (line_fastest) {
    line = tid % lines;
    t = tid / lines;
  } else {
    line = tid / threads_per_line;
    t = tid % threads_per_line;
  }
}

/// Host: calls f(Step<N>{}, Step<P>{}) for N = 2^log2n (1 <= log2n <= 12) and the pass radix
/// P = min(radix, N), radix 2, 4, 8 or 16: the run-time choice of a kernel template.
template <int L = 1, class F>
void dispatch_length_and_radix(int log2n, int radix, F&& f) {
  if constexpr (L <= max_log2_length) {
    if (log2n != L) return dispatch_length_and_radix<L + 1>(log2n, radix, f);
    constexpr int n = 1 << L;
    switch (radix > n ? n : radix) {
      case 2: return f(Step<n>{}, Step<2>{});
      case 4: if constexpr (n >= 4) return f(Step<n>{}, Step<4>{}); break;
      case 8: if constexpr (n >= 8) return f(Step<n>{}, Step<8>{}); break;
      case 16: if constexpr (n >= 16) return f(Step<n>{}, Step<16>{}); break;
    }
    throw Error("on-chip transform: no kernel for radix " + std::to_string(radix));
  } else {
    throw Error("on-chip transform: no kernel for length 2^" + std::to_string(log2n));
  }
}

}  // namespace gridflow::kernels::fft::onchip
