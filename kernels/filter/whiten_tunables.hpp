#pragma once
#include <ostream>

namespace gridflow::kernels::filter {

/// Tunables of the CUDA whitening kernels (the host reference ignores them).
struct WhitenTunables {
  int threads = 256;       ///< kept for the tuning cache's keys: the kernels' block sizes are fixed
                           ///< (256); a multiple of 32 in 32..1024
  int blocks_per_sm = 2;   ///< grid of the shift and join kernels: blocks_per_sm blocks per SM walking
                           ///< the frame (fewer blocks, fewer slots per sum), 1..32
  int rows = 8;            ///< rows a thread walks down a column in the shift passes, and of a join
                           ///< kernel tile (32 columns): 4, 8 or 16

  bool valid() const {
    return threads >= 32 && threads <= 1024 && threads % 32 == 0 && blocks_per_sm >= 1 && blocks_per_sm <= 32 &&
           (rows == 4 || rows == 8 || rows == 16);
  }
};

inline std::ostream& operator<<(std::ostream& os, const WhitenTunables& t) {
  return os << "whiten_cuda(threads=" << t.threads << ",blocks_per_sm=" << t.blocks_per_sm << ",rows=" << t.rows << ')';
}

}  // namespace gridflow::kernels::filter
