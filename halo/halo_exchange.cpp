#include "halo/halo_exchange.hpp"

#include <sstream>
#include <utility>

#include "halo/mpi_transport.hpp"
#include "halo/nccl_transport.hpp"
#include "kernels/pack/box_copy.hpp"
#include "mesh/check.hpp"

namespace gridflow::halo {

namespace {

// Each message starts on a 256-byte boundary, so packing kernels write whole cache lines and
// every slice is aligned for any element type.
constexpr std::size_t message_alignment_bytes = 256;

template <int Dim>
std::array<int, Dim> mirrored(std::array<int, Dim> offset) {
  for (int& o : offset) o = -o;
  return offset;
}

mesh::SharedComm private_comm(MPI_Comm comm) {
  MPI_Comm dup = MPI_COMM_NULL;
  GRIDFLOW_MPI_CHECK(MPI_Comm_dup(comm, &dup));
  mesh::SharedComm owned = mesh::adopt_comm(dup);
  GRIDFLOW_MPI_CHECK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
  return owned;
}

}  // namespace

template <class T, int Dim>
HaloExchange<T, Dim>::HaloExchange(const mesh::Decomposition<Dim>& decomposition, const mesh::Field<T, Dim>& layout,
                                   int width, Transport transport, StreamHandle stream,
                                   std::shared_ptr<const NcclComm> nccl)
    : m_width(width), m_transport(transport), m_stream(stream), m_owned(layout.owned()),
      m_ghost(layout.ghost_width()), m_space(layout.space()) {
  // Width, transport and memory space are the same on every rank, so these checks throw on all
  // ranks together, before the first collective below; a wrong owned box is a bug, not input.
  const std::string field = "field '" + layout.label() + "'";
  if (width < 1) throw Error("halo width " + std::to_string(width) + " for " + field + ": must be >= 1");
  if (width > m_ghost)
    throw Error("halo width " + std::to_string(width) + " exceeds the ghost width " + std::to_string(m_ghost) +
                " of " + field);
  if (m_owned != decomposition.owned()) {
    std::ostringstream os;
    os << field << " owns " << m_owned << " but the decomposition gives rank " << decomposition.rank() << ' '
       << decomposition.owned();
    throw Error(os.str());
  }
  if (transport == Transport::nccl) {
    if (!nccl_available()) throw Error("the nccl halo transport was asked for, but this gridflow was built without NCCL");
    if (m_space != mesh::MemorySpace::device)
      throw Error("the nccl halo transport moves device memory, but " + field + " is in host memory");
  }

  const mesh::Grid<Dim>& grid = decomposition.grid();
  std::array<mesh::Index, Dim> points{};
  for (int d = 0; d < Dim; ++d) points[d] = grid.n[d] + 1;
  GRIDFLOW_REQUIRE(owned_box<Dim>(points, decomposition.dims(), decomposition.coords()) == m_owned,
                   "halo_regions splits the grid differently from mesh::Decomposition");
  m_regions = halo_regions<Dim>(points, decomposition.dims(), decomposition.coords(), width);

  constexpr std::size_t align = message_alignment_bytes / sizeof(T);
  std::vector<detail::Peer> peers;
  std::size_t send_elements = 0, recv_elements = 0;
  for (const HaloRegion<Dim>& r : m_regions) {
    detail::Peer p;
    p.rank = decomposition.neighbour(r.offset);
    GRIDFLOW_REQUIRE(p.rank != MPI_PROC_NULL, "a halo region points outside the process grid");
    // A message is tagged with the direction it travels in, as seen by its sender.
    p.send_tag = direction_tag<Dim>(r.offset);
    p.recv_tag = direction_tag<Dim>(mirrored<Dim>(r.offset));
    m_send_at.push_back(send_elements);
    m_recv_at.push_back(recv_elements);
    p.send_offset = send_elements * sizeof(T);
    p.recv_offset = recv_elements * sizeof(T);
    p.send_bytes = static_cast<std::size_t>(r.send.size()) * sizeof(T);
    p.recv_bytes = static_cast<std::size_t>(r.recv.size()) * sizeof(T);
    m_bytes_sent += p.send_bytes;
    send_elements += (static_cast<std::size_t>(r.send.size()) + align - 1) / align * align;
    recv_elements += (static_cast<std::size_t>(r.recv.size()) + align - 1) / align * align;
    peers.push_back(p);
  }

  if (transport == Transport::mpi) {
    m_backend = std::make_unique<detail::MpiTransport>(private_comm(decomposition.comm()), m_space, std::move(peers),
                                                       send_elements * sizeof(T), recv_elements * sizeof(T));
  } else {
    if (!nccl) nccl = std::make_shared<const NcclComm>(decomposition.comm());
    if (nccl->size() != decomposition.size() || nccl->rank() != decomposition.rank())
      throw Error("the NCCL communicator (rank " + std::to_string(nccl->rank()) + " of " +
                  std::to_string(nccl->size()) + ") was not created over the decomposition's ranks (rank " +
                  std::to_string(decomposition.rank()) + " of " + std::to_string(decomposition.size()) + ")");
    m_backend = std::make_unique<detail::NcclTransport>(std::move(nccl), std::move(peers), send_elements * sizeof(T),
                                                        recv_elements * sizeof(T));
  }
}

template <class T, int Dim>
HaloExchange<T, Dim>::~HaloExchange() = default;
template <class T, int Dim>
HaloExchange<T, Dim>::HaloExchange(HaloExchange&&) noexcept = default;
template <class T, int Dim>
HaloExchange<T, Dim>& HaloExchange<T, Dim>::operator=(HaloExchange&&) noexcept = default;

template <class T, int Dim>
void HaloExchange<T, Dim>::require_layout(const mesh::Field<T, Dim>& field, const char* call) const {
  if (field.owned() != m_owned || field.ghost_width() != m_ghost || field.space() != m_space) {
    std::ostringstream os;
    os << "HaloExchange::" << call << ": field '" << field.label() << "' (owned " << field.owned() << ", ghost "
       << field.ghost_width() << ", " << mesh::to_string(field.space()) << ") differs from the layout the exchange "
       << "was built for (owned " << m_owned << ", ghost " << m_ghost << ", " << mesh::to_string(m_space) << ')';
    throw Error(os.str());
  }
}

template <class T, int Dim>
void HaloExchange<T, Dim>::begin(mesh::Field<T, Dim>& field) {
  GRIDFLOW_REQUIRE(m_backend != nullptr, "HaloExchange::begin on a moved-from exchange");
  require_layout(field, "begin");
  if (m_in_flight) throw Error("HaloExchange::begin on field '" + field.label() + "': the previous exchange of field '" +
                               m_in_flight->label() + "' has not been finished");
  T* send = reinterpret_cast<T*>(m_backend->send_buffer());
  for (std::size_t i = 0; i < m_regions.size(); ++i)
    kernels::pack::pack<T, Dim>(field, m_regions[i].send, send + m_send_at[i], m_stream);
  m_backend->start(m_stream);
  m_in_flight = &field;
}

template <class T, int Dim>
void HaloExchange<T, Dim>::finish(mesh::Field<T, Dim>& field) {
  if (m_in_flight != &field)
    throw Error("HaloExchange::finish on field '" + field.label() + "': " +
                (m_in_flight ? "begin was called on field '" + m_in_flight->label() + "'" : "begin was not called"));
  m_backend->wait(m_stream);
  m_in_flight = nullptr;
  const T* recv = reinterpret_cast<const T*>(m_backend->recv_buffer());
  for (std::size_t i = 0; i < m_regions.size(); ++i)
    kernels::pack::unpack<T, Dim>(recv + m_recv_at[i], m_regions[i].recv, field, m_stream);
}

template class HaloExchange<float, 2>;
template class HaloExchange<double, 2>;
template class HaloExchange<float, 3>;
template class HaloExchange<double, 3>;

}  // namespace gridflow::halo
