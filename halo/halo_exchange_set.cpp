#include "halo/halo_exchange_set.hpp"

#include <utility>

namespace gridflow::halo {

template <class T>
HaloExchangeSet<T>::HaloExchangeSet(const mesh::Decomposition<3>& decomposition, halo::Transport transport,
                                    StreamHandle stream, std::shared_ptr<const halo::NcclComm> nccl)
    : m_decomposition(decomposition), m_transport(transport), m_stream(stream), m_nccl(std::move(nccl)) {}

template <class T>
void HaloExchangeSet<T>::exchange(mesh::Field<T, 3>& field, int width) {
  if (m_decomposition.size() == 1) return;
  auto& exchange = m_built[{width, m_transport}];
  if (!exchange) {
    // One communicator for every width: creating one costs about a second on GPUs.
    if (m_transport == halo::Transport::nccl && !m_nccl)
      m_nccl = std::make_shared<const halo::NcclComm>(m_decomposition.comm());
    exchange = std::make_unique<halo::HaloExchange<T, 3>>(m_decomposition, field, width, m_transport, m_stream, m_nccl);
  }
  exchange->exchange(field);
}

template class HaloExchangeSet<float>;
template class HaloExchangeSet<double>;

}  // namespace gridflow::halo
