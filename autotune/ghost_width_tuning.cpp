#include "autotune/ghost_width_tuning.hpp"

#include <mpi.h>

#include <algorithm>

#include "mesh/check.hpp"

namespace gridflow::autotune {

template <int Dim>
std::vector<int> ghost_width_candidates(const TuningOptions& tuning, bool width_given,
                                        const mesh::Decomposition<Dim>& decomposition, long long max_width) {
  if (decomposition.size() == 1 || width_given || tuning.mode == TuningMode::off) return {};
  const auto& owned = decomposition.owned();
  long long local = owned.extent(0), fewest = 0;
  for (int d = 1; d < Dim; ++d) local = std::min<long long>(local, owned.extent(d));
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &fewest, 1, MPI_LONG_LONG, MPI_MIN, decomposition.comm()));
  std::vector<int> widths;
  for (const int w : {1, 2, 4, 8})
    if (w <= fewest && w <= max_width) widths.push_back(w);
  if (widths.size() < 2) widths.clear();
  return widths;
}

void add_ghost_width(autotune::SearchSpace& space, const std::vector<int>& candidates, int default_width) {
  if (candidates.size() >= 2) space.add(autotune::Parameter::integers("ghost_width", candidates, default_width));
}

template <int Dim>
std::string ghost_width_label(const mesh::Decomposition<Dim>& decomposition) {
  std::string label = ":ghost_width/";
  for (int d = 0; d < Dim; ++d) label += (d > 0 ? "x" : "") + std::to_string(decomposition.dims()[d]);
  return label;
}

template <int Dim>
std::string deep_halo_kernel_label(std::string base, bool tunes_width, const mesh::Decomposition<Dim>& decomposition,
                                   bool tunes_transport) {
  if (tunes_width) base += ghost_width_label(decomposition);
  if (tunes_transport) base += ":transport";
  return base;
}

template std::vector<int> ghost_width_candidates<2>(const TuningOptions&, bool, const mesh::Decomposition<2>&, long long);
template std::vector<int> ghost_width_candidates<3>(const TuningOptions&, bool, const mesh::Decomposition<3>&, long long);
template std::string ghost_width_label<2>(const mesh::Decomposition<2>&);
template std::string ghost_width_label<3>(const mesh::Decomposition<3>&);
template std::string deep_halo_kernel_label<2>(std::string, bool, const mesh::Decomposition<2>&, bool);
template std::string deep_halo_kernel_label<3>(std::string, bool, const mesh::Decomposition<3>&, bool);

}  // namespace gridflow::autotune
