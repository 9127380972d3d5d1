#pragma once
// InsituWhiten<T>: a [[filters]] block of kind "whiten" (heat 2D): the run's decomposed field,
// gathered into one whole frame on rank 0 at every output, whitened against the last N output
// frames (kernels/filter/whiten.hpp), and scattered back to the ranks for the write. The ring of
// frames lives on rank 0, in the run's memory space (its device for GPU runs, host memory for CPU
// runs). Rank 0 sees the same frames whatever the rank count, so the result is bitwise
// independent of it. The ring starts empty at the run's start, a restart included.
#include <memory>

#include "app/deck/filters_deck.hpp"
#include "app/output/insitu_field_source.hpp"
#include "halo/box_redistribution.hpp"
#include "kernels/filter/whiten.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T>
class InsituWhiten final : public InsituFieldSource<T, 2> {
 public:
  /// Plans nothing yet: the gathers and the Whitener are made at the first apply. Device work is
  /// queued on `stream` (the run's).
  InsituWhiten(const mesh::Decomposition<2>& decomposition, FilterBlock<2> block, StreamHandle stream);
  ~InsituWhiten();
  InsituWhiten(const InsituWhiten&) = delete;
  InsituWhiten& operator=(const InsituWhiten&) = delete;

  /// Collective. Pushes the field's current values as the next frame; returns the whitened frame
  /// on this rank's owned box in host memory (ghost width 0), kept until the next call. `source`
  /// is read on its owned points only. The memory space of the first call is kept: a later call
  /// in the other space is copied into the first's (the ring stays where it is). Blocks.
  const mesh::Field<T, 2>& apply(const mesh::Field<T, 2>& source) override;

  const FilterBlock<2>& block() const override { return m_block; }
  /// Frames whitened so far.
  long long frames() const { return m_whitener ? m_whitener->frames() : m_frames; }

 private:
  void plan(mesh::MemorySpace space);

  const mesh::Decomposition<2>& m_decomposition;
  FilterBlock<2> m_block;
  StreamHandle m_stream;
  long long m_frames = 0;  // on ranks other than 0, which hold no Whitener
  bool m_planned = false;
  mesh::MemorySpace m_space = mesh::MemorySpace::host;
  std::unique_ptr<halo::BoxRedistribution<T, 2>> m_gather, m_scatter;
  std::unique_ptr<mesh::Field<T, 2>> m_frame, m_whitened;     // rank 0: the whole grid
  std::unique_ptr<kernels::filter::Whitener<T>> m_whitener;   // rank 0
  std::unique_ptr<mesh::Field<T, 2>> m_output, m_host_result;  // this rank's box
  std::unique_ptr<mesh::Field<T, 2>> m_staged;                 // a source from the other memory space
};

extern template class InsituWhiten<float>;
extern template class InsituWhiten<double>;

}  // namespace gridflow::app
