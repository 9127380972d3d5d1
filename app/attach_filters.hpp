#pragma once
// attach_filters: the run's [[filters]] blocks made into field sources of its output: one
// InsituFilter per correlation block, one InsituWhiten per whiten block (heat 2D).
#include <memory>
#include <vector>

#include "app/field_access.hpp"
#include "app/field_output.hpp"
#include "app/filters_deck.hpp"
#include "app/insitu_field_source.hpp"
#include "app/insitu_filter.hpp"
#include "app/insitu_whiten.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {

/// Each block's source is added to `output`'s field sources (its dataset named by the block);
/// the caller keeps the returned sources alive as long as `output` writes.
template <class T, int Dim>
std::vector<std::unique_ptr<InsituFieldSource<T, Dim>>> attach_filters(FieldOutput<T, Dim>& output,
                                                                       const mesh::Decomposition<Dim>& decomposition,
                                                                       const std::vector<FilterBlock<Dim>>& blocks, StreamHandle stream) {
  std::vector<std::unique_ptr<InsituFieldSource<T, Dim>>> sources;
  for (const auto& block : blocks) {
    if (block.kind != "whiten") sources.push_back(std::make_unique<InsituFilter<T, Dim>>(decomposition, block, stream));
    else if constexpr (Dim == 2) sources.push_back(std::make_unique<InsituWhiten<T>>(decomposition, block, stream));
    else throw Error("filter '" + block.name + "': whiten takes 2D frames");
    output.add_fields([s = sources.back().get()](const FieldAccess<T, Dim>& fields) {
      return std::vector<io::NamedField<T, Dim>>{{s->block().name, &s->apply(fields.field(s->block().field))}};
    });
  }
  return sources;
}

}  // namespace gridflow::app
