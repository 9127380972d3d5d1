// Host min/max (the deterministic host reduction) and the dispatch to CUDA.
#include "kernels/core/min_max.hpp"

#include "gridflow/config.hpp"
#include "kernels/core/min_max_cuda.hpp"
#include "kernels/core/reduce_host.hpp"

namespace gridflow::kernels::core {

template <class T, int Dim>
MinMax<T> min_max(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, StreamHandle stream) {
  GRIDFLOW_REQUIRE(!box.empty() && field.ghosted().contains(box), "min/max box must be non-empty and inside the field");
#if GRIDFLOW_HAVE_CUDA
  if (field.space() == mesh::MemorySpace::device) return min_max_cuda<T, Dim>(field.view(), box, stream);
#endif
  (void)stream;
  const auto v = field.view();
  return reduce_host<MinMaxReducer<T>>("core::min_max::host", box, [&](auto... index) { return MinMaxReducer<T>::of(v(index...)); });
}

template MinMax<float> min_max<float, 2>(const mesh::Field<float, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<double> min_max<double, 2>(const mesh::Field<double, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<float> min_max<float, 3>(const mesh::Field<float, 3>&, const mesh::Box<3>&, StreamHandle);
template MinMax<double> min_max<double, 3>(const mesh::Field<double, 3>&, const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::core
