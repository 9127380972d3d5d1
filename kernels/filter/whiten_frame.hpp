#pragma once
// One frame's whitening job as the Whitener hands it to the host reference or the CUDA launcher:
// pointers into the Whitener's memory space (host or device), nothing owned.
#include <cstddef>

#include "kernels/filter/whiten.hpp"
#include "mesh/host_device.hpp"

namespace gridflow::kernels::filter {

template <class T>
struct WhitenFrame {
  int ny = 0;
  int nx = 0;
  const T* frame = nullptr;  ///< F, row y at frame + y * frame_pitch
  std::ptrdiff_t frame_pitch = 0;
  T* out = nullptr;          ///< F - P, row y at out + y * out_pitch (may be frame)
  std::ptrdiff_t out_pitch = 0;
  T* store = nullptr;        ///< the ring slot that keeps F (pitch nx), none of `remembered`
  const T* remembered[max_whiten_memory] = {};  ///< M_1 (frame t-1) .. M_m, pitch nx
  T* registered_store = nullptr;                ///< the registered ring's slot for R_t (pitch nx)
  T* registered[max_whiten_memory] = {};        ///< R_1 .. R_m (rewritten when the anchor moves), pitch nx
  T* reference = nullptr;    ///< the reference: read (mean of R_1..R_m), then the next frame's (pitch nx)
  double* products = nullptr;  ///< inner products of the basis frames by ring slot, (N + 1) x (N + 1), row-major
  int ring = 0;              ///< N + 1 slots
  int slot = 0;              ///< ring slot of F (t mod ring)
  int slots[max_whiten_memory] = {};  ///< ring slots of M_1 .. M_m
  double* anchor = nullptr;  ///< (A_y, A_x, moves so far): whole pixels, read, moved when S_t leaves its reach
  int m = 0;                 ///< predecessors used: min(N, t)
  long long t = 0;           ///< index of F in the stream
  double* history = nullptr; ///< S_0 .. S_t as (y, x) pairs: reads 0..t-1, writes t
  int* refinements = nullptr;  ///< passes per frame: writes t
  double* weights = nullptr;   ///< a_1 .. a_m of this frame (written)
  double* pair_shift = nullptr;  ///< s_1 .. s_m as (y, x) pairs (written)

  /// Frames the next frame's reference averages: min(N, t + 1), R_t and the m_next - 1 newest R_k.
  GRIDFLOW_HOST_DEVICE int m_next() const { return m + 1 < ring ? m + 1 : ring - 1; }
  /// The product of the basis frames in ring slots a and b.
  GRIDFLOW_HOST_DEVICE double product(int a, int b) const { return products[a * ring + b]; }
  /// Sets it (the table is symmetric: both entries).
  GRIDFLOW_HOST_DEVICE void set_product(int a, int b, double v) const {
    products[a * ring + b] = v;
    products[b * ring + a] = v;
  }
};

}  // namespace gridflow::kernels::filter
