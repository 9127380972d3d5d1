// Temporal blocking of the Jacobi sweep (2.5D streaming along z): K sweeps per launch, u and f read
// once and u written once per K sweeps. jacobi_params.hpp describes the tile. The rows kernel
// (jacobi_fused_rows_cuda.cu) takes the launches it can; this kernel takes the others.
#include <cuda_runtime.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "kernels/stencil/jacobi_cuda.hpp"
#include "kernels/stencil/jacobi_fused_extent.cuh"
#include "kernels/stencil/jacobi_fused_rows_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::stencil {

namespace {

// Whether the block computes only updated points where a sweep needs them: every column of its
// tile lies in the active box and in the box the launch reads, and every plane a sweep needs in
// the active box. Uniform over the block.
template <int K>
__device__ inline bool tile_inside(const FusedExtent& e, int x0, int y0, int rows, int z_lo, int z_hi) {
  return span_inside<K>(e, 0, x0, x0 + static_cast<int>(blockDim.x) - 1) && span_inside<K>(e, 1, y0, y0 + rows - 1) &&
         chunk_inside<K>(e, z_lo, z_hi);
}

// A block owns a tile of blockDim.x by blockDim.y * CY columns, the outputs being its inner
// columns K away from its rim, and a chunk of planes; it streams planes z = chunk - K ..
// chunk end + K of `in` upward. When plane p of level 0 (the input) arrives, level j (after j
// sweeps) computes plane p - j from level j - 1's planes p - j - 1 (a register), p - j (its
// x-y neighbours in shared memory, written one step earlier) and p - j + 1 (computed just now
// by the same thread). Level j is right only j or more columns inside the tile (and K - j or
// fewer planes beyond the chunk): elsewhere it is not computed, which saves whole warps on the
// rim rows, and keeps level j - 1's value, wrong harmlessly. So does a point that sweep j - 1
// does not update. Shared memory holds every level's current plane twice (written on even/odd
// steps), so one barrier per step suffices.
// Interior (tile_inside): every point computed at a needed plane is updated, so only the rim
// rows' test stays (uniform over a warp, as a warp lies in one row); the rim columns and the
// planes beyond the chunk compute values nobody reads, and the loads need no tests.
template <bool Interior, class T, int K, int CY>
__device__ __forceinline__ void stream_tile(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f,
                                            const FusedExtent& e, const PoissonCoefficients<T>& k, T* planes, int x0,
                                            int y0, int z_lo, int z_hi) {
  const int bx = blockDim.x, rows = blockDim.y * CY, plane = bx * rows;
  const int tx = threadIdx.x;
  // The column's place in level j's shared plane, from a parity's first. Up to 3 sweeps of floats
  // keep every level's in a register and reach the rows beside by byte offsets: 6 integer
  // instructions fewer a point (float, 3 sweeps: 387 -> 406 Gcell/s at 512^3). Others keep level
  // 0's alone: the registers cost them more than the instructions (4 sweeps of floats: 350 -> 317;
  // 2 sweeps of doubles: 239 -> 199, their best shapes losing blocks on an SM).
  constexpr bool keeps_places = sizeof(T) == 4 && K <= 3;
  const int x = x0 + tx;
  const int row_bytes = bx * static_cast<int>(sizeof(T));
  const auto row_beside = [&](const T* s, int side) {  // the value of the row before (-1) or after (1)
    if constexpr (keeps_places)
      return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(s) + side * row_bytes);
    else
      return s[side * bx];
  };
  const bool x_read = x >= read_lo<K>(e, 0) && x <= read_hi<K>(e, 0);
  // The last sweep whose level is right at this x: j - 1 for tile column j.
  const int x_last = min(last_sweep_at<K>(x, e.n[0], e.a_lo[0], e.a_hi[0]), min(tx, bx - 1 - tx) - 1);
  const bool x_out = tx >= K && tx < bx - K && x < e.n[0];

  int last[CY];       // the last sweep that updates the column and is right there, -1 when none
  bool reads[CY];     // whether the column lies in the box the launch reads
  bool writes[CY];    // whether the column is an output of this block
  long long col[CY];  // the column's offset from U's low corner at z = 0
  int place[keeps_places ? K : 1][CY];
  T below[K][CY], centre[K][CY];  // level j < K at planes p - j - 1 and p - j
  T rhs[K + 1][CY];               // f at planes p .. p - K
#pragma unroll
  for (int c = 0; c < CY; ++c) {
    const int row = threadIdx.y + c * blockDim.y;
    const int y = y0 + row;
    const int rim = min(row, rows - 1 - row);  // Interior: the sweeps right at this row are 0 .. rim - 1
    reads[c] = Interior || (x_read && y >= read_lo<K>(e, 1) && y <= read_hi<K>(e, 1));
    last[c] = Interior ? rim - 1 : min(min(x_last, last_sweep_at<K>(y, e.n[1], e.a_lo[1], e.a_hi[1])), rim - 1);
    writes[c] = x_out && row >= K && row < rows - K && y < e.n[1];
    col[c] = x + y * e.sy;
#pragma unroll
    for (int j = 0; j < (keeps_places ? K : 1); ++j) place[j][c] = j * plane + row * bx + tx;
#pragma unroll
    for (int j = 0; j < K; ++j) below[j][c] = centre[j][c] = T(0);
#pragma unroll
    for (int j = 0; j <= K; ++j) rhs[j][c] = T(0);
  }
  for (int q = threadIdx.y * bx + tx; q < 2 * K * plane; q += blockDim.y * bx) planes[q] = T(0);
  __syncthreads();

