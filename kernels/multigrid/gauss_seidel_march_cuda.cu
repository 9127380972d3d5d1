// One whole red-black Gauss-Seidel sweep out of place, marching z (the CUDA variant of
// gauss_seidel_sweep_out_of_place, and of its first sweep from zero).
//
// A block of 8 warps owns a tile of 64 x 8 output points; each thread owns two adjacent columns
// of one row, so in every plane one of its two points has the first colour and the other the
// second, and a warp (one row) takes the same column of its pairs at each step. Shared memory
// keeps five z-planes of `in` around the tile (2 points of halo in y, a 16-byte vector in x) and
// of f (1 point in y), filled by cp.async two planes ahead. Step k relaxes the first colour of
// plane k on the tile and on its 1-point ring (the ring is recomputed, not read from the
// neighbouring block, which may already have written it), then the second colour of plane k-1,
// and writes plane k-1. The first-colour values a thread's second-colour point needs above and
// below are its own (the colour of a column flips from plane to plane), so they come from
// registers; those in the plane come from shared memory, written the step before: one barrier a
// step. Every point takes jacobi_point of the same values as in the two in-place colour sweeps:
// equal bitwise. From zero, in is not read at all: the first colour relaxes from zero neighbours.
//
// Addresses are found once: a thread's copies of a plane are vectors tid, tid + threads, ... of
// the window, so their shared offsets are constants and their offsets in the field's plane are
// kept in registers; the relaxations read shared memory at constant offsets from one pointer.
// Finding them every step (cvta, 64-bit index products) had doubled the instructions: ncu at
// 513^3 float on an H200, 1.02e9 against 0.52e9 warp instructions and 1.48 against 0.93 ms a sweep.
// The copies are whole 16-byte vectors of the fields' aligned rows (tiles start a vector after an
// aligned column), 2 a thread and plane in float where 7 single values had been.
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/multigrid/bounds_cuda.cuh"
#include "kernels/multigrid/smoother_cuda.hpp"
#include "kernels/multigrid/walk_length.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::multigrid {

namespace {

constexpr int march_pair_threads = 32, march_tile_x = 2 * march_pair_threads, march_halo = 2;
// Output planes of a block: 64, fewer where the grid holds few blocks (walk_length); each chunk
// costs two planes recomputed and four loaded more.
constexpr long long march_chunk_z = 64, march_chunk_min = 4, march_blocks_wanted = 1024;

/// Values of T in a 16-byte vector: the copies' unit, and the x halo of a window on each side (the
/// stencil needs 2 points; a whole vector keeps every copy aligned).
template <class T>
constexpr int march_vector = 16 / static_cast<int>(sizeof(T));
/// Values of a window's row in shared memory: the tile's 64 columns and a vector on each side.
template <class T>
constexpr int march_window_x = march_tile_x + 2 * march_vector<T>;

/// A block: march_rows warps, a warp a row of 32 pairs, so a tile of 64 x march_rows points;
/// planes loaded ahead: march_ahead. Measured at 513^3 (multigrid solve, every sweep of every
/// level): on an H200, 8 rows, 2 ahead 57.3-57.7 ms; 4 ahead 58.5; 16 rows, 2 or 4 ahead 59.6-59.8
/// (single-value copies then); on an H100 with vector copies, 8 rows 62.2 ms, and 8 warps of two
/// rows each (tiles of 64 x 16) 68.8. ncu finds the kernel issue- and barrier-bound, not waiting on
/// memory, so more planes in flight do not help.
constexpr int march_rows = 8, march_threads = march_pair_threads * march_rows, march_ahead = 2;

template <class T>
constexpr std::size_t march_shared_bytes = sizeof(T) * (3 + march_ahead) * ((march_rows + 2 * march_halo) + (march_rows + 2)) * march_window_x<T>;

/// Blocks an SM holds at once (at most four: 64 registers a thread), as its shared memory allows.
template <class T>
constexpr int march_blocks = march_shared_bytes<T> * 4 <= 227 * 1024 ? 4 : march_shared_bytes<T> * 3 <= 227 * 1024 ? 3 : 2;

/// cp.async of one 16-byte vector to shared address `to`, or zeros there where `bytes` is 0 (no
/// load then).
__device__ inline void copy_or_zero(unsigned to, const void* global, unsigned bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(global), "r"(bytes));
}

