// One whole red-black Gauss-Seidel sweep out of place, marching z (the CUDA variant of
// gauss_seidel_sweep_out_of_place).
//
// A block owns a tile of 64 x RY output points; each thread owns two adjacent columns of one row,
// so in every plane one of its two points has the first colour and the other the second, and a
// warp (one row) takes the same column of its pairs at each step. Shared memory keeps five
// z-planes of `in` around the tile (2 points of halo in x and y) and of f (1 point), filled by
// cp.async two planes ahead. Step k relaxes the first colour of plane k on the tile and on its
// 1-point ring (the ring is recomputed, not read from the neighbouring block, which may already
// have written it), then the second colour of plane k-1, and writes plane k-1. The first-colour
// values a thread's second-colour point needs above and below are its own (the colour of a column
// flips from plane to plane), so they come from registers; those in the plane come from shared
// memory, written the step before: one barrier a step. Every point takes jacobi_point of the same
// values as in the two in-place colour sweeps: equal bitwise.
#include <cuda_pipeline.h>

#include <cstddef>

#include "kernels/multigrid/smoother_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::multigrid {

namespace {

constexpr int march_pair_threads = 32, march_tile_x = 2 * march_pair_threads, march_halo = 2;
constexpr int march_plane_x = march_tile_x + 2 * march_halo, march_f_x = march_tile_x + 2;
constexpr int march_ahead = 2;                // planes loaded ahead of the step's last one
constexpr int march_slots = 3 + march_ahead;  // planes k-1 .. k+1+ahead at step k
constexpr long long march_chunk_z = 64;       // output planes of a block: enough blocks for the device

/// Rows of a tile: 512 threads in float, 256 in double (shared memory and registers).
template <class T>
constexpr int march_rows = sizeof(T) == 4 ? 16 : 8;

template <class T, int RY>
constexpr std::size_t march_shared_bytes = sizeof(T) * march_slots * ((RY + 2 * march_halo) * march_plane_x + (RY + 2) * march_f_x);

/// Inclusive bounds as a plain struct for device code (mesh::Box's std::array is host-only).
struct Bounds {
  long long lo[3], hi[3];
  static Bounds of(const mesh::Box<3>& b) { return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}}; }
  __device__ bool holds(int d, long long v) const { return v >= lo[d] && v <= hi[d]; }
};

/// cp.async of one value into shared memory, or zeros there where `read` is false (no load then).
template <class T>
__device__ inline void copy_or_zero(T* shared, const T* global, bool read) {
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  const unsigned bytes = read ? sizeof(T) : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(to), "l"(global), "n"(sizeof(T)), "r"(bytes));
}

/// A thread's share of copying a Rows x Cols window of a field's plane into shared memory: rows
/// r0 and r0 + Step, columns c0, c0 + 32 and c0 + 64; their offsets in the plane found once, and
/// which of them lie where the field may be read (`readable`, in x and y).
template <int Rows, int Cols, int Step>
struct PlaneShare {
  int offset[2][3];    // from the plane's point (lo[0], lo[1]) of the view
  unsigned valid = 0;  // bit 3 m + n: row m, column n readable
  int r0, c0;

  template <class T>
  __device__ PlaneShare(const mesh::FieldView<const T, 3>& v, const Bounds& readable, long long x_first, long long y_first, int r,
                        int c)
      : r0(r), c0(c) {
    for (int m = 0; m < 2; ++m)
      for (int n = 0; n < 3; ++n) {
        const int row = r + m * Step, col = c + 32 * n;
        const long long i = x_first + col, j = y_first + row;
        const bool ok = row < Rows && col < Cols && readable.holds(1, j) && readable.holds(0, i);
        offset[m][n] = ok ? static_cast<int>((j - v.lo[1]) * v.stride[1] + (i - v.lo[0])) : 0;
        if (ok) valid |= 1u << (3 * m + n);
      }
  }

  /// Plane k of v into `slot` (Rows x Cols), asynchronously; zeros where it may not be read.
  template <class T>
  __device__ void load(const mesh::FieldView<const T, 3>& v, bool z_ok, long long k, T* slot) const {
    const T* plane = v.data + (z_ok ? (k - v.lo[2]) * v.stride[2] : 0);
    const unsigned live = z_ok ? valid : 0u;
#pragma unroll
    for (int m = 0; m < 2; ++m)
#pragma unroll
      for (int n = 0; n < 3; ++n) {
        const int row = r0 + m * Step, col = c0 + 32 * n;
        if ((m == 1 && Rows <= Step) || (n == 2 && Cols <= 64)) continue;
        if (row >= Rows || col >= Cols) continue;
        copy_or_zero(slot + row * Cols + col, plane + offset[m][n], live >> (3 * m + n) & 1);
      }
  }
};

