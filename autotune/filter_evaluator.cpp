#include "autotune/filter_evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <utility>

#include "kernels/filter/fft_correlate.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::autotune {

namespace kf = kernels::filter;

namespace {

/// Fixed pseudo-random values in [-1, 1) over every allocated element of a host field (the
/// padding too: what a candidate must never read is as arbitrary as what it reads).
template <class T, int Dim>
void fill_random(mesh::Field<T, Dim>& f, std::uint64_t seed) {
  std::uint64_t s = seed;
  T* v = f.allocation();
  for (std::size_t i = 0; i < f.allocated_elements(); ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v[i] = static_cast<T>(static_cast<double>(s >> 11) * 0x1.0p-52 - 1.0);
  }
}

}  // namespace

template <class T, int Dim>
struct FilterEvaluator<T, Dim>::Problem {
  mesh::Box<Dim> update;
  mesh::Field<T, Dim> in, out;
  std::vector<T> reference;  // check(): the host reference's values on `update`, x fastest
};

template <class T, int Dim>
FilterEvaluator<T, Dim>::FilterEvaluator(const kf::FilterPlan<T, Dim>& prototype, const mesh::Box<Dim>& update, mesh::MemorySpace space,
                                         StreamHandle stream, std::vector<kf::FilterTunables> candidates, std::string parameter,
                                         MPI_Comm comm)
    : m_weights(prototype.weights()),
      m_boundary(prototype.boundary()),
      m_global(prototype.global()),
      m_update(update),
      m_space(space),
      m_stream(stream),
      m_candidates(std::move(candidates)),
      m_parameter(std::move(parameter)),
      m_comm(comm) {}

template <class T, int Dim>
FilterEvaluator<T, Dim>::~FilterEvaluator() = default;

template <class T, int Dim>
const kf::FilterTunables& FilterEvaluator<T, Dim>::candidate(const Configuration& c) const {
  const auto index = static_cast<std::size_t>(c.at(m_parameter));
  GRIDFLOW_REQUIRE(index < m_candidates.size(),
                   "filter candidate " + std::to_string(index) + " of " + std::to_string(m_candidates.size()) + " does not exist");
  return m_candidates[index];
}

namespace {

/// The values of `f` on `box`, x fastest, in host memory.
template <class T, int Dim>
std::vector<T> values_on(const mesh::Field<T, Dim>& f, const mesh::Box<Dim>& box) {
  mesh::Field<T, Dim> host(f.owned(), f.ghost_width(), mesh::MemorySpace::host, "filter_check_host");
  host.copy_from(f);
  std::vector<T> v;
  v.reserve(static_cast<std::size_t>(box.size()));
  if constexpr (Dim == 2) {
    for (mesh::Index j = box.lo[1]; j <= box.hi[1]; ++j)
      for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i) v.push_back(host(i, j));
  } else {
    for (mesh::Index k = box.lo[2]; k <= box.hi[2]; ++k)
      for (mesh::Index j = box.lo[1]; j <= box.hi[1]; ++j)
        for (mesh::Index i = box.lo[0]; i <= box.hi[0]; ++i) v.push_back(host(i, j, k));
  }
  return v;
}

}  // namespace

