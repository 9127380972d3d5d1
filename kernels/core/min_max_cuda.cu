#include "kernels/core/min_max_cuda.hpp"
#include "kernels/core/reduce_cuda.cuh"

namespace gridflow::kernels::core {

namespace {

template <class T, int Dim>
struct PointMinMax {
  mesh::FieldView<const T, Dim> field;
  template <class... I>
  __device__ MinMax<T> operator()(I... index) const { return MinMaxReducer<T>::of(field(index...)); }
};

}  // namespace

template <class T, int Dim>
MinMax<T> min_max_cuda(mesh::FieldView<const T, Dim> field, const mesh::Box<Dim>& box, StreamHandle stream) {
  GRIDFLOW_REQUIRE(!box.empty(), "min/max of an empty box");
  return reduce_cuda<MinMaxReducer<T>>(box, PointMinMax<T, Dim>{field}, stream);
}

template MinMax<float> min_max_cuda<float, 2>(mesh::FieldView<const float, 2>, const mesh::Box<2>&, StreamHandle);
template MinMax<double> min_max_cuda<double, 2>(mesh::FieldView<const double, 2>, const mesh::Box<2>&, StreamHandle);
template MinMax<float> min_max_cuda<float, 3>(mesh::FieldView<const float, 3>, const mesh::Box<3>&, StreamHandle);
template MinMax<double> min_max_cuda<double, 3>(mesh::FieldView<const double, 3>, const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::core
