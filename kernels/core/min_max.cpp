// Host min/max (the deterministic host reduction) and the dispatch to CUDA.
#include "kernels/core/min_max.hpp"

#include "kernels/core/min_max_cuda.hpp"
#include "kernels/core/reduce_host.hpp"
#include "kernels/core/space_dispatch.hpp"

namespace gridflow::kernels::core {

template <class T, int Dim>
MinMax<T> min_max(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, StreamHandle stream) {
  GRIDFLOW_REQUIRE(!box.empty() && field.ghosted().contains(box), "min/max box must be non-empty and inside the field");
  return run_on_space(
      "core::min_max", field.space(), stream,
      [&] {
        const auto v = field.view();
        return reduce_host<MinMaxReducer<T>>("core::min_max::host", box,
                                             [&](auto... index) { return MinMaxReducer<T>::of(v(index...)); });
      },
      [&](auto) { return min_max_cuda<T, Dim>(field.view(), box, stream); });
}

template MinMax<float> min_max<float, 2>(const mesh::Field<float, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<double> min_max<double, 2>(const mesh::Field<double, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<float> min_max<float, 3>(const mesh::Field<float, 3>&, const mesh::Box<3>&, StreamHandle);
template MinMax<double> min_max<double, 3>(const mesh::Field<double, 3>&, const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::core
