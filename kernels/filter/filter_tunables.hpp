#pragma once
#include <cstddef>
#include <ostream>
#include <string>

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
  /// Streaming: a block owns a strip of columns (2D: x; 3D: x by y) and walks its segment of the
  /// last axis in batches of rows (planes), each input loaded once (asynchronous copies, two
  /// batches in flight), the x (and y) passes into shared memory and the last axis's pass from a
  /// ring of the intermediate rows, so no halo is reloaded along the walk and no intermediate
  /// goes to DRAM. Separable filters that filter the last axis; otherwise `tiled` runs.
  streaming,
  /// Register ring: blocks of tx x ty threads, one 16-byte vector of x outputs per thread (2D:
  /// ty = 1; 3D: ty = tile_y cross rows), walk their segment of the last axis (tile_z, in 2D
  /// too) `cells` planes per step; each plane is copied once into shared memory
  /// asynchronously, (batch / cells - 1) steps ahead, with its mode mapped per value only in the
  /// blocks at the array's edges; the x (and y) passes read vector windows from shared memory and
  /// the last axis's pass reads a window of registers. Separable filters of one length on every
  /// filtered axis (3, 5, 9 or 33; a 1D signal, the walk axis left alone, included); other
  /// filters run the streaming defaults.
  ring,
  /// Warp lines (x alone: a 1D signal, or rows apart): each warp copies `cells` pairs of values
  /// per thread of one row with their x halo into shared memory of its own, asynchronously, all
  /// at once, synchronizes with __syncwarp only, and filters them from windows of that memory. One
  /// length (3, 5, 9 or 33); other filters run the ring defaults. Beside the ring kernel's chunks:
  /// no block barrier and no pipeline to fill, so a short launch of many warps is near the
  /// copy of the same size (bench/results/filter_bench_h200.json).
  warp,
  /// Panels (2D, one length K of 3, 5, 9 or 33 on both axes): blocks of 32 x G threads walk
  /// their segment of y 4 G rows per step; each step's rows are copied once into shared memory
  /// asynchronously, each thread computes the x pass of 4 V consecutive outputs of one row into a
  /// shared ring of intermediate rows and the walk pass of 4 V / W consecutive outputs of its W
  /// columns (W = V, 1 or 2) from it, both accumulated in registers (panel_block.hpp).
  /// Other filters run the ring defaults.
  panel,
  /// FFT tiles (fft_correlate.hpp): the global array cut into tiles of `fft_tile` outputs per
  /// transformed axis (fft_tiling.hpp), each tile's window transformed, multiplied by the weights'
  /// transfer function and transformed back; separable filters pass by pass. Runs on host fields
  /// too (FFTW), where every other variant is the reference. Equal to the direct sums to rounding
  /// only, not bitwise; bitwise independent of the decomposition (tiles and transform batches are
  /// the global array's). Reads whole tiles: up to fft_tile - 1 points further than the others.
  fft,
};

inline const char* to_string(FilterVariant v) {
  return v == FilterVariant::direct      ? "direct"
         : v == FilterVariant::tiled     ? "tiled"
         : v == FilterVariant::streaming ? "streaming"
         : v == FilterVariant::ring      ? "ring"
         : v == FilterVariant::warp      ? "warp"
         : v == FilterVariant::panel     ? "panel"
                                         : "fft";
}

/// Tunables of the CUDA filter kernels. Tile extents are clamped to the box being filtered; what
/// a thin box takes off the tile's y and z extents goes to x (a 1D signal, a field of one row,
/// runs tiles of tile_x * tile_y * tile_z points along x), so one set of tunables serves 1D to 3D.
/// The most threads per block of the unrolled tiled kernel and of the streaming kernel (their
/// registers per thread).
constexpr int max_unrolled_threads = 512;
/// The most threads per block of the warp kernel.
constexpr int max_warp_threads = 512;

