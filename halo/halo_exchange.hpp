#pragma once
// HaloExchange<T, Dim>: fills a field's ghost points from the ranks that own them.
//
// After exchange(f) with width w, every point of f.owned().grow(w) that lies in the grid and
// that another rank owns holds that rank's value: faces, edges and corners, so a width-w halo
// supports floor(w / r) steps of a radius-r stencil between exchanges. Ghost points outside the
// grid (beyond a physical boundary), and those farther than w from the owned box, are never
// written. Everything that depends only on the layout (neighbours, boxes, buffers, the private
// communicator) is set up once by the constructor; begin()/finish() only pack, move and unpack.
//
// Overlap: begin(f); update points at least w away from every rank boundary; finish(f);
// update the rest. Between begin and finish the owned points of f within w of a neighbour
// must not change and the ghost points within w must not be read.
#include <cstddef>
#include <memory>
#include <vector>

#include "halo/halo_region.hpp"
#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace gridflow::halo {

namespace detail {
class TransportBackend;
}

template <class T, int Dim>
class HaloExchange {
 public:
  /// Collective over decomposition.comm() (it duplicates the communicator, so halo messages
  /// never match other traffic on it). `layout` fixes the owned box, ghost width and memory
  /// space of every field passed to begin/finish; its values are not read. Device fields' work
  /// is queued on `stream` (ignored for host fields; never the default stream unless passed).
  /// For Transport::nccl, `nccl` may share a communicator created over decomposition.comm()
  /// with other exchanges; when null, the exchange creates its own.
  /// Throws Error when width < 1 or width > layout.ghost_width(), when layout's owned box is not
  /// this rank's, or when nccl is asked for host fields or without NCCL in the build.
  HaloExchange(const mesh::Decomposition<Dim>& decomposition, const mesh::Field<T, Dim>& layout, int width,
               Transport transport, StreamHandle stream, std::shared_ptr<const NcclComm> nccl = nullptr);
  ~HaloExchange();
  HaloExchange(HaloExchange&&) noexcept;
  HaloExchange& operator=(HaloExchange&&) noexcept;
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  /// Packs the owned points the neighbours need and starts every receive and send; does not
  /// wait for the neighbours. Host fields: the packing is done on return. Device fields: the
  /// packing is queued on the stream after whatever is already there (the MPI transport then
  /// waits for the stream, so it sends what is current). Every rank of the communicator must
  /// call it. Throws Error for a field of another layout or when an exchange is in flight.
  void begin(mesh::Field<T, Dim>& field);
  /// Waits for the neighbours' messages and unpacks them into the ghosts of `field`, which must
  /// be the field passed to begin(). Host fields: the ghosts are current on return. Device
  /// fields: the unpacking is queued on the stream; work queued after it sees current ghosts.
  void finish(mesh::Field<T, Dim>& field);
  /// begin(field) then finish(field).
  void exchange(mesh::Field<T, Dim>& field) {
    begin(field);
    finish(field);
  }

  int width() const { return m_width; }
  Transport transport() const { return m_transport; }
  StreamHandle stream() const { return m_stream; }
  /// Whether begin() has been called without its finish().
  bool in_flight() const { return m_in_flight != nullptr; }
  /// What this rank exchanges with each other rank, in the order of the messages.
  const std::vector<HaloRegion<Dim>>& regions() const { return m_regions; }
  /// Bytes this rank sends (and, by symmetry of the regions, receives) per exchange.
  std::size_t bytes_sent() const { return m_bytes_sent; }

 private:
  void require_layout(const mesh::Field<T, Dim>& field, const char* call) const;

  int m_width = 0;
  Transport m_transport = Transport::mpi;
  StreamHandle m_stream = nullptr;
  mesh::Box<Dim> m_owned{};
  int m_ghost = 0;
  mesh::MemorySpace m_space = mesh::MemorySpace::host;
  std::vector<HaloRegion<Dim>> m_regions;
  std::vector<std::size_t> m_send_at, m_recv_at;  // element offsets of each region in the buffers
  std::size_t m_bytes_sent = 0;
  std::unique_ptr<detail::TransportBackend> m_backend;
  const mesh::Field<T, Dim>* m_in_flight = nullptr;
};

extern template class HaloExchange<float, 2>;
extern template class HaloExchange<double, 2>;
extern template class HaloExchange<float, 3>;
extern template class HaloExchange<double, 3>;

}  // namespace gridflow::halo
