#pragma once
// BoxRedistribution<T, Dim>: moves values between two distributions of boxes over the ranks of a
// communicator (heFFTe's reshape), in 2D or 3D. Rank r holds the points of from[r] before and those of to[r]
// after; each point of to[r] comes from the rank whose `from` box holds it (points no `from` box
// holds keep their values). Boxes may be empty and may overlap nothing.
//
// One pass: pack every outgoing piece into one buffer (this rank's own piece last), send the
// others' pieces, unpack. Over MPI: one MPI_Alltoallv; device fields are packed and unpacked on
// the device and the others' pieces staged through pinned host buffers (the MPI need not be
// CUDA-aware). Over NCCL (device fields): one group of ncclSend/ncclRecv between device buffers,
// queued on the stream, so the pieces cross NVLink without touching the host. Either way this
// rank's own piece never leaves its memory.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "mesh/box.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::halo::detail {
class TransportBackend;
}

namespace gridflow::halo {

template <class T, int Dim = 3>
class BoxRedistribution {
 public:
  /// Not collective. `from` and `to` hold one box per rank of `comm`, the same lists on every rank;
  /// `comm` must outlive the object. Device work is queued on `stream`. Transport::nccl needs
  /// device fields and `nccl`, a communicator over the ranks of `comm`. Throws Error when a list
  /// has the wrong length, one MPI message exceeds MPI's int counts, or NCCL cannot be used.
  BoxRedistribution(MPI_Comm comm, std::vector<mesh::Box<Dim>> from, std::vector<mesh::Box<Dim>> to, mesh::MemorySpace space,
                    StreamHandle stream, halo::Transport transport = halo::Transport::mpi,
                    std::shared_ptr<const halo::NcclComm> nccl = nullptr);
  ~BoxRedistribution();

  /// Collective over the communicator. dst's values on to[me] and from[r] = src's values there on
  /// rank r, for every rank r. `src` contains from[me] and `dst` contains to[me] (either may be
  /// null where that box is empty); both in the redistribution's memory space. MPI: returns when
  /// the messages are done and the unpacking is queued (device) or done (host). NCCL: messages
  /// and unpacking are queued on the stream.
  void apply(const mesh::Field<T, Dim>* src, mesh::Field<T, Dim>* dst);

  /// Collective over the communicator: over NCCL, moves this redistribution's messages once
  /// (their contents unused) and waits, so NCCL sets up what these transfers need now rather
  /// than inside the first apply(); over MPI it does nothing.
  void warm_up();

  /// Values this rank sends to other ranks per apply().
  std::int64_t elements_sent() const { return m_sent; }

 private:
  // MPI_Alltoallv of the others' pieces from `send` into m_recv, through pinned host buffers for
  // device fields.
  void exchange_over_mpi(const T* send);

  MPI_Comm m_comm;
  int m_rank = 0;
  mesh::MemorySpace m_space;
  StreamHandle m_stream;
  std::vector<mesh::Box<Dim>> m_send_boxes, m_recv_boxes;  // per rank: from[me] & to[r], to[me] & from[r]
  std::vector<int> m_send_counts, m_send_at, m_recv_counts, m_recv_at;
  std::int64_t m_sent = 0, m_received = 0;
  mesh::Buffer m_send, m_recv;                // in the fields' space
  mesh::Buffer m_send_staged, m_recv_staged;  // pinned host copies of the others' pieces (device fields)
  std::unique_ptr<halo::detail::TransportBackend> m_nccl;  // owns the buffers when the pieces go over NCCL
};

extern template class BoxRedistribution<float, 2>;
extern template class BoxRedistribution<double, 2>;
extern template class BoxRedistribution<float, 3>;
extern template class BoxRedistribution<double, 3>;

}  // namespace gridflow::halo
