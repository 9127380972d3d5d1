#pragma once
// FftEvaluator: the tuner's view of one FFT problem (layout, precision, memory space). A
// configuration names one candidate FftTunables by index; check() plans it, runs it on a fixed
// random input and compares with FFTW on the host, run() executes the planned candidate once.
// Plans are kept for the evaluator's lifetime, so planning is never timed.
#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autotune/evaluator.hpp"
#include "kernels/fft/fft_plan.hpp"
#include "mesh/device.hpp"

namespace gridflow::autotune {

template <class T>
class FftEvaluator final : public Evaluator {
 public:
  /// `parameter` is the configuration entry holding the candidate's index into `candidates`.
  /// Device candidates run on `stream`. check() is collective over `comm`: a candidate that fails
  /// on any rank fails on all, so the ranks' timed runs stay in lockstep.
  FftEvaluator(const kernels::fft::FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
               std::vector<kernels::fft::FftTunables> candidates, std::string parameter, MPI_Comm comm);

  CheckResult check(const Configuration& c) override;
  void run(const Configuration& c) override;

  /// Relative L2 error accepted against FFTW: 1e-5 (float), 1e-12 (double).
  static double tolerance();

 private:
  kernels::fft::FftPlan<T>& plan(const Configuration& c);
  std::string check_locally(const Configuration& c);
  void prepare();
  void restore_input();

  kernels::fft::FftLayout m_layout;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::vector<kernels::fft::FftTunables> m_candidates;
  std::string m_parameter;
  MPI_Comm m_comm;
  mesh::Buffer m_pristine, m_input, m_output;  // in m_space; c2r overwrites m_input, m_pristine restores it
  std::vector<unsigned char> m_reference;      // FFTW's output on the host, bytes of m_output
  std::map<std::size_t, std::unique_ptr<kernels::fft::FftPlan<T>>> m_plans;
};

extern template class FftEvaluator<float>;
extern template class FftEvaluator<double>;

}  // namespace gridflow::autotune
