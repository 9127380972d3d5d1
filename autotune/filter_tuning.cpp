#include "autotune/filter_tuning.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include "autotune/filter_evaluator.hpp"
#include "autotune/timer.hpp"
#include "kernels/filter/filter_search_space.hpp"
#include "kernels/filter/panel_block.hpp"
#include "kernels/filter/ring_block.hpp"
#include "kernels/filter/warp_block.hpp"
#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace kf = kernels::filter;
using kf::FilterTunables;
using kf::FilterVariant;

std::string to_string(FilterMethod method) {
  return method == FilterMethod::direct ? "direct" : method == FilterMethod::fft ? "fft" : "auto";
}

FilterMethod parse_filter_method(const std::string& name) {
  if (name == "direct") return FilterMethod::direct;
  if (name == "fft") return FilterMethod::fft;
  if (name == "auto") return FilterMethod::automatic;
  throw Error("unknown filter method '" + name + "' (direct, fft or auto)");
}

namespace {

/// The direct family's device candidates of separable weights.
template <int Dim>
std::vector<FilterTunables> direct_device_candidates(const kf::FilterWeights<Dim>& weights, int dims) {
  const bool ring = kf::ring_lengths<Dim>(weights.axis)[0] != 0, warp = kf::warp_length<Dim>(weights.axis) != 0,
             panel = kf::panel_length<Dim>(weights.axis) != 0;
  std::vector<FilterTunables> c;
  for (const FilterTunables& t : kf::filter_candidates(dims)) {
    // Where the ring kernel runs, it (and the warp and panel kernels where they run) beat every
    // other variant on every benchmark case (bench/README.md); elsewhere the tiled shapes at 256
    // threads cover that variant's spread.
    const bool walks = t.variant == FilterVariant::ring || t.variant == FilterVariant::warp || t.variant == FilterVariant::panel;
    const bool keep = ring ? t.variant == FilterVariant::ring || (warp && t.variant == FilterVariant::warp) ||
                                 (panel && t.variant == FilterVariant::panel)
                           : !walks && (t.variant != FilterVariant::tiled || t.threads == 256);
    if (keep) c.push_back(t);
  }
  if (ring) {
    c.push_back(FilterTunables::streaming_defaults_for(dims));
    c.push_back(FilterTunables::tiled_defaults_for(dims));
    c.push_back(FilterTunables{FilterVariant::direct});
  }
  return c;
}

}  // namespace

std::string filter_candidate_label(const FilterTunables& tunables, mesh::MemorySpace space) {
  if (space == mesh::MemorySpace::host && tunables.variant != FilterVariant::fft) return "host reference";
  std::ostringstream os;
  os << tunables;
  return os.str();
}

template <int Dim>
std::vector<FilterTunables> filter_tuning_candidates(const kf::FilterWeights<Dim>& weights, int dims, mesh::MemorySpace space,
                                                     FilterMethod method) {
  std::vector<FilterTunables> all;
  if (method != FilterMethod::fft) {
    all.push_back(FilterTunables::defaults_for(dims));
    if (space == mesh::MemorySpace::device && weights.separable)
      for (const auto& t : direct_device_candidates(weights, dims)) all.push_back(t);
  }
  if (method != FilterMethod::direct) {
    const auto fft = kf::filter_fft_candidates(dims, space);
    // fft alone is the defaults: a measurement's choice would let the last bits vary.
    all.insert(all.end(), fft.begin(), method == FilterMethod::fft ? fft.begin() + 1 : fft.end());
  }
  // One of each label, in order: the defaults may be a listed shape, and on the host every
  // direct-family candidate is the reference.
  std::vector<FilterTunables> unique;
  std::set<std::string> seen;
  for (const auto& t : all)
    if (seen.insert(filter_candidate_label(t, space)).second) unique.push_back(t);
  return unique;
}

std::string describe(const FilterTuning& tuning, mesh::MemorySpace space) {
  if (tuning.candidates < 2) return "";
  const auto& report = tuning.outcome.report;
  std::ostringstream os;
  os << filter_candidate_label(tuning.chosen, space) << " (";
  if (!report) os << tuning.outcome.note;
  else if (report->from_cache) os << "from the tuning cache";
  else os << "measured " << report->evaluations << " of " << tuning.candidates << " candidates in " << report->wall_s << " s";
  os << ')';
  return os.str();
}

SearchSpace filter_space(const std::vector<FilterTunables>& candidates, mesh::MemorySpace space) {
  GRIDFLOW_REQUIRE(!candidates.empty(), "a filter search space needs at least one candidate");
  std::vector<std::string> labels;
  for (const auto& c : candidates) labels.push_back(filter_candidate_label(c, space));
  SearchSpace s;
  s.add(Parameter::choice(filter_parameter, labels, labels.front()).variant());
  return s;
}

