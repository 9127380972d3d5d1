#pragma once
// Multi-rank agreement: every rank must run the same configuration (a halo exchange waits for the
// slowest rank), so the choice minimises the worst rank's time, not one rank's.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "autotune/configuration.hpp"

namespace gridflow::autotune {

/// The index of the candidate whose largest median over the ranks is smallest; ties go to the
/// lower index. medians_by_rank[r][i] is rank r's median for candidate i; a non-finite median
/// (rejected on that rank) rules the candidate out. Throws gridflow::Error when the ranks'
/// lists differ in length or every candidate is ruled out.
std::size_t min_max_choice(const std::vector<std::vector<double>>& medians_by_rank);

/// min_max_choice over the ranks of `comm`: rank r passes its own medians for `candidates`
/// (non-finite for one it rejected). Collective over `comm`; every rank returns the same index.
/// Throws gridflow::Error on every rank when the ranks' candidate lists differ.
std::size_t agree_on_candidate(MPI_Comm comm, const std::vector<Configuration>& candidates,
                               const std::vector<double>& medians_s);

/// `candidates` as given on `root`, on every rank of `comm` (collective): how ranks come to time
/// the same shortlist, e.g. the best few of rank 0's search.
std::vector<Configuration> broadcast_candidates(MPI_Comm comm, int root, const std::vector<Configuration>& candidates);

}  // namespace gridflow::autotune
