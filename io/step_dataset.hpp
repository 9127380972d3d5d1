#pragma once
// StepDataset: a small one-dimensional table written into an output step's file beside the fields
// (a diagnostic's result, such as a spectrum), with the file's own write: it is part of the file
// from the start, so the file still appears under its final name only when whole.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gridflow::io {

struct StepDataset {
  /// Path in the file, "group/name"; missing groups are created. Must not be a field's name.
  std::string path;
  /// The same on every rank (rank 0's are stored): int64 or double values.
  std::variant<std::vector<std::int64_t>, std::vector<double>> values;
};

/// Collective over the file's communicator: creates the dataset (and its groups) in `file` and
/// writes rank 0's values (`rank` is this rank). Throws Error naming the path when HDF5 fails.
void write_step_dataset(hid_t file, const StepDataset& dataset, int rank);

}  // namespace gridflow::io
