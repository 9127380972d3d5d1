#pragma once
// The deck's [[filters]] blocks: filters applied in situ, at every output, to a field of the run;
// each result is written into the output files as a field of its own (and listed in the XDMF):
//
//   [[filters]]
//   kind = "gaussian"     # mean | gaussian | correlate (scipy.ndimage's uniform_filter,
//                         # gaussian_filter, correlate) | whiten (heat 2D: the frame minus its
//                         # prediction from the last `memory` output frames)
//   field = "u"           # a field the run writes
//   name = "u_gaussian"   # the dataset written; default "<field>_<kind>"
//   mode = "reflect"      # constant | nearest | reflect | mirror | wrap, as scipy.ndimage
//   cval = 0.0            # the value beyond the edges; mode = "constant" only
//   sigma = [1.0, 2.0]    # gaussian: per axis, x first, each > 0
//   truncate = 4.0        # gaussian: radius int(truncate * sigma + 0.5) <= 32
//   size = [3, 3]         # mean: points per axis, x first, 1..65
//   shape = [3, 3]        # correlate: weights per axis, x first
//   weights = [...]       # correlate: shape[0] * shape[1] (* shape[2]) numbers, x fastest
//   method = "direct"     # direct | fft | auto (autotune/filter_tuning.hpp): direct sums, bitwise
//                         # as the reference on any device and rank count; the FFT variant with
//                         # its default tiles (equal to rounding, bitwise on any rank count; not
//                         # with mode wrap); or the fastest candidate of either as the tuner
//                         # measures it under [tuning] (FFT ones not with mode wrap)
//   memory = 20           # whiten: output frames remembered, 1..64
//   ridge = 1e-6          # whiten: ridge of the least squares, relative to its mean diagonal
//
// Every axis reads the same mode; a filter's radius may not exceed the points of an axis. A
// whiten block reads no mode, cval or weights.
#include <string>
#include <vector>

#include "app/deck/deck.hpp"
#include "autotune/filter_tuning.hpp"
#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "kernels/filter/whiten.hpp"
#include "mesh/grid.hpp"

namespace gridflow::app {

/// One [[filters]] block as read: what to filter, how, and where the result goes.
template <int Dim>
struct FilterBlock {
  std::string kind;   ///< mean, gaussian, correlate, whiten
  std::string field;  ///< the run's field it reads
  std::string name;   ///< the dataset it writes
  kernels::filter::FilterWeights<Dim> weights;
  kernels::filter::Boundary boundary;
  autotune::FilterMethod method = autotune::FilterMethod::direct;  ///< which variants the tuner may choose
  kernels::filter::WhitenParams whiten;  ///< kind whiten only
};

/// The method a decomposed filter (in situ, or `gridflow filter` over ranks and chunks) runs:
/// `auto` with mode wrap leaves the FFT variant out, as `fft` with wrap is refused: a decomposed
/// wrap filter reads an array widened by its periodic ghosts, whose FFT tiles would reach the
/// widened array's far end, which no rank holds.
autotune::FilterMethod decomposed_method(autotune::FilterMethod method, kernels::filter::BoundaryMode mode);

/// Dataset names a filter may not take besides the run's fields: the output files' groups.
const std::vector<std::string>& reserved_output_names();

/// Reads every [[filters]] block; `fields` are the names the run writes, `grid` the run's grid.
/// Throws InputError naming the key (filters[i].kind, .field, .size, ...) for a missing or unknown
/// kind or mode (whiten outside 2D), an unknown field, a bad whiten memory or ridge, invalid sizes, sigmas or weights, a radius larger than an axis,
/// a cval without mode = "constant", and a name that is invalid, a field's, reserved, or another
/// filter's. Unknown keys in a block are left to Deck::require_all_used.
template <int Dim>
std::vector<FilterBlock<Dim>> read_filters(Deck& deck, const std::vector<std::string>& fields, const mesh::Grid<Dim>& grid);

}  // namespace gridflow::app
