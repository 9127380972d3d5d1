#include "autotune/fft_tuning.hpp"

#include <optional>
#include <type_traits>

#include "autotune/fft_evaluator.hpp"
#include "autotune/timer.hpp"
#include "kernels/fft/flow_graph_tunables.hpp"
#include "mesh/check.hpp"

namespace gridflow::autotune {

using kernels::fft::FftBackend;
using kernels::fft::FftDirection;
using kernels::fft::FftKind;
using kernels::fft::FftLayout;
using kernels::fft::FftTunables;

std::vector<FftTunables> fft_candidates(const FftLayout& layout, mesh::MemorySpace space, bool double_precision) {
  std::vector<FftTunables> candidates{kernels::fft::default_fft_tunables(space)};
  if (space == mesh::MemorySpace::host) {
    if (supports(FftBackend::host_flow_graph, layout)) candidates.push_back({FftBackend::host_flow_graph, ""});
  } else if (supports(FftBackend::flow_graph, layout)) {
    for (const auto& variant : kernels::fft::FlowGraphTunables::candidates(layout.n, double_precision))
      candidates.push_back({FftBackend::flow_graph, variant.to_string()});
  }
  return candidates;
}

std::string fft_candidate_label(const FftTunables& tunables) {
  return to_string(tunables.backend) + (tunables.variant.empty() ? "" : ":" + tunables.variant);
}

SearchSpace fft_space(const std::vector<FftTunables>& candidates) {
  GRIDFLOW_REQUIRE(!candidates.empty(), "an FFT search space needs at least one candidate");
  std::vector<std::string> labels;
  for (const auto& c : candidates) labels.push_back(fft_candidate_label(c));
  SearchSpace space;
  space.add(Parameter::choice(fft_parameter, labels, labels.front()).variant());
  return space;
}

CacheKey fft_cache_key(const FftLayout& l, mesh::MemorySpace space, bool double_precision) {
  std::string kind = l.kind == FftKind::r2c   ? "r2c"
                     : l.kind == FftKind::c2r ? "c2r"
                                              : (l.direction == FftDirection::forward ? "c2c_forward" : "c2c_inverse");
  const bool contiguous = l.stride == 1 && l.resolved_in_distance() == l.in_line_elements() &&
                          l.resolved_out_distance() == l.out_line_elements();
  CacheKey key;
  key.device = device_key(space);
  key.kernel = "fft::" + kind + (contiguous ? "" : "::strided");
  key.precision = double_precision ? "double" : "float";
  key.extents = extents_key({l.n, l.batch});
  return key;
}

template <class T>
FftTuning choose_fft_tunables(const FftLayout& layout, mesh::MemorySpace space, StreamHandle stream,
                              const TuningOptions& options, MPI_Comm comm, bool remeasure) {
  constexpr bool double_precision = std::is_same_v<T, double>;
  const auto candidates = fft_candidates(layout, space, double_precision);
  const auto search = fft_space(candidates);
  TuningRequest request;
  request.options = options;
  // The candidates are few and unordered: no neighbourhood a local search could follow.
  request.options.strategy = TuningStrategy::exhaustive;
  request.remeasure = remeasure;
  request.key = fft_cache_key(layout, space, double_precision);
  FftEvaluator<T> evaluator(layout, space, stream, candidates, fft_parameter, comm);
  auto timer = make_timer(space == mesh::MemorySpace::device ? std::optional<StreamHandle>(stream) : std::nullopt);
  FftTuning tuning;
  tuning.outcome = choose_collectively(request, search, evaluator, std::move(timer), comm);
  tuning.chosen = candidates.at(static_cast<std::size_t>(tuning.outcome.chosen.at(fft_parameter)));
  return tuning;
}

template FftTuning choose_fft_tunables<float>(const FftLayout&, mesh::MemorySpace, StreamHandle, const TuningOptions&,
                                              MPI_Comm, bool);
template FftTuning choose_fft_tunables<double>(const FftLayout&, mesh::MemorySpace, StreamHandle, const TuningOptions&,
                                               MPI_Comm, bool);

}  // namespace gridflow::autotune
