#pragma once
// The ghost width (ghost layers exchanged = steps or sweeps between exchanges) as a tuning
// candidate of the deep-halo solvers: which widths to try, the search-space parameter
// "ghost_width", and the part of the kernel label that says the process grid it was measured on.
#include <climits>
#include <string>
#include <vector>

#include "autotune/search_space.hpp"
#include "autotune/tuning_options.hpp"
#include "mesh/decomposition.hpp"

namespace gridflow::autotune {

/// 1, 2, 4, 8 up to the fewest points a rank owns along an axis and up to `max_width`, on several
/// ranks, when tuning is on and the deck does not set halo.width (`width_given`); empty when fewer
/// than two remain. Collective over the decomposition's communicator.
template <int Dim>
std::vector<int> ghost_width_candidates(const TuningOptions& tuning, bool width_given,
                                        const mesh::Decomposition<Dim>& decomposition, long long max_width = LLONG_MAX);

/// Adds "ghost_width" over `candidates` (default `default_width`) to `space` when there are two or more.
void add_ghost_width(autotune::SearchSpace& space, const std::vector<int>& candidates, int default_width);

/// ":ghost_width/<dims>" ("2x3" in 2D, "2x1x3" in 3D): a width measured on one process grid
/// says little about another.
template <int Dim>
std::string ghost_width_label(const mesh::Decomposition<Dim>& decomposition);

/// The cache label of a deep-halo solver's kernel: `base` ("heat2d:cuda"), then
/// ghost_width_label when the width is tuned and ":transport" when the halo transport is.
template <int Dim>
std::string deep_halo_kernel_label(std::string base, bool tunes_width, const mesh::Decomposition<Dim>& decomposition,
                                   bool tunes_transport);

}  // namespace gridflow::autotune
