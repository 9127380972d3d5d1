#include "autotune/fft_evaluator.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>

#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace {

using kernels::fft::FftBackend;
using kernels::fft::FftKind;
using kernels::fft::FftLayout;

template <class T>
std::size_t value_bytes(bool complex) {
  return complex ? sizeof(kernels::fft::Complex<T>) : sizeof(T);
}

// Relative L2 difference of two host arrays of T (complex values are pairs of T).
template <class T>
double relative_l2_difference(const T* got, const T* reference, std::size_t count) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const long double d = static_cast<long double>(got[i]) - reference[i];
    diff += d * d;
    norm += static_cast<long double>(reference[i]) * reference[i];
  }
  return static_cast<double>(norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
}

// Uniform values in [-1, 1); a c2r input gets real bins 0 and n/2, a valid half spectrum, so that
// no backend is judged on the parts of its input the transform ignores.
template <class T>
std::vector<T> random_input(const FftLayout& l) {
  const std::size_t per_element = l.kind == FftKind::r2c ? 1 : 2;
  std::vector<T> values(static_cast<std::size_t>(l.in_elements()) * per_element);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : values) v = static_cast<T>(u(rng));
  if (l.kind == FftKind::c2r)
    for (std::int64_t b = 0; b < l.batch; ++b) {
      values[2 * b * l.resolved_in_distance() + 1] = 0;
      if (l.n % 2 == 0) values[2 * (b * l.resolved_in_distance() + (l.n / 2) * l.stride) + 1] = 0;
    }
  return values;
}

}  // namespace

template <class T>
double FftEvaluator<T>::tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

template <class T>
FftEvaluator<T>::FftEvaluator(const FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
                              std::vector<kernels::fft::FftTunables> candidates, std::string parameter, MPI_Comm comm)
    : m_layout(layout), m_space(space), m_stream(stream), m_candidates(std::move(candidates)),
      m_parameter(std::move(parameter)), m_comm(comm) {}

// Not in the constructor: a cache hit builds the evaluator but never checks or runs.
template <class T>
void FftEvaluator<T>::prepare() {
  const auto& layout = m_layout;
  const auto space = m_space;
  const auto input = random_input<T>(layout);
  const std::size_t in_bytes = input.size() * sizeof(T);
  const std::size_t out_bytes =
      static_cast<std::size_t>(layout.out_elements()) * value_bytes<T>(layout.kind != FftKind::c2r);
  m_pristine = mesh::Buffer(in_bytes, space);
  m_input = mesh::Buffer(in_bytes, space);
  m_output = mesh::Buffer(out_bytes, space);
  mesh::copy_bytes(m_pristine.data(), space, input.data(), mesh::MemorySpace::host, in_bytes);

  // The reference: FFTW on a host copy (which c2r may overwrite).
  auto fftw_input = input;
  m_reference.assign(out_bytes, 0);
  kernels::fft::make_fft_plan<T>(layout, mesh::MemorySpace::host, nullptr, {FftBackend::fftw, ""})
      ->execute(static_cast<const void*>(fftw_input.data()), static_cast<void*>(m_reference.data()));
}

template <class T>
kernels::fft::FftPlan<T>& FftEvaluator<T>::plan(const Configuration& c) {
  const auto index = static_cast<std::size_t>(c.at(m_parameter));
  GRIDFLOW_REQUIRE(index < m_candidates.size(), "FFT candidate " + std::to_string(index) + " of " +
                                                    std::to_string(m_candidates.size()) + " does not exist");
  auto& slot = m_plans[index];
  if (!slot) slot = kernels::fft::make_fft_plan<T>(m_layout, m_space, m_stream, m_candidates[index]);
  return *slot;
}

template <class T>
void FftEvaluator<T>::restore_input() {
  mesh::copy_bytes(m_input.data(), m_space, m_pristine.data(), m_space, m_input.bytes());
}

template <class T>
std::string FftEvaluator<T>::check_locally(const Configuration& c) {
  try {
    if (m_reference.empty()) prepare();
    auto& p = plan(c);
    restore_input();
    if (m_space == mesh::MemorySpace::host) std::memset(m_output.data(), 0, m_output.bytes());
    else mesh::zero_device_bytes(m_output.data(), m_output.bytes());
    p.execute(m_input.data(), m_output.data());
    mesh::synchronize(m_space, m_stream);
    std::vector<unsigned char> got(m_output.bytes());
    mesh::copy_bytes(got.data(), mesh::MemorySpace::host, m_output.data(), m_space, got.size());
    const double error = relative_l2_difference(reinterpret_cast<const T*>(got.data()),
                                                reinterpret_cast<const T*>(m_reference.data()), got.size() / sizeof(T));
    if (!(error <= tolerance()))
      return "relative L2 error against FFTW " + std::to_string(error) + " > " + std::to_string(tolerance());
    return "";
  } catch (const Error& e) {
    return std::string("cannot plan or run: ") + e.what();
  }
}

template <class T>
CheckResult FftEvaluator<T>::check(const Configuration& c) {
  const std::string why = check_locally(c);
  int passed = why.empty() ? 1 : 0, all_passed = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&passed, &all_passed, 1, MPI_INT, MPI_MIN, m_comm));
  if (all_passed) return CheckResult::pass();
  return CheckResult::fail(why.empty() ? "failed on another rank" : why);
}

template <class T>
void FftEvaluator<T>::run(const Configuration& c) {
  // c2r overwrites its input: every candidate's timed run includes the same restoring copy.
  if (m_layout.kind == FftKind::c2r) {
    if (m_space == mesh::MemorySpace::host) std::memcpy(m_input.data(), m_pristine.data(), m_input.bytes());
    else mesh::copy_bytes_async(m_input.data(), m_space, m_pristine.data(), m_space, m_input.bytes(), m_stream);
  }
  plan(c).execute(m_input.data(), m_output.data());
}

template class FftEvaluator<float>;
template class FftEvaluator<double>;

}  // namespace gridflow::autotune
