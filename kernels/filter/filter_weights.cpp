#include "kernels/filter/filter_weights.hpp"

#include <cmath>
#include <sstream>

#include "mesh/check.hpp"

namespace gridflow::kernels::filter {

namespace {
[[noreturn]] void refuse(const std::string& what) { throw Error("filter: " + what); }

void check_vector(const std::vector<double>& w, int axis, const std::string& name) {
  std::ostringstream where;
  where << name << " weights along axis " << axis;
  if (w.empty()) refuse(where.str() + " are empty (an axis left alone takes the single weight 1)");
  if (static_cast<int>(w.size()) > max_axis_length) {
    std::ostringstream os;
    os << where.str() << ": " << w.size() << " weights, more than " << max_axis_length << " (radius 32)";
    refuse(os.str());
  }
  for (double v : w)
    if (!std::isfinite(v)) refuse(where.str() + " hold a value that is not finite");
}
}  // namespace

std::vector<double> identity_weights() { return {1.0}; }

std::vector<double> mean_weights(int size) {
  if (size < 1) refuse("mean size must be >= 1 (got " + std::to_string(size) + ")");
  if (size > max_axis_length)  // before allocating: a size near 2^31 is an input error, not a bad_alloc
    refuse("mean size " + std::to_string(size) + " is more than " + std::to_string(max_axis_length) + " (radius 32)");
  return std::vector<double>(static_cast<std::size_t>(size), 1.0 / size);
}

std::vector<double> gaussian_weights(double sigma, double truncate) {
  if (!(sigma > 0) || !std::isfinite(sigma)) {
    std::ostringstream os;
    os << "gaussian sigma must be > 0 (got " << sigma << ")";
    refuse(os.str());
  }
  if (!(truncate > 0) || !std::isfinite(truncate)) {
    std::ostringstream os;
    os << "gaussian truncate must be > 0 (got " << truncate << ")";
    refuse(os.str());
  }
  const double r_real = truncate * sigma + 0.5;
  if (r_real >= max_axis_length / 2 + 1) {
    std::ostringstream os;
    // The radius in floating point: past 2^63 (sigma 1e300) an integer conversion is undefined.
    os << "gaussian sigma " << sigma << " with truncate " << truncate << " needs radius " << std::floor(r_real)
       << ", more than 32";
    refuse(os.str());
  }
  const int r = static_cast<int>(r_real);
  // As scipy's _gaussian_kernel1d: the factor -0.5 / sigma^2 first, then the sum to normalise. The
  // centre is exp(0) = 1 written as such: where sigma^2 underflows (sigma 1e-300) the factor is
  // -inf, and -inf * 0 would make it NaN (scipy's too); the weights are then the limit, an impulse.
  const double factor = -0.5 / (sigma * sigma);
  std::vector<double> w(static_cast<std::size_t>(2 * r + 1));
  double sum = 0;
  for (int x = -r; x <= r; ++x) sum += w[static_cast<std::size_t>(x + r)] = x == 0 ? 1.0 : std::exp(factor * x * x);
  for (double& v : w) v /= sum;
  return w;
}

template <int Dim>
FilterWeights<Dim> separable_weights(std::array<std::vector<double>, Dim> axis, std::string name) {
  for (int a = 0; a < Dim; ++a) check_vector(axis[a], a, name);
  FilterWeights<Dim> f;
  f.name = std::move(name);
  f.separable = true;
  f.axis = std::move(axis);
  for (int a = 0; a < Dim; ++a) f.shape[a] = static_cast<int>(f.axis[a].size());
  return f;
}

template <int Dim>
FilterWeights<Dim> mean_filter(const std::array<int, Dim>& size) {
  std::array<std::vector<double>, Dim> axis;
  for (int a = 0; a < Dim; ++a) axis[a] = mean_weights(size[a]);
  return separable_weights<Dim>(std::move(axis), "mean");
}

template <int Dim>
FilterWeights<Dim> gaussian_filter(const std::array<double, Dim>& sigma, double truncate) {
  std::array<std::vector<double>, Dim> axis;
  for (int a = 0; a < Dim; ++a) axis[a] = gaussian_weights(sigma[a], truncate);
  return separable_weights<Dim>(std::move(axis), "gaussian");
}

template <int Dim>
FilterWeights<Dim> full_weights(const std::array<int, Dim>& shape, std::vector<double> weights) {
  std::size_t count = 1;
  for (int a = 0; a < Dim; ++a) {
    if (shape[a] < 1) refuse("correlate weight shape needs extents >= 1 (axis " + std::to_string(a) + " has " + std::to_string(shape[a]) + ")");
    count *= static_cast<std::size_t>(shape[a]);
  }
  if (weights.size() != count)
    refuse("correlate weights: " + std::to_string(weights.size()) + " values for a shape of " + std::to_string(count));
  for (double v : weights)
    if (!std::isfinite(v)) refuse("correlate weights hold a value that is not finite");
  FilterWeights<Dim> f;
  f.name = "correlate";
  f.separable = false;
  f.shape = shape;
  f.full = std::move(weights);
  return f;
}

#define GRIDFLOW_INSTANTIATE_FILTER_WEIGHTS(D)                                                           \
  template FilterWeights<D> separable_weights<D>(std::array<std::vector<double>, D>, std::string);       \
  template FilterWeights<D> mean_filter<D>(const std::array<int, D>&);                                   \
  template FilterWeights<D> gaussian_filter<D>(const std::array<double, D>&, double);                    \
  template FilterWeights<D> full_weights<D>(const std::array<int, D>&, std::vector<double>);
GRIDFLOW_INSTANTIATE_FILTER_WEIGHTS(2)
GRIDFLOW_INSTANTIATE_FILTER_WEIGHTS(3)
#undef GRIDFLOW_INSTANTIATE_FILTER_WEIGHTS

}  // namespace gridflow::kernels::filter