struct FilterTunables {
  FilterVariant variant = FilterVariant::tiled;
  int threads = 256;   ///< threads per block (a multiple of 32, at most 1024); tile points / threads
                       ///< is the number of outputs each thread computes (register blocking)
  int tile_x = 64;     ///< outputs per block along x; multiples of 32 keep loads and stores coalesced
  int tile_y = 16;     ///< outputs per block along y
  int tile_z = 8;      ///< outputs per block along z (3D only)
  bool fused = true;   ///< tiled: every axis in one launch, the input read once (wins while the tile
                       ///< with its halo fits in shared memory); false: one launch per axis through
                       ///< scratch fields, whose tiles have a halo along one axis only (large radii).
                       ///< A fused tile that does not fit runs per axis; one that still does not
                       ///< fit runs the direct variant (FilterPlan::path() says which ran)
  int cells = 2;       ///< tiled: consecutive outputs each thread computes in the y and z passes (1, 2
                       ///< or 4), sliding along the axis with the values in registers: each value
                       ///< read from shared memory serves `cells` outputs. ring: rows (planes) per
                       ///< step; warp: pairs of values per thread
  bool unrolled = false;  ///< tiled: loops over the weights unrolled for the filter's length (3, 5, 9 or
                          ///< 33 on every filtered axis), the rows of each phase dealt over all warps,
                          ///< four loads in flight per thread; false: the first tiled kernel
                          ///< (streaming always unrolls for those lengths)
  int batch = 8;       ///< streaming: rows (2D) or planes (3D) loaded per step of the walk, a multiple
                       ///< of `cells`; more rows, fewer barriers and more loads in flight, a larger ring.
                       ///< ring: the planes staged in shared memory, batch / cells (2..4) steps of them
  long long fft_tile = 0;  ///< fft: outputs per tile along each transformed axis; 0: the default (the
                           ///< FFT length 4x the weights' reach, at least 16; fft_tiling.hpp)
  bool fft_flow_graph = false;  ///< fft on the device: gridflow's flow-graph FFT where it takes a
                                ///< transform's layout, else cuFFT (the default); the host runs FFTW
  int walk_columns = 0;  ///< panel: the columns of each thread's walk pass: 0, a 16-byte vector of
                         ///< them (V columns, 4 rows); 1, one column (4 V rows: fewer shared-memory
                         ///< bytes per output, more loads and stores; 128 or 256 threads); 2, two
                         ///< (2 V rows; a vector in double)
  // The panel variant reads threads (64, 128 or 256 per block: 32 along x by threads / 32 groups
  // of 4 rows, panel_block.hpp), tile_z (rows per block's walk), batch (input stages, 1 to 3: the
  // copies of the step stages - 1 ahead in flight during a step; 1: the next step's in flight
  // during the walk pass) and walk_columns.

  /// The tiled variant's defaults: flat tiles in 2D, deeper ones in 3D (whose fused tile with
  /// radius 2 must also fit in double). What streaming tunables run where streaming does not apply.
  static FilterTunables tiled_defaults_for(int dims) {
    FilterTunables t;
    if (dims == 3) t.tile_x = 32;
    else t.tile_y = 32;
    return t;
  }
  /// Defaults for filters over `dims` axes, before any tuning: a 1D signal the warp line (8 warps
  /// of 2 pairs per thread); 2D panel_defaults; 3D, and where the warp or panel kernel does not
  /// take the filter, ring_defaults_for.
  static FilterTunables defaults_for(int dims) {
    if (dims == 2) return panel_defaults();
    if (dims != 1) return ring_defaults_for(dims);
    FilterTunables t;
    t.variant = FilterVariant::warp;  // reads threads and cells alone
    t.threads = 256;
    t.cells = 2;
    return t;
  }
  /// The panel kernel's defaults, the best of its H200 run for both 2D Gaussians together
  /// (bench/results/filter_bench_h200.json: sigma 1 85.9% of copy, the fastest; sigma 4 46.7%,
  /// the fastest 49.9% with one stage): 256 threads (32 rows a step), 128-row segments, two input
  /// stages, walks of one column.
  static FilterTunables panel_defaults() {
    FilterTunables t;
    t.variant = FilterVariant::panel;
    t.threads = 256;
    t.tile_z = 128;
    t.batch = 2;
    t.walk_columns = 1;
    return t;
  }
  /// The ring kernel's defaults, with tunables near the fastest of its H200 runs
  /// (bench/results/filter_bench_h200_ring.json) on the benchmark's filters. A 1D signal: 256 threads walking 4 chunks of 256 vectors, 2 per step, 3
  /// steps staged (the fastest for both 1D cases on an H100). 2D: 128 threads (512 float columns)
  /// walking 64 rows, 4 per step, 3 steps staged (within 10% of the fastest for both Gaussians:
  /// 32-row segments win sigma 1 but re-read a radius-16 walk's halo once per 32 rows; 128-row
  /// segments leave 8192^2 a last wave half full). 3D: 16 x 8 threads (64 x 8 float columns)
  /// walking 32 planes, 4 per step, 3 steps staged (the fastest for the means of 5 and of 3).
  /// Where the ring kernel does not take the filter: streaming_defaults_for.
  static FilterTunables ring_defaults_for(int dims) {
    FilterTunables t;
    t.variant = FilterVariant::ring;
    t.threads = dims == 1 ? 256 : 128;
    t.cells = dims == 1 ? 2 : 4;
    t.batch = dims == 1 ? 6 : 12;
    t.tile_y = dims == 3 ? 8 : 1;  // tile_x is not read: a block's columns are its threads along x times V
    t.tile_z = dims == 1 ? 4 : dims == 2 ? 64 : 32;
    return t;
  }
  /// The defaults before the ring kernel: tiles along x for a 1D signal; streaming in 2D and 3D
  /// (tiles are outputs per block, as the tiled variant's): strips of 128 columns walking 256 rows
  /// 16 at a time, 8 outputs per thread (2D: the fastest streaming candidate for both Gaussians on
  /// an H100); 64 x 8 columns walking 128 planes 4 at a time, 4 outputs per thread (3D; a mean of
  /// 5 fits in double). What ring tunables run where the ring kernel does not apply or fit.
  static FilterTunables streaming_defaults_for(int dims) {
    if (dims == 1) return tiled_defaults_for(1);
    FilterTunables t;
    t.variant = FilterVariant::streaming;
    t.threads = 256;
    t.cells = dims == 3 ? 4 : 8;
    t.batch = dims == 3 ? 4 : 16;
    t.tile_x = dims == 3 ? 64 : 128;
    t.tile_y = dims == 3 ? 8 : 256;
    t.tile_z = dims == 3 ? 128 : 1;
    return t;
  }