/// Two adjacent values of a row, the pair a thread owns.
template <class T>
struct Pair {
  T v[2];
  /// v[q] by a select: a run-time index would put the pair in local memory.
  __device__ T at(int q) const { return q ? v[1] : v[0]; }
};

template <class T, int RY>
__global__ void __launch_bounds__(march_pair_threads* RY, 32 / RY)
    gauss_seidel_march_kernel(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                              Bounds box, Bounds cover, Bounds readable, int first, PoissonCoefficients<T> c) {
  constexpr int PY = RY + 2 * march_halo, PX = march_plane_x, FY = RY + 2, FX = march_f_x;
  extern __shared__ __align__(16) unsigned char march_shared[];
  auto* plane = reinterpret_cast<T(*)[PY][PX]>(march_shared);                                  // [slot][y][x] of in
  auto* rhs = reinterpret_cast<T(*)[FY][FX]>(march_shared + sizeof(T) * march_slots * PY * PX);  // [slot][y][x] of f
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long x0 = cover.lo[0] + static_cast<long long>(blockIdx.x) * march_tile_x;
  const long long y0 = cover.lo[1] + static_cast<long long>(blockIdx.y) * RY;
  const long long z_first = cover.lo[2] + static_cast<long long>(blockIdx.z) * march_chunk_z;
  const long long z_last = z_first + march_chunk_z - 1 < cover.hi[2] ? z_first + march_chunk_z - 1 : cover.hi[2];
  const long long z_base = z_first - 2;  // plane p of the march is z_base + p, in slot p % march_slots

  // in around the tile where it may be read; f on the tile and its ring where it is relaxed (box).
  const PlaneShare<PY, PX, RY> in_share(in, readable, x0 - march_halo, y0 - march_halo, ty, tx);
  const PlaneShare<FY, FX, RY> f_share(f, box, x0 - 1, y0 - 1, ty, tx);
  const auto load = [&](int p) {
    const long long k = z_base + p;
    in_share.load(in, readable.holds(2, k), k, &plane[p % march_slots][0][0]);
    f_share.load(f, box.holds(2, k), k, &rhs[p % march_slots][0][0]);
  };

  // A pair of points this thread relaxes in the first colour: (sx, sy) in shared memory; its
  // column of the first colour at step s is parity ^ (s & 1); bit q of `inside`: column q may
  // change (in the box in x and y; the ring's columns hold one).
  struct Role {
    int sx, sy, parity;
    unsigned inside;
  };
  const auto role_at = [&](int sx, int sy, unsigned mask) {
    const long long i = x0 - march_halo + sx, j = y0 - march_halo + sy;
    Role r{sx, sy, static_cast<int>((first + i + j + z_first - 1) & 1), 0u};
    for (int q = 0; q < 2; ++q)
      if ((mask >> q & 1) && box.holds(0, i + q) && box.holds(1, j)) r.inside |= 1u << q;
    return r;
  };
  const Role tile = role_at(march_halo + 2 * tx, march_halo + ty, 3u);
  // The ring: warps 0 and 1 its rows below and above the tile, lanes of warps 2 and 3 its columns
  // left and right (a pair whose outer value is halo, never relaxed).
  Role ring{0, 0, 0, 0u};
  if (ty == 0 || ty == 1)
    ring = role_at(march_halo + 2 * tx, ty == 0 ? march_halo - 1 : march_halo + RY, 3u);
  else if ((ty == 2 || ty == 3) && tx < RY + 2)
    ring = role_at(ty == 2 ? 0 : march_halo + march_tile_x, march_halo - 1 + tx, ty == 2 ? 2u : 1u);

  // The first colour of the plane in slot `now` for a role's pair (`below`, `above`: the slots of
  // its neighbour planes): the value at the pair's column of that colour, new where it may change
  // (and then stored into the slot), as it was elsewhere.
  const auto relax_first = [&](const Role& r, int s, int below, int now, int above, bool z_in) {
    const int col = r.parity ^ (s & 1);
    auto& m = plane[now];
    const int sx = r.sx + col, sy = r.sy;
    T v = m[sy][sx];
    if ((r.inside >> col & 1) && z_in) {
      v = stencil::jacobi_point(m[sy][sx - 1], m[sy][sx + 1], m[sy - 1][sx], m[sy + 1][sx], plane[below][sy][sx],
                                plane[above][sy][sx], rhs[now][sy - 1][sx - 1], c);
      m[sy][sx] = v;
    }
    return v;
  };

  const int steps = static_cast<int>(z_last - z_first) + 3;  // k = z_first - 1 .. z_last + 1
  const int last_plane = steps + 1;
  // Step s relaxes plane k = z_first - 1 + s (p = s + 1), reading planes p - 1 .. p + 1. Planes 0
  // and 1 first, then one commit group a plane: at step s, planes s + 2 .. s + 1 + ahead are in
  // flight and the wait leaves ahead - 1 of them.
  load(0);
  load(1);
  __pipeline_commit();
  for (int a = 0; a < march_ahead; ++a) {
    if (2 + a <= last_plane) load(2 + a);
    __pipeline_commit();
  }
  T first_below = T(0), first_two_below = T(0);  // this thread's first-colour values at k - 1, k - 2
  // Where the thread writes: its row's offset in a plane of out, and which of its columns are in cover.
  const long long out_i = x0 + 2 * tx, out_j = y0 + ty;
  const long long out_offset = (out_j - out.lo[1]) * out.stride[1] + (out_i - out.lo[0]);
  unsigned writable = 0;
  for (int q = 0; q < 2; ++q)
    if (out_j <= cover.hi[1] && out_i + q <= cover.hi[0]) writable |= 1u << q;
  int below = 0, now = 1, above = 2;  // slots of planes p - 1, p, p + 1
  bool z_in_below = false;            // plane k - 1 in the box

  for (int s = 0; s < steps; ++s) {
    const long long k = z_first - 1 + s;
    const int p = s + 1;
    const bool z_in = box.holds(2, k);
    __pipeline_wait_prior(march_ahead - 1);
    __syncthreads();  // plane p + 1 is in; every thread left step s - 1, so slot p - 2 is free
    if (p + 1 + march_ahead <= last_plane) load(p + 1 + march_ahead);
    __pipeline_commit();

    const T first_here = relax_first(tile, s, below, now, above, z_in);
    if (ring.inside) relax_first(ring, s, below, now, above, z_in);

    if (s >= 2) {
      // The second colour of plane k - 1: in this thread's pair, the column that is first at k.
      const int col = tile.parity ^ (s & 1);
      const auto& m = plane[below];
      const int sx = tile.sx + col, sy = tile.sy;
      T second = m[sy][sx];
      if ((tile.inside >> col & 1) && z_in_below)
        second = stencil::jacobi_point(m[sy][sx - 1], m[sy][sx + 1], m[sy - 1][sx], m[sy + 1][sx], first_two_below, first_here,
                                       rhs[below][sy - 1][sx - 1], c);
      T* row = out.data + (k - 1 - out.lo[2]) * out.stride[2] + out_offset;
      if (writable >> col & 1) row[col] = second;
      if (writable >> (1 - col) & 1) row[1 - col] = first_below;
    }
    first_two_below = first_below;
    first_below = first_here;
    z_in_below = z_in;
    below = now;
    now = above;
    above = above + 1 == march_slots ? 0 : above + 1;
  }
}

}  // namespace

