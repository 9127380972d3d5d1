#include "halo/halo_exchange_set.hpp"

#include <utility>

#include "mesh/check.hpp"

namespace gridflow::halo {

template <class T, int Dim>
HaloExchangeSet<T, Dim>::HaloExchangeSet(const mesh::Decomposition<Dim>& decomposition, Transport transport,
                                         StreamHandle stream, std::shared_ptr<const NcclComm> nccl)
    : m_decomposition(decomposition), m_transport(transport), m_stream(stream), m_nccl(std::move(nccl)) {}

template <class T, int Dim>
HaloExchange<T, Dim>& HaloExchangeSet<T, Dim>::built(const mesh::Field<T, Dim>& layout, int width) {
  auto& exchange = m_built[{width, m_transport}];
  if (!exchange) {
    // One communicator for every width: creating one costs about a second on GPUs.
    if (m_transport == Transport::nccl && !m_nccl) m_nccl = std::make_shared<const NcclComm>(m_decomposition.comm());
    exchange = std::make_unique<HaloExchange<T, Dim>>(m_decomposition, layout, width, m_transport, m_stream, m_nccl);
  }
  return *exchange;
}

template <class T, int Dim>
void HaloExchangeSet<T, Dim>::prepare(const mesh::Field<T, Dim>& layout, int width) {
  if (m_decomposition.size() > 1) built(layout, width);
}

template <class T, int Dim>
void HaloExchangeSet<T, Dim>::begin(mesh::Field<T, Dim>& field, int width) {
  if (m_decomposition.size() == 1) return;
  if (m_in_flight)
    throw Error("HaloExchangeSet::begin on field '" + field.label() + "' at width " + std::to_string(width) +
                ": the exchange begun before has not been finished");
  HaloExchange<T, Dim>& exchange = built(field, width);
  exchange.begin(field);
  m_in_flight = &exchange;
  ++m_tally[width];
}

template <class T, int Dim>
void HaloExchangeSet<T, Dim>::finish(mesh::Field<T, Dim>& field) {
  if (m_decomposition.size() == 1) return;
  if (!m_in_flight) throw Error("HaloExchangeSet::finish on field '" + field.label() + "': no exchange was begun");
  HaloExchange<T, Dim>& exchange = *m_in_flight;
  exchange.finish(field);  // throws, leaving the exchange in flight, for another field than the one begun
  m_in_flight = nullptr;
}

template class HaloExchangeSet<float, 2>;
template class HaloExchangeSet<double, 2>;
template class HaloExchangeSet<float, 3>;
template class HaloExchangeSet<double, 3>;

}  // namespace gridflow::halo
