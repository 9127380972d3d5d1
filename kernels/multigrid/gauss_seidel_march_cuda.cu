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
//
// Addresses are found once: a thread's copies of a plane are elements tid, tid + threads, ... of
// the window, so their shared offsets are constants and their offsets in the field's plane are
// kept in registers; the relaxations read shared memory at constant offsets from one pointer.
// Finding them every step (cvta, 64-bit index products) had doubled the instructions: ncu at
// 513^3 float on an H200, 1.02e9 against 0.52e9 warp instructions and 1.48 against 0.93 ms a sweep.
#include <cuda_pipeline.h>

#include <cstddef>

#include "kernels/multigrid/bounds_cuda.cuh"
#include "kernels/multigrid/smoother_cuda.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::multigrid {

namespace {

constexpr int march_pair_threads = 32, march_tile_x = 2 * march_pair_threads, march_halo = 2;
constexpr int march_plane_x = march_tile_x + 2 * march_halo, march_f_x = march_tile_x + 2;
constexpr long long march_chunk_z = 64;       // output planes of a block: enough blocks for the device

/// Rows of a tile and planes loaded ahead. Measured on an H200 at 513^3 float (multigrid solve,
/// every sweep of every level): 8 rows, 2 ahead 57.3-57.7 ms; 8 rows, 4 ahead 58.5; 16 rows, 2 or 4
/// ahead 59.6-59.8. The kernel issues about 8 warp instructions a point and ncu finds it issue- and
/// barrier-bound, not waiting on memory, so more planes in flight do not help.
constexpr int march_rows = 8, march_ahead = 2;

template <class T, int RY, int A>
constexpr std::size_t march_shared_bytes = sizeof(T) * (3 + A) * ((RY + 2 * march_halo) * march_plane_x + (RY + 2) * march_f_x);

/// cp.async of one value to shared address `to`, or zeros there where `bytes` is 0 (no load then).
template <class T>
__device__ inline void copy_or_zero(unsigned to, const T* global, unsigned bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(to), "l"(global), "n"(sizeof(T)), "r"(bytes));
}

/// A thread's share of copying a Rows x Cols window of a field's plane into a shared slot of the
/// same shape: elements tid, tid + Threads, ... of the window (row-major, so that is also their
/// offset in the slot); their offsets in a plane of the field, and whether they may be read, found
/// once, so a plane's copies cost an address add each.
template <int Rows, int Cols, int Threads>
struct PlaneShare {
  static constexpr int elements = Rows * Cols, copies = (elements + Threads - 1) / Threads;
  int offset[copies];  // from the plane's point (lo[0], lo[1]) of the view
  unsigned valid = 0;  // bit n: copy n lies in the window and where the field may be read
  unsigned inside = 0; // bit n: copy n lies in the window

  template <class T>
  __device__ PlaneShare(const mesh::FieldView<const T, 3>& v, const Bounds& readable, long long x_first, long long y_first, int tid) {
#pragma unroll
    for (int n = 0; n < copies; ++n) {
      const int e = tid + n * Threads, row = e / Cols, col = e - row * Cols;
      const long long i = x_first + col, j = y_first + row;
      const bool ok = e < elements && readable.holds(1, j) && readable.holds(0, i);
      offset[n] = ok ? static_cast<int>((j - v.lo[1]) * v.stride[1] + (i - v.lo[0])) : 0;
      if (ok) valid |= 1u << n;
      if (e < elements) inside |= 1u << n;
    }
  }

  /// The plane at `plane` into the slot at shared address `slot` (this thread's first element
  /// there), asynchronously; zeros where it may not be read (everywhere unless z_ok).
  template <class T>
  __device__ void load(const T* plane, bool z_ok, unsigned slot) const {
    const unsigned live = z_ok ? valid : 0u;
#pragma unroll
    for (int n = 0; n < copies; ++n) {
      if ((n + 1) * Threads > elements && !(inside >> n & 1)) continue;  // only the last copy can fall outside
      copy_or_zero(slot + static_cast<unsigned>(n * Threads * sizeof(T)), plane + offset[n], (live >> n & 1) * sizeof(T));
    }
  }
};

