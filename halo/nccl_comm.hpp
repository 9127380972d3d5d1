#pragma once
// NcclComm: an NCCL communicator over the ranks of an MPI communicator, destroyed with the
// object. Creating one is collective and slow (it sets up connections between all GPUs), so
// several HaloExchange objects over the same ranks should share one.
#include <mpi.h>

#include <cstddef>
#include <vector>

struct ncclComm;  // nccl.h's ncclComm_t is `struct ncclComm*`; only .cpp files include nccl.h

namespace gridflow::halo {

class NcclComm {
 public:
  /// Collective over `comm`: rank 0 makes the unique id, MPI_Bcast hands it out, every rank
  /// joins with ncclCommInitRank on the CUDA device current now. NCCL ranks equal ranks in
  /// `comm`. Throws Error without NCCL in the build, or when NCCL fails.
  explicit NcclComm(MPI_Comm comm);
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  /// Collective over `peers` (each of them lists this rank too): one message of `bytes` each way
  /// with every peer, waited for. NCCL connects a pair of ranks on its first send and receive,
  /// which takes seconds on NVLink (buffers allocated and mapped per channel); a solver calls
  /// this at set-up so that cost does not land in its first timed exchange. The message is
  /// large enough that NCCL opens every channel it would use for a large transfer.
  void connect(const std::vector<int>& peers, std::size_t bytes = std::size_t(16) << 20) const;

  ncclComm* get() const { return m_comm; }
  int rank() const { return m_rank; }
  int size() const { return m_size; }
  /// The CUDA device the communicator was created on; its operations run there.
  int device() const { return m_device; }

 private:
  ncclComm* m_comm = nullptr;
  int m_rank = 0;
  int m_size = 0;
  int m_device = 0;
};

}  // namespace gridflow::halo
