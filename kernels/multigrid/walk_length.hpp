#pragma once
// How many z-planes a block of a plane-walking kernel walks (the march, the fused residual
// restriction). A walk's steps are dependent (a barrier or a load each), so a long walk sets a
// launch's time where the grid holds few blocks: the walk halves from `longest` (down to
// `shortest`) while the grid would hold under `blocks_wanted` blocks.

namespace gridflow::kernels::multigrid {

/// `blocks_per_plane_set`: blocks side by side in x and y; `planes`: planes to cover.
constexpr long long walk_length(long long longest, long long shortest, long long blocks_per_plane_set, long long planes,
                                long long blocks_wanted) {
  long long walk = longest;
  while (walk > shortest && blocks_per_plane_set * ((planes + walk - 1) / walk) < blocks_wanted) walk /= 2;
  return walk;
}

}  // namespace gridflow::kernels::multigrid
