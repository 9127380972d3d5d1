#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

#include "kernels/core/reduce_cuda.cuh"
#include "kernels/stencil/jacobi_cuda.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::kernels::stencil {

namespace {

struct Extent {
  int nx, ny, nz;              // the update box
  long long sy, sz;            // strides
  int r_lo[3], r_hi[3];        // the residual box, relative to the update box's low corner
  int lead = 0;                // vector variant: elements between the update box's first x-cell and
                               // the aligned vector that holds it
};

// CX consecutive values read or written as one aligned vector access (two for 32 bytes).
template <class T, int CX>
struct alignas(sizeof(T) * CX < 16 ? sizeof(T) * CX : 16) Cells {
  T v[CX];
};

template <class T, int CX>
__device__ Cells<T, CX> load_cells(const T* __restrict__ p) {
  return *reinterpret_cast<const Cells<T, CX>*>(p);
}

// (f - A u)^2 at update-box point (i, j, z) when it lies in the residual box, else 0.
template <class T>
__device__ double residual_sq_in_box(const Extent& e, int i, int j, int z, T rhs, T c, T w, T ea, T s, T n, T b, T t,
                                     const PoissonCoefficients<T>& k) {
  if (i < e.r_lo[0] || i > e.r_hi[0] || j < e.r_lo[1] || j > e.r_hi[1] || z < e.r_lo[2] || z > e.r_hi[2]) return 0;
  const double r = static_cast<double>(rhs) - static_cast<double>(laplacian_point(c, w, ea, s, n, b, t, k));
  return r * r;
}

// Each thread owns one (x, y) column of CZ consecutive z-cells and walks up it, keeping the planes
// below, at and above in registers. With RESIDUAL it also sums (f - A in)^2 over the residual box
// into its block's partial (a fixed-order block reduction). Without WRITE it only measures.
template <class T, int CZ, bool RESIDUAL, bool WRITE = true>
__global__ void jacobi_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f, Extent e,
                              PoissonCoefficients<T> k, double* partials) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int z0 = blockIdx.z * CZ;
  double acc = 0;
  if (i < e.nx && j < e.ny) {
    const long long base = i + j * e.sy + z0 * e.sz;
    T below = __ldg(in + base - e.sz);
    T centre = __ldg(in + base);
#pragma unroll
    for (int q = 0; q < CZ; ++q) {
      const int z = z0 + q;
      if (z >= e.nz) break;
      const long long p = base + q * e.sz;
      const T above = __ldg(in + p + e.sz);
      const T w = __ldg(in + p - 1), ea = __ldg(in + p + 1), s = __ldg(in + p - e.sy), n = __ldg(in + p + e.sy);
      const T rhs = __ldg(f + p);
      if constexpr (WRITE) out[p] = jacobi_point(w, ea, s, n, below, above, rhs, k);
      if constexpr (RESIDUAL) acc += residual_sq_in_box(e, i, j, z, rhs, centre, w, ea, s, n, below, above, k);
      below = centre;
      centre = above;
    }
  }
  if constexpr (RESIDUAL) {
    __shared__ double partial[1024];
    core::store_block_sum(acc, partial, partials);
  }
}

