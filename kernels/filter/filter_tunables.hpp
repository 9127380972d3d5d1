#pragma once
#include <ostream>

namespace gridflow::kernels::filter {

/// Which CUDA implementation a FilterPlan launches on device fields.
enum class FilterVariant {
  /// One thread per output point, every weight times a global (L1/L2) load, mode mapping per load;
  /// separable filters as one launch per axis through scratch fields. The seed's first GPU
  /// version, and the only one for full (non-separable) weights.
  direct,
  /// Shared-memory tiles with halos: each block loads its tile plus the filter's reach once, runs
  /// the axis passes in shared memory and writes its outputs; weights in the constant bank (kernel
  /// parameters). Separable filters only (full weights fall back to `direct`).
  tiled,
};

inline const char* to_string(FilterVariant v) { return v == FilterVariant::direct ? "direct" : "tiled"; }

/// Tunables of the CUDA filter kernels. Tile extents are clamped to the box being filtered, so a
/// 1D signal (a field of one row) runs with tile_y = tile_z = 1 whatever is set here.
struct FilterTunables {
  FilterVariant variant = FilterVariant::tiled;
  int threads = 256;   ///< threads per block (a multiple of 32, at most 1024); tile points / threads
                       ///< is the number of outputs each thread computes (register blocking)
  int tile_x = 64;     ///< outputs per block along x; multiples of 32 keep loads and stores coalesced
  int tile_y = 16;     ///< outputs per block along y
  int tile_z = 4;      ///< outputs per block along z (3D only)
  bool fused = true;   ///< tiled: every axis in one launch, the input read once (wins while the tile
                       ///< with its halo fits in shared memory); false: one launch per axis through
                       ///< scratch fields, whose tiles have a halo along one axis only (large radii)

  bool valid() const {
    return threads >= 32 && threads <= 1024 && threads % 32 == 0 && tile_x >= 1 && tile_y >= 1 && tile_z >= 1;
  }
};

inline std::ostream& operator<<(std::ostream& os, const FilterTunables& t) {
  os << "filter_cuda(" << to_string(t.variant);
  if (t.variant == FilterVariant::tiled)
    os << ",threads=" << t.threads << ",tile=" << t.tile_x << 'x' << t.tile_y << 'x' << t.tile_z << ",fused=" << t.fused;
  return os << ')';
}

}  // namespace gridflow::kernels::filter
