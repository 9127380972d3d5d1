#pragma once
// FilterWeights<Dim>: the correlation weights of a filter, either separable (one vector per axis,
// applied as successive 1D passes, axis 0 first, as scipy.ndimage does) or full (one array over
// a box, applied directly). The built-ins `mean`, `gaussian` and `correlate` are made here, with
// their argument checks; nothing here touches a field.
//
// Correlation along an axis with L weights: out[i] = sum_{j=0}^{L-1} w[j] in[i + j - L/2], so the
// filter reaches lo_reach = L/2 points below and hi_reach = L - 1 - L/2 above (scipy's origin 0,
// even lengths included).
#include <array>
#include <string>
#include <vector>

namespace gridflow::kernels::filter {

/// Longest weight vector per axis the CUDA variants take: radius 32.
inline constexpr int max_axis_length = 65;

template <int Dim>
struct FilterWeights {
  static_assert(Dim == 2 || Dim == 3, "fields are 2D or 3D (1D data is a field with one row)");
  std::string name = "correlate";                ///< for messages and labels: mean, gaussian, correlate
  bool separable = true;
  std::array<std::vector<double>, Dim> axis;     ///< separable: the weights along each axis
  std::array<int, Dim> shape{};                  ///< full: extent of the weight box per axis
  std::vector<double> full;                      ///< full: weights over `shape`, x fastest

  /// Number of weights along `a` (1 for an axis the filter leaves alone).
  int length(int a) const { return separable ? static_cast<int>(axis[a].size()) : shape[a]; }
  int lo_reach(int a) const { return length(a) / 2; }
  int hi_reach(int a) const { return length(a) - 1 - length(a) / 2; }
};

/// {1}: the weights of an axis a separable filter leaves alone (exact: 1 * v == v).
std::vector<double> identity_weights();
/// scipy.ndimage.uniform_filter1d: `size` weights of 1/size. Throws Error for size < 1.
std::vector<double> mean_weights(int size);
/// scipy.ndimage.gaussian_filter1d (order 0): exp(-0.5 x^2 / sigma^2) for x = -r..r, normalised
/// to sum 1, r = int(truncate * sigma + 0.5). Throws Error for sigma <= 0, truncate <= 0, or
/// r > 32 (the CUDA variants' limit, max_axis_length).
std::vector<double> gaussian_weights(double sigma, double truncate = 4.0);

/// Separable weights from one vector per axis (user weights, or the vectors above). Throws
/// Error for an empty vector, a non-finite weight or a vector longer than max_axis_length.
template <int Dim>
FilterWeights<Dim> separable_weights(std::array<std::vector<double>, Dim> axis, std::string name = "correlate");
/// scipy.ndimage.uniform_filter with `size` per axis.
template <int Dim>
FilterWeights<Dim> mean_filter(const std::array<int, Dim>& size);
/// scipy.ndimage.gaussian_filter with `sigma` per axis (each > 0) and one truncate.
template <int Dim>
FilterWeights<Dim> gaussian_filter(const std::array<double, Dim>& sigma, double truncate = 4.0);
/// scipy.ndimage.correlate with a full weight array of `shape` (x fastest). Throws Error when
/// weights.size() is not the product of shape, for an extent < 1 or a non-finite weight.
template <int Dim>
FilterWeights<Dim> full_weights(const std::array<int, Dim>& shape, std::vector<double> weights);

}  // namespace gridflow::kernels::filter
