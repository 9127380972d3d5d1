// Host oracle of the smoothers and the dispatch to the CUDA variants.
#include <utility>

#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/field_checks.hpp"
#include "kernels/multigrid/smoother.hpp"
#include "kernels/multigrid/smoother_cuda.hpp"
#include "kernels/multigrid/vector_ops.hpp"

namespace gridflow::kernels::multigrid {
namespace {

/// The arguments every red-black sweep of u (relaxed, or written) with right-hand side f checks.
template <class T>
void require_colour_sweep(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box, int colour, const char* name) {
  GRIDFLOW_REQUIRE(colour == 0 || colour == 1, std::string(name) + ": colour must be 0 (red) or 1 (black)");
  require_same_space(u, f, name);
  require_reach(u, box.grow(1), name);
  require_reach(f, box, name);
}

}  // namespace

template <class T>
void weighted_jacobi_sweep(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                           const mesh::Box<3>& box, const PoissonCoefficients<T>& c, T weight, StreamHandle stream) {
  constexpr const char* name = "multigrid::weighted_jacobi";
  GRIDFLOW_REQUIRE(&in != &out, std::string(name) + ": input and output must be different fields");
  require_same_space(in, out, name);
  require_same_space(in, f, name);
  require_reach(in, box.grow(1), name);
  require_reach(out, box, name);
  require_reach(f, box, name);
  if (box.empty()) return;
  core::run_on_space(
      name, in.space(), stream,
      [&] {
        const auto u = in.view();
        const auto v = out.view();
        const auto rhs = f.view();
        core::for_each_host("multigrid::weighted_jacobi::host", box, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
          v(i, j, k) = weighted_jacobi_at(u, rhs, i, j, k, c, weight);
        });
      },
      [&](auto) { weighted_jacobi_sweep_cuda<T>(in.view(), out.view(), f.view(), box, c, weight, stream); });
}

template <class T>
void red_black_gauss_seidel_sweep(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box, int colour,
                                  const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::red_black_gauss_seidel";
  require_colour_sweep(u, f, box, colour, name);
  if (box.empty()) return;
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto read = std::as_const(u).view();
        const auto write = u.view();
        const auto rhs = f.view();
        core::for_each_row_host("multigrid::red_black_gauss_seidel::host", box, [&](std::int64_t j, std::int64_t k) {
          for (std::int64_t i = first_of_colour(box.lo[0], j, k, colour); i <= box.hi[0]; i += 2)
            write(i, j, k) = relaxed_at(read, rhs, i, j, k, c);
        });
      },
      [&](auto) { red_black_gauss_seidel_sweep_cuda<T>(u.view(), f.view(), box, colour, c, stream); });
}

template <class T>
void red_black_gauss_seidel_sweep_from_zero(mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, const mesh::Box<3>& box,
                                            int colour, const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::red_black_gauss_seidel_from_zero";
  require_colour_sweep(u, f, box, colour, name);
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        fill_zero(u, stream);
        red_black_gauss_seidel_sweep(u, f, box, colour, c, stream);
      },
      [&](auto) { red_black_gauss_seidel_sweep_from_zero_cuda<T>(u.view(), f.view(), box, u.allocated_box(), colour, c, stream); });
}

template <class T>
void gauss_seidel_sweep_out_of_place(const mesh::Field<T, 3>& in, mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f,
                                     const mesh::Box<3>& box, int first, const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::gauss_seidel_sweep_out_of_place";
  GRIDFLOW_REQUIRE(&in != &out, std::string(name) + ": input and output must be different fields");
  require_colour_sweep(out, f, box, first, name);
  require_same_space(in, out, name);
  require_reach(in, box.grow(1), name);
  const auto cover = in.ghosted().intersect(out.ghosted());
  core::run_on_space(
      name, in.space(), stream,
      [&] {
        const auto from = in.view();
        const auto to = out.view();
        core::for_each_host("multigrid::gauss_seidel_sweep_out_of_place::host", cover,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { to(i, j, k) = from(i, j, k); });
        for (int colour : {first, 1 - first}) red_black_gauss_seidel_sweep(out, f, box, colour, c, stream);
      },
      [&](auto) {
        gauss_seidel_sweep_out_of_place_cuda<T>(in.view(), out.view(), f.view(), box, cover, in.allocated_box(), f.allocated_box(),
                                                first, c, stream);
      });
}

template <class T>
void gauss_seidel_sweep_out_of_place_from_zero(mesh::Field<T, 3>& out, const mesh::Field<T, 3>& f, const mesh::Box<3>& box, int first,
                                               const PoissonCoefficients<T>& c, StreamHandle stream) {
  constexpr const char* name = "multigrid::gauss_seidel_sweep_out_of_place_from_zero";
  require_colour_sweep(out, f, box, first, name);
  core::run_on_space(
      name, out.space(), stream,
      [&] {
        fill_zero(out, stream);
        for (int colour : {first, 1 - first}) red_black_gauss_seidel_sweep(out, f, box, colour, c, stream);
      },
      [&](auto) {
        gauss_seidel_sweep_out_of_place_from_zero_cuda<T>(out.view(), f.view(), box, out.ghosted(), f.allocated_box(), first, c, stream);
      });
}

#define GRIDFLOW_INSTANTIATE_SMOOTHERS(T)                                                                             \
  template void weighted_jacobi_sweep<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Field<T, 3>&,      \
                                         const mesh::Box<3>&, const PoissonCoefficients<T>&, T, StreamHandle);         \
  template void red_black_gauss_seidel_sweep<T>(mesh::Field<T, 3>&, const mesh::Field<T, 3>&, const mesh::Box<3>&, int, \
                                                const PoissonCoefficients<T>&, StreamHandle);                          \
  template void red_black_gauss_seidel_sweep_from_zero<T>(mesh::Field<T, 3>&, const mesh::Field<T, 3>&, const mesh::Box<3>&, \
                                                          int, const PoissonCoefficients<T>&, StreamHandle);          \
  template void gauss_seidel_sweep_out_of_place<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Field<T, 3>&, \
                                                   const mesh::Box<3>&, int, const PoissonCoefficients<T>&, StreamHandle);    \
  template void gauss_seidel_sweep_out_of_place_from_zero<T>(mesh::Field<T, 3>&, const mesh::Field<T, 3>&, const mesh::Box<3>&, int,     \
                                                             const PoissonCoefficients<T>&, StreamHandle);
GRIDFLOW_INSTANTIATE_SMOOTHERS(float)
GRIDFLOW_INSTANTIATE_SMOOTHERS(double)
#undef GRIDFLOW_INSTANTIATE_SMOOTHERS

}  // namespace gridflow::kernels::multigrid
