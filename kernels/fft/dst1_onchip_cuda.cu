// launch_dst1_lines_onchip (dst1_onchip_cuda.hpp): a block takes 2 `pairs` neighbouring lines
// (numbered as in Dst1Lines: the faster other axis fastest), line p paired with line p + pairs,
// loads their odd extensions into the registers of the on-chip transform (each point read once,
// the mirrored half through shared memory), and writes the coefficients back over the values; the
// block's loads all precede the mirror's barrier, so in place is safe. Along x the threads of a pair take neighbouring points; along
// y and z neighbouring pairs take neighbouring x, so every load and store is coalesced.
// With Dst1Mode::divide_between, the coefficients stay in registers: each is divided as divide_by_eigenvalues does
// (the same expressions on the same T values) and the line is transformed again before the one
// write, so the solve's middle (DST-I, division, DST-I) is one pass over memory instead of three.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "kernels/fft/dst1_onchip_cuda.hpp"
#include "kernels/fft/flow_graph_onchip.cuh"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

using onchip::SharedLine;

struct Dst1LinesArgs {
  std::int64_t first, stride_axis, stride_p, stride_q, extent_p, lines;
  int pairs;          // line pairs per block
  bool line_fastest;  // neighbouring threads take neighbouring pairs (axes y and z)
};

/// The division between the two transforms of a divide_between launch: box point (i, j, k) is global
/// point lo + (i, j, k); `axis` is the lines' axis.
template <class T>
struct Dst1DivideArgs {
  EigenTables<T> tables;
  std::int64_t lo[3];
  int axis;
  T scale;
};

/// What a launch does around its transform.
enum class Dst1Mode { transform, divide_between };

/// The odd extension of a line pair whose points j = t + q M/R (q < R/2) are x[q]: the second half
/// (x_{2N-j} = -x_j) from the threads holding it, through the shared planes.
template <class T, int M, int R>
__device__ __forceinline__ void mirror_second_half(Complex<T> (&x)[R], int t, const onchip::SharedLine<T>& line) {
  constexpr int threads_per_line = M / R, N = M / 2;
#pragma unroll
  for (int q = 0; q < R / 2; ++q) line.put(t + q * threads_per_line, x[q]);
  __syncthreads();
#pragma unroll
  for (int q = R / 2; q < R; ++q) {
    const int source = M - (t + q * threads_per_line);  // 1..N
    const Complex<T> v = source < N ? line.get(source) : Complex<T>{T(0), T(0)};
    x[q] = {-v.re, -v.im};
  }
  __syncthreads();  // the mirror read before the passes overwrite the planes
}

/// M = 2N: the complex length; R values per thread, pass radix P.
template <class T, int M, int R, int P, Dst1Mode Mode>
__global__ void __launch_bounds__(onchip::max_block_threads<T, R>)
    dst1_lines_kernel(T* field, const Dst1LinesArgs a, const Complex<T>* table, const Dst1DivideArgs<T> divide) {
  extern __shared__ unsigned char shared_bytes[];
  constexpr int threads_per_line = M / R;
  T* planes = reinterpret_cast<T*>(shared_bytes);
  int l, t;
  onchip::arrange(threadIdx.x, a.pairs, threads_per_line, a.line_fastest, l, t);
  const SharedLine<T> line{planes, planes + onchip::plane_elements<T>(a.pairs, M), l, a.pairs, M, a.line_fastest};

  const std::int64_t line_a = static_cast<std::int64_t>(blockIdx.x) * 2 * a.pairs + l, line_b = line_a + a.pairs;
  const bool has_a = line_a < a.lines, has_b = line_b < a.lines;
  // Point j (1..N-1) of a line at base[j * stride_axis].
  auto base = [&](std::int64_t ln) {
    return field + a.first + (ln % a.extent_p) * a.stride_p + (ln / a.extent_p) * a.stride_q - a.stride_axis;
  };
  T* const pa = base(line_a);
  T* const pb = base(line_b);

  // Points j = t + q M/R of the first half (q < R/2) from memory, each read once.
  Complex<T> x[R];
#pragma unroll
  for (int q = 0; q < R / 2; ++q) {
    const int j = t + q * threads_per_line;
    const bool inside = j >= 1;
    x[q] = {has_a && inside ? pa[j * a.stride_axis] : T(0), has_b && inside ? pb[j * a.stride_axis] : T(0)};
  }
  mirror_second_half<T, M, R>(x, t, line);
  onchip::fft_passes<M, R, P>(x, t, line, table);

  if constexpr (Mode == Dst1Mode::divide_between) {
    // The coefficients as the separate transform stores them, divided as the separate division
    // does, become the first half of the next odd extension (point k = coefficient k).
    // A line's eigenvalues along the other two axes are read once, not per point (the line's
    // coordinates cost two 64-bit divisions).
    const int axis = divide.axis, axis_p = axis == 0 ? 1 : 0, axis_q = axis == 2 ? 1 : 2;  // the other axes, faster first
    auto across = [&](bool has, int d, std::int64_t g) { return has ? divide.tables.at(d, g) : T(0); };
    const T pa_l = across(has_a, axis_p, divide.lo[axis_p] + line_a % a.extent_p);
    const T qa_l = across(has_a, axis_q, divide.lo[axis_q] + line_a / a.extent_p);
    const T pb_l = across(has_b, axis_p, divide.lo[axis_p] + line_b % a.extent_p);
    const T qb_l = across(has_b, axis_q, divide.lo[axis_q] + line_b / a.extent_p);
    auto divided = [&](T v, T lp, T lq, int k) {
      const T lk = divide.tables.at(axis, divide.lo[axis] + k - 1);
      const T lx = axis == 0 ? lk : lp, ly = axis == 1 ? lk : axis == 0 ? lp : lq, lz = axis == 2 ? lk : lq;
      return eigen_divide_point(v, lx, ly, lz, divide.scale);
    };
#pragma unroll
    for (int q = 0; q < R / 2; ++q) {
      const int k = t + q * threads_per_line;
      const bool inside = k >= 1;
      const T fa = has_a && inside ? divided(T(-0.5) * x[q].im, pa_l, qa_l, k) : T(0);
      const T fb = has_b && inside ? divided(T(0.5) * x[q].re, pb_l, qb_l, k) : T(0);
      x[q] = {fa, fb};
    }
    mirror_second_half<T, M, R>(x, t, line);
    onchip::fft_passes<M, R, P>(x, t, line, table);
  }

#pragma unroll
  for (int q = 0; q < R / 2; ++q) {
    const int k = t + q * threads_per_line;
    if (k < 1) continue;
    if (has_a) pa[k * a.stride_axis] = T(-0.5) * x[q].im;
    if (has_b) pb[k * a.stride_axis] = T(0.5) * x[q].re;
  }
}

