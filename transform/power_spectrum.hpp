#pragma once
// RadialPowerSpectrum<T, Dim>: the radially binned power spectrum of a decomposed real field over
// all the grid's points (boundary included),
//
//   power[b] = sum of |U(k)|^2 / N_total^2 over the integer wavevectors k with lround(|k|) = b,
//
// U the unnormalised forward DFT (DistributedFft), each component of k the signed frequency of
// its axis (numpy.fft.fftfreq(n) * n), b = 0..K with K = floor(sqrt(sum_d (n_d / 2)^2)), n_d the
// points per axis (integer division); corner wavevectors that round above K are left out.
//
// Bitwise the same whatever the rank count: the transform runs line by line (every line the
// same bits, AxisFft), and the sums are formed per plane of one index along the spectrum's split
// axis (planes lie whole on one rank), in global index order, then the small planes x bins table
// is gathered on every rank and summed over planes in index order. The half spectrum of the
// real transform stands for its mirror image (weight 2 but at x frequency 0 and n_x/2).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "halo/box_redistribution.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "transform/distributed_fft.hpp"

namespace gridflow::transform {

/// K above for a grid of `points` points per axis.
template <int Dim>
std::int64_t max_spectrum_bin(const std::array<mesh::Index, Dim>& points);

/// The bin of a wavevector of squared length k2: lround(sqrt(k2)) (half away from zero).
inline std::int64_t spectrum_bin(std::int64_t k2) { return std::lround(std::sqrt(static_cast<double>(k2))); }

template <class T, int Dim>
class RadialPowerSpectrum {
 public:
  /// Not collective. Plans a host slab transform with FFTW, line by line.
  explicit RadialPowerSpectrum(const mesh::Decomposition<Dim>& decomposition);
  ~RadialPowerSpectrum();

  /// Collective. power[0..K] of `values` (host memory, holding this rank's owned points); the
  /// same vector on every rank.
  std::vector<double> compute(const mesh::Field<T, Dim>& values);

  std::int64_t max_bin() const { return m_max_bin; }

 private:
  /// Adds this rank's planes' |U|^2 into m_table (bins along x, planes along y).
  void bin_planes();

  const mesh::Decomposition<Dim>& m_decomposition;
  DistributedFft<T, Dim> m_fft;
  std::int64_t m_max_bin = 0;
  std::unique_ptr<mesh::Field<double, 2>> m_table, m_all;  // this rank's planes; every plane
  std::unique_ptr<halo::BoxRedistribution<double, 2>> m_gather;
};

extern template class RadialPowerSpectrum<float, 2>;
extern template class RadialPowerSpectrum<double, 2>;
extern template class RadialPowerSpectrum<float, 3>;
extern template class RadialPowerSpectrum<double, 3>;

}  // namespace gridflow::transform
