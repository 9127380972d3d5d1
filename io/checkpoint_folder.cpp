#include "io/checkpoint_folder.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>
#include <vector>

#include "mesh/check.hpp"

namespace gridflow::io {

namespace fs = std::filesystem;

namespace {

/// The step of a checkpoint file name of `basename`, or -1.
std::int64_t step_of(const std::string& file_name, const std::string& basename) {
  const std::string prefix = basename + "_checkpoint_";
  if (file_name.size() != prefix.size() + 8 + 3 || file_name.compare(0, prefix.size(), prefix) != 0 ||
      file_name.compare(file_name.size() - 3, 3, ".h5") != 0)
    return -1;
  const std::string digits = file_name.substr(prefix.size(), 8);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return std::stoll(digits);
}

/// (step, path) of every checkpoint of `basename` in `directory`, oldest first.
std::vector<std::pair<std::int64_t, fs::path>> list_checkpoints(const std::string& directory, const std::string& basename) {
  std::vector<std::pair<std::int64_t, fs::path>> out;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::int64_t step = step_of(it->path().filename().string(), basename);
    if (step >= 0) out.emplace_back(step, it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::string checkpoint_file_name(const std::string& basename, std::int64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%08lld", static_cast<long long>(step));
  return basename + "_checkpoint_" + digits + ".h5";
}

void prune_checkpoints(const std::string& directory, const std::string& basename, int keep, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    auto all = list_checkpoints(directory, basename);
    const std::size_t kept = static_cast<std::size_t>(std::max(keep, 1));
    for (std::size_t i = 0; i + kept < all.size(); ++i) {
      std::error_code ec;
      fs::remove(all[i].second, ec);
      if (ec) std::fprintf(stderr, "gridflow: warning: cannot remove the old checkpoint %s: %s\n", all[i].second.c_str(),
                           ec.message().c_str());
    }
  }
  GRIDFLOW_MPI_CHECK(MPI_Barrier(comm));
}

std::string latest_checkpoint(const std::string& directory, const std::string& basename, MPI_Comm comm) {
  int rank = 0;
  GRIDFLOW_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string found;
  if (rank == 0) {
    const auto all = list_checkpoints(directory, basename);
    if (!all.empty()) found = all.back().second.string();
  }
  int length = static_cast<int>(found.size());
  GRIDFLOW_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
  found.resize(static_cast<std::size_t>(length));
  GRIDFLOW_MPI_CHECK(MPI_Bcast(found.data(), length, MPI_CHAR, 0, comm));
  return found;
}

}  // namespace gridflow::io