template <class T, int M, int P, Dst1Mode Mode>
void launch(T* field, Dst1LinesArgs args, const Complex<T>* table, const Dst1DivideArgs<T>& divide,
            StreamHandle stream) {
  constexpr int R = onchip::registers_per_thread(M, P);
  const auto kernel = dst1_lines_kernel<T, M, R, P, Mode>;
  static const int max_threads = onchip::max_threads_per_block(reinterpret_cast<const void*>(kernel));
  if (args.pairs == 0)
    // Along y and z, lines A (x = p) and B (x = p + pairs) of sector_lines pairs fill two sectors
    // of each row: the best measured (511^3, H100).
    args.pairs = onchip::default_lines_per_block(M, R, args.line_fastest ? onchip::sector_lines<T>() : 1, (args.lines + 1) / 2,
                                                 onchip::block_shared_bytes<T>(1, M), max_threads);
  const int threads = args.pairs * (M / R);
  GRIDFLOW_REQUIRE(threads <= max_threads, "DST-I lines on chip: " + std::to_string(args.pairs) + " line pairs of length " +
                                               std::to_string(M / 2) + " need " + std::to_string(threads) +
                                               " threads, more than the kernel's " + std::to_string(max_threads));
  const std::size_t shared = onchip::block_shared_bytes<T>(args.pairs, M);
  GRIDFLOW_REQUIRE(shared <= onchip::shared_limit(), "DST-I lines on chip: " + std::to_string(args.pairs) +
                                                         " line pairs of length " + std::to_string(M / 2) + " need " +
                                                         std::to_string(shared) + " bytes of shared memory");
  onchip::allow_shared_bytes(reinterpret_cast<const void*>(kernel), shared);
  if (!field) return;  // prepared only
  const std::int64_t blocks = (args.lines + 2 * args.pairs - 1) / (2 * args.pairs);
  GRIDFLOW_REQUIRE(blocks <= 0x7fffffff, "DST-I lines: " + std::to_string(blocks) + " blocks exceed the grid");
  kernel<<<static_cast<unsigned>(blocks), args.pairs * (M / R), shared, stream>>>(field, args, table, divide);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

static_assert(2 * dst1_onchip_max_length == (std::int64_t(1) << onchip::max_log2_length),
              "the fused DST-I's length-2N transform is the longest on-chip one");

namespace {

// Checks, picks the kernel and prepares it (module loaded, shared memory opted in, twiddle table
// made); launches it unless `field` is null. With `divide`, the divide_between kernel.
template <class T>
void dst1_lines(T* field, const BoxAddressing& box, int axis, const FlowGraphTunables& tunables,
                const std::optional<Dst1DivideArgs<T>>& divide, StreamHandle stream) {
  GRIDFLOW_REQUIRE(axis >= 0 && axis < 3, "DST-I lines: axis " + std::to_string(axis) + " is not 0, 1 or 2");
  const std::int64_t n = box.extent[axis] + 1;
  GRIDFLOW_REQUIRE(dst1_onchip_supports(n), "DST-I lines on chip: length N = " + std::to_string(n) +
                                                " (points per line + 1) is not a power of two in 2..2048");
  GRIDFLOW_REQUIRE(tunables.radix == 2 || tunables.radix == 4 || tunables.radix == 8 || tunables.radix == 16,
                   "DST-I lines on chip: radix " + std::to_string(tunables.radix) + " is not 2, 4, 8 or 16");
  GRIDFLOW_REQUIRE(tunables.lines_per_block >= 0, "DST-I lines on chip: lines_per_block must be >= 0");
  const int p = axis == 0 ? 1 : 0, q = axis == 2 ? 1 : 2;  // the other axes, faster first
  const int m = static_cast<int>(2 * n), radix = std::min(tunables.radix, m);
  Dst1LinesArgs args{box.first, box.stride[axis], box.stride[p], box.stride[q], box.extent[p],
                     box.extent[p] * box.extent[q], tunables.lines_per_block, axis != 0};
  if (args.lines == 0) return;
  int log2m = 0;
  while ((1 << log2m) < m) ++log2m;
  const Complex<T>* table = tunables.twiddle_table ? onchip::twiddle_table<T>() : nullptr;
  onchip::dispatch_length_and_radix(log2m, radix, [&](auto length, auto pass_radix) {
    constexpr int M = decltype(length)::value, P = decltype(pass_radix)::value;
    if constexpr (M >= 4) {
      if (divide) launch<T, M, P, Dst1Mode::divide_between>(field, args, table, *divide, stream);
      else launch<T, M, P, Dst1Mode::transform>(field, args, table, Dst1DivideArgs<T>{}, stream);
    }
  });
}

}  // namespace

template <class T>
void launch_dst1_lines_onchip(T* field, const BoxAddressing& box, int axis, const FlowGraphTunables& tunables,
                              StreamHandle stream) {
  GRIDFLOW_REQUIRE(field != nullptr, "DST-I lines on chip: no field");
  dst1_lines<T>(field, box, axis, tunables, std::nullopt, stream);
}

template <class T>
void prepare_dst1_lines_onchip(const BoxAddressing& box, int axis, const FlowGraphTunables& tunables) {
  dst1_lines<T>(nullptr, box, axis, tunables, std::nullopt, nullptr);
}

template <class T>
void launch_dst1_divide_dst1_onchip(T* field, const BoxAddressing& box, const std::array<std::int64_t, 3>& lo, int axis,
                                    const EigenTables<T>& tables, T scale, const FlowGraphTunables& tunables,
                                    StreamHandle stream) {
  GRIDFLOW_REQUIRE(field != nullptr, "DST-I, division, DST-I on chip: no field");
  const Dst1DivideArgs<T> divide{tables, {lo[0], lo[1], lo[2]}, axis, scale};
  dst1_lines<T>(field, box, axis, tunables, divide, stream);
}

template <class T>
void prepare_dst1_divide_dst1_onchip(const BoxAddressing& box, int axis, const FlowGraphTunables& tunables) {
  Dst1DivideArgs<T> divide{};
  divide.axis = axis;
  dst1_lines<T>(nullptr, box, axis, tunables, divide, nullptr);
}

template void prepare_dst1_lines_onchip<float>(const BoxAddressing&, int, const FlowGraphTunables&);
template void prepare_dst1_lines_onchip<double>(const BoxAddressing&, int, const FlowGraphTunables&);
template void launch_dst1_lines_onchip<float>(float*, const BoxAddressing&, int, const FlowGraphTunables&, StreamHandle);
template void launch_dst1_lines_onchip<double>(double*, const BoxAddressing&, int, const FlowGraphTunables&, StreamHandle);
template void launch_dst1_divide_dst1_onchip<float>(float*, const BoxAddressing&, const std::array<std::int64_t, 3>&, int,
                                                    const EigenTables<float>&, float, const FlowGraphTunables&,
                                                    StreamHandle);
template void launch_dst1_divide_dst1_onchip<double>(double*, const BoxAddressing&, const std::array<std::int64_t, 3>&, int,
                                                     const EigenTables<double>&, double, const FlowGraphTunables&,
                                                     StreamHandle);
template void prepare_dst1_divide_dst1_onchip<float>(const BoxAddressing&, int, const FlowGraphTunables&);
template void prepare_dst1_divide_dst1_onchip<double>(const BoxAddressing&, int, const FlowGraphTunables&);

}  // namespace gridflow::kernels::fft
