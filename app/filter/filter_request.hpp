#pragma once
// What `gridflow filter` was asked to do, checked against the input dataset before anything is
// computed or written: each bad argument is an InputError naming it and the reason.
//
// Axes: the dataset's own (numpy order, axis 0 the slowest). With --frames (implied by whiten)
// axis 0 is time and the filter acts on the other ("spatial") axes of each frame separately.
#include <mpi.h>

#include <set>
#include <string>
#include <vector>

#include "autotune/filter_tuning.hpp"
#include "autotune/tuning_options.hpp"
#include "io/array_dataset.hpp"
#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/filter_weights.hpp"

namespace gridflow::app {

/// The command line as given; `given` holds the options that were on it ("--size", ...).
struct FilterArguments {
  std::string input, dataset, output;
  std::string kind;              ///< mean, gaussian, correlate, whiten
  std::string mode = "reflect";  ///< scipy.ndimage's boundary modes
  double cval = 0.0;
  std::vector<int> size;         ///< mean: one value for every spatial axis, or one per axis
  std::vector<double> sigma;     ///< gaussian: likewise
  double truncate = 4.0;         ///< gaussian: radius int(truncate * sigma + 0.5)
  std::string weights;           ///< correlate: FILE.h5:/dataset, an array of the spatial rank
  int memory = 20;               ///< whiten: frames each prediction uses (at most the N previous ones)
  double ridge = 1e-6;           ///< whiten: regularisation of the least-squares weights
  bool frames = false;
  std::string device = "auto";   ///< cpu, gpu, auto
  double buffer_mb = 0;          ///< memory for one chunk of values; 0: chosen from what is free
  std::string method = "direct"; ///< mean, gaussian, correlate: direct, fft or auto (autotune/filter_tuning.hpp)
  std::string tune = "online";   ///< tuning.mode as in decks: online, cached, off
  std::string tuning_cache;      ///< tuning.cache as in decks; empty: the default cache
  std::set<std::string> given;
};

struct FilterRequest {
  FilterArguments arguments;
  io::ArrayShape shape;          ///< of the input dataset
  bool frames = false;
  int spatial_rank = 0;          ///< dataset rank, less the time axis with frames
  kernels::filter::Boundary boundary;
  autotune::FilterMethod method = autotune::FilterMethod::direct;
  autotune::TuningOptions tuning;  ///< mode and cache from --tune and --tuning-cache
  /// Separable filters: the weights along each spatial axis (numpy order). Full (correlate): the
  /// weight array's shape (numpy order) and values (C order).
  bool separable = true;
  std::vector<std::vector<double>> axis_weights;
  std::vector<int> full_shape;
  std::vector<double> full_values;

  /// The output's element type: float32 stays float32, anything else is float64.
  io::ElementType output_type() const {
    return shape.type == io::ElementType::float32 ? io::ElementType::float32 : io::ElementType::float64;
  }
  /// The weights' extent along spatial axis j (numpy order).
  int length(int j) const { return separable ? static_cast<int>(axis_weights[j].size()) : full_shape[j]; }
};

/// Collective: probes the input (and the weights file), checks every argument against it and
/// builds the weights. Same InputError on every rank for bad input.
FilterRequest make_filter_request(const FilterArguments& arguments, MPI_Comm comm);

/// The request's weights over a field of Dim axes (x first) holding the dataset: dataset axis a is
/// field axis rank - 1 - a; the time axis and axes the dataset lacks get the identity.
template <int Dim>
kernels::filter::FilterWeights<Dim> field_weights(const FilterRequest& request);

}  // namespace gridflow::app