/// A thread's share of copying a Rows x (vectors of one window row) window of a field's plane
/// into a shared slot of the same shape: vectors tid, tid + Threads, ... of the window (row-major,
/// so vector e lies at e * 16 bytes of the slot); their offsets in a plane of the field, and
/// whether they lie in its allocation, found once, so a plane's copies cost an address add each.
/// Values outside the field's ghosted box are copied too (padding, or the next row's start): no
/// relaxation reads them and no store writes them.
template <class T, int Rows, int Threads>
struct PlaneShare {
  static constexpr int row_vectors = march_window_x<T> / march_vector<T>, vectors = Rows * row_vectors;
  static constexpr int copies = (vectors + Threads - 1) / Threads;
  int offset[copies];  // from the plane's point (lo[0], lo[1]) of the view
  unsigned valid = 0;   // bit n: copy n lies in the window and in the allocation
  unsigned inside = 0;  // bit n: copy n lies in the window

  __device__ PlaneShare(const mesh::FieldView<const T, 3>& v, const Bounds& allocation, long long x_first, long long y_first, int tid) {
#pragma unroll
    for (int n = 0; n < copies; ++n) {
      const int e = tid + n * Threads, row = e / row_vectors, col = (e - row * row_vectors) * march_vector<T>;
      const long long i = x_first + col, j = y_first + row;
      const bool ok = e < vectors && allocation.holds(1, j) && allocation.holds(0, i);
      offset[n] = ok ? static_cast<int>((j - v.lo[1]) * v.stride[1] + (i - v.lo[0])) : 0;
      if (ok) valid |= 1u << n;
      if (e < vectors) inside |= 1u << n;
    }
  }

  /// The plane at `plane` into the slot at shared address `slot` (this thread's first vector
  /// there), asynchronously; zeros outside the allocation (everywhere unless z_ok).
  __device__ void load(const T* plane, bool z_ok, unsigned slot) const {
    const unsigned live = z_ok ? valid : 0u;
#pragma unroll
    for (int n = 0; n < copies; ++n) {
      if ((n + 1) * Threads > vectors && !(inside >> n & 1)) continue;  // only the last copy can fall outside
      copy_or_zero(slot + static_cast<unsigned>(n * Threads * 16), plane + offset[n], (live >> n & 1) * 16u);
    }
  }
};

/// In place of a PlaneShare where the field is known to be zero: nothing copied.
template <class T>
struct NoShare {
  __device__ NoShare(const mesh::FieldView<const T, 3>&, const Bounds&, long long, long long, int) {}
  __device__ void load(const T*, bool, unsigned) const {}
};