  // Plane p of u and f arrives one step ahead, so that its loads overlap step p - 1's work.
  const int p_start = max(z_lo - K, read_lo<K>(e, 2)), p_end = z_hi + K, z_read_hi = read_hi<K>(e, 2);
  T u_next[CY], f_next[CY];
  auto load_plane = [&](int p) {
    const bool plane_read = p <= z_read_hi;
#pragma unroll
    for (int c = 0; c < CY; ++c) {
      const bool load = plane_read && reads[c];
      u_next[c] = load ? __ldg(in + col[c] + p * e.sz) : T(0);
      f_next[c] = load ? __ldg(f + col[c] + p * e.sz) : T(0);
    }
  };
  load_plane(p_start);
  for (int p = p_start; p <= p_end; ++p) {  // uniform over the block
    T* const fresh = planes + (p & 1) * K * plane;    // written now, read next step
    T* const stored = planes + (~p & 1) * K * plane;  // written last step
    T a[CY];  // level j - 1 at plane p - j + 1, then level j at plane p - j
#pragma unroll
    for (int c = 0; c < CY; ++c) {
#pragma unroll
      for (int j = K; j > 0; --j) rhs[j][c] = rhs[j - 1][c];
      a[c] = u_next[c];
      rhs[0][c] = f_next[c];
    }
    load_plane(p + 1);
#pragma unroll
    for (int j = 1; j <= K; ++j) {
      int sweep_limit = K;
      if (!Interior) {
        const int z = p - j;
        const bool needed = z >= z_lo - (K - j) && z <= z_hi + (K - j);
        sweep_limit = needed ? last_sweep_at<K>(z, e.n[2], e.a_lo[2], e.a_hi[2]) : -1;
      }
#pragma unroll
      for (int c = 0; c < CY; ++c) {
        const T* const s = stored + (keeps_places ? place[j - 1][c] : (j - 1) * plane + place[0][c]);
        const T c0 = centre[j - 1][c];
        T next = c0;
        if (j - 1 <= (Interior ? last[c] : min(last[c], sweep_limit)))
          next = jacobi_point(s[-1], s[1], row_beside(s, -1), row_beside(s, 1), below[j - 1][c], a[c], rhs[j][c], k);
        below[j - 1][c] = c0;
        centre[j - 1][c] = a[c];
        fresh[keeps_places ? place[j - 1][c] : (j - 1) * plane + place[0][c]] = a[c];
        a[c] = next;
      }
    }
    const int z = p - K;
    if (z >= z_lo && z <= z_hi) {
#pragma unroll
      for (int c = 0; c < CY; ++c)
        if (writes[c]) out[col[c] + z * e.sz] = a[c];
    }
    __syncthreads();
  }
}

template <class T, int K, int CY>
__device__ __forceinline__ void fused_block(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f,
                                            const FusedExtent& e, const PoissonCoefficients<T>& k) {
  extern __shared__ unsigned char shared_bytes[];
  T* planes = reinterpret_cast<T*>(shared_bytes);
  const int rows = static_cast<int>(blockDim.y) * CY;
  const int x0 = static_cast<int>(blockIdx.x) * (static_cast<int>(blockDim.x) - 2 * K) - K;
  const int y0 = static_cast<int>(blockIdx.y) * (rows - 2 * K) - K;
  const int z_lo = static_cast<int>(blockIdx.z) * e.chunk_z, z_hi = min(z_lo + e.chunk_z, e.n[2]) - 1;
  if (tile_inside<K>(e, x0, y0, rows, z_lo, z_hi))
    stream_tile<true, T, K, CY>(in, out, f, e, k, planes, x0, y0, z_lo, z_hi);
  else
    stream_tile<false, T, K, CY>(in, out, f, e, k, planes, x0, y0, z_lo, z_hi);
}

template <class T, int K, int CY>
__global__ void jacobi_fused_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f, FusedExtent e,
                                    PoissonCoefficients<T> k) {
  fused_block<T, K, CY>(in, out, f, e, k);
}

// The same, at most 64 registers a thread. Instances that the compiler takes just past 64 lose half
// their blocks on an SM at 512 threads a block: 2 sweeps of 2 double rows take 69 uncapped (193
// Gcell/s at 512^3 against 234 before the Interior path, at 64). A cap on every instance (even 255)
// makes the compiler use more registers elsewhere, so it is this kernel's alone.
template <class T, int K, int CY>
__global__ void __maxnreg__(64) jacobi_fused_kernel_64(const T* __restrict__ in, T* __restrict__ out,
                                                       const T* __restrict__ f, FusedExtent e, PoissonCoefficients<T> k) {
  fused_block<T, K, CY>(in, out, f, e, k);
}

