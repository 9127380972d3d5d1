#pragma once
// Checkpoint files: everything a run needs to continue bitwise where it stood, in one parallel
// HDF5 file whose fields have the ghost-free global layout of the outputs (slowest axis first),
// so a checkpoint written on N ranks is read on any other number.
//
// File layout: root attributes `format` ("gridflow checkpoint 1"), step, time, dt, problem,
// precision, ranks, memory_space, code_version, deck (the deck as used, TOML), the deck keys that
// fix the numbers (key_names, key_values: values as text), the run's integers and scalars (names
// and values side by side: tuning choices, solver scalars) and field_names; /Fields/<name>: the
// fields; /Arrays/<name>: 1D double datasets (residual history, the output series so far).
//
// Written atomically: under a hidden temporary name in the same folder, fsync'ed, renamed, and
// the folder fsync'ed, so a file with a checkpoint's name is always whole.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/checkpoint_folder.hpp"
#include "io/output_series.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace gridflow::io {

struct CheckpointContent {
  std::int64_t step = 0;
  double time = 0;
  double dt = 0;
  std::string problem;       ///< "heat2d", "poisson3d"
  std::string precision;     ///< "float", "double"
  std::int64_t ranks = 0;    ///< the rank count that wrote it
  std::string memory_space;  ///< "host" or "device": where the run's fields were
  std::string code_version;
  std::string deck;          ///< TOML text of the deck as used
  std::vector<std::pair<std::string, std::string>> keys;         ///< deck keys that fix the numbers, value as text
  std::vector<std::pair<std::string, std::int64_t>> integers;    ///< tuning choices, solver counters and flags
  std::vector<std::pair<std::string, double>> scalars;           ///< solver scalars, bit for bit
  std::vector<std::pair<std::string, std::vector<double>>> arrays;  ///< histories of any length

  std::optional<std::int64_t> integer(const std::string& name) const;
  std::optional<double> scalar(const std::string& name) const;
  const std::vector<double>* array(const std::string& name) const;
};

/// Collective: writes `content` and `fields` (host memory, owned box of each rank) to `path`
/// atomically. Throws Error naming the file on failure; no file of that name is left then.
template <class T, int Dim>
void write_checkpoint(const std::string& path, const mesh::Decomposition<Dim>& decomposition, const CheckpointContent& content,
                      const std::vector<NamedField<T, Dim>>& fields);

/// An open checkpoint. Collective over the decomposition's communicator. Throws InputError naming
/// the path when it is missing, unreadable, not a gridflow checkpoint, or incomplete.
template <int Dim>
class CheckpointReader {
 public:
  CheckpointReader(const std::string& path, const mesh::Decomposition<Dim>& decomposition);
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;

  const CheckpointContent& content() const { return m_content; }
  const std::vector<std::string>& field_names() const { return m_field_names; }
  const std::string& path() const { return m_path; }
  /// Collective: reads field `name` into the owned box of `out` (host memory; its ghosts are left
  /// alone). InputError when the file has no such field or its shape is not the grid's.
  template <class T>
  void read_field(const std::string& name, mesh::Field<T, Dim>& out) const;

 private:
  std::string m_path;
  const mesh::Decomposition<Dim>& m_decomposition;
  long long m_file = -1;  // hid_t
  CheckpointContent m_content;
  std::vector<std::string> m_field_names;
};

extern template class CheckpointReader<2>;
extern template class CheckpointReader<3>;

}  // namespace gridflow::io