template <int Dim>
CacheKey filter_cache_key(const kf::FilterWeights<Dim>& weights, kf::BoundaryMode mode, FilterMethod method, const mesh::Box<Dim>& update,
                          mesh::MemorySpace space, bool double_precision) {
  std::ostringstream kernel;
  kernel << "filter::" << to_string(method) << "::" << kf::to_string(mode) << "::" << (weights.separable ? "separable" : "full") << "::";
  for (int d = 0; d < Dim; ++d) kernel << (d ? "x" : "") << weights.length(d);
  std::vector<std::int64_t> extents;
  for (int d = 0; d < Dim; ++d) extents.push_back(update.extent(d));
  CacheKey key;
  key.device = device_key(space);
  key.kernel = kernel.str();
  key.precision = double_precision ? "double" : "float";
  key.extents = extents_key(extents);
  return key;
}

namespace {

/// The part of `update` the candidates are timed on: all of it up to a size where one filter
/// takes milliseconds (2^18 points on a host core, 2^26 on a GPU), else its low corner of that
/// size, shrunk along the slowest axes first. A tuning must cost little beside the work it
/// serves, which may be one pass of `gridflow filter`.
template <int Dim>
mesh::Box<Dim> timed_part(const mesh::Box<Dim>& update, mesh::MemorySpace space) {
  const mesh::Index most = space == mesh::MemorySpace::host ? (mesh::Index{1} << 18) : (mesh::Index{1} << 26);
  mesh::Box<Dim> b = update;
  for (int d = Dim - 1; d >= 0 && b.size() > most; --d) {
    const mesh::Index others = b.size() / b.extent(d);
    b.hi[d] = b.lo[d] + std::max<mesh::Index>(1, most / others) - 1;
  }
  return b;
}

/// FNV-1a of the candidates' labels, 8 hex digits.
std::string candidates_digest(const std::vector<FilterTunables>& candidates, mesh::MemorySpace space) {
  std::uint32_t h = 2166136261u;
  for (const auto& c : candidates)
    for (char ch : filter_candidate_label(c, space) + ";") h = (h ^ static_cast<unsigned char>(ch)) * 16777619u;
  std::ostringstream os;
  os << std::hex << h;
  return os.str();
}

}  // namespace

template <class T, int Dim>
FilterTuning choose_filter_tunables(const kf::FilterPlan<T, Dim>& plan, const mesh::Box<Dim>& update, mesh::MemorySpace space,
                                    StreamHandle stream, FilterMethod method, const TuningOptions& options, MPI_Comm comm,
                                    bool remeasure) {
  const auto candidates = filter_tuning_candidates(plan.weights(), filter_dims(plan.global()), space, method);
  FilterTuning tuning;
  tuning.candidates = candidates.size();
  tuning.chosen = candidates.front();
  if (candidates.size() == 1) {
    tuning.outcome.note = "one candidate: nothing to choose";
    return tuning;
  }
  TuningRequest request;
  request.options = options;
  // A flat list of shapes of several variants: no neighbourhood a local search could follow.
  request.options.strategy = TuningStrategy::exhaustive;
  request.remeasure = remeasure;
  request.key = filter_cache_key(plan.weights(), plan.boundary().mode, method, update, space, std::is_same_v<T, double>);
  // The cache stores the winner's index into the candidates: name the list it indexes.
  request.key.kernel += "::" + candidates_digest(candidates, space);
  FilterEvaluator<T, Dim> evaluator(plan, timed_part(update, space), space, stream, candidates, filter_parameter, comm);
  auto timer = make_timer(space == mesh::MemorySpace::device ? std::optional<StreamHandle>(stream) : std::nullopt);
  tuning.outcome = choose_collectively(request, filter_space(candidates, space), evaluator, std::move(timer), comm);
  tuning.chosen = candidates.at(static_cast<std::size_t>(tuning.outcome.chosen.at(filter_parameter)));
  return tuning;
}

#define GRIDFLOW_INSTANTIATE_FILTER_TUNING(D)                                                                                     \
  template std::vector<FilterTunables> filter_tuning_candidates<D>(const kf::FilterWeights<D>&, int, mesh::MemorySpace, FilterMethod); \
  template CacheKey filter_cache_key<D>(const kf::FilterWeights<D>&, kf::BoundaryMode, FilterMethod, const mesh::Box<D>&,          \
                                        mesh::MemorySpace, bool);                                                                 \
  template FilterTuning choose_filter_tunables<float, D>(const kf::FilterPlan<float, D>&, const mesh::Box<D>&, mesh::MemorySpace,  \
                                                         StreamHandle, FilterMethod, const TuningOptions&, MPI_Comm, bool);  \
  template FilterTuning choose_filter_tunables<double, D>(const kf::FilterPlan<double, D>&, const mesh::Box<D>&, mesh::MemorySpace, \
                                                          StreamHandle, FilterMethod, const TuningOptions&, MPI_Comm, bool);
GRIDFLOW_INSTANTIATE_FILTER_TUNING(2)
GRIDFLOW_INSTANTIATE_FILTER_TUNING(3)
#undef GRIDFLOW_INSTANTIATE_FILTER_TUNING

}  // namespace gridflow::autotune
