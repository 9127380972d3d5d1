#pragma once
// HaloExchangeSet<T>: the ghost exchanges of one field layout at whatever widths and transports a
// solver asks for, each built on first use. Multigrid exchanges the same fields at width 1
// (smoothing, residuals) and at the wider widths its grid transfers need; the tuned Jacobi sweeps
// switch widths and transports between sweeps. All NCCL exchanges share one communicator.
#include <map>
#include <memory>
#include <utility>

#include "halo/halo_exchange.hpp"
#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace gridflow::halo {

template <class T>
class HaloExchangeSet {
 public:
  /// `decomposition` must outlive the set. `nccl`, when given, is shared by every NCCL exchange
  /// built; else the first NCCL exchange creates the set's communicator (collectively).
  HaloExchangeSet(const mesh::Decomposition<3>& decomposition, halo::Transport transport, StreamHandle stream,
                  std::shared_ptr<const halo::NcclComm> nccl = nullptr);

  /// Fills the ghosts of `field` within `width` of its owned box from the ranks that own them, over
  /// the current transport. Collective over the decomposition's ranks (every rank asks for the
  /// same widths and transports in the same order, since the first call for a pair builds that
  /// exchange); nothing on one rank. Every field passed must have the layout of the first.
  void exchange(mesh::Field<T, 3>& field, int width);

  /// The transport of the exchanges that follow.
  void set_transport(halo::Transport transport) { m_transport = transport; }
  halo::Transport transport() const { return m_transport; }

 private:
  const mesh::Decomposition<3>& m_decomposition;
  halo::Transport m_transport;
  StreamHandle m_stream;
  std::shared_ptr<const halo::NcclComm> m_nccl;
  std::map<std::pair<int, halo::Transport>, std::unique_ptr<halo::HaloExchange<T, 3>>> m_built;
};

extern template class HaloExchangeSet<float>;
extern template class HaloExchangeSet<double>;

}  // namespace gridflow::halo
