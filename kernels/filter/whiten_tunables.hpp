#pragma once
#include <ostream>

namespace gridflow::kernels::filter {

/// Tunables of the CUDA whitening kernels (the host reference ignores them).
struct WhitenTunables {
  int threads = 256;       ///< threads per block of the per-pixel kernels (shift sums, prediction);
                           ///< a multiple of 32 in 32..1024
  int blocks_per_sm = 4;   ///< grid of the shift-sum and correlation kernels: blocks_per_sm blocks per
                           ///< SM walking the frame (fewer blocks, fewer slots per sum), 1..32
  int gram_tile = 256;     ///< pixels per shared-memory tile of the correlation kernel (gram_tile / 8
                           ///< columns by 8 rows): each block stages the N + 1 aligned values of its
                           ///< pixels, then one thread per matrix entry sums over the tile; halved
                           ///< while the tile does not fit in 48 KiB; a multiple of 32 in 32..512
  int shift_chunk = 2;     ///< frames one block of a shift pass sums (its threads keep their sums in
                           ///< registers): a pass spreads its frames over ceil(m / shift_chunk) groups
                           ///< of blocks; 2 (3 blocks of 256 per SM) or 4 (2 blocks per SM)

  bool valid() const {
    return threads >= 32 && threads <= 1024 && threads % 32 == 0 && blocks_per_sm >= 1 && blocks_per_sm <= 32 &&
           gram_tile >= 32 && gram_tile <= 512 && gram_tile % 32 == 0 && (shift_chunk == 2 || shift_chunk == 4);
  }
};

inline std::ostream& operator<<(std::ostream& os, const WhitenTunables& t) {
  return os << "whiten_cuda(threads=" << t.threads << ",blocks_per_sm=" << t.blocks_per_sm << ",gram_tile=" << t.gram_tile
            << ",shift_chunk=" << t.shift_chunk << ')';
}

}  // namespace gridflow::kernels::filter
