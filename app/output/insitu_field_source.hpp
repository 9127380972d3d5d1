#pragma once
// InsituFieldSource<T, Dim>: a [[filters]] block at work: at every output it makes one field from
// a field of the run, written beside the run's own (FieldOutput::add_fields). The correlation
// filters (InsituFilter) and the whitening filter (InsituWhiten, 2D) are the two kinds.
#include "app/deck/filters_deck.hpp"
#include "mesh/field.hpp"

namespace gridflow::app {

template <class T, int Dim>
class InsituFieldSource {
 public:
  virtual ~InsituFieldSource() = default;
  /// Collective over the decomposition's ranks. The result on this rank's owned box in host
  /// memory, kept until the next call; `source` (this rank's box, host or device) is only read.
  virtual const mesh::Field<T, Dim>& apply(const mesh::Field<T, Dim>& source) = 0;
  virtual const FilterBlock<Dim>& block() const = 0;
};

}  // namespace gridflow::app
