#pragma once
// FilterEvaluator: the tuner's view of one convolution filter (weights, boundary mode, global
// array, this rank's update box, precision, memory space). A configuration names one candidate
// FilterTunables by index.
//
// check() runs the candidate on a small array of its own (the global array's corner, at most
// check_extent points per axis, so both edges of every axis are met) and compares it with the
// host reference on the same values: the direct family must match bitwise (every CUDA variant
// computes the reference's chain of roundings), the FFT variant within its rounding bound
// (fft_error_bound). run() applies the candidate to this rank's update box of fixed random values,
// the work the tuner times. Plans of the FFT candidates are kept for the evaluator's lifetime, so
// their planning is never timed.
#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autotune/evaluator.hpp"
#include "kernels/filter/correlate.hpp"
#include "mesh/field.hpp"

namespace gridflow::autotune {

/// The most points per axis of check()'s array: long enough for several FFT tiles and every
/// CUDA variant's edge blocks, short enough that the host reference takes milliseconds.
template <int Dim>
mesh::Index filter_check_extent(int dims) {
  return dims == 1 ? 16384 : Dim == 2 ? 512 : 64;
}

template <class T, int Dim>
class FilterEvaluator final : public Evaluator {
 public:
  /// The filter of `prototype` (its weights, boundary and global box; its tunables are not read)
  /// on `update`, a box of the global array. `parameter` is the configuration entry holding the
  /// candidate's index into `candidates`. Device candidates run on `stream`. check() is
  /// collective over `comm`: a candidate that fails on any rank fails on all, so the ranks' timed
  /// runs stay in lockstep.
  FilterEvaluator(const kernels::filter::FilterPlan<T, Dim>& prototype, const mesh::Box<Dim>& update, mesh::MemorySpace space,
                  StreamHandle stream, std::vector<kernels::filter::FilterTunables> candidates, std::string parameter, MPI_Comm comm);
  ~FilterEvaluator() override;

  CheckResult check(const Configuration& c) override;
  void run(const Configuration& c) override;

 private:
  struct Problem;  // fields and reference of check() or run()
  const kernels::filter::FilterTunables& candidate(const Configuration& c) const;
  kernels::filter::FilterPlan<T, Dim>& timed_plan(const Configuration& c);
  std::string check_locally(const Configuration& c);

  kernels::filter::FilterWeights<Dim> m_weights;
  kernels::filter::Boundary m_boundary;
  mesh::Box<Dim> m_global, m_update;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::vector<kernels::filter::FilterTunables> m_candidates;
  std::string m_parameter;
  MPI_Comm m_comm;
  std::unique_ptr<Problem> m_check, m_timed;  // made when first needed: a cache hit needs neither
  std::unique_ptr<kernels::filter::FilterPlan<T, Dim>> m_direct_plan;   // every direct-family candidate, by set_tunables
  std::map<std::size_t, std::unique_ptr<kernels::filter::FilterPlan<T, Dim>>> m_fft_plans;  // one per FFT candidate
};

extern template class FilterEvaluator<float, 2>;
extern template class FilterEvaluator<double, 2>;
extern template class FilterEvaluator<float, 3>;
extern template class FilterEvaluator<double, 3>;

}  // namespace gridflow::autotune