template <class T, int RY, int A>
__global__ void __launch_bounds__(march_pair_threads* RY, 32 / RY)
    gauss_seidel_march_kernel(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                              Bounds box, Bounds cover, Bounds readable, int first, PoissonCoefficients<T> c) {
  constexpr int PY = RY + 2 * march_halo, PX = march_plane_x, FY = RY + 2, FX = march_f_x, threads = march_pair_threads * RY;
  constexpr int slots = 3 + A, in_slot = PY * PX, f_slot = FY * FX;  // elements of a slot
  extern __shared__ __align__(16) unsigned char march_shared[];
  T* const planes = reinterpret_cast<T*>(march_shared);  // [slot][y][x] of in
  T* const rhs = planes + slots * in_slot;                // [slot][y][x] of f
  const unsigned planes_at = static_cast<unsigned>(__cvta_generic_to_shared(planes));
  const unsigned rhs_at = static_cast<unsigned>(__cvta_generic_to_shared(rhs));
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + march_pair_threads * ty;
  const long long x0 = cover.lo[0] + static_cast<long long>(blockIdx.x) * march_tile_x;
  const long long y0 = cover.lo[1] + static_cast<long long>(blockIdx.y) * RY;
  const long long z_first = cover.lo[2] + static_cast<long long>(blockIdx.z) * march_chunk_z;
  const long long z_last = z_first + march_chunk_z - 1 < cover.hi[2] ? z_first + march_chunk_z - 1 : cover.hi[2];
  const long long z_base = z_first - 2;  // plane p of the march is z_base + p, in slot p % slots

  // in around the tile where it may be read; f on the tile and its ring where it is relaxed (box).
  const PlaneShare<PY, PX, threads> in_share(in, readable, x0 - march_halo, y0 - march_halo, tid);
  const PlaneShare<FY, FX, threads> f_share(f, box, x0 - 1, y0 - 1, tid);
  const auto load = [&](int p) {
    const long long k = z_base + p;
    const int slot = p % slots;
    const bool in_ok = readable.holds(2, k), f_ok = box.holds(2, k);  // else zeros, read from nowhere
    in_share.load(in.data + (in_ok ? (k - in.lo[2]) * in.stride[2] : 0), in_ok,
                  planes_at + static_cast<unsigned>((slot * in_slot + tid) * sizeof(T)));
    f_share.load(f.data + (f_ok ? (k - f.lo[2]) * f.stride[2] : 0), f_ok, rhs_at + static_cast<unsigned>((slot * f_slot + tid) * sizeof(T)));
  };

  // A pair of points this thread relaxes in the first colour: its left point's offset in a slot of
  // in and of f; its column of the first colour at step s is parity ^ (s & 1); bit q of `inside`:
  // column q may change (in the box in x and y; the ring's columns hold one).
  struct Role {
    int at, f_at, parity;
    unsigned inside;
  };
  const auto role_at = [&](int sx, int sy, unsigned mask) {
    const long long i = x0 - march_halo + sx, j = y0 - march_halo + sy;
    Role r{sy * PX + sx, (sy - 1) * FX + (sx - 1), static_cast<int>((first + i + j + z_first - 1) & 1), 0u};
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
  // its neighbour planes, as offsets from `now`): the value at the pair's column of that colour,
  // new where it may change (and then stored into the slot), as it was elsewhere.
  const auto relax_first = [&](const Role& r, int s, int now, int below, int above, const T* f_now, bool z_in) {
    const int col = r.parity ^ (s & 1);
    T* m = planes + now + r.at + col;
    T v = *m;
    if ((r.inside >> col & 1) && z_in) {
      v = stencil::jacobi_point(m[-1], m[1], m[-PX], m[PX], m[below], m[above], f_now[r.f_at + col], c);
      *m = v;
    }
    return v;
  };

  const int steps = static_cast<int>(z_last - z_first) + 3;  // k = z_first - 1 .. z_last + 1
  const int last_plane = steps + 1;
  // Step s relaxes plane k = z_first - 1 + s (p = s + 1), reading planes p - 1 .. p + 1. Planes 0
  // and 1 first, then one commit group a plane: at step s, planes s + 2 .. s + 1 + A are in flight
  // and the wait leaves A - 1 of them.
  load(0);
  load(1);
  __pipeline_commit();
  for (int a = 0; a < A; ++a) {
    if (2 + a <= last_plane) load(2 + a);
    __pipeline_commit();
  }
  T first_below = T(0), first_two_below = T(0);  // this thread's first-colour values at k - 1, k - 2
  // Where the thread writes plane z_first (then one plane further each step), and which of its
  // columns are in cover.
  T* row = out.data + (z_first - out.lo[2]) * out.stride[2] + (y0 + ty - out.lo[1]) * out.stride[1] + (x0 + 2 * tx - out.lo[0]);
  unsigned writable = 0;
  for (int q = 0; q < 2; ++q)
    if (y0 + ty <= cover.hi[1] && x0 + 2 * tx + q <= cover.hi[0]) writable |= 1u << q;
  int below = 0, now = 1, above = 2;  // slots of planes p - 1, p, p + 1
  bool z_in_below = false;            // plane k - 1 in the box

  for (int s = 0; s < steps; ++s) {
    const long long k = z_first - 1 + s;
    const int p = s + 1;
    const bool z_in = box.holds(2, k);
    __pipeline_wait_prior(A - 1);
    __syncthreads();  // plane p + 1 is in; every thread left step s - 1, so slot p - 2 is free
    if (p + 1 + A <= last_plane) load(p + 1 + A);
    __pipeline_commit();

    const int at_now = now * in_slot, to_below = (below - now) * in_slot, to_above = (above - now) * in_slot;
    const T* f_now = rhs + now * f_slot;
    const T first_here = relax_first(tile, s, at_now, to_below, to_above, f_now, z_in);
    if (ring.inside) relax_first(ring, s, at_now, to_below, to_above, f_now, z_in);

    if (s >= 2) {
      // The second colour of plane k - 1: in this thread's pair, the column that is first at k.
      const int col = tile.parity ^ (s & 1);
      const T* m = planes + below * in_slot + tile.at + col;
      T second = *m;
      if ((tile.inside >> col & 1) && z_in_below)
        second = stencil::jacobi_point(m[-1], m[1], m[-PX], m[PX], first_two_below, first_here, rhs[below * f_slot + tile.f_at + col], c);
      if (writable >> col & 1) row[col] = second;
      if (writable >> (1 - col) & 1) row[1 - col] = first_below;
      row += out.stride[2];
    }
    first_two_below = first_below;
    first_below = first_here;
    z_in_below = z_in;
    below = now;
    now = above;
    above = above + 1 == slots ? 0 : above + 1;
  }
}

}  // namespace