  bool valid() const {
    if (variant == FilterVariant::fft) return fft_tile >= 0;
    if (variant == FilterVariant::warp) return threads >= 32 && threads <= max_warp_threads && threads % 32 == 0 && (cells == 2 || cells == 4);
    if (variant == FilterVariant::panel)
      return (threads == 64 || threads == 128 || threads == 256) && tile_z >= 1 && batch >= 1 && batch <= 3 &&
             (walk_columns == 0 || walk_columns == 2 || (walk_columns == 1 && threads >= 128));
    if (variant == FilterVariant::ring)
      return threads >= 32 && threads <= max_unrolled_threads && threads % 32 == 0 && tile_y >= 1 && threads % tile_y == 0 && tile_z >= 1 &&
             (cells == 2 || cells == 4 || cells == 8) && batch % cells == 0 && batch / cells >= 2 && batch / cells <= 4;
    const bool streaming = variant == FilterVariant::streaming;
    const bool cells_ok = cells == 1 || cells == 2 || cells == 4 || (streaming && cells == 8);
    const bool batch_ok = !streaming || (batch >= cells && batch <= 64 && batch % cells == 0);
    return cells_ok && batch_ok && ((!unrolled && !streaming) || threads <= max_unrolled_threads) && threads >= 32 && threads <= 1024 && threads % 32 == 0 &&
           tile_x >= 1 && tile_y >= 1 && tile_z >= 1;
  }
};

inline std::ostream& operator<<(std::ostream& os, const FilterTunables& t) {
  os << "filter_cuda(" << to_string(t.variant);
  if (t.variant == FilterVariant::tiled)
    os << ",threads=" << t.threads << ",tile=" << t.tile_x << 'x' << t.tile_y << 'x' << t.tile_z << ",fused=" << t.fused << ",cells=" << t.cells << ",unrolled=" << t.unrolled;
  if (t.variant == FilterVariant::streaming)
    os << ",threads=" << t.threads << ",tile=" << t.tile_x << 'x' << t.tile_y << 'x' << t.tile_z << ",cells=" << t.cells << ",batch=" << t.batch;
  if (t.variant == FilterVariant::ring)
    os << ",threads=" << t.threads << ",rows=" << t.tile_y << ",segment=" << t.tile_z << ",cells=" << t.cells << ",batch=" << t.batch;
  if (t.variant == FilterVariant::warp) os << ",threads=" << t.threads << ",cells=" << t.cells;
  if (t.variant == FilterVariant::panel)
    os << ",threads=" << t.threads << ",segment=" << t.tile_z << ",stages=" << t.batch << (t.walk_columns == 1 ? ",walk=column" : t.walk_columns == 2 ? ",walk=pair" : "");
  if (t.variant == FilterVariant::fft)
    os << ",tile=" << (t.fft_tile > 0 ? std::to_string(t.fft_tile) : std::string("default")) << (t.fft_flow_graph ? ",flow_graph" : "");
  return os << ')';
}

}  // namespace gridflow::kernels::filter
