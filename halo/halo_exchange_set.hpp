#pragma once
// HaloExchangeSet<T, Dim>: the ghost exchanges of one field layout at whatever widths and
// transports a solver asks for, each built on first use; the one way a solver switches width or
// transport. Multigrid exchanges the same fields at width 1 (smoothing, residuals) and at the
// wider widths its grid transfers need; the deep-halo solvers (heat, Jacobi) switch widths and
// transports between steps as the on-line tuner tries them. All NCCL exchanges of a set share one
// communicator. The set counts the exchanges it makes at each width: what a run reports as the
// width it used is read from that count, not from what it was told to use.
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "halo/halo_exchange.hpp"
#include "halo/nccl_comm.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"

namespace gridflow::halo {

/// Exchanges made, by ghost width.
using ExchangeTally = std::map<int, std::int64_t>;

template <class T, int Dim>
class HaloExchangeSet {
 public:
  /// `decomposition` must outlive the set. Device fields' exchanges are queued on `stream`.
  /// `nccl`, when given, is shared by every NCCL exchange built; else the first NCCL exchange
  /// creates the set's communicator (collectively).
  HaloExchangeSet(const mesh::Decomposition<Dim>& decomposition, Transport transport, StreamHandle stream,
                  std::shared_ptr<const NcclComm> nccl = nullptr);

  /// Builds the exchange at `width` over the current transport for fields of `layout`'s layout
  /// unless it exists, so that its set-up (collective; about a second for a first NCCL exchange)
  /// happens now and not inside the first exchange. Collective over the decomposition's ranks:
  /// every rank asks for the same widths and transports in the same order. Nothing on one rank.
  /// Throws Error as HaloExchange's constructor does.
  void prepare(const mesh::Field<T, Dim>& layout, int width);

  /// Fills the ghosts of `field` within `width` of its owned box from the ranks that own them, over
  /// the current transport: begin() then finish(). Collective as prepare(); nothing on one rank.
  /// Every field passed must have the layout of the first.
  void exchange(mesh::Field<T, Dim>& field, int width) {
    begin(field, width);
    finish(field);
  }
  /// HaloExchange::begin of the exchange at `width` over the current transport (prepared first
  /// if need be), for overlapping the exchange with work that needs no ghosts.
  void begin(mesh::Field<T, Dim>& field, int width);
  /// HaloExchange::finish of the exchange begun last. Throws Error when none is in flight.
  void finish(mesh::Field<T, Dim>& field);

  /// The transport of the exchanges begun from now on.
  void set_transport(Transport transport) { m_transport = transport; }
  Transport transport() const { return m_transport; }
  StreamHandle stream() const { return m_stream; }

  /// Exchanges begun so far at each width, whatever the transport; empty on one rank, which
  /// exchanges nothing.
  const ExchangeTally& exchanges_by_width() const { return m_tally; }

 private:
  HaloExchange<T, Dim>& built(const mesh::Field<T, Dim>& layout, int width);

  const mesh::Decomposition<Dim>& m_decomposition;
  Transport m_transport;
  StreamHandle m_stream;
  std::shared_ptr<const NcclComm> m_nccl;
  std::map<std::pair<int, Transport>, std::unique_ptr<HaloExchange<T, Dim>>> m_built;
  HaloExchange<T, Dim>* m_in_flight = nullptr;
  ExchangeTally m_tally;
};

extern template class HaloExchangeSet<float, 2>;
extern template class HaloExchangeSet<double, 2>;
extern template class HaloExchangeSet<float, 3>;
extern template class HaloExchangeSet<double, 3>;

}  // namespace gridflow::halo
