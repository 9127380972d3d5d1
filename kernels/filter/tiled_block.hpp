#pragma once
// The tiled variant's work for one block, as plain functions of (block, thread): the CUDA kernel
// (correlate_cuda.cu) calls the phases with __syncthreads() between them, and the unit tests run
// the same phases thread after thread on the host, so the tiling is checked on machines without
// a GPU too. No CUDA syntax outside __CUDA_ARCH__.
//
// One block: its tile plus the reach is loaded once into shared memory (s0), mapped by the mode at
// the global edges; the x pass writes s1 (tile_x x rows x planes), the y pass writes back into s0
// (3D) or the output (2D), the z pass the output. Each output is the same chain of a product and
// fused multiply-adds as in axis_pass_point, so the results equal the host reference's bit for
// bit. Under `constant`, a row or plane outside the global array holds cval after the passes
// across it (the reference never filters outside the array: its later passes read cval there).
#include <array>
#include <cstddef>
#include <vector>

#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/filter_tunables.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/box.hpp"
#include "mesh/check.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

// `GRIDFLOW_FILTER_UNROLL` for nvcc only: host compilers would warn about an unknown pragma.
#if defined(__CUDA_ARCH__)
#define GRIDFLOW_FILTER_UNROLL _Pragma("unroll")
#else
#define GRIDFLOW_FILTER_UNROLL
#endif