// The L1 walk with CX consecutive x-cells per thread: every plane's centre, south, north, below,
// above and f rows come in as one vector load each, and only the two x-edge values as scalars,
// so a cell costs about 7/CX load instructions instead of 7 (float is bound by load issue, not
// by bytes, with one cell per thread). A thread's vector starts on an aligned address, so the
// first thread of a row starts `lead` cells before the update box; cells outside it are read
// but neither written nor summed.
template <class T, int CX, int CZ, bool RESIDUAL, bool WRITE = true>
__global__ void jacobi_vector_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f, Extent e,
                                     PoissonCoefficients<T> k, double* partials) {
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * CX - e.lead;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int z0 = blockIdx.z * CZ;
  double acc = 0;
  if (x0 < e.nx && j < e.ny) {
    const long long base = x0 + j * e.sy + z0 * e.sz;
    const bool whole = x0 >= 0 && x0 + CX <= e.nx;
    Cells<T, CX> below = load_cells<T, CX>(in + base - e.sz);
    Cells<T, CX> centre = load_cells<T, CX>(in + base);
#pragma unroll
    for (int q = 0; q < CZ; ++q) {
      const int z = z0 + q;
      if (z >= e.nz) break;
      const long long p = base + q * e.sz;
      const Cells<T, CX> above = load_cells<T, CX>(in + p + e.sz);
      const Cells<T, CX> s = load_cells<T, CX>(in + p - e.sy), n = load_cells<T, CX>(in + p + e.sy);
      const Cells<T, CX> rhs = load_cells<T, CX>(f + p);
      // The edge values only where the cell beside them is updated: elsewhere they may lie
      // outside the allocation.
      const T west_edge = x0 >= 0 ? __ldg(in + p - 1) : T(0);
      const T east_edge = x0 + CX <= e.nx ? __ldg(in + p + CX) : T(0);
      Cells<T, CX> result;
#pragma unroll
      for (int c = 0; c < CX; ++c) {
        const T w = c == 0 ? west_edge : centre.v[c - 1], ea = c == CX - 1 ? east_edge : centre.v[c + 1];
        result.v[c] = jacobi_point(w, ea, s.v[c], n.v[c], below.v[c], above.v[c], rhs.v[c], k);
        if constexpr (RESIDUAL)
          if (x0 + c >= 0 && x0 + c < e.nx)
            acc += residual_sq_in_box(e, x0 + c, j, z, rhs.v[c], centre.v[c], w, ea, s.v[c], n.v[c], below.v[c],
                                      above.v[c], k);
      }
      if constexpr (WRITE) {
        if (whole) {
          *reinterpret_cast<Cells<T, CX>*>(out + p) = result;
        } else {
#pragma unroll
          for (int c = 0; c < CX; ++c)
            if (x0 + c >= 0 && x0 + c < e.nx) out[p + c] = result.v[c];
        }
      }
      below = centre;
      centre = above;
    }
  }
  if constexpr (RESIDUAL) {
    __shared__ double partial[1024];
    core::store_block_sum(acc, partial, partials);
  }
}

// The same walk with the x-y neighbours of each plane staged in a shared-memory tile (block plus a
// one-point halo) instead of read through L1: the seed paper's "shared memory vs cache" choice.
template <class T, int CZ, bool RESIDUAL, bool WRITE = true>
__global__ void jacobi_shared_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ f, Extent e,
                                     PoissonCoefficients<T> k, double* partials) {
  extern __shared__ unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes);
  const int tx = threadIdx.x, ty = threadIdx.y, pitch = blockDim.x + 2;
  const int i = blockIdx.x * blockDim.x + tx;
  const int j = blockIdx.y * blockDim.y + ty;
  const int z0 = blockIdx.z * CZ;
  const bool inside = i < e.nx && j < e.ny;
  const long long base = i + j * e.sy + z0 * e.sz;
  T below = inside ? __ldg(in + base - e.sz) : T(0);
  T centre = inside ? __ldg(in + base) : T(0);
  const int c = (ty + 1) * pitch + tx + 1;
  double acc = 0;
  for (int q = 0; q < CZ && z0 + q < e.nz; ++q) {  // uniform over the block: no divergent barrier
    const long long p = base + q * e.sz;
    __syncthreads();  // the previous plane's tile has been read
    if (inside) {
      tile[c] = centre;
      if (tx == 0) tile[c - 1] = __ldg(in + p - 1);
      if (tx == blockDim.x - 1 || i == e.nx - 1) tile[c + 1] = __ldg(in + p + 1);
      if (ty == 0) tile[c - pitch] = __ldg(in + p - e.sy);
      if (ty == blockDim.y - 1 || j == e.ny - 1) tile[c + pitch] = __ldg(in + p + e.sy);
    }
    __syncthreads();
    if (inside) {
      const T above = __ldg(in + p + e.sz);
      const T w = tile[c - 1], ea = tile[c + 1], s = tile[c - pitch], n = tile[c + pitch];
      const T rhs = __ldg(f + p);
      if constexpr (WRITE) out[p] = jacobi_point(w, ea, s, n, below, above, rhs, k);
      if constexpr (RESIDUAL) acc += residual_sq_in_box(e, i, j, z0 + q, rhs, centre, w, ea, s, n, below, above, k);
      below = centre;
      centre = above;
    }
  }
  if constexpr (RESIDUAL) {
    __syncthreads();  // the tile is no longer needed: reuse it for the partial sums
    core::store_block_sum(acc, reinterpret_cast<double*>(shared_bytes), partials);
  }
}