template <class T, bool FromZero>
__global__ void __launch_bounds__(march_threads, march_blocks<T>)
    gauss_seidel_march_kernel(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                              Bounds box, Bounds cover, Bounds in_allocation, Bounds f_allocation, long long x_start,
                              long long chunk_z, int first, PoissonCoefficients<T> c) {
  constexpr int V = march_vector<T>, RY = march_rows, PX = march_window_x<T>, threads = march_threads, A = march_ahead;
  constexpr int PY = RY + 2 * march_halo, FY = RY + 2;
  constexpr int slots = 3 + A, in_slot = PY * PX, f_slot = FY * PX;  // elements of a slot
  extern __shared__ __align__(16) unsigned char march_shared[];
  T* const planes = reinterpret_cast<T*>(march_shared);  // [slot][y][x] of in
  T* const rhs = planes + slots * in_slot;                // [slot][y][x] of f
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + march_pair_threads * ty;
  const long long x0 = x_start + static_cast<long long>(blockIdx.x) * march_tile_x;  // x0 - V: a vector's first value
  const long long y0 = cover.lo[1] + static_cast<long long>(blockIdx.y) * RY;
  const long long z_first = cover.lo[2] + static_cast<long long>(blockIdx.z) * chunk_z;
  const long long z_last = z_first + chunk_z - 1 < cover.hi[2] ? z_first + chunk_z - 1 : cover.hi[2];
  const long long z_base = z_first - 2;  // plane p of the march is z_base + p, in slot p % slots

  // Windows of the same columns, x0 - V .. x0 + 63 + V: in on rows y0 - 2 .. y0 + RY + 1, f on
  // the tile's rows and its ring's, y0 - 1 .. y0 + RY (so f's row r + 1 is in's row r + 2, one
  // window row less). Plane p's copies go to slot `slot` at these shared addresses; the planes'
  // pointers advance a plane's stride per load.
  using InShare = std::conditional_t<FromZero, NoShare<T>, PlaneShare<T, PY, threads>>;
  const InShare in_share(in, in_allocation, x0 - V, y0 - march_halo, tid);
  const PlaneShare<T, FY, threads> f_share(f, f_allocation, x0 - V, y0 - 1, tid);
  const unsigned in_at = static_cast<unsigned>(__cvta_generic_to_shared(planes)) + tid * 16u;
  const unsigned f_at = static_cast<unsigned>(__cvta_generic_to_shared(rhs)) + tid * 16u;
  const T* in_plane = in.data + (z_base - in.lo[2]) * in.stride[2];
  const T* f_plane = f.data + (z_base - f.lo[2]) * f.stride[2];
  long long next_k = z_base;
  int load_slot = 0;
  const auto load_next = [&] {
    const bool in_ok = in_allocation.holds(2, next_k), f_ok = f_allocation.holds(2, next_k);  // else zeros, read from nowhere
    in_share.load(in_ok ? in_plane : in.data, in_ok, in_at + static_cast<unsigned>(load_slot * in_slot * sizeof(T)));
    f_share.load(f_ok ? f_plane : f.data, f_ok, f_at + static_cast<unsigned>(load_slot * f_slot * sizeof(T)));
    in_plane += in.stride[2];
    f_plane += f.stride[2];
    ++next_k;
    load_slot = load_slot + 1 == slots ? 0 : load_slot + 1;
  };

  // A pair of points this thread relaxes in the first colour: its left point's offset in a slot of
  // in and of f; its column of the first colour at step s is parity ^ (s & 1); bit q of `inside`:
  // column q may change (in the box in x and y; the ring's columns hold one).
  struct Role {
    int at, f_at, parity;
    unsigned inside;
  };
  const auto role_at = [&](int sx, int sy, unsigned mask) {  // window column sx, in's window row sy
    const long long i = x0 - V + sx, j = y0 - march_halo + sy;
    Role r{sy * PX + sx, (sy - 1) * PX + sx, static_cast<int>((first + i + j + z_first - 1) & 1), 0u};
    for (int q = 0; q < 2; ++q)
      if ((mask >> q & 1) && box.holds(0, i + q) && box.holds(1, j)) r.inside |= 1u << q;
    return r;
  };
  const Role tile = role_at(V + 2 * tx, march_halo + ty, 3u);
  // The ring: warps 0 and 1 its rows below and above the tile, lanes of warps 2 and 3 its columns
  // left and right (a pair whose outer value is halo, never relaxed).
  static_assert(RY >= 4 && RY + 2 <= march_pair_threads, "the ring takes two warps' rows and two warps' lanes");
  Role ring{0, 0, 0, 0u};
  const bool has_ring = ty < 2 || (ty < 4 && tx < RY + 2);
  if (ty < 2)
    ring = role_at(V + 2 * tx, ty == 0 ? march_halo - 1 : march_halo + RY, 3u);
  else if (has_ring)
    ring = role_at(ty == 2 ? V - 2 : V + march_tile_x, march_halo - 1 + tx, ty == 2 ? 2u : 1u);

  // The first colour of the plane at `now` (an element offset of the slots) for a role's pair
  // (`below`, `above`: its neighbour planes, as offsets from `now`): the value at the pair's column
  // of that colour, new where it may change (and then stored into the slot), as it was elsewhere.
  // From zero, in is not read: the value is relaxed from zero neighbours, or zero, and always
  // stored (the slot holds the last plane's values).
  const auto relax_first = [&](const Role& r, int s, int now, int below, int above, const T* f_now, bool z_in) {
    const int col = r.parity ^ (s & 1);
    T* m = planes + now + r.at + col;
    if constexpr (FromZero) {
      const T zero = T(0);
      const T v = (r.inside >> col & 1) && z_in ? stencil::jacobi_point(zero, zero, zero, zero, zero, zero, f_now[r.f_at + col], c) : zero;
      *m = v;
      return v;
    }
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
  load_next();
  load_next();
  __pipeline_commit();
  for (int a = 0; a < A; ++a) {
    if (2 + a <= last_plane) load_next();
    __pipeline_commit();
  }
  T first_below = T(0), first_two_below = T(0);  // this thread's first-colour values at k - 1, k - 2
  // Where the thread writes plane z_first (then one plane further each step), and which of its
  // columns are in cover.
  T* row = out.data + (z_first - out.lo[2]) * out.stride[2] + (y0 + ty - out.lo[1]) * out.stride[1] + (x0 + 2 * tx - out.lo[0]);
  unsigned writable = 0;
  for (int q = 0; q < 2; ++q)
    if (y0 + ty <= cover.hi[1] && cover.holds(0, x0 + 2 * tx + q)) writable |= 1u << q;
  int below = 0, now = in_slot, above = 2 * in_slot;  // element offsets of planes p - 1, p, p + 1's slots
  int f_below = 0, f_now = f_slot, f_above = 2 * f_slot;
  bool z_in_below = false;  // plane k - 1 in the box

  for (int s = 0; s < steps; ++s) {
    const long long k = z_first - 1 + s;
    const bool z_in = box.holds(2, k);
    __pipeline_wait_prior(A - 1);
    __syncthreads();  // plane p + 1 is in; every thread left step s - 1, so slot p - 2 is free
    if (s + 2 + A <= last_plane) load_next();
    __pipeline_commit();

    const int to_below = below - now, to_above = above - now;
    const T first_here = relax_first(tile, s, now, to_below, to_above, rhs + f_now, z_in);
    if (FromZero ? has_ring : ring.inside != 0u) relax_first(ring, s, now, to_below, to_above, rhs + f_now, z_in);

    if (s >= 2) {
      // The second colour of plane k - 1: in this thread's pair, the column that is first at k.
      const int col = tile.parity ^ (s & 1);
      const T* m = planes + below + tile.at + col;
      T second = FromZero ? T(0) : *m;
      if ((tile.inside >> col & 1) && z_in_below)
        second = stencil::jacobi_point(m[-1], m[1], m[-PX], m[PX], first_two_below, first_here, rhs[f_below + tile.f_at + col], c);
      if (writable >> col & 1) row[col] = second;
      if (writable >> (1 - col) & 1) row[1 - col] = first_below;
      row += out.stride[2];
    }
    first_two_below = first_below;
    first_below = first_here;
    z_in_below = z_in;
    below = now;
    now = above;
    above = above + in_slot == slots * in_slot ? 0 : above + in_slot;
    f_below = f_now;
    f_now = f_above;
    f_above = f_above + f_slot == slots * f_slot ? 0 : f_above + f_slot;
  }
}

/// Whether a view's values at x, rows and planes apart by its strides, start 16-byte vectors.
template <class T>
bool vectors_at(const mesh::FieldView<const T, 3>& v, long long x) {
  const auto address = reinterpret_cast<std::uintptr_t>(v.data + (x - v.lo[0]));
  return address % 16 == 0 && v.stride[1] % march_vector<T> == 0 && v.stride[2] % march_vector<T> == 0;
}

template <class T, bool FromZero>
void launch_march(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                  const mesh::Box<3>& cover, const mesh::Box<3>& in_allocation, const mesh::Box<3>& f_allocation, int first,
                  const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::gauss_seidel_sweep_out_of_place";
  constexpr int RY = march_rows;
  GRIDFLOW_REQUIRE(cover.extent(1) / RY < 65535 && cover.extent(2) / march_chunk_min < 65535 && in.stride[2] < (1ll << 31) &&
                       f.stride[2] < (1ll << 31),
                   std::string(name) + ": box too large for the CUDA launch");
  // Tiles start where x0 - V begins a vector of f's allocation (its rows are whole vectors), and
  // of in's unless in is not read.
  constexpr long long V = march_vector<T>;
  const long long x_start = cover.lo[0] - ((cover.lo[0] - f_allocation.lo[0]) % V + V) % V;
  GRIDFLOW_REQUIRE(vectors_at(f, x_start - V) && f_allocation.extent(0) % V == 0 &&
                       (FromZero || (vectors_at(in, x_start - V) && in_allocation.extent(0) % V == 0)),
                   std::string(name) + ": the CUDA variant needs rows of whole, aligned 16-byte vectors");
  const long long tiles_x = (cover.hi[0] + 1 - x_start + march_tile_x - 1) / march_tile_x, tiles_y = (cover.extent(1) + RY - 1) / RY;
  const long long chunk = walk_length(march_chunk_z, march_chunk_min, tiles_x * tiles_y, cover.extent(2), march_blocks_wanted);
  const dim3 block(march_pair_threads, march_rows);
  const dim3 grid(static_cast<unsigned>(tiles_x), static_cast<unsigned>(tiles_y),
                  static_cast<unsigned>((cover.extent(2) + chunk - 1) / chunk));
  constexpr auto bytes = march_shared_bytes<T>;
  const auto kernel = gauss_seidel_march_kernel<T, FromZero>;
  GRIDFLOW_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));  // past 48 KiB
  kernel<<<grid, block, bytes, stream>>>(in, out, f, Bounds::of(box), Bounds::of(cover), Bounds::of(in_allocation),
                                         Bounds::of(f_allocation), x_start, chunk, first, c);
  GRIDFLOW_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

