#include "solver/evaluate_on_device.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernels/core/runtime_kernel.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace gridflow::solver {

namespace {

// The launches' parameters, compiled here and, as text, into the generated sources: one definition
// for both sides of cudaLaunchKernel. Plain types, so both compilers lay them out alike.
#define GRIDFLOW_POINTS                                                                              \
  struct Points {                                                                                    \
    long long field_lo[3];           /* global index of the field's element 0 */                     \
    long long stride[3];             /* elements between neighbours, per axis */                      \
    long long lo[3];                 /* the box: first point and extent */                          \
    long long extent[3];                                                                             \
    double origin[3];                /* mesh::Grid: coordinate = origin + i * spacing */             \
    double spacing[3];                                                                               \
  };
#define GRIDFLOW_FILL_ARGS                                                                           \
  struct FillArgs {                                                                                  \
    Points at;                       /* the field is `out` */                                        \
    void* out;                       /* T values, or null: record only */                            \
    unsigned long long* slot;        /* NonFiniteFlag slot, or null */                               \
    long long watch_lo[3];           /* points whose non-finite values are recorded */               \
    long long watch_hi[3];                                                                           \
    unsigned long long key_base;     /* step * points */                                             \
    long long row_points;                                                                            \
    long long plane_points;                                                                          \
  };
#define GRIDFLOW_DIFFERENCE_ARGS                                                                     \
  struct DifferenceArgs {                                                                            \
    Points at;                       /* the field is `u` */                                          \
    const void* u;                   /* T values */                                                  \
    unsigned long long* most;        /* the largest difference's bits (atomicMax) */                 \
  };
GRIDFLOW_POINTS
GRIDFLOW_FILL_ARGS
GRIDFLOW_DIFFERENCE_ARGS
#define GRIDFLOW_TEXT(...) #__VA_ARGS__
#define GRIDFLOW_EXPANDED_TEXT(...) GRIDFLOW_TEXT(__VA_ARGS__)

/// Both kernels: one thread per point of an x-row, rows and planes in grid-stride loops (any box
/// fits a launch); `point` gets the point, its coordinates and its offset in the field.
constexpr const char* points_loop = R"(
template <class F>
__device__ void gridflow_for_each_point(const Points& a, F point) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= a.extent[0]) return;
  for (long long k = blockIdx.z; k < a.extent[2]; k += gridDim.z)
    for (long long j = blockIdx.y; j < a.extent[1]; j += gridDim.y) {
      const long long p[3] = {a.lo[0] + i, a.lo[1] + j, a.lo[2] + k};
      double c[3] = {0.0, 0.0, 0.0};
      for (int d = 0; d < gridflow_dim; ++d) c[d] = a.origin[d] + (double)p[d] * a.spacing[d];
      point(p, c, (p[0] - a.field_lo[0]) + (p[1] - a.field_lo[1]) * a.stride[1] + (p[2] - a.field_lo[2]) * a.stride[2]);
    }
}
)";

constexpr const char* fill_kernel = R"(
extern "C" __global__ void gridflow_fill(FillArgs a) {
  gridflow_for_each_point(a.at, [&](const long long* p, const double* c, long long offset) {
    const gridflow_value v = (gridflow_value)gridflow_formula(c[0], c[1], c[2], 0.0);
    if (a.out) ((gridflow_value*)a.out)[offset] = v;
    const gridflow_value zero = v - v;  // NaN unless v is finite
    if (a.slot && zero != zero && p[0] >= a.watch_lo[0] && p[0] <= a.watch_hi[0] && p[1] >= a.watch_lo[1] &&
        p[1] <= a.watch_hi[1] && p[2] >= a.watch_lo[2] && p[2] <= a.watch_hi[2])
      atomicMin(a.slot, a.key_base + (unsigned long long)(p[0] + a.row_points * p[1] + a.plane_points * p[2]));
  });
}
)";

/// |u - f| in double at every point, f in double as the fill computes it (before any rounding to
/// T). A non-negative double orders as its bits, and |NaN| (sign cleared) above +infinity, so the
/// largest bits are the largest difference, or NaN where any difference is NaN. Each warp's
/// largest goes to `most` with one atomic (every lane reaches the shuffles: none returns early).
constexpr const char* difference_kernel = R"(
extern "C" __global__ void gridflow_max_difference(DifferenceArgs a) {
  unsigned long long most = 0;
  gridflow_for_each_point(a.at, [&](const long long*, const double* c, long long offset) {
    const double u = (double)((const gridflow_value*)a.u)[offset];
    const unsigned long long bits = (unsigned long long)__double_as_longlong(fabs(u - gridflow_formula(c[0], c[1], c[2], 0.0)));
    most = bits > most ? bits : most;
  });
  for (int lane = 16; lane > 0; lane /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, most, lane);
    most = other > most ? other : most;
  }
  if ((threadIdx.x & 31) == 0 && most != 0) atomicMax(a.most, most);
}
)";

template <class T, int Dim>
std::string kernel_source(const CoordinateFunction& f, const char* args, const char* kernel) {
  return std::string("typedef ") + (sizeof(T) == 4 ? "float" : "double") + " gridflow_value;\nconstexpr int gridflow_dim = " +
         std::to_string(Dim) + ";\n" + GRIDFLOW_EXPANDED_TEXT(GRIDFLOW_POINTS) + "\n" + args + "\n" + f.device_source() +
         points_loop + kernel;
}

