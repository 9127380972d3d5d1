#pragma once
// The candidates a tuner (or bench/filter_bench) tries for the filter's CUDA variants: the direct
// kernel, tiled launches over thread counts, tile shapes and outputs per thread, fused and per
// axis, and streaming launches over strip widths, walk segments, outputs per thread and batches.
// A 1D signal (one row) gets long one-row tiles; 3D gets tiles with depth. Ring launches over
// threads (and cross rows in 3D), walk segments, planes per step and steps staged; warp lines
// (1D) over warps per block and pairs per thread; panels (2D) over threads, segments, input
// stages and walks. The FFT
// variant's tiles and libraries are listed apart (filter_fft_candidates).
#include <utility>
#include <vector>

#include "kernels/filter/filter_tunables.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::kernels::filter {

/// The candidates for a filter over `dims` axes (1: a field of one row, 2 or 3).
inline std::vector<FilterTunables> filter_candidates(int dims) {
  std::vector<FilterTunables> c{{FilterVariant::direct}};
  const int threads[] = {128, 256, 512};
  if (dims == 1) {
    for (int t : threads)
      for (int tx : {256, 512, 1024, 2048, 4096, 8192})
        if (tx >= t)
          for (int cells : {1, 2})
            for (bool unrolled : {false, true}) c.push_back({FilterVariant::tiled, t, tx, 1, 1, true, cells, unrolled});
    for (int t : threads)
      for (int chunks : {2, 4, 8, 16})
        for (const auto& [cells, batch] : {std::pair<int, int>{2, 4}, {2, 6}, {2, 8}, {4, 8}, {4, 16}})
          c.push_back({FilterVariant::ring, t, 1, 1, chunks, true, cells, false, batch});
    for (int t : {128, 256, 512})
      for (int cells : {2, 4}) c.push_back({FilterVariant::warp, t, 1, 1, 1, true, cells});
    return c;
  }
  struct Tile {
    int x, y, z;
  };
  const std::vector<Tile> tiles2 = {{32, 16, 1}, {32, 32, 1}, {64, 16, 1}, {64, 32, 1}, {64, 64, 1}, {128, 16, 1}, {128, 32, 1}, {256, 16, 1},
                                    {128, 64, 1}, {256, 32, 1}};  // the last two: less halo per output at large radii
  const std::vector<Tile> tiles3 = {{32, 8, 8}, {32, 16, 8}, {32, 16, 16}, {64, 8, 8}, {64, 16, 8}, {64, 8, 16}, {128, 8, 4}, {128, 16, 8}, {128, 8, 8}};
  for (bool fused : {true, false})
    for (int t : threads)
      for (const Tile& s : dims == 2 ? tiles2 : tiles3)
        for (int cells : {1, 2, 4})
          for (bool unrolled : {false, true}) c.push_back({FilterVariant::tiled, t, s.x, s.y, s.z, fused, cells, unrolled});
  // Streaming: tile x by y (3D) columns, z the walk segment (2D: y is the segment).
  const std::vector<Tile> strips2 = {{64, 256, 1}, {64, 1024, 1}, {128, 256, 1}, {128, 1024, 1}, {256, 256, 1}, {256, 1024, 1}};
  const std::vector<Tile> strips3 = {{32, 8, 64}, {32, 16, 64}, {64, 4, 64}, {64, 8, 64}, {64, 8, 128}, {128, 4, 64}, {128, 8, 128}};
  const std::pair<int, int> cells_batch[] = {{2, 4}, {4, 8}, {8, 8}, {8, 16}};
  for (int t : {128, 256})
    for (const Tile& s : dims == 2 ? strips2 : strips3)
      for (const auto& [cells, batch] : cells_batch) c.push_back({FilterVariant::streaming, t, s.x, s.y, s.z, true, cells, false, batch});
  // Ring: threads x cross rows (2D: one row), walk segments, planes per step and planes staged.
  const std::vector<std::pair<int, int>> blocks2 = {{64, 1}, {128, 1}, {256, 1}};
  const std::vector<std::pair<int, int>> blocks3 = {{64, 2}, {64, 4}, {128, 4}, {128, 8}, {256, 8}, {256, 16}};
  const std::vector<std::pair<int, int>> ring_cells_batch2 = {{2, 6}, {2, 8}, {4, 8}, {4, 12}, {4, 16}, {8, 16}, {8, 24}};
  const std::vector<std::pair<int, int>> ring_cells_batch3 = {{2, 4}, {2, 8}, {4, 8}, {4, 12}, {4, 16}};
  for (const auto& [t, rows] : dims == 2 ? blocks2 : blocks3)
    for (int segment : {32, 64, 128, 256})
      for (const auto& [cells, batch] : dims == 2 ? ring_cells_batch2 : ring_cells_batch3)
        c.push_back({FilterVariant::ring, t, 1, rows, segment, true, cells, false, batch});
  // Panel (2D): threads (groups of 4 rows), segments, one to three input stages, walks of vectors,
  // of one column or of two.
  if (dims == 2)
    for (int t : {64, 128, 256})
      for (int segment : {128, 256, 512})
        for (int stages : {1, 2, 3})
          for (int walk : {0, 1, 2}) {
            FilterTunables p{FilterVariant::panel, t, 1, 1, segment};
            p.batch = stages;
            p.walk_columns = walk;
            if (p.valid()) c.push_back(p);
          }
  return c;
}

/// The FFT variant's candidates in `space`, its defaults first (the default tile, FFTW on the
/// host and cuFFT on the device): tiles of 48, 112, 240 and 496 outputs (a power of two less a
/// reach of 16), and on the device each of them with the flow-graph FFT too.
inline std::vector<FilterTunables> filter_fft_candidates(int dims, mesh::MemorySpace space) {
  std::vector<FilterTunables> c;
  FilterTunables t;
  t.variant = FilterVariant::fft;
  for (long long tile : {0LL, 48LL, 112LL, 240LL, 496LL}) {
    if (dims == 3 && tile > 112) continue;  // a block of 240^3 values is larger than a transform batch
    t.fft_tile = tile;
    for (bool flow_graph : {false, true}) {
      if (flow_graph && space == mesh::MemorySpace::host) continue;
      t.fft_flow_graph = flow_graph;
      c.push_back(t);
    }
  }
  return c;
}

}  // namespace gridflow::kernels::filter