template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& readable,
                                          int first, const PoissonCoefficients<T>& c, StreamHandle stream) {
  if (cover.empty()) return;
  constexpr int rows = march_rows<T>;
  GRIDFLOW_REQUIRE(cover.extent(1) / rows < 65535 && cover.extent(2) / march_chunk_z < 65535 && in.stride[2] < (1ll << 31) &&
                       f.stride[2] < (1ll << 31),
                   "multigrid::gauss_seidel_sweep_out_of_place: box too large for the CUDA launch");
  const dim3 block(march_pair_threads, rows);
  const dim3 grid(static_cast<unsigned>((cover.extent(0) + march_tile_x - 1) / march_tile_x),
                  static_cast<unsigned>((cover.extent(1) + rows - 1) / rows),
                  static_cast<unsigned>((cover.extent(2) + march_chunk_z - 1) / march_chunk_z));
  constexpr auto bytes = march_shared_bytes<T, rows>;
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(gauss_seidel_march_kernel<T, rows>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));  // past 48 KiB
  gauss_seidel_march_kernel<T, rows><<<grid, block, bytes, stream>>>(in, out, f, Bounds::of(box), Bounds::of(cover),
                                                                     Bounds::of(readable), first, c);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

#define GRIDFLOW_INSTANTIATE_MARCH_CUDA(T)                                                                             \
  template void gauss_seidel_sweep_out_of_place_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>,              \
                                                        mesh::FieldView<const T, 3>, const mesh::Box<3>&, const mesh::Box<3>&, \
                                                        const mesh::Box<3>&, int, const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MARCH_CUDA(float)
GRIDFLOW_INSTANTIATE_MARCH_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_MARCH_CUDA

}  // namespace gridflow::kernels::multigrid
