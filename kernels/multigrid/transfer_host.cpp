// Host oracle of the grid transfers and the dispatch to the CUDA variants.
#include "kernels/core/for_each_host.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "kernels/multigrid/field_checks.hpp"
#include "kernels/multigrid/transfer.hpp"
#include "kernels/multigrid/transfer_cuda.hpp"

namespace gridflow::kernels::multigrid {

template <class T>
void restrict_full_weighting(const mesh::Field<T, 3>& fine, mesh::Field<T, 3>& coarse, const mesh::Box<3>& coarse_box,
                             StreamHandle stream, const Coarsening& c) {
  constexpr const char* name = "multigrid::restrict_full_weighting";
  require_same_space(fine, coarse, name);
  if (coarse_box.empty()) return;
  require_reach(fine, restriction_footprint(coarse_box, c), name);
  require_reach(coarse, coarse_box, name);
  core::run_on_space(
      name, fine.space(), stream,
      [&] {
        const auto fv = fine.view();
        const auto cv = coarse.view();
        core::for_each_host("multigrid::restrict_full_weighting::host", coarse_box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { cv(i, j, k) = restriction_at(fv, i, j, k, c); });
      },
      [&](auto) { restrict_full_weighting_cuda<T>(fine.view(), coarse.view(), coarse_box, c, stream); });
}

template <class T>
void restrict_residual_full_weighting(const mesh::Field<T, 3>& u, const mesh::Field<T, 3>& f, mesh::Field<T, 3>& coarse,
                                      const mesh::Box<3>& coarse_box, const PoissonCoefficients<T>& k, StreamHandle stream) {
  constexpr const char* name = "multigrid::restrict_residual_full_weighting";
  require_same_space(u, f, name);
  require_same_space(u, coarse, name);
  if (coarse_box.empty()) return;
  const auto footprint = restriction_footprint(coarse_box);
  require_reach(u, footprint.grow(1), name);
  require_reach(f, footprint, name);
  require_reach(coarse, coarse_box, name);
  core::run_on_space(
      name, u.space(), stream,
      [&] {
        const auto uv = u.view();
        const auto fv = f.view();
        const auto cv = coarse.view();
        core::for_each_host("multigrid::restrict_residual_full_weighting::host", coarse_box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t kk) { cv(i, j, kk) = residual_restriction_at(uv, fv, i, j, kk, k); });
      },
      [&](auto) { restrict_residual_full_weighting_cuda<T>(u.view(), f.view(), coarse.view(), coarse_box, k, stream); });
}

template <class T>
void prolong_and_add(const mesh::Field<T, 3>& coarse, mesh::Field<T, 3>& fine, const mesh::Box<3>& fine_box,
                     StreamHandle stream, const Coarsening& c) {
  constexpr const char* name = "multigrid::prolong_and_add";
  require_same_space(fine, coarse, name);
  if (fine_box.empty()) return;
  GRIDFLOW_REQUIRE(fine_box.lo[0] >= 0 && fine_box.lo[1] >= 0 && fine_box.lo[2] >= 0,
                   std::string(name) + ": fine points must have non-negative indices");
  require_reach(coarse, prolongation_footprint(fine_box, c), name);
  require_reach(fine, fine_box, name);
  core::run_on_space(
      name, fine.space(), stream,
      [&] {
        const auto cv = coarse.view();
        const auto fv = fine.view();
        core::for_each_host("multigrid::prolong_and_add::host", fine_box,
                            [&](std::int64_t i, std::int64_t j, std::int64_t k) { fv(i, j, k) += prolongation_at(cv, i, j, k, c); });
      },
      [&](auto) { prolong_and_add_cuda<T>(coarse.view(), fine.view(), fine_box, c, stream); });
}

#define GRIDFLOW_INSTANTIATE_TRANSFER(T)                                                                              \
  template void restrict_full_weighting<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle, \
                                           const Coarsening&);                                                        \
  template void restrict_residual_full_weighting<T>(const mesh::Field<T, 3>&, const mesh::Field<T, 3>&, mesh::Field<T, 3>&, \
                                                    const mesh::Box<3>&, const PoissonCoefficients<T>&, StreamHandle);  \
  template void prolong_and_add<T>(const mesh::Field<T, 3>&, mesh::Field<T, 3>&, const mesh::Box<3>&, StreamHandle,    \
                                   const Coarsening&);
GRIDFLOW_INSTANTIATE_TRANSFER(float)
GRIDFLOW_INSTANTIATE_TRANSFER(double)
#undef GRIDFLOW_INSTANTIATE_TRANSFER

}  // namespace gridflow::kernels::multigrid
