#pragma once
#include <ostream>

namespace gridflow::kernels::filter {

/// Tunables of the CUDA whitening kernels (the host reference ignores them).
struct WhitenTunables {
  int threads = 256;       ///< kept for the tuning cache's keys: the kernels' block sizes are fixed
                           ///< (256); a multiple of 32 in 32..1024
  int blocks_per_sm = 2;   ///< grid of the shift-sum and correlation kernels: blocks_per_sm blocks per
                           ///< SM walking the frame (fewer blocks, fewer slots per sum), 1..32; both fit
                           ///< 2 blocks of 256 per SM (registers), so 2 is one wave
  int gram_tile = 256;     ///< pixels per shared-memory tile of the correlation kernel (gram_tile / 8
                           ///< columns by 8 rows): each block stages the N + 1 aligned values of its
                           ///< pixels in double, then its warps multiply them on the tensor cores;
                           ///< halved while the tile does not fit; a multiple of 32 in 32..512
  int shift_chunk = 4;     ///< rows of a shift-pass tile in units of 8: 2 (32 x 16 pixels) or 4 (32 x 32:
                           ///< fewer sampler starts per row; 160 against 173 us per frame at 512^2 on an H100)

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
