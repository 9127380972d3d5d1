#pragma once
// InsituFilter<T, Dim>: one [[filters]] block applied to the run's decomposed field at an output,
// its result written beside the run's fields (FieldOutput::add_fields).
//
// The filter reads its neighbour values from a ghost exchange of its own: the field's owned
// points are copied into a filter input of this rank's box with ghost width = the filter's reach,
// whose ghosts a HaloExchangeSet of the filter (not the solver's) fills. For mode "wrap" the
// ghosts beyond the grid's edges are periodic images, moved by box redistribution from the ranks
// that own the far end; the plan's global box is widened by the reach so the filter reads them as
// array values (kernels/filter/correlate.hpp). Each output point then sees exactly the values the
// whole-array filter sees, so the result is bitwise independent of the rank count. The solver's
// fields are only read. Exchanges go over MPI (host-staged for device fields): outputs are rare.
//
// How the filter runs is chosen at its first output in a memory space by the tuner
// (autotune/filter_tuning.hpp), among the variants the block's method allows, under the run's
// [tuning] options; the FFT variant reads whole tiles, so its input then has a deeper ghost layer
// (the exchange fills any width, from ranks several steps away where boxes are narrow).
#include <memory>

#include "app/deck/filters_deck.hpp"
#include "app/output/insitu_field_source.hpp"
#include "autotune/tuning_options.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T, int Dim>
class InsituFilter final : public InsituFieldSource<T, Dim> {
 public:
  /// Plans nothing yet: the tuning, exchanges and fields of a memory space are made at its first
  /// apply. Device work is queued on `stream` (the run's). Throws Error for a block whose radius
  /// exceeds an axis (read_filters refuses those first).
  InsituFilter(const mesh::Decomposition<Dim>& decomposition, FilterBlock<Dim> block, StreamHandle stream,
               autotune::TuningOptions tuning = {});
  ~InsituFilter();
  InsituFilter(const InsituFilter&) = delete;
  InsituFilter& operator=(const InsituFilter&) = delete;

  /// Collective over the decomposition's ranks. The filtered values of `source` on this rank's
  /// owned box, in host memory (ghost width 0), kept until the next call. `source` (owned box =
  /// this rank's, any ghost width, host or device memory) is read on its owned points only and
  /// not changed; device work waits for what is queued on the stream. Blocks.
  const mesh::Field<T, Dim>& apply(const mesh::Field<T, Dim>& source) override;

  const FilterBlock<Dim>& block() const override { return m_block; }
  /// The filter's largest reach over axes and sides (the FFT variant's input reads deeper).
  int reach() const { return m_reach; }
  /// What the last apply in `space` ran (FilterPlan::path()); "none" before the first.
  const char* path(mesh::MemorySpace space) const;

 private:
  struct Work;  // the input and output fields, exchange and plan of one memory space
  Work& work_for(mesh::MemorySpace space);

  const mesh::Decomposition<Dim>& m_decomposition;
  FilterBlock<Dim> m_block;
  StreamHandle m_stream;
  autotune::TuningOptions m_tuning;
  int m_reach = 0;
  std::unique_ptr<Work> m_host_work, m_device_work;
  std::unique_ptr<mesh::Field<T, Dim>> m_host_result;  // device results copied here
};

extern template class InsituFilter<float, 2>;
extern template class InsituFilter<double, 2>;
extern template class InsituFilter<float, 3>;
extern template class InsituFilter<double, 3>;

}  // namespace gridflow::app
