#pragma once
// evaluate_on_device: a CoordinateFunction evaluated on every point of a box of a device field, by a
// kernel generated from the function's CUDA source (CoordinateFunction::device_source) and compiled
// at run time (kernels::core::RuntimeKernel, cached on disk). Each point's coordinates are computed
// as mesh::Grid::coordinate computes them on the host (origin + i * spacing, no FMA), so the
// function gets bitwise the host's arguments; the value is computed in double and rounded to T.
// The host path (evaluate_on_box) stays the reference and the path for host fields.
#include "kernels/core/non_finite_flag.hpp"
#include "mesh/box.hpp"
#include "mesh/field_view.hpp"
#include "mesh/grid.hpp"
#include "mesh/host_device.hpp"
#include "solver/coordinate_function.hpp"

namespace gridflow::solver {

/// Where a value that is not finite once rounded to T is recorded: the flag's watch (its step
/// keys the record) and the points watched. A null watch.slot records nothing.
template <int Dim>
struct NonFiniteWatchOn {
  kernels::core::NonFiniteWatch watch;
  mesh::Box<Dim> points{};
};

/// Whether `f` can be evaluated on the device (it has a device source, and the build has CUDA).
bool has_device_form(const CoordinateFunction& f);
/// Whether `f` is +0 everywhere (the common initial value "0"): what a new field already holds, so
/// there is nothing to evaluate or compile.
bool zero_everywhere(const CoordinateFunction& f);

/// Sets out(p) = T(f(coordinates of p)) for every p in `box` (global indices, inside the view's
/// allocation) on `stream`, without blocking. A view with data == nullptr stores nothing: the
/// launch then only records non-finite values (a finiteness check of the formula). Needs
/// has_device_form(f); throws Error otherwise, or with NVRTC's log when the source does not compile.
template <class T, int Dim>
void evaluate_on_device(const CoordinateFunction& f, const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box,
                        mesh::FieldView<T, Dim> out, StreamHandle stream, const NonFiniteWatchOn<Dim>& record = {});

/// The largest |u(p) - f(p)| over the points p of `box` (global indices, inside u's allocation),
/// f evaluated in double as evaluate_on_device does (so within the ulp bounds of its transcendental
/// functions from muParser's value) and u's value widened to double; NaN where any difference is
/// NaN. Runs on `stream` and waits for it. Needs has_device_form(f); throws Error otherwise.
template <class T, int Dim>
double max_difference_on_device(const CoordinateFunction& f, const mesh::Grid<Dim>& grid, const mesh::Box<Dim>& box,
                                mesh::FieldView<const T, Dim> u, StreamHandle stream);

}  // namespace gridflow::solver
