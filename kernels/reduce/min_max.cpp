#include "kernels/reduce/min_max.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <limits>

#include "gridflow/config.hpp"
#include "kernels/reduce/min_max_cuda.hpp"

namespace gridflow::kernels::reduce {

template <class T, int Dim>
MinMax<T> min_max(const mesh::Field<T, Dim>& field, const mesh::Box<Dim>& box, StreamHandle stream) {
  GRIDFLOW_REQUIRE(!box.empty() && field.ghosted().contains(box), "min/max box must be non-empty and inside the field");
#if GRIDFLOW_HAVE_CUDA
  if (field.space() == mesh::MemorySpace::device) return min_max_cuda<T, Dim>(field.view(), box, stream);
#endif
  (void)stream;
  const auto v = field.view();
  const std::int64_t nx = box.extent(0), ny = box.extent(1);
  const std::int64_t nz = Dim == 3 ? box.extent(Dim - 1) : 1;
  T mn = std::numeric_limits<T>::infinity(), mx = -std::numeric_limits<T>::infinity();
  bool finite = true;
  // A plain loop: Kokkos 3.4's host reducers cannot combine three results, and this is not hot.
  for (std::int64_t r = 0; r < ny * nz; ++r) {
    std::int64_t off = (box.lo[0] - v.lo[0]) + (box.lo[1] + r % ny - v.lo[1]) * v.stride[1];
    if constexpr (Dim == 3) off += (box.lo[Dim - 1] + r / ny - v.lo[Dim - 1]) * v.stride[Dim - 1];
    for (std::int64_t x = 0; x < nx; ++x) {
      const T value = v.data[off + x];
      if (!std::isfinite(value)) {
        finite = false;
        continue;
      }
      mn = value < mn ? value : mn;
      mx = value > mx ? value : mx;
    }
  }
  return {mn, mx, finite};
}

template MinMax<float> min_max<float, 2>(const mesh::Field<float, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<double> min_max<double, 2>(const mesh::Field<double, 2>&, const mesh::Box<2>&, StreamHandle);
template MinMax<float> min_max<float, 3>(const mesh::Field<float, 3>&, const mesh::Box<3>&, StreamHandle);
template MinMax<double> min_max<double, 3>(const mesh::Field<double, 3>&, const mesh::Box<3>&, StreamHandle);

}  // namespace gridflow::kernels::reduce