std::string fmt_params(const JacobiCudaParams& p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

// Elements from the previous CX-aligned address to p.
template <class T>
int misalignment(const T* p, int cx) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) / sizeof(T)) % static_cast<std::uintptr_t>(cx));
}

// The vector variant needs the three arrays equally misaligned and strides that keep every row's
// vectors aligned; otherwise one cell per thread.
template <class T>
int usable_cells_x(const JacobiCudaParams& p, const T* in, const T* out, const T* f, const Extent& e) {
  const int cx = p.cells_x;
  if (cx == 1) return 1;
  const int lead = misalignment(in, cx);
  const bool alike = (out == nullptr || misalignment(out, cx) == lead) && misalignment(f, cx) == lead;
  return alike && e.sy % cx == 0 && e.sz % cx == 0 ? cx : 1;
}

// Most threads a block of `kernel` can have: its registers per thread limit it below 1024 for
// the wider vector variants. Asked once per kernel instance.
template <class Kernel>
int max_threads_per_block(Kernel kernel) {
  cudaFuncAttributes a{};
  GRIDFLOW_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  return a.maxThreadsPerBlock;
}

// Where a launch of `grid` stores its block sums; none without a residual.
double* partials_for(core::BlockSums* sums, const dim3& grid, StreamHandle stream) {
  return sums ? sums->partials(static_cast<long long>(grid.x) * grid.y * grid.z, stream) : nullptr;
}

template <class T, int CX, int CZ, bool RESIDUAL, bool WRITE>
void launch_vector(const JacobiCudaParams& p, const T* in, T* out, const T* f, Extent e, const PoissonCoefficients<T>& k,
                   core::BlockSums* sums, StreamHandle stream) {
  static const int max_threads = max_threads_per_block(jacobi_vector_kernel<T, CX, CZ, RESIDUAL, WRITE>);
  if (p.block_x * p.block_y > max_threads)
    throw Error(fmt_params(p) + " cannot launch: its kernel needs so many registers that a block holds at most " +
                std::to_string(max_threads) + " threads");
  e.lead = misalignment(in, CX);
  const int threads_x = (e.nx + e.lead + CX - 1) / CX;
  const dim3 block(p.block_x, p.block_y);
  const dim3 grid((threads_x + p.block_x - 1) / p.block_x, (e.ny + p.block_y - 1) / p.block_y, (e.nz + CZ - 1) / CZ);
  jacobi_vector_kernel<T, CX, CZ, RESIDUAL, WRITE><<<grid, block, 0, stream>>>(in, out, f, e, k, partials_for(sums, grid, stream));
}

template <class T, int CZ, bool RESIDUAL, bool WRITE>
void launch(const JacobiCudaParams& p, const T* in, T* out, const T* f, const Extent& e, const PoissonCoefficients<T>& k,
            core::BlockSums* sums, StreamHandle stream) {
  if (!p.shared_tile) switch (usable_cells_x(p, in, out, f, e)) {
      case 2: return launch_vector<T, 2, CZ, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
      case 4: return launch_vector<T, 4, CZ, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
    }
  const dim3 block(p.block_x, p.block_y);
  const dim3 grid((e.nx + p.block_x - 1) / p.block_x, (e.ny + p.block_y - 1) / p.block_y, (e.nz + CZ - 1) / CZ);
  if (p.shared_tile) {
    const std::size_t tile = std::max<std::size_t>((p.block_x + 2) * (p.block_y + 2) * sizeof(T), p.block_x * p.block_y * sizeof(double));
    jacobi_shared_kernel<T, CZ, RESIDUAL, WRITE><<<grid, block, tile, stream>>>(in, out, f, e, k, partials_for(sums, grid, stream));
  } else {
    jacobi_kernel<T, CZ, RESIDUAL, WRITE><<<grid, block, 0, stream>>>(in, out, f, e, k, partials_for(sums, grid, stream));
  }
}