template <class T>
void gauss_seidel_sweep_out_of_place_cuda(mesh::FieldView<const T, 3> in, mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f,
                                          const mesh::Box<3>& box, const mesh::Box<3>& cover, const mesh::Box<3>& in_allocation,
                                          const mesh::Box<3>& f_allocation, int first, const PoissonCoefficients<T>& c,
                                          StreamHandle stream) {
  if (cover.empty()) return;
  launch_march<T, false>(in, out, f, box, cover, in_allocation, f_allocation, first, c, stream);
}

template <class T>
void gauss_seidel_sweep_out_of_place_from_zero_cuda(mesh::FieldView<T, 3> out, mesh::FieldView<const T, 3> f, const mesh::Box<3>& box,
                                                    const mesh::Box<3>& cover, const mesh::Box<3>& f_allocation, int first,
                                                    const PoissonCoefficients<T>& c, StreamHandle stream) {
  if (cover.empty()) return;
  launch_march<T, true>(f, out, f, box, cover, f_allocation, f_allocation, first, c, stream);  // in: f, never read
}

#define GRIDFLOW_INSTANTIATE_MARCH_CUDA(T)                                                                             \
  template void gauss_seidel_sweep_out_of_place_cuda<T>(mesh::FieldView<const T, 3>, mesh::FieldView<T, 3>,              \
                                                        mesh::FieldView<const T, 3>, const mesh::Box<3>&, const mesh::Box<3>&, \
                                                        const mesh::Box<3>&, const mesh::Box<3>&, int, const PoissonCoefficients<T>&, \
                                                        StreamHandle);                                                   \
  template void gauss_seidel_sweep_out_of_place_from_zero_cuda<T>(mesh::FieldView<T, 3>, mesh::FieldView<const T, 3>,             \
                                                                  const mesh::Box<3>&, const mesh::Box<3>&, const mesh::Box<3>&, \
                                                                  int, const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_MARCH_CUDA(float)
GRIDFLOW_INSTANTIATE_MARCH_CUDA(double)
#undef GRIDFLOW_INSTANTIATE_MARCH_CUDA

}  // namespace gridflow::kernels::multigrid
