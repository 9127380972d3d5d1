#pragma once
// NcclTransport: ncclSend/ncclRecv between device buffers, all peers in one NCCL group on the
// exchange's stream, so the whole exchange is queued work and the host never waits for it.
#include <memory>
#include <vector>

#include "halo/nccl_comm.hpp"
#include "halo/transport_backend.hpp"
#include "mesh/device.hpp"

namespace gridflow::halo::detail {

class NcclTransport final : public TransportBackend {
 public:
  /// Peer ranks are NCCL ranks of `comm`. Throws Error without NCCL in the build.
  NcclTransport(std::shared_ptr<const NcclComm> comm, std::vector<Peer> peers, std::size_t send_bytes,
                std::size_t recv_bytes);

  std::byte* send_buffer() override { return static_cast<std::byte*>(m_send.data()); }
  const std::byte* recv_buffer() const override { return static_cast<const std::byte*>(m_recv.data()); }
  void start(StreamHandle stream) override;
  void wait(StreamHandle) override {}  // stream order already puts the receives before the unpacking

 private:
  std::shared_ptr<const NcclComm> m_comm;
  std::vector<Peer> m_peers;
  mesh::Buffer m_send, m_recv;
};

}  // namespace gridflow::halo::detail