/// The points of `box` of a field seen through `view`, and their coordinates on `grid`.
template <class V, int Dim>
Points points_of(const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box, const mesh::FieldView<V, Dim>& view) {
  Points a{};
  for (int d = 0; d < 3; ++d) {
    const bool axis = d < Dim;
    a.field_lo[d] = axis ? view.lo[d] : 0;
    a.stride[d] = axis ? view.stride[d] : 0;
    a.lo[d] = axis ? box.lo[d] : 0;
    a.extent[d] = axis ? box.extent(d) : 1;
    a.origin[d] = axis ? grid.origin[d] : 0.0;
    a.spacing[d] = axis ? grid.spacing(d) : 0.0;
  }
  return a;
}

constexpr unsigned fill_threads = 128, most_blocks = 65535;

/// The launch shape of both kernels: a thread per point of an x-row, rows and planes grid-strided.
std::array<unsigned, 3> blocks_over(const long long (&extent)[3]) {
  return {static_cast<unsigned>((extent[0] + fill_threads - 1) / fill_threads),
          static_cast<unsigned>(std::min<long long>(extent[1], most_blocks)),
          static_cast<unsigned>(std::min<long long>(extent[2], most_blocks))};
}

}  // namespace

bool has_device_form(const CoordinateFunction& f) { return kernels::core::cuda_built && !f.device_source().empty(); }

bool zero_everywhere(const CoordinateFunction& f) {
  if (!f.constant()) return false;
  const double v = f.eval(0, 0, 0, 0);
  return v == 0 && !std::signbit(v);
}

template <class T, int Dim>
void evaluate_on_device(const CoordinateFunction& f, const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box,
                        mesh::FieldView<T, Dim> out, StreamHandle stream, const NonFiniteWatchOn<Dim>& record) {
  if (!has_device_form(f)) throw Error("evaluate_on_device: '" + f.text() + "' (" + f.key() + ") has no device form");
  kernels::core::require_stream(stream, "solver::evaluate_on_device");
  if (box.empty()) return;
  FillArgs a{};
  a.at = points_of(grid, box, out);
  a.out = out.data;
  for (int d = 0; d < 3; ++d) {
    a.watch_lo[d] = d < Dim ? record.points.lo[d] : 0;
    a.watch_hi[d] = d < Dim ? record.points.hi[d] : 0;
  }
  a.slot = reinterpret_cast<unsigned long long*>(record.watch.slot);
  a.key_base = record.watch.key(record.watch.step, 0, 0, 0);
  a.row_points = record.watch.row_points;
  a.plane_points = record.watch.plane_points;
  if constexpr (kernels::core::cuda_built) {
    const kernels::core::RuntimeKernel kernel(
        kernel_source<T, Dim>(f, GRIDFLOW_EXPANDED_TEXT(GRIDFLOW_FILL_ARGS), fill_kernel), "gridflow_fill",
        "key '" + f.key() + "' (\"" + f.text() + "\")");
    void* args[] = {&a};
    kernel.launch(blocks_over(a.at.extent), {fill_threads, 1, 1}, args, stream);
  }
}

template <class T, int Dim>
double max_difference_on_device(const CoordinateFunction& f, const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box,
                                mesh::FieldView<const T, Dim> u, StreamHandle stream) {
  if (!has_device_form(f)) throw Error("max_difference_on_device: '" + f.text() + "' (" + f.key() + ") has no device form");
  kernels::core::require_stream(stream, "solver::max_difference_on_device");
  if (box.empty()) return 0;
  DifferenceArgs a{};
  a.at = points_of(grid, box, u);
  a.u = u.data;
  std::uint64_t most = 0;
  if constexpr (kernels::core::cuda_built) {
    const mesh::Buffer slot(sizeof most, mesh::MemorySpace::device);
    mesh::fill_device_bytes(slot.data(), 0, sizeof most, stream);
    a.most = static_cast<unsigned long long*>(slot.data());
    const kernels::core::RuntimeKernel kernel(
        kernel_source<T, Dim>(f, GRIDFLOW_EXPANDED_TEXT(GRIDFLOW_DIFFERENCE_ARGS), difference_kernel),
        "gridflow_max_difference", "key '" + f.key() + "' (\"" + f.text() + "\")");
    void* args[] = {&a};
    kernel.launch(blocks_over(a.at.extent), {fill_threads, 1, 1}, args, stream);
    mesh::copy_bytes_async(&most, mesh::MemorySpace::host, slot.data(), mesh::MemorySpace::device, sizeof most, stream);
    mesh::synchronize(stream);
  }
  double value;
  std::memcpy(&value, &most, sizeof value);
  return value;
}

template void evaluate_on_device<float, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                           mesh::FieldView<float, 2>, StreamHandle, const NonFiniteWatchOn<2>&);
template void evaluate_on_device<double, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                            mesh::FieldView<double, 2>, StreamHandle, const NonFiniteWatchOn<2>&);
template void evaluate_on_device<float, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                           mesh::FieldView<float, 3>, StreamHandle, const NonFiniteWatchOn<3>&);
template void evaluate_on_device<double, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                            mesh::FieldView<double, 3>, StreamHandle, const NonFiniteWatchOn<3>&);
template double max_difference_on_device<float, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                                   mesh::FieldView<const float, 2>, StreamHandle);
template double max_difference_on_device<double, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                                    mesh::FieldView<const double, 2>, StreamHandle);
template double max_difference_on_device<float, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                                   mesh::FieldView<const float, 3>, StreamHandle);
template double max_difference_on_device<double, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                                    mesh::FieldView<const double, 3>, StreamHandle);

}  // namespace gridflow::solver
