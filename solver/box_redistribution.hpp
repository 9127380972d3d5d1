#pragma once
// BoxRedistribution<T>: moves values between two distributions of boxes over the ranks of a
// communicator (heFFTe's reshape). Rank r holds the points of from[r] before and those of to[r]
// after; each point of to[r] comes from the rank whose `from` box holds it (points no `from` box
// holds keep their values). Boxes may be empty and may overlap nothing.
//
// One pass: pack every outgoing piece into one buffer (this rank's own piece last), one
// MPI_Alltoallv for the others' pieces, unpack. Device fields are packed and unpacked on the
// device and the others' pieces staged through pinned host buffers (the MPI need not be
// CUDA-aware); this rank's own piece never leaves the device.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::solver {

template <class T>
class BoxRedistribution {
 public:
  /// Not collective. `from` and `to` hold one box per rank of `comm`, the same lists on every rank;
  /// `comm` must outlive the object. Device work is queued on `stream`. Throws Error when a list
  /// has the wrong length or one message exceeds MPI's int counts.
  BoxRedistribution(MPI_Comm comm, std::vector<mesh::Box<3>> from, std::vector<mesh::Box<3>> to, mesh::MemorySpace space,
                    StreamHandle stream);

  /// Collective over the communicator. dst's values on to[me] and from[r] = src's values there on
  /// rank r, for every rank r. `src` contains from[me] and `dst` contains to[me] (either may be
  /// null where that box is empty); both in the redistribution's memory space. Returns when the
  /// messages are done; device fields: the unpacking is queued on the stream.
  void apply(const mesh::Field<T, 3>* src, mesh::Field<T, 3>* dst);

  /// Values this rank sends to other ranks per apply().
  std::int64_t elements_sent() const { return m_sent; }

 private:
  MPI_Comm m_comm;
  int m_rank = 0;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::vector<mesh::Box<3>> m_send_boxes, m_recv_boxes;  // per rank: from[me] & to[r], to[me] & from[r]
  std::vector<int> m_send_counts, m_send_at, m_recv_counts, m_recv_at;
  std::int64_t m_sent = 0, m_received = 0;
  mesh::Buffer m_send, m_recv;                // in the fields' space
  mesh::Buffer m_send_staged, m_recv_staged;  // pinned host copies of the others' pieces (device fields)
};

extern template class BoxRedistribution<float>;
extern template class BoxRedistribution<double>;

}  // namespace gridflow::solver
