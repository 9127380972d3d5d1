#pragma once
// The pointwise steps of the FFT variant (fft_correlate.hpp), once for the host loop and the CUDA
// kernels: gathering each tile's window into the transform buffer, multiplying the spectrum by the
// weights' transfer function, and scattering the tile's outputs into the field.
//
// A block is one tile (one tile index per transformed axis) at one index of every axis that is not
// transformed; the blocks of a box are numbered x fastest. A group of `group` blocks is laid out
//
//   real      [L_a2][L_a1][block][L_a0]        (a0 < a1 < a2 the transformed axes; absent ones 1)
//   spectrum  [L_a2][L_a1][block][L_a0/2 + 1]
//
// so that every transform is one batch of equally spaced lines: rows along a0 (distance L_a0 or
// L_a0/2 + 1), lines along a2 (stride L_a1 * group * (L_a0/2 + 1)), and lines along a1 in one
// batch per index of a2 (stride group * (L_a0/2 + 1)).
#include "kernels/fft/complex.hpp"
#include "kernels/filter/correlate_point.hpp"
#include "kernels/filter/fft_tiling.hpp"
#include "mesh/field_view.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

/// Which blocks a group holds, and where their points lie.
template <int Dim>
struct FftBlocks {
  FftTiling<Dim> t;
  long long first[Dim] = {};  ///< per axis: the first tile index (transformed) or point (not)
  long long count[Dim] = {};  ///< per axis: tiles (transformed) or points (not) of the box
  long long box_lo[Dim] = {}, box_hi[Dim] = {};  ///< the box the outputs go to
  long long blocks = 0;       ///< blocks of the box
  long long group_start = 0;  ///< the box's block number of this group's block 0
  long long group = 0;        ///< blocks per group (the last group's beyond `blocks` are empty)

  /// Splits an index of the group's real (row = L_a0) or spectrum (row = L_a0/2 + 1) buffer into
  /// its position along the transformed axes and its block within the group.
  GRIDFLOW_HOST_DEVICE void split(long long q, long long row, long long (&c)[3], long long& block) const {
    c[0] = q % row;
    q /= row;
    block = q % group;
    q /= group;
    c[1] = c[2] = 0;
    if (t.transformed > 1) {
      c[1] = q % t.length[t.axis[1]];
      q /= t.length[t.axis[1]];
    }
    if (t.transformed > 2) c[2] = q;
  }

  /// The tile index or point along every axis of the group's block `block`; false for an empty one.
  GRIDFLOW_HOST_DEVICE bool place(long long block, long long (&at)[Dim]) const {
    long long b = group_start + block;
    if (b >= blocks) return false;
    for (int d = 0; d < Dim; ++d) {
      at[d] = first[d] + b % count[d];
      b /= count[d];
    }
    return true;
  }

  /// The global point of window position c of block `block`; false where the window holds zeros
  /// (past its tile's window, or an empty block).
  GRIDFLOW_HOST_DEVICE bool window_point(long long block, const long long (&c)[3], Point<Dim>& p) const {
    long long at[Dim];
    if (!place(block, at)) return false;
    for (int d = 0; d < Dim; ++d) p.i[d] = at[d];
    for (int k = 0; k < t.transformed; ++k) {
      const int d = t.axis[k];
      const long long start = t.global_lo[d] + at[d] * t.tile[d];
      const long long tile = t.global_hi[d] - start + 1 < t.tile[d] ? t.global_hi[d] - start + 1 : t.tile[d];
      if (c[k] >= tile + t.weights[d] - 1) return false;
      p.i[d] = start - t.lo_reach[d] + c[k];
    }
    return true;
  }

  /// The global output point of position c of block `block`; false where c is no output of the
  /// tile or the point lies outside the box.
  GRIDFLOW_HOST_DEVICE bool output_point(long long block, const long long (&c)[3], Point<Dim>& p) const {
    long long at[Dim];
    if (!place(block, at)) return false;
    for (int d = 0; d < Dim; ++d) p.i[d] = at[d];
    for (int k = 0; k < t.transformed; ++k) {
      const int d = t.axis[k];
      if (c[k] >= t.tile[d]) return false;
      p.i[d] = t.global_lo[d] + at[d] * t.tile[d] + c[k];
    }
    for (int d = 0; d < Dim; ++d)
      if (p.i[d] < box_lo[d] || p.i[d] > box_hi[d]) return false;
    return true;
  }
};

/// real[q] = the extended input at the window position q stands for, or 0.
template <class T, int Dim>
struct FftGather {
  mesh::FieldView<const T, Dim> in;
  Extension<Dim> e;
  T cval;
  FftBlocks<Dim> g;
  T* real;
  GRIDFLOW_HOST_DEVICE void operator()(long long q) const {
    long long c[3], block;
    g.split(q, g.t.length[g.t.axis[0]], c, block);
    Point<Dim> p;
    real[q] = g.window_point(block, c, p) ? extended_value(in, p, e, cval) : T(0);
  }
};

/// spectrum[q] *= transfer[the same frequency], the transfer function laid out as one block's
/// spectrum: [L_a2][L_a1][L_a0/2 + 1].
template <class T, int Dim>
struct FftMultiply {
  FftBlocks<Dim> g;
  const fft::Complex<T>* transfer;
  fft::Complex<T>* spectrum;
  GRIDFLOW_HOST_DEVICE void operator()(long long q) const {
    const long long half = g.t.length[g.t.axis[0]] / 2 + 1;
    long long c[3], block;
    g.split(q, half, c, block);
    const long long l1 = g.t.transformed > 1 ? g.t.length[g.t.axis[1]] : 1;
    const fft::Complex<T> h = transfer[(c[2] * l1 + c[1]) * half + c[0]];
    const fft::Complex<T> s = spectrum[q];
    spectrum[q] = {s.re * h.re - s.im * h.im, s.re * h.im + s.im * h.re};
  }
};

/// out(p) = real[q] where q is an output of its tile inside the box.
template <class T, int Dim>
struct FftScatter {
  FftBlocks<Dim> g;
  const T* real;
  mesh::FieldView<T, Dim> out;
  GRIDFLOW_HOST_DEVICE void operator()(long long q) const {
    long long c[3], block;
    g.split(q, g.t.length[g.t.axis[0]], c, block);
    Point<Dim> p;
    if (!g.output_point(block, c, p)) return;
    if constexpr (Dim == 2) out(p.i[0], p.i[1]) = real[q];
    else out(p.i[0], p.i[1], p.i[2]) = real[q];
  }
};

}  // namespace gridflow::kernels::filter
