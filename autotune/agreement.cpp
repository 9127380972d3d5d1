#include "autotune/agreement.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace {

constexpr double ruled_out = std::numeric_limits<double>::infinity();

double finite_or_ruled_out(double median) { return std::isfinite(median) ? median : ruled_out; }

/// The index of the smallest finite worst-case median.
std::size_t argmin_of_worst(const std::vector<double>& worst) {
  std::size_t best = worst.size();
  for (std::size_t i = 0; i < worst.size(); ++i)
    if (worst[i] != ruled_out && (best == worst.size() || worst[i] < worst[best])) best = i;
  if (best == worst.size())
    throw Error("autotune: no candidate ran on every rank (" + std::to_string(worst.size()) + " candidates)");
  return best;
}

}  // namespace

std::size_t min_max_choice(const std::vector<std::vector<double>>& medians_by_rank) {
  if (medians_by_rank.empty()) throw Error("autotune: no ranks' medians to agree on");
  const std::size_t count = medians_by_rank.front().size();
  std::vector<double> worst(count, -ruled_out);
  for (std::size_t r = 0; r < medians_by_rank.size(); ++r) {
    if (medians_by_rank[r].size() != count)
      throw Error("autotune: rank " + std::to_string(r) + " has " + std::to_string(medians_by_rank[r].size()) +
                  " medians, rank 0 has " + std::to_string(count));
    for (std::size_t i = 0; i < count; ++i) worst[i] = std::max(worst[i], finite_or_ruled_out(medians_by_rank[r][i]));
  }
  return argmin_of_worst(worst);
}

std::size_t agree_on_candidate(MPI_Comm comm, const std::vector<Configuration>& candidates,
                               const std::vector<double>& medians_s) {
  if (candidates.size() != medians_s.size())
    throw Error("autotune: " + std::to_string(medians_s.size()) + " medians for " + std::to_string(candidates.size()) +
                " candidates");
  // Fingerprint of the list: count and hashes. Equal minimum and maximum over ranks = same list.
  std::uint64_t fingerprint = candidates.size();
  for (const auto& c : candidates) fingerprint = fingerprint * 1099511628211ull ^ c.stable_hash();
  std::uint64_t lowest = 0, highest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&fingerprint, &lowest, 1, MPI_UINT64_T, MPI_MIN, comm));
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&fingerprint, &highest, 1, MPI_UINT64_T, MPI_MAX, comm));
  if (lowest != highest) throw Error("autotune: the ranks timed different candidate lists");

  std::vector<double> local(medians_s.size()), worst(medians_s.size());
  for (std::size_t i = 0; i < local.size(); ++i) local[i] = finite_or_ruled_out(medians_s[i]);
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(local.data(), worst.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_MAX, comm));
  return argmin_of_worst(worst);
}

std::vector<Configuration> broadcast_candidates(MPI_Comm comm, int root, const std::vector<Configuration>& candidates) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string text;
  if (rank == root)
    for (const auto& c : candidates) text += c.to_string() + ';';
  long long length = static_cast<long long>(text.size());
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_LONG_LONG, root, comm));
  text.resize(static_cast<std::size_t>(length));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, root, comm));
  std::vector<Configuration> result;
  for (std::size_t begin = 0, end; begin < text.size(); begin = end + 1) {
    end = text.find(';', begin);
    result.push_back(Configuration::parse(std::string_view(text).substr(begin, end - begin)));
  }
  return result;
}

}  // namespace gridflow::autotune