template <class T, int Dim>
std::string FilterEvaluator<T, Dim>::check_locally(const Configuration& c) {
  try {
    const kf::FilterTunables& tunables = candidate(c);
    if (!m_check) {
      // The global array's corner as an array of its own: the update is the whole of it, so every
      // read maps inside and the input needs no ghosts.
      const int dims = Dim == 2 && m_global.extent(1) == 1 ? 1 : Dim;
      mesh::Box<Dim> box = m_global;
      for (int d = 0; d < Dim; ++d) box.hi[d] = box.lo[d] + std::min(m_global.extent(d), filter_check_extent<Dim>(dims)) - 1;
      mesh::Field<T, Dim> host_in(box, 0, mesh::MemorySpace::host, "filter_check_in"), host_out(box, 0, mesh::MemorySpace::host, "filter_check_ref");
      fill_random(host_in, 20261128);
      kf::FilterPlan<T, Dim>(m_weights, m_boundary, box).apply(host_in, host_out, box, nullptr);
      m_check = std::make_unique<Problem>(Problem{box, mesh::Field<T, Dim>(box, 0, m_space, "filter_check_in"),
                                                  mesh::Field<T, Dim>(box, 0, m_space, "filter_check_out"), values_on(host_out, box)});
      m_check->in.copy_from(host_in);
    }
    kf::FilterPlan<T, Dim> plan(m_weights, m_boundary, m_check->update, tunables);
    plan.apply(m_check->in, m_check->out, m_check->update, m_stream);
    mesh::synchronize(m_space, m_stream);
    const std::vector<T> got = values_on(m_check->out, m_check->update);
    const std::vector<T>& want = m_check->reference;
    double worst = 0;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double d = std::abs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
      if (!(d == 0) || std::signbit(got[i]) != std::signbit(want[i])) ++differing;
      if (!(d <= worst)) worst = d;  // NaN stays
    }
    std::ostringstream why;
    if (tunables.variant == kf::FilterVariant::fft) {
      mesh::Index longest = 0;
      for (int d = 0; d < Dim; ++d) longest = std::max(longest, m_check->update.extent(d) + m_weights.length(d));
      const double bound = kf::fft_error_bound<T, Dim>(m_weights, longest, 1.0);
      if (!(worst <= bound)) why << "max |fft - reference| = " << worst << " > " << bound << " on " << m_check->update;
    } else if (differing != 0) {
      why << differing << " of " << got.size() << " values differ from the host reference's bits (max difference " << worst << ") on "
          << m_check->update;
    }
    return why.str();
  } catch (const Error& e) {
    return std::string("cannot run: ") + e.what();
  }
}

template <class T, int Dim>
CheckResult FilterEvaluator<T, Dim>::check(const Configuration& c) {
  const std::string why = check_locally(c);
  int passed = why.empty() ? 1 : 0, all_passed = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&passed, &all_passed, 1, MPI_INT, MPI_MIN, m_comm));
  if (all_passed) return CheckResult::pass();
  return CheckResult::fail(why.empty() ? "failed on another rank" : why);
}

template <class T, int Dim>
kf::FilterPlan<T, Dim>& FilterEvaluator<T, Dim>::timed_plan(const Configuration& c) {
  const kf::FilterTunables& tunables = candidate(c);
  if (tunables.variant == kf::FilterVariant::fft) {
    auto& slot = m_fft_plans[static_cast<std::size_t>(c.at(m_parameter))];
    if (!slot) slot = std::make_unique<kf::FilterPlan<T, Dim>>(m_weights, m_boundary, m_global, tunables);
    return *slot;
  }
  if (!m_direct_plan) m_direct_plan = std::make_unique<kf::FilterPlan<T, Dim>>(m_weights, m_boundary, m_global, tunables);
  m_direct_plan->set_tunables(tunables);  // the direct family shares scratch fields of one layout
  return *m_direct_plan;
}

template <class T, int Dim>
void FilterEvaluator<T, Dim>::run(const Configuration& c) {
  kf::FilterPlan<T, Dim>& plan = timed_plan(c);
  if (!m_timed) {
    // One input deep enough for every candidate's reads (the FFT variant reads whole tiles).
    int ghost = 0;
    for (const auto& t : m_candidates) ghost = std::max(ghost, kf::FilterPlan<T, Dim>(m_weights, m_boundary, m_global, t).reach());
    mesh::Field<T, Dim> host_in(m_update, ghost, mesh::MemorySpace::host, "filter_tuning_in");
    fill_random(host_in, 1128);
    m_timed = std::make_unique<Problem>(Problem{m_update, mesh::Field<T, Dim>(m_update, ghost, m_space, "filter_tuning_in"),
                                                mesh::Field<T, Dim>(m_update, 0, m_space, "filter_tuning_out"), {}});
    m_timed->in.copy_from(host_in);
  }
  plan.apply(m_timed->in, m_timed->out, m_update, m_stream);
}

template class FilterEvaluator<float, 2>;
template class FilterEvaluator<double, 2>;
template class FilterEvaluator<float, 3>;
template class FilterEvaluator<double, 3>;

}  // namespace gridflow::autotune
