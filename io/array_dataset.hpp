#pragma once
// Any numeric dataset of rank 1 to 3 in an HDF5 file a user hands in (a frame stack, an image, a
// volume), read and written by blocks: a hyperslab of the file and where its values lie in memory.
// Axis order is HDF5's (axis 0 the slowest), the opposite of a Field's x-first indices.
//
// Every call named collective is made by every rank of the communicator the same number of times
// in the same order; a rank with nothing to move passes an empty block.
#include <hdf5.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "io/h5_handle.hpp"

namespace gridflow::io {

/// How the values are stored: floats keep their precision, any integer is read as float64.
enum class ElementType { float32, float64, integer };
const char* to_string(ElementType type);

struct ArrayShape {
  std::vector<hsize_t> extent;  ///< per axis, slowest first
  ElementType type = ElementType::float64;
  int rank() const { return static_cast<int>(extent.size()); }
};

/// A block of the dataset (start and count per axis, slowest first; any count 0: nothing) and the
/// layout of the memory holding it: pitch[a] elements between neighbours along axis a, the last
/// pitch 1 and each a multiple of the next (a padded field's rows and planes).
struct ArrayBlock {
  std::vector<hsize_t> start, count, pitch;
  bool empty() const;
};

/// Collective: rank 0 opens `path` and looks at dataset `name`; every rank gets its shape, or the
/// same InputError naming the file or the dataset and the reason (missing file, not HDF5, no such
/// dataset, rank 0 or above 3, not numeric). Reads no values.
ArrayShape probe_array(const std::string& path, const std::string& name, MPI_Comm comm);

/// Collective: the whole dataset as float64 (C order) on every rank, read by rank 0; for small
/// arrays (filter weights) whose shape probe_array has returned and the caller has checked.
std::vector<double> read_small_array(const std::string& path, const std::string& name, MPI_Comm comm);

/// A dataset opened for reading by every rank (MPI-IO). Collective construction; the shape must
/// already have been checked with probe_array.
class ArrayReader {
 public:
  ArrayReader(const std::string& path, const std::string& name, MPI_Comm comm);
  const ArrayShape& shape() const { return m_shape; }
  /// Collective: the block's values into memory at `first` (T: float or double; stored values are
  /// converted). Blocks until read.
  template <class T>
  void read(const ArrayBlock& block, T* first) const;

 private:
  H5File m_file;
  H5Dataset m_dataset;
  ArrayShape m_shape;
};

/// A new file holding one dataset of a given shape and type, written by every rank and published
/// atomically: it is written under a hidden temporary name beside `path` (".NAME.partial") and
/// renamed to `path` by commit(). Destroyed without commit() (an error), the temporary file is
/// removed, so `path` never holds a partial result and an earlier file there is kept.
class ArrayWriter {
 public:
  /// Collective. `name` may hold groups ("a/b/data"); they are created. Error naming the file when
  /// it cannot be created.
  ArrayWriter(const std::string& path, const std::string& name, const ArrayShape& shape, MPI_Comm comm);
  ~ArrayWriter();
  ArrayWriter(const ArrayWriter&) = delete;
  ArrayWriter& operator=(const ArrayWriter&) = delete;

  /// Collective: the block's values from memory at `first` (T: float or double), converted to the
  /// dataset's type.
  template <class T>
  void write(const ArrayBlock& block, const T* first);
  /// Collective: a further float64 dataset `name` of shape `extent` holding rank 0's `values` (C
  /// order); the others' are ignored.
  void add_small_array(const std::string& name, const std::vector<hsize_t>& extent, const std::vector<double>& values);
  /// Collective: closes the file and renames it to its final name.
  void commit();

 private:
  std::string m_path, m_partial;
  MPI_Comm m_comm;
  int m_rank = 0;
  H5File m_file;
  H5Dataset m_dataset;
  bool m_committed = false;
};

}  // namespace gridflow::io
