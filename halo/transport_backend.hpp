#pragma once
// TransportBackend: the part of a halo exchange that moves bytes. HaloExchange packs every
// region into one send buffer and unpacks from one receive buffer; a backend owns those buffers
// and delivers each peer's slice. Internal to halo/: construct through HaloExchange.
#include <cstddef>
#include <vector>

#include "mesh/host_device.hpp"

namespace gridflow::halo::detail {

/// One message each way between this rank and `rank`.
struct Peer {
  int rank = -1;             ///< in the exchange's communicator
  int send_tag = 0;          ///< direction of the message this rank sends (see direction_tag)
  int recv_tag = 0;          ///< direction of the message the peer sends here
  std::size_t send_offset = 0, send_bytes = 0;  ///< slice of the send buffer
  std::size_t recv_offset = 0, recv_bytes = 0;  ///< slice of the receive buffer
};

class TransportBackend {
 public:
  virtual ~TransportBackend() = default;
  /// Where packing writes, in the fields' memory space; send_bytes long.
  virtual std::byte* send_buffer() = 0;
  /// Where unpacking reads, in the fields' memory space; recv_bytes long.
  virtual const std::byte* recv_buffer() const = 0;
  /// Starts every send and receive. Device fields: the packing is queued on `stream` before
  /// this call. Host fields: it is done. Does not wait for the peers.
  virtual void start(StreamHandle stream) = 0;
  /// Completes what start() began: afterwards (host fields), or in `stream` order (device
  /// fields), recv_buffer() holds every peer's message and send_buffer() may be refilled.
  virtual void wait(StreamHandle stream) = 0;
};

}  // namespace gridflow::halo::detail