template <class T, bool RESIDUAL, bool WRITE = true>
void dispatch(const JacobiCudaParams& p, const T* in, T* out, const T* f, const Extent& e, const PoissonCoefficients<T>& k,
              core::BlockSums* sums, StreamHandle stream) {
  switch (p.cells_z) {
    case 1: return launch<T, 1, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
    case 2: return launch<T, 2, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
    case 4: return launch<T, 4, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
    case 8: return launch<T, 8, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
    case 16: return launch<T, 16, RESIDUAL, WRITE>(p, in, out, f, e, k, sums, stream);
  }
}

template <class T>
Extent extent_of(const mesh::FieldView<const T, 3>& v, const mesh::Box<3>& update, const mesh::Box<3>* norm_box) {
  Extent e{static_cast<int>(update.extent(0)), static_cast<int>(update.extent(1)), static_cast<int>(update.extent(2)),
           v.stride[1], v.stride[2], {0, 0, 0}, {-1, -1, -1}, 0};
  if (norm_box)
    for (int d = 0; d < 3; ++d) {
      e.r_lo[d] = static_cast<int>(norm_box->lo[d] - update.lo[d]);
      e.r_hi[d] = static_cast<int>(norm_box->hi[d] - update.lo[d]);
    }
  return e;
}

/// Runs the sweep (or, without WRITE, only the measurement) with the residual summed in a fixed
/// order (the same bits on every run of the same launch shape), and returns it (blocking).
template <class T, bool WRITE = true>
double sweep_with_sum(const JacobiCudaParams& params, const T* in, T* out, const T* f, const Extent& e,
                      const PoissonCoefficients<T>& k, StreamHandle stream) {
  core::BlockSums sums;
  dispatch<T, true, WRITE>(params, in, out, f, e, k, &sums, stream);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
  return sums.total(stream);
}

}  // namespace

template <class T>
void launch_jacobi_cuda(const JacobiCudaParams& params, mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out,
                        mesh::FieldView<const T, 3> f, const mesh::Box<3>& update, const mesh::Box<3>* norm_box,
                        const PoissonCoefficients<T>& k, double* residual_sq, StreamHandle stream) {
  GRIDFLOW_REQUIRE(params.valid(), "invalid Jacobi CUDA parameters");
  if (update.empty()) return;
  const auto off = in.offset(update.lo[0], update.lo[1], update.lo[2]);
  const Extent e = extent_of(in, update, norm_box);
  if (norm_box) {
    *residual_sq = sweep_with_sum<T>(params, in.data + off, out.data + off, f.data + off, e, k, stream);
    return;
  }
  dispatch<T, false>(params, in.data + off, out.data + off, f.data + off, e, k, nullptr, stream);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
double residual_norm_squared_cuda(mesh::FieldView<const T, 3> u, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                  const PoissonCoefficients<T>& k, StreamHandle stream) {
  if (box.empty()) return 0;
  const auto off = u.offset(box.lo[0], box.lo[1], box.lo[2]);
  return sweep_with_sum<T, false>(JacobiCudaParams{}, u.data + off, nullptr, f.data + off, extent_of(u, box, &box), k, stream);
}

template void launch_jacobi_cuda<float>(const JacobiCudaParams&, mesh::FieldView<const float, 3>, mesh::FieldView<float, 3>,
                                        mesh::FieldView<const float, 3>, const mesh::Box<3>&, const mesh::Box<3>*,
                                        const PoissonCoefficients<float>&, double*, StreamHandle);
template void launch_jacobi_cuda<double>(const JacobiCudaParams&, mesh::FieldView<const double, 3>, mesh::FieldView<double, 3>,
                                         mesh::FieldView<const double, 3>, const mesh::Box<3>&, const mesh::Box<3>*,
                                         const PoissonCoefficients<double>&, double*, StreamHandle);
template double residual_norm_squared_cuda<float>(mesh::FieldView<const float, 3>, mesh::FieldView<const float, 3>,
                                                  const mesh::Box<3>&, const PoissonCoefficients<float>&, StreamHandle);
template double residual_norm_squared_cuda<double>(mesh::FieldView<const double, 3>, mesh::FieldView<const double, 3>,
                                                   const mesh::Box<3>&, const PoissonCoefficients<double>&, StreamHandle);

}  // namespace gridflow::kernels::stencil
