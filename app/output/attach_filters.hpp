#pragma once
// attach_filters: the run's [[filters]] blocks made into field sources of its output: one
// InsituFilter per correlation block, one InsituWhiten per whiten block (heat 2D).
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "app/loop/field_access.hpp"
#include "app/output/field_output.hpp"
#include "app/deck/filters_deck.hpp"
#include "app/output/insitu_field_source.hpp"
#include "app/output/insitu_filter.hpp"
#include "app/output/insitu_whiten.hpp"
#include "kernels/core/min_max.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

/// Collective. A filter of finite values can still overflow the precision (weights summing
/// values near its largest): its result is then refused before the file is opened, as a field
/// that stops being finite is, rather than written as a dataset of infinities.
template <class T, int Dim>
void require_finite_filtered(const mesh::Field<T, Dim>& filtered, const mesh::Decomposition<Dim>& decomposition,
                             const std::string& name) {
  int finite = kernels::core::min_max(filtered, decomposition.owned(), nullptr).finite ? 1 : 0, all = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&finite, &all, 1, MPI_INT, MPI_MIN, decomposition.comm()));
  if (!all)
    throw RunError("filter '" + name + "' gives values that are not finite (its weighted sums overflow the precision, or " +
                   "its field holds NaN or infinite values); the files written before this output are complete");
}

/// Collective. Each block's source is added to `output`'s field sources (its dataset named by the
/// block); the caller keeps the returned sources alive as long as `output` writes. The filters
/// are tuned under `tuning` (the run's [tuning] options) at their first output.
template <class T, int Dim>
std::vector<std::unique_ptr<InsituFieldSource<T, Dim>>> attach_filters(FieldOutput<T, Dim>& output,
                                                                       const mesh::Decomposition<Dim>& decomposition,
                                                                       const std::vector<FilterBlock<Dim>>& blocks, StreamHandle stream,
                                                                       const autotune::TuningOptions& tuning) {
  std::vector<std::unique_ptr<InsituFieldSource<T, Dim>>> sources;
  for (const auto& block : blocks) {
    if (block.kind != "whiten") sources.push_back(std::make_unique<InsituFilter<T, Dim>>(decomposition, block, stream, tuning));
    else if constexpr (Dim == 2) sources.push_back(std::make_unique<InsituWhiten<T>>(decomposition, block, stream));
    else throw Error("filter '" + block.name + "': whiten takes 2D frames");
    output.add_fields([s = sources.back().get(), &decomposition](const FieldAccess<T, Dim>& fields) {
      const mesh::Field<T, Dim>& filtered = s->apply(fields.field(s->block().field));
      require_finite_filtered(filtered, decomposition, s->block().name);
      return std::vector<io::NamedField<T, Dim>>{{s->block().name, &filtered}};
    });
  }
  return sources;
}

}  // namespace gridflow::app