template <class T, int RY, int A>
void launch_march(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                  const mesh::Box<3>& cover, const mesh::Box<3>& readable, int first, const PoissonCoefficients<T>& c,
                  StreamHandle stream) {
  GRIDFLOW_REQUIRE(cover.extent(1) / RY < 65535 && cover.extent(2) / march_chunk_z < 65535 && in.stride[2] < (1ll << 31) &&
                       f.stride[2] < (1ll << 31),
                   "multigrid::gauss_seidel_sweep_out_of_place: box too large for the CUDA launch");
  const dim3 block(march_pair_threads, RY);
  const dim3 grid(static_cast<unsigned>((cover.extent(0) + march_tile_x - 1) / march_tile_x),
                  static_cast<unsigned>((cover.extent(1) + RY - 1) / RY),
                  static_cast<unsigned>((cover.extent(2) + march_chunk_z - 1) / march_chunk_z));
  constexpr auto bytes = march_shared_bytes<T, RY, A>;
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(gauss_seidel_march_kernel<T, RY, A>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));  // past 48 KiB
  gauss_seidel_march_kernel<T, RY, A><<<grid, block, bytes, stream>>>(in, out, f, Bounds::of(box), Bounds::of(cover),
                                                                      Bounds::of(readable), first, c);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& readable,
                                          int first, const PoissonCoefficients<T>& c, StreamHandle stream) {
  if (cover.empty()) return;
  launch_march<T, march_rows, march_ahead>(in, out, f, box, cover, readable, first, c, stream);
}

#define GRIDFLOW_INSTANTIATE_MARCH_CUDA(T)                                                                             \
  template void gauss_seidel_sweep_out_of_place_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>,              \
                                                        mesh::FieldView<const T, 3>, const mesh::Box<3>&, const mesh::Box<3>&, \
                                                        const mesh::Box<3>&, int, const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MARCH_CUDA(float)
GRIDFLOW_INSTANTIATE_MARCH_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_MARCH_CUDA

}  // namespace gridflow::kernels::multigrid