template <class T, int K, int CY>
constexpr auto fused_kernel() {
  if constexpr (sizeof(T) == 8 && K == 2 && CY == 2)
    return jacobi_fused_kernel_64<T, K, CY>;
  else
    return jacobi_fused_kernel<T, K, CY>;
}

template <class T, int K, int CY>
void launch_fused(const JacobiCudaParams& p, const T* in, T* out, const T* f, const FusedExtent& e,
                  const PoissonCoefficients<T>& k, StreamHandle stream) {
  static const FusedLimits limits = fused_limits(fused_kernel<T, K, CY>());
  const std::size_t shared = p.fused_shared_bytes(K, sizeof(T));
  if (p.block_x * p.block_y > limits.threads || shared > limits.shared_bytes) {
    std::ostringstream os;
    os << p << " cannot launch " << K << " fused sweeps: a block of its kernel holds at most " << limits.threads
       << " threads (registers) and " << limits.shared_bytes << " bytes of shared memory on this device, and it needs "
       << p.block_x * p.block_y << " and " << shared;
    throw Error(os.str());
  }
  const int out_x = p.block_x - 2 * K, out_y = p.block_y * CY - 2 * K;
  const dim3 block(p.block_x, p.block_y);
  const dim3 grid((e.n[0] + out_x - 1) / out_x, (e.n[1] + out_y - 1) / out_y, (e.n[2] + e.chunk_z - 1) / e.chunk_z);
  fused_kernel<T, K, CY>()<<<grid, block, shared, stream>>>(in, out, f, e, k);
}

template <class T, int K>
void dispatch_rows(const JacobiCudaParams& p, const T* in, T* out, const T* f, const FusedExtent& e,
                   const PoissonCoefficients<T>& k, StreamHandle stream) {
  switch (p.cells_y) {
    case 1: return launch_fused<T, K, 1>(p, in, out, f, e, k, stream);
    case 2: return launch_fused<T, K, 2>(p, in, out, f, e, k, stream);
    case 4: return launch_fused<T, K, 4>(p, in, out, f, e, k, stream);
  }
}

}  // namespace

template <class T>
void launch_jacobi_fused_cuda(const JacobiCudaParams& params, int sweeps, mesh::FieldView<const T, 3> in,
                              mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& update,
                              const mesh::Box<3>& active, const PoissonCoefficients<T>& k, StreamHandle stream) {
  GRIDFLOW_REQUIRE(params.valid(), "invalid Jacobi CUDA parameters");
  GRIDFLOW_REQUIRE(jacobi_fused_sweeps_at_most(sweeps) == sweeps && sweeps > 1,
                   "no fused Jacobi kernel takes " + std::to_string(sweeps) + " sweeps");
  if (!params.fits_sweeps(sweeps, sizeof(T))) {
    std::ostringstream os;
    os << params << " cannot take " << sweeps << " fused sweeps: its tile is too small for the rims or too large for shared memory";
    throw Error(os.str());
  }
  if (update.empty()) return;
  FusedExtent e{};
  for (int d = 0; d < 3; ++d) {
    e.n[d] = static_cast<int>(update.extent(d));
    e.a_lo[d] = static_cast<int>(active.lo[d] - update.lo[d]);
    e.a_hi[d] = static_cast<int>(active.hi[d] - update.lo[d]);
  }
  e.sy = in.stride[1];
  e.sz = in.stride[2];
  e.chunk_z = params.chunk_z;
  const auto off = in.offset(update.lo[0], update.lo[1], update.lo[2]);
  const T* src = in.data + off;
  T* dst = out.data + off;
  const T* rhs = f.data + off;
  if (launch_jacobi_fused_rows_cuda(params, sweeps, src, dst, rhs, e, k, stream)) {
    GRIDFLOW_CUDA_CHECK(cudaGetLastError());
    return;
  }
  switch (sweeps) {
    case 2: dispatch_rows<T, 2>(params, src, dst, rhs, e, k, stream); break;
    case 3: dispatch_rows<T, 3>(params, src, dst, rhs, e, k, stream); break;
    case 4: dispatch_rows<T, 4>(params, src, dst, rhs, e, k, stream); break;
    case 8: dispatch_rows<T, 8>(params, src, dst, rhs, e, k, stream); break;
  }
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template void launch_jacobi_fused_cuda<float>(const JacobiCudaParams&, int, mesh::FieldView<const float, 3>,
                                              mesh::FieldView<float, 3>, mesh::FieldView<const float, 3>,
                                              const mesh::Box<3>&, const mesh::Box<3>&, const PoissonCoefficients<float>&,
                                              StreamHandle);
template void launch_jacobi_fused_cuda<double>(const JacobiCudaParams&, int, mesh::FieldView<const double, 3>,
                                               mesh::FieldView<double, 3>, mesh::FieldView<const double, 3>,
                                               const mesh::Box<3>&, const mesh::Box<3>&,
                                               const PoissonCoefficients<double>&, StreamHandle);

}  // namespace gridflow::kernels::stencil