namespace gridflow::kernels::filter {

/// The weights of the three axes (1 past the filter's axes), converted to T.
template <class T>
struct AxisWeights {
  T w[3][max_axis_length];
  int length[3];
};

/// Everything a tiled launch passes its blocks (by value: the kernel's parameters).
template <class T, int Dim>
struct TiledArgs {
  mesh::FieldView<const T, Dim> in;
  mesh::FieldView<T, Dim> out;
  long long ulo[3], un[3];  ///< the update box (2D: z is 0..0)
  long long glo[3], gn[3];  ///< the global array (2D: z is 0..0)
  int tile[3];              ///< outputs per block per axis
  long long blocks[3];      ///< blocks per axis
  BoundaryMode mode;
  T cval;
  AxisWeights<T> w;
};

/// Outputs per block of a tiled launch on `update` along each axis: the tunables' tile clamped to
/// the box, x widened by what y and z lost to the clamp (z is 1 in 2D).
template <int Dim>
std::array<int, 3> tile_extents(const FilterTunables& t, const mesh::Box<Dim>& update) {
  const long long wanted[3] = {t.tile_x, t.tile_y, Dim == 3 ? t.tile_z : 1};
  const long long extent[3] = {update.extent(0), update.extent(1), Dim == 3 ? update.extent(Dim - 1) : 1};
  std::array<int, 3> tile{1, 1, 1};
  long long lost = 1;
  for (int d = 1; d < 3; ++d) {
    tile[d] = static_cast<int>(wanted[d] < extent[d] ? wanted[d] : extent[d]);
    lost *= wanted[d] / tile[d];
  }
  const long long x = wanted[0] * lost;
  tile[0] = static_cast<int>(x < extent[0] ? x : extent[0]);
  return tile;
}

/// The length the unrolled variant's loops are compiled for: the one length of every axis longer
/// than 1 when it is one of those instantiated (3, 5, 9: sizes and sigma 1; 33: sigma 4), else 1
/// (loops over the weights at run time).
inline int unrolled_length(const std::array<int, 3>& length) {
  int k = 1;
  for (int d = 0; d < 3; ++d) {
    if (length[d] == 1) continue;
    if (k != 1 && length[d] != k) return 1;
    k = length[d];
  }
  return k == 3 || k == 5 || k == 9 || k == 33 ? k : 1;
}

/// Shared memory of a tiled block with outputs `tile` and weights of `length` per axis (1 past
/// the filter's axes): the input tile with its halo, and the x pass's rows unless the x pass
/// writes the output itself (a 2D filter that leaves y alone: half the memory, more blocks).
template <int Dim>
std::size_t tiled_shared_bytes(const std::array<int, 3>& tile, const std::array<int, 3>& length, std::size_t value_bytes) {
  const std::size_t e1 = tile[1] + length[1] - 1, e2 = tile[2] + length[2] - 1;
  const std::size_t x_rows = Dim == 2 && length[1] == 1 ? 0 : tile[0];
  return (static_cast<std::size_t>(tile[0] + length[0] - 1) + x_rows) * e1 * e2 * value_bytes;
}

/// The arguments of a tiled launch (host side): weights converted, tile clamped, blocks counted.
template <class T, int Dim>
TiledArgs<T, Dim> tiled_args(const FilterTunables& tunables, mesh::FieldView<const T, Dim> in, mesh::FieldView<T, Dim> out,
                             const mesh::Box<Dim>& update, const std::array<std::vector<double>, Dim>& axis, const Extension<Dim>& e,
                             T cval) {
  TiledArgs<T, Dim> a{};
  a.in = in;
  a.out = out;
  a.mode = e.mode;
  a.cval = cval;
  const std::vector<double> one{1.0};
  for (int d = 0; d < 3; ++d) {
    const std::vector<double>& w = d < Dim ? axis[d] : one;
    GRIDFLOW_REQUIRE(!w.empty() && static_cast<int>(w.size()) <= max_axis_length, "filter weights longer than max_axis_length");
    a.w.length[d] = static_cast<int>(w.size());
    for (std::size_t j = 0; j < w.size(); ++j) a.w.w[d][j] = static_cast<T>(w[j]);
  }
  const std::array<int, 3> tile = tile_extents<Dim>(tunables, update);
  for (int d = 0; d < 3; ++d) {
    a.ulo[d] = d < Dim ? update.lo[d] : 0;
    a.un[d] = d < Dim ? update.extent(d) : 1;
    a.glo[d] = d < Dim ? e.lo[d] : 0;
    a.gn[d] = d < Dim ? e.n[d] : 1;
    a.tile[d] = tile[d];
    a.blocks[d] = (a.un[d] + tile[d] - 1) / tile[d];
  }
  return a;
}

template <class T>
GRIDFLOW_HOST_DEVICE inline T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

/// One block's geometry.
template <class T, int Dim>
struct TileFrame {
  int L[3], t[3], e[3];
  long long o[3];  ///< global index of the block's first output
  long long b[3];  ///< global index of its tile's first element (o minus the low reach)
  GRIDFLOW_HOST_DEVICE TileFrame(const TiledArgs<T, Dim>& a, const long long (&block)[3]) {
    for (int d = 0; d < 3; ++d) {
      L[d] = a.w.length[d];
      t[d] = a.tile[d];
      e[d] = t[d] + L[d] - 1;
      o[d] = a.ulo[d] + block[d] * t[d];
      b[d] = o[d] - L[d] / 2;
    }
  }
  /// Whether some output of the update box reads global index g along axis d.
  GRIDFLOW_HOST_DEVICE bool needed(const TiledArgs<T, Dim>& a, long long g, int d) const {
    return g >= a.ulo[d] - L[d] / 2 && g <= a.ulo[d] + a.un[d] - 1 + (L[d] - 1 - L[d] / 2);
  }
  GRIDFLOW_HOST_DEVICE static bool outside(const TiledArgs<T, Dim>& a, long long g, int d) {
    return g < a.glo[d] || g >= a.glo[d] + a.gn[d];
  }
  /// Whether the whole tile with its halo lies in the global array and is needed: its loads need
  /// no mode mapping and no checks (most blocks of a large array).
  GRIDFLOW_HOST_DEVICE bool interior(const TiledArgs<T, Dim>& a) const {
    bool in = true;
    for (int d = 0; d < 3; ++d) {
      const long long last = b[d] + e[d] - 1;
      in = in && !outside(a, b[d], d) && !outside(a, last, d) && needed(a, b[d], d) && needed(a, last, d);
    }
    return in;
  }
  GRIDFLOW_HOST_DEVICE bool inside_update(const TiledArgs<T, Dim>& a, int x, int y, int z) const {
    return o[0] + x < a.ulo[0] + a.un[0] && o[1] + y < a.ulo[1] + a.un[1] && o[2] + z < a.ulo[2] + a.un[2];
  }
};

/// How a block's threads cover rows of `width` values: whole warps along x, so each warp reads and
/// writes consecutive addresses; rows wider than the block take the whole block per row.
struct RowLanes {
  int lanes, lane, group, groups;
  GRIDFLOW_HOST_DEVICE RowLanes(int width, int tid, int threads) {
    lanes = width >= threads ? threads : 32;
    lane = tid % lanes;
    group = tid / lanes;
    groups = threads / lanes;
  }
};

/// Calls body(row, x) for every x < width of rows [0, rows), 32 consecutive x per warp. Spread
/// deals (row, 32-wide chunk) pairs over all warps, so no warp idles when a phase has fewer row
/// groups than the block has warps (a 32-row tile with 4 cells has 8 in the y pass); otherwise
/// each warp (or the whole block, for rows wider than it) takes whole rows.
template <bool Spread, class Body>
GRIDFLOW_HOST_DEVICE inline void for_rows(int rows, int width, int tid, int threads, Body&& body) {
  const RowLanes r(width, tid, threads);
  if constexpr (Spread) {
    // (row, chunk) advance by `groups` items with a carry, not a division per item.
    const int chunks = (width + r.lanes - 1) / r.lanes;
    const int step_row = r.groups / chunks, step_chunk = r.groups % chunks;
    int row = r.group / chunks, chunk = r.group % chunks;
    while (row < rows) {
      const int x = chunk * r.lanes + r.lane;
      if (x < width) body(row, x);
      row += step_row;
      chunk += step_chunk;
      if (chunk >= chunks) {
        chunk -= chunks;
        ++row;
      }
    }
  } else {
    for (int row = r.group; row < rows; row += r.groups)
      for (int x = r.lane; x < width; x += r.lanes) body(row, x);
  }
}

/// A weights' length known at compile time (std::integral_constant's conversion is host-only).
template <int N>
struct FixedLength {
  GRIDFLOW_HOST_DEVICE constexpr operator int() const { return N; }
};

/// Calls f with the weights' length: as a compile-time constant when it is K (the loops over the
/// weights unroll, each weight an immediate operand from the constant bank), else as an int.
template <int K, class F>
GRIDFLOW_HOST_DEVICE inline void with_length(int length, F&& f) {
  if constexpr (K > 0) {
    if (length == K) return f(FixedLength<K>{});
  }
  f(length);
}

/// C consecutive outputs along a column of shared memory (values `stride` apart, output c at
/// src[c * stride]): s[c] = sum_j w[j] src[(c + j) * stride], as axis_pass_point sums them. The C
/// values under the weights slide through registers, so each value read from shared memory serves
/// C outputs. Only the first `readable` values of the column exist; outputs that would need more
/// are garbage and not stored by the caller.
template <class T, int C, class Length>
GRIDFLOW_HOST_DEVICE inline void column_outputs(T (&s)[C], const T* w, Length length, const T* src, int stride, int readable) {
  T window[C];
  // Most columns hold every value the C outputs read: no check per load there.
  const bool all = readable >= C - 1 + length;
GRIDFLOW_FILTER_UNROLL
  for (int c = 0; c < C; ++c) {
    window[c] = all || c < readable ? src[c * stride] : T(0);
    s[c] = w[0] * window[c];
  }
GRIDFLOW_FILTER_UNROLL
  for (int j = 1; j < length; ++j) {
GRIDFLOW_FILTER_UNROLL
    for (int c = 0; c + 1 < C; ++c) window[c] = window[c + 1];
    window[C - 1] = all || C - 1 + j < readable ? src[(C - 1 + j) * stride] : T(0);
GRIDFLOW_FILTER_UNROLL
    for (int c = 0; c < C; ++c) s[c] = multiply_add(w[j], window[c], s[c]);
  }
}

/// Phase 1: the tile with its halo into s0 (rows of e0, y then z), mapped by the mode; points no
/// output of the update box needs are left 0, never used.
template <class T, int Dim, int K = 0>
GRIDFLOW_HOST_DEVICE void load_tile(const TiledArgs<T, Dim>& a, const TileFrame<T, Dim>& f, T* s0, int tid, int threads) {
  const RowLanes r(f.e[0], tid, threads);
  if (f.interior(a)) {
    for (int row = r.group; row < f.e[1] * f.e[2]; row += r.groups) {
      const int y = row % f.e[1], z = row / f.e[1];
      long long offset = (f.b[1] + y - a.in.lo[1]) * a.in.stride[1] + (f.b[0] - a.in.lo[0]);
      if constexpr (Dim == 3) offset += (f.b[2] + z - a.in.lo[2]) * a.in.stride[2];
      const T* src = a.in.data + offset;
      T* dst = s0 + row * f.e[0];
      // The unrolled variant: four loads in flight before the first store (memory-level parallelism).
      constexpr int in_flight = K > 0 ? 4 : 1;
      for (int x = r.lane; x < f.e[0]; x += in_flight * r.lanes) {
        T v[in_flight];
        GRIDFLOW_FILTER_UNROLL
        for (int k = 0; k < in_flight; ++k) v[k] = x + k * r.lanes < f.e[0] ? read_only(src + x + k * r.lanes) : T(0);
        GRIDFLOW_FILTER_UNROLL
        for (int k = 0; k < in_flight; ++k)
          if (x + k * r.lanes < f.e[0]) dst[x + k * r.lanes] = v[k];
      }
    }
    return;
  }
  for (int row = r.group; row < f.e[1] * f.e[2]; row += r.groups) {
    const int y = row % f.e[1], z = row / f.e[1];
    const long long gy = f.b[1] + y, gz = f.b[2] + z;
    const bool row_needed = f.needed(a, gy, 1) && f.needed(a, gz, 2);
    const long long my = boundary_index(gy - a.glo[1], a.gn[1], a.mode);
    const long long mz = Dim == 3 ? boundary_index(gz - a.glo[2], a.gn[2], a.mode) : 0;
    const bool row_cval = my < 0 || mz < 0;
    long long row_offset = (a.glo[1] + my - a.in.lo[1]) * a.in.stride[1] - a.in.lo[0];
    if constexpr (Dim == 3) row_offset += (a.glo[2] + mz - a.in.lo[2]) * a.in.stride[2];
    T* dst = s0 + row * f.e[0];
    for (int x = r.lane; x < f.e[0]; x += r.lanes) {
      const long long gx = f.b[0] + x;
      T v = T(0);
      if (row_needed && f.needed(a, gx, 0)) {
        const long long mx = boundary_index(gx - a.glo[0], a.gn[0], a.mode);
        v = row_cval || mx < 0 ? a.cval : read_only(a.in.data + row_offset + a.glo[0] + mx);
      }
      dst[x] = v;
    }
  }
}

/// Whether the x pass is the last: a 2D filter that leaves y alone (a 1D signal, or frames filtered
/// along x only) writes the output from the x pass and skips the y pass's copy through s0.
template <class T, int Dim>
GRIDFLOW_HOST_DEVICE bool x_pass_is_last(const TileFrame<T, Dim>& f) {
  return Dim == 2 && f.L[1] == 1;
}

/// Phase 2: the x pass over every row and plane of the tile with its halo, s0 -> s1, or s0 -> the
/// output when x_pass_is_last. Each thread takes C rows at one x, so each weight read serves C
/// outputs. K > 0 (the unrolled variant): the weight loop unrolled when the x length is K, and
/// the rows dealt over all warps (for_rows' Spread).
template <class T, int Dim, int C, int K = 0>
GRIDFLOW_HOST_DEVICE void x_pass(const TiledArgs<T, Dim>& a, const TileFrame<T, Dim>& f, const T* s0, T* s1, int tid, int threads) {
  const bool constant = a.mode == BoundaryMode::constant;
  const bool last = x_pass_is_last(f);
  const int rows = last ? f.t[1] : f.e[1] * f.e[2];  // when last, e1 == t1 and there is one plane
  const int groups = (rows + C - 1) / C;
  with_length<K>(f.L[0], [&](auto length) {
    for_rows<(K > 0)>(groups, f.t[0], tid, threads, [&](int group, int x) {
      T s[C];
      const T* src[C];
      GRIDFLOW_FILTER_UNROLL
      for (int c = 0; c < C; ++c) {
        const int row = group * C + c < rows ? group * C + c : group * C;  // past the end: a stand-in, not stored
        src[c] = s0 + row * f.e[0] + x;
        s[c] = a.w.w[0][0] * src[c][0];
      }
      GRIDFLOW_FILTER_UNROLL
      for (int j = 1; j < length; ++j) {
        const T w = a.w.w[0][j];
        GRIDFLOW_FILTER_UNROLL
        for (int c = 0; c < C; ++c) s[c] = multiply_add(w, src[c][j], s[c]);
      }
      GRIDFLOW_FILTER_UNROLL
      for (int c = 0; c < C; ++c) {
        const int row = group * C + c;
        if (row >= rows) break;
        if constexpr (Dim == 2) {
          if (last) {
            if (f.inside_update(a, x, row, 0)) a.out(f.o[0] + x, f.o[1] + row) = s[c];
            continue;
          }
        }
        const bool to_cval = constant && (f.outside(a, f.b[1] + row % f.e[1], 1) || f.outside(a, f.b[2] + row / f.e[1], 2));
        s1[row * f.t[0] + x] = to_cval ? a.cval : s[c];
      }
    });
  });
}

/// Phase 3: the y pass over the tile's rows and every plane with its halo, C rows per thread,
/// s1 -> the output (2D) or s0 (3D); nothing when x_pass_is_last.
template <class T, int Dim, int C, int K = 0>
GRIDFLOW_HOST_DEVICE void y_pass(const TiledArgs<T, Dim>& a, const TileFrame<T, Dim>& f, const T* s1, T* s0, int tid, int threads) {
  if (x_pass_is_last(f)) return;
  const bool constant = a.mode == BoundaryMode::constant;
  const int tx = f.t[0], ty = f.t[1];
  const int groups_y = (ty + C - 1) / C;
  with_length<K>(f.L[1], [&](auto length) {
    for_rows<(K > 0)>(groups_y * f.e[2], tx, tid, threads, [&](int row, int x) {
      const int y0 = (row % groups_y) * C, z = row / groups_y;
      const T* src = s1 + z * f.e[1] * tx;
      T s[C];
      column_outputs<T, C>(s, a.w.w[1], length, src + y0 * tx + x, tx, f.e[1] - y0);
      GRIDFLOW_FILTER_UNROLL
      for (int c = 0; c < C; ++c) {
        const int y = y0 + c;
        if (y >= ty) break;
        if constexpr (Dim == 2) {
          if (f.inside_update(a, x, y, 0)) a.out(f.o[0] + x, f.o[1] + y) = s[c];
        } else {
          const bool to_cval = constant && f.outside(a, f.b[2] + z, 2);
          s0[(z * ty + y) * tx + x] = to_cval ? a.cval : s[c];
        }
      }
    });
  });
}

/// Phase 4 (3D): the z pass, C planes per thread, s0 -> the output.
template <class T, int Dim, int C, int K = 0>
GRIDFLOW_HOST_DEVICE void z_pass(const TiledArgs<T, Dim>& a, const TileFrame<T, Dim>& f, const T* s0, int tid, int threads) {
  if constexpr (Dim == 3) {
    const int tx = f.t[0], ty = f.t[1], tz = f.t[2];
    const int groups_z = (tz + C - 1) / C, plane = tx * ty;
    with_length<K>(f.L[2], [&](auto length) {
      for_rows<(K > 0)>(ty * groups_z, tx, tid, threads, [&](int row, int x) {
        const int y = row % ty, z0 = (row / ty) * C;
        const T* src = s0 + y * tx;
        T s[C];
        column_outputs<T, C>(s, a.w.w[2], length, src + z0 * plane + x, plane, f.e[2] - z0);
        GRIDFLOW_FILTER_UNROLL
        for (int c = 0; c < C; ++c) {
          const int z = z0 + c;
          if (z >= tz) break;
          if (f.inside_update(a, x, y, z)) a.out(f.o[0] + x, f.o[1] + y, f.o[2] + z) = s[c];
        }
      });
    });
  }
}

}  // namespace gridflow::kernels::filter
