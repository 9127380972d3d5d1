#include "solver/evaluate_on_device.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/core/runtime_kernel.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "mesh/check.hpp"

namespace gridflow::solver {

namespace {

// The launch's parameters, compiled here and, as text, into the generated source: one definition
// for both sides of cudaLaunchKernel. Plain types, so both compilers lay it out alike.
#define GRIDFLOW_FILL_ARGS                                                                           \
  struct FillArgs {                                                                                  \
    void* out;                       /* T values, or null: record only */                            \
    long long out_lo[3];             /* global index of out[0] */                                    \
    long long stride[3];             /* elements between neighbours, per axis */                      \
    long long lo[3];                 /* the box: first point and extent */                          \
    long long extent[3];                                                                             \
    double origin[3];                /* mesh::Grid: coordinate = origin + i * spacing */             \
    double spacing[3];                                                                               \
    unsigned long long* slot;        /* NonFiniteFlag slot, or null */                               \
    long long watch_lo[3];           /* points whose non-finite values are recorded */               \
    long long watch_hi[3];                                                                           \
    unsigned long long key_base;     /* step * points */                                             \
    long long row_points;                                                                            \
    long long plane_points;                                                                          \
  };
GRIDFLOW_FILL_ARGS
#define GRIDFLOW_TEXT(...) #__VA_ARGS__
#define GRIDFLOW_EXPANDED_TEXT(...) GRIDFLOW_TEXT(__VA_ARGS__)

/// One thread per point of an x-row; rows and planes in grid-stride loops (any box fits a launch).
constexpr const char* fill_kernel = R"(
extern "C" __global__ void gridflow_fill(FillArgs a) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= a.extent[0]) return;
  for (long long k = blockIdx.z; k < a.extent[2]; k += gridDim.z)
    for (long long j = blockIdx.y; j < a.extent[1]; j += gridDim.y) {
      const long long p[3] = {a.lo[0] + i, a.lo[1] + j, a.lo[2] + k};
      double c[3] = {0.0, 0.0, 0.0};
      for (int d = 0; d < gridflow_dim; ++d) c[d] = a.origin[d] + (double)p[d] * a.spacing[d];
      const gridflow_value v = (gridflow_value)gridflow_formula(c[0], c[1], c[2], 0.0);
      if (a.out)
        ((gridflow_value*)a.out)[(p[0] - a.out_lo[0]) + (p[1] - a.out_lo[1]) * a.stride[1] + (p[2] - a.out_lo[2]) * a.stride[2]] = v;
      const gridflow_value zero = v - v;  // NaN unless v is finite
      if (a.slot && zero != zero && p[0] >= a.watch_lo[0] && p[0] <= a.watch_hi[0] && p[1] >= a.watch_lo[1] &&
          p[1] <= a.watch_hi[1] && p[2] >= a.watch_lo[2] && p[2] <= a.watch_hi[2])
        atomicMin(a.slot, a.key_base + (unsigned long long)(p[0] + a.row_points * p[1] + a.plane_points * p[2]));
    }
}
)";

template <class T, int Dim>
std::string kernel_source(const CoordinateFunction& f) {
  return std::string("typedef ") + (sizeof(T) == 4 ? "float" : "double") + " gridflow_value;\nconstexpr int gridflow_dim = " +
         std::to_string(Dim) + ";\n" + GRIDFLOW_EXPANDED_TEXT(GRIDFLOW_FILL_ARGS) + "\n" + f.device_source() + fill_kernel;
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
  a.out = out.data;
  for (int d = 0; d < 3; ++d) {
    const bool axis = d < Dim;
    a.out_lo[d] = axis ? out.lo[d] : 0;
    a.stride[d] = axis ? out.stride[d] : 0;
    a.lo[d] = axis ? box.lo[d] : 0;
    a.extent[d] = axis ? box.extent(d) : 1;
    a.origin[d] = axis ? grid.origin[d] : 0.0;
    a.spacing[d] = axis ? grid.spacing(d) : 0.0;
    a.watch_lo[d] = axis ? record.points.lo[d] : 0;
    a.watch_hi[d] = axis ? record.points.hi[d] : 0;
  }
  a.slot = reinterpret_cast<unsigned long long*>(record.watch.slot);
  a.key_base = record.watch.key(record.watch.step, 0, 0, 0);
  a.row_points = record.watch.row_points;
  a.plane_points = record.watch.plane_points;
  if constexpr (kernels::core::cuda_built) {
    const kernels::core::RuntimeKernel kernel(kernel_source<T, Dim>(f), "gridflow_fill", "key '" + f.key() + "' (\"" + f.text() + "\")");
    constexpr unsigned threads = 128, most_blocks = 65535;
    const std::array<unsigned, 3> blocks{static_cast<unsigned>((a.extent[0] + threads - 1) / threads),
                                         static_cast<unsigned>(std::min<long long>(a.extent[1], most_blocks)),
                                         static_cast<unsigned>(std::min<long long>(a.extent[2], most_blocks))};
    void* args[] = {&a};
    kernel.launch(blocks, {threads, 1, 1}, args, stream);
  }
}

template void evaluate_on_device<float, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                           mesh::FieldView<float, 2>, StreamHandle, const NonFiniteWatchOn<2>&);
template void evaluate_on_device<double, 2>(const CoordinateFunction&, const mesh::Grid<2>&, const mesh::Box<2>&,
                                            mesh::FieldView<double, 2>, StreamHandle, const NonFiniteWatchOn<2>&);
template void evaluate_on_device<float, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                           mesh::FieldView<float, 3>, StreamHandle, const NonFiniteWatchOn<3>&);
template void evaluate_on_device<double, 3>(const CoordinateFunction&, const mesh::Grid<3>&, const mesh::Box<3>&,
                                            mesh::FieldView<double, 3>, StreamHandle, const NonFiniteWatchOn<3>&);

}  // namespace gridflow::solver
