// The CUDA multigrid kernels against their host oracles, and the multigrid solvers on the device
// against the same solves on the host. The kernels share the point functions and neither side
// contracts to FMA, so they agree bitwise; only dot products (summed in another order) and what
// depends on them (the coarsest-level CG solve) agree to rounding instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "kernels/multigrid/dense_solve.hpp"
#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/smoother.hpp"
#include "kernels/multigrid/transfer.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "multigrid_test_support.hpp"
#include "solver/cg_multigrid_solver.hpp"
#include "solver/multigrid_solver.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::MemorySpace;
namespace mg = gridflow::kernels::multigrid;
namespace stencil = gridflow::kernels::stencil;
namespace support = gridflow::testing;

template <class T>
class MultigridGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MultigridGpu, Precisions);

// Odd sizes and offsets, so no launch dimension divides the box and both colours start rows.
const Box<3> fine_points{{0, 0, 0}, {70, 38, 26}};
const Box<3> fine_box{{3, 1, 2}, {68, 37, 25}};
const Box<3> coarse_points{{0, 0, 0}, {35, 19, 13}};
const Box<3> coarse_box{{2, 1, 1}, {33, 18, 12}};

template <class T>
Field<T, 3> host_field(const Box<3>& owned, int ghost, double seed) {
  Field<T, 3> f(owned, ghost, MemorySpace::host, "host");
  const auto g = f.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i)
        f(i, j, k) = static_cast<T>(std::sin(seed + 0.37 * i) * std::cos(0.11 * j - seed) + 1e-2 * k + seed);
  return f;
}

template <class T>
Field<T, 3> on_device(const Field<T, 3>& host) {
  Field<T, 3> d(host.owned(), host.ghost_width(), MemorySpace::device, "device");
  d.copy_from(host);
  return d;
}

// Number of allocated values (ghosts included) that differ between a host field and a device one.
template <class T>
std::size_t differing(const Field<T, 3>& host, const Field<T, 3>& device) {
  Field<T, 3> back(device.owned(), device.ghost_width(), MemorySpace::host, "back");
  back.copy_from(device);
  std::size_t n = 0;
  const auto g = host.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i) n += host(i, j, k) != back(i, j, k);
  return n;
}

struct Spec {
  Box<3> owned;
  int ghost;
  double seed;
};

// Runs op(fields, stream) on fresh host fields (no stream) and on device copies of them (a stream
// of the test's); field `written` must then agree bitwise (ghosts and points outside the kernel's
// box included).
template <class T>
void expect_same(const std::vector<Spec>& specs, std::size_t written,
                 const std::function<void(std::vector<Field<T, 3>>&, gridflow::StreamHandle)>& op, const char* what) {
  std::vector<Field<T, 3>> host, device;
  for (const auto& s : specs) {
    host.push_back(host_field<T>(s.owned, s.ghost, s.seed));
    device.push_back(on_device(host.back()));
  }
  gridflow::mesh::Stream stream;
  op(host, nullptr);
  op(device, stream.get());
  gridflow::mesh::synchronize(stream.get());
  EXPECT_EQ(differing(host[written], device[written]), 0u) << what;
}

}  // namespace

TYPED_TEST(MultigridGpu, EveryKernelMatchesItsHostOracleBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const auto k = stencil::poisson_coefficients<T>(0.013, 0.021, 0.017);
  const Spec u{fine_points, 2, 0.3}, f{fine_points, 1, 1.1}, out{fine_points, 3, 2.0}, coarse{coarse_points, 1, 0.7};
  using Fields = std::vector<Field<T, 3>>;
  expect_same<T>({u, out, f}, 1, [&](Fields& a, auto s) { mg::weighted_jacobi_sweep(a[0], a[1], a[2], fine_box, k, T(6.0 / 7.0), s); },
                 "weighted Jacobi");
  for (int colour : {0, 1})
    expect_same<T>({u, f}, 0, [&](Fields& a, auto s) { mg::red_black_gauss_seidel_sweep(a[0], a[1], fine_box, colour, k, s); },
                   colour ? "black Gauss-Seidel" : "red Gauss-Seidel");
  for (int colour : {0, 1})
    expect_same<T>({u, f}, 0,
                   [&](Fields& a, auto s) { mg::red_black_gauss_seidel_sweep_from_zero(a[0], a[1], fine_box, colour, k, s); },
                   colour ? "black Gauss-Seidel from zero" : "red Gauss-Seidel from zero");
  // The z-marching out-of-place sweep: against copy + both colour sweeps on the host, here and on a
  // box tall enough for several z-chunks, with ghosts of different widths (out's wider than in's).
  // A grid of few blocks marches the shortest chunks (4 planes: 19 of them here); the wide box
  // marches chunks of 32 planes, the last one short (4).
  const Spec tall_u{Box<3>{{0, 0, 0}, {40, 20, 75}}, 1, 0.4}, tall_out{Box<3>{{0, 0, 0}, {40, 20, 75}}, 2, 1.7},
      tall_f{Box<3>{{0, 0, 0}, {40, 20, 75}}, 1, 2.2};
  const Box<3> tall_box{{1, 2, 1}, {39, 19, 74}};
  const Spec wide_march_u{Box<3>{{0, 0, 0}, {513, 257, 99}}, 1, 0.5}, wide_march_out{Box<3>{{0, 0, 0}, {513, 257, 99}}, 1, 1.3},
      wide_march_f{Box<3>{{0, 0, 0}, {513, 257, 99}}, 1, 2.4};
  const Box<3> wide_march_box{{1, 1, 1}, {512, 256, 98}};
  for (int first : {0, 1}) {
    expect_same<T>({u, out, f}, 1, [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place(a[0], a[1], a[2], fine_box, first, k, s); },
                   first ? "out-of-place sweep, black first" : "out-of-place sweep, red first");
    expect_same<T>({tall_u, tall_out, tall_f}, 1,
                   [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place(a[0], a[1], a[2], tall_box, first, k, s); },
                   "out-of-place sweep over several z-chunks");
    expect_same<T>({wide_march_u, wide_march_out, wide_march_f}, 1,
                   [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place(a[0], a[1], a[2], wide_march_box, first, k, s); },
                   "out-of-place sweep over chunks of 32 planes");
    // From zero: out's prior values (not zero here) must not matter, its ghosts end zero.
    expect_same<T>({out, f}, 0,
                   [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place_from_zero(a[0], a[1], fine_box, first, k, s); },
                   "out-of-place sweep from zero");
    expect_same<T>({tall_out, tall_f}, 0,
                   [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place_from_zero(a[0], a[1], tall_box, first, k, s); },
                   "out-of-place sweep from zero over several z-chunks");
    expect_same<T>({wide_march_out, wide_march_f}, 0,
                   [&](Fields& a, auto s) { mg::gauss_seidel_sweep_out_of_place_from_zero(a[0], a[1], wide_march_box, first, k, s); },
                   "out-of-place sweep from zero over chunks of 32 planes");
  }
  expect_same<T>({u, f, out}, 2, [&](Fields& a, auto s) { mg::residual(a[0], a[1], a[2], fine_box, k, s); }, "residual");
  expect_same<T>({u, out}, 1, [&](Fields& a, auto s) { mg::apply_laplacian(a[0], a[1], fine_box, k, s); }, "operator");
  expect_same<T>({u, coarse}, 1, [&](Fields& a, auto s) { mg::restrict_full_weighting(a[0], a[1], coarse_box, s); }, "restriction");
  expect_same<T>({coarse, out}, 1, [&](Fields& a, auto s) { mg::prolong_and_add(a[0], a[1], fine_box, s); }, "prolongation");
  expect_same<T>({u, f, coarse}, 2, [&](Fields& a, auto s) { mg::restrict_residual_full_weighting(a[0], a[1], a[2], coarse_box, k, s); },
                 "residual restriction");
  // Small boxes walk one coarse plane a thread; 256 x 64 x 120 coarse points walk 16, the last
  // chunk short (8 planes).
  const Spec tall_coarse{Box<3>{{0, 0, 0}, {20, 10, 37}}, 1, 0.8};
  expect_same<T>({tall_u, tall_f, tall_coarse}, 2,
                 [&](Fields& a, auto s) { mg::restrict_residual_full_weighting(a[0], a[1], a[2], Box<3>{{1, 1, 1}, {19, 9, 36}}, k, s); },
                 "residual restriction, a plane a thread");
  const Spec wide_u{Box<3>{{0, 0, 0}, {514, 130, 242}}, 1, 0.2}, wide_f{Box<3>{{0, 0, 0}, {514, 130, 242}}, 1, 1.4},
      wide_coarse{Box<3>{{0, 0, 0}, {257, 65, 121}}, 1, 0.6};
  expect_same<T>({wide_u, wide_f, wide_coarse}, 2,
                 [&](Fields& a, auto s) { mg::restrict_residual_full_weighting(a[0], a[1], a[2], Box<3>{{1, 1, 1}, {256, 64, 120}}, k, s); },
                 "residual restriction, 16 planes a thread");
  const Box<3> odd_rows{{2, 1, 2}, {68, 37, 25}};  // rows start on an even point and end on a lone one
  expect_same<T>({coarse, out}, 1, [&](Fields& a, auto s) { mg::prolong_and_add(a[0], a[1], odd_rows, s); },
                 "prolongation of odd rows");
  // Semi-coarsening: x and z halved, y kept (coarse J is fine J, so the coarse field spans fine y).
  mg::Coarsening xz;
  xz.shift[1] = 0;
  const Spec semi{Box<3>{{0, 0, 0}, {35, 38, 13}}, 1, 0.9};
  const Box<3> semi_box{{2, 1, 1}, {33, 37, 12}};
  expect_same<T>({u, semi}, 1, [&](Fields& a, auto s) { mg::restrict_full_weighting(a[0], a[1], semi_box, s, xz); },
                 "restriction halving x and z");
  expect_same<T>({semi, out}, 1, [&](Fields& a, auto s) { mg::prolong_and_add(a[0], a[1], fine_box, s, xz); },
                 "prolongation halving x and z");
  {
    const Box<3> small{{2, 3, 1}, {9, 7, 6}};  // 240 points
    const auto inverse = mg::dense_inverse(small, stencil::poisson_coefficients<double>(0.013, 0.021, 0.017));
    const std::vector<T> values(inverse.begin(), inverse.end());
    gridflow::mesh::Buffer on_device_values(values.size() * sizeof(T), MemorySpace::device);
    gridflow::mesh::copy_bytes_async(on_device_values.data(), MemorySpace::device, values.data(), MemorySpace::host,
                                     values.size() * sizeof(T), nullptr);
    gridflow::mesh::synchronize(nullptr);
    std::vector<Field<T, 3>> host, device;
    for (const auto& spec : {u, out}) {
      host.push_back(host_field<T>(spec.owned, spec.ghost, spec.seed));
      device.push_back(on_device(host.back()));
    }
    mg::apply_dense_inverse(values.data(), host[0], host[1], small, nullptr);
    gridflow::mesh::Stream stream;
    mg::apply_dense_inverse(static_cast<const T*>(on_device_values.data()), device[0], device[1], small, stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_EQ(differing(host[1], device[1]), 0u) << "dense coarse solve";
  }
  expect_same<T>({u, out}, 1, [&](Fields& a, auto s) { mg::axpy(T(-0.3), a[0], a[1], fine_box, s); }, "axpy");
  expect_same<T>({u, out}, 1, [&](Fields& a, auto s) { mg::xpby(a[0], T(0.7), a[1], fine_box, s); }, "xpby");
  expect_same<T>({u, out}, 1, [&](Fields& a, auto s) { mg::copy(a[0], a[1], fine_box, s); }, "copy");
  expect_same<T>({out}, 0, [&](Fields& a, auto s) { mg::fill_zero(a[0], s); }, "fill_zero");

  const auto hu = host_field<T>(u.owned, u.ghost, u.seed), hout = host_field<T>(out.owned, out.ghost, out.seed);
  const auto du = on_device(hu), dout = on_device(hout);
  gridflow::mesh::Stream stream;
  const double host_dot = mg::dot(hu, hout, fine_box, nullptr), device_dot = mg::dot(du, dout, fine_box, stream.get());
  EXPECT_NEAR(device_dot, host_dot, 1e-12 * std::abs(host_dot)) << "dot products are summed in another order";
}

// The fused steps of conjugate gradients: their fields bitwise against the separate operations
// on the host and against the host on the device; their sums equal the separate dot products
// on the host (the same order) and to rounding on the device, with the same bits every run.
TYPED_TEST(MultigridGpu, FusedConjugateGradientStepsMatchTheSeparateOperations) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const auto k = stencil::poisson_coefficients<T>(0.013, 0.021, 0.017);
  const double rounding = sizeof(T) == 4 ? 1e-5 : 1e-12;
  gridflow::mesh::Stream stream;
  const Box<3> tall_points{{0, 0, 0}, {70, 38, 300}}, tall_box{{3, 1, 2}, {68, 37, 298}};
  for (const auto& [points, box] : {std::pair{fine_points, fine_box}, std::pair{tall_points, tall_box}}) {
    // Fields are handles (a copy shares the values): each start value is made afresh from its seed.
    const auto p = host_field<T>(points, 2, 0.3);
    const auto q0 = [&] { return host_field<T>(points, 1, 1.1); };
    const auto u0 = [&] { return host_field<T>(points, 1, 0.6); };
    const auto r0 = [&] { return host_field<T>(points, 3, 1.9); };
    // laplacian_and_dot against apply_laplacian + dot.
    auto q_sep = q0(), q = q0();
    mg::apply_laplacian(p, q_sep, box, k, nullptr);
    const double pq_sep = mg::dot(p, q_sep, box, nullptr);
    const double pq = mg::laplacian_and_dot(p, q, box, k, nullptr);
    EXPECT_EQ(differing(q_sep, on_device(q)), 0u) << "q = A p";
    EXPECT_EQ(pq, pq_sep);
    const auto dp = on_device(p);
    auto dq = on_device(q0());
    const double dpq = mg::laplacian_and_dot(dp, dq, box, k, stream.get());
    EXPECT_EQ(differing(q_sep, dq), 0u) << "q = A p on the device";
    EXPECT_NEAR(dpq, pq, rounding * std::abs(pq));
    EXPECT_EQ(mg::laplacian_and_dot(dp, dq, box, k, stream.get()), dpq) << "the same bits every run";

    // cg_update against two axpy + dot.
    const T alpha = T(0.37);
    auto u_sep = u0(), r_sep = r0(), u = u0(), r = r0();
    mg::axpy(alpha, p, u_sep, box, nullptr);
    mg::axpy(T(-alpha), q_sep, r_sep, box, nullptr);
    const double rr_sep = mg::dot(r_sep, r_sep, box, nullptr);
    EXPECT_EQ(mg::cg_update(alpha, p, q_sep, u, r, box, nullptr), rr_sep);
    EXPECT_EQ(differing(u_sep, on_device(u)), 0u);
    EXPECT_EQ(differing(r_sep, on_device(r)), 0u);
    auto du = on_device(u0()), dr = on_device(r0());
    const auto dq_sep = on_device(q_sep);
    const double drr = mg::cg_update(alpha, dp, dq_sep, du, dr, box, stream.get());
    EXPECT_EQ(differing(u_sep, du), 0u) << "u on the device";
    EXPECT_EQ(differing(r_sep, dr), 0u) << "r on the device";
    EXPECT_NEAR(drr, rr_sep, rounding * rr_sep);

    // dot2 against two dots.
    const auto z = host_field<T>(points, 1, 2.4);
    const auto sums = mg::dot2(r_sep, z, q_sep, box, nullptr);
    EXPECT_EQ(sums[0], mg::dot(r_sep, z, box, nullptr));
    EXPECT_EQ(sums[1], mg::dot(z, q_sep, box, nullptr));
    const auto dsums = mg::dot2(on_device(r_sep), on_device(z), dq_sep, box, stream.get());
    EXPECT_NEAR(dsums[0], sums[0], rounding * std::abs(sums[0]));
    EXPECT_NEAR(dsums[1], sums[1], rounding * std::abs(sums[1]));
  }
}

// The mixed-precision operations (double fields, float residual and correction): bitwise
// against the host oracle, the fused residual norm to rounding (another summation order) and
// with the same bits on every run.
TEST(MultigridGpuMixed, KernelsMatchTheirHostOracles) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const auto k = stencil::poisson_coefficients<double>(0.013, 0.021, 0.017);
  gridflow::mesh::Stream stream;
  // A box tall enough that the residual kernel's z-walk takes several planes per thread.
  const Box<3> tall_points{{0, 0, 0}, {70, 38, 300}}, tall_box{{3, 1, 2}, {68, 37, 298}};
  for (const auto& [points, box] : {std::pair{fine_points, fine_box}, std::pair{tall_points, tall_box}}) {
    const auto hu = host_field<double>(points, 2, 0.3), hf = host_field<double>(points, 1, 1.1);
    auto hr = host_field<float>(points, 3, 2.0);
    const auto du = on_device(hu), df = on_device(hf);
    auto dr = on_device(hr);
    const double host_norm = mg::residual_and_norm(hu, hf, hr, box, k, nullptr);
    const double device_norm = mg::residual_and_norm(du, df, dr, box, k, stream.get());
    EXPECT_EQ(differing(hr, dr), 0u) << "float residual";
    EXPECT_NEAR(device_norm, host_norm, 1e-12 * host_norm) << "residual norm (summed in another order)";
    EXPECT_GT(host_norm, 0);
    // The sum is of the double residual, not of its float rounding.
    double of_float = 0;
    for (auto z = box.lo[2]; z <= box.hi[2]; ++z)
      for (auto y = box.lo[1]; y <= box.hi[1]; ++y)
        for (auto x = box.lo[0]; x <= box.hi[0]; ++x) of_float += static_cast<double>(hr(x, y, z)) * hr(x, y, z);
    EXPECT_NE(of_float, host_norm);
    EXPECT_NEAR(of_float, host_norm, 1e-6 * host_norm);
    EXPECT_EQ(mg::residual_and_norm(du, df, dr, box, k, stream.get()), device_norm) << "the same bits on every run";
    // Keeping the double residual beside the float one changes neither.
    auto hx = host_field<double>(points, 1, 0.4);
    auto hr2 = host_field<float>(points, 3, 2.0);
    auto dx = on_device(hx);
    auto dr2 = on_device(hr2);
    const double host_both = mg::residual_and_norm(hu, hf, hx, hr2, box, k, nullptr);
    EXPECT_EQ(mg::residual_and_norm(du, df, dx, dr2, box, k, stream.get()), device_norm) << "the norm, kept in double too";
    EXPECT_EQ(host_both, host_norm);
    EXPECT_EQ(differing(hx, dx), 0u) << "the double residual";
    EXPECT_EQ(differing(hr, dr2), 0u) << "the float residual, kept in double too";
    EXPECT_EQ(differing(hr2, hr), 0u);
    auto hexact = host_field<double>(points, 1, 0.4);
    mg::residual(hu, hf, hexact, box, k, nullptr);
    EXPECT_EQ(differing(hexact, hx), 0u) << "the double residual is multigrid::residual's";

    auto hu2 = host_field<double>(points, 1, 0.8);
    auto du2 = on_device(hu2);
    mg::add_correction(hr, hu2, box, nullptr);
    mg::add_correction(dr, du2, box, stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_EQ(differing(hu2, du2), 0u) << "add_correction";

    auto hc = host_field<float>(points, 1, 1.9);
    auto dc = on_device(hc);
    mg::convert(hu, hc, box, nullptr);
    mg::convert(du, dc, box, stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_EQ(differing(hc, dc), 0u) << "convert double to float";
    auto hd = host_field<double>(points, 2, 0.1);
    auto dd = on_device(hd);
    mg::convert(hr, hd, hd.ghosted(), nullptr);
    mg::convert(dr, dd, box, stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_GT(differing(hd, dd), 0u) << "the device converted a smaller box: the check must see it";
    mg::convert(dr, dd, dd.ghosted(), stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_EQ(differing(hd, dd), 0u) << "convert float to double";
  }
}

// Conjugate gradients' steps with a float z or a rounded r (a float preconditioner in a double
// solve): bitwise the conversion pass followed by the one-type step, on the host and the device.
TEST(MultigridGpuMixed, ConjugateGradientStepsOnFloatFieldsEqualConvertThenStep) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  gridflow::mesh::Stream stream;
  const Box<3> tall_points{{0, 0, 0}, {70, 38, 300}}, tall_box{{3, 1, 2}, {68, 37, 298}};
  for (const auto& [points, box] : {std::pair{fine_points, fine_box}, std::pair{tall_points, tall_box}}) {
    const auto r = host_field<double>(points, 1, 1.9), q = host_field<double>(points, 1, 1.1);
    const auto z_float = host_field<float>(points, 1, 2.4);
    auto z_wide = host_field<double>(points, 1, 0.0);
    mg::convert(z_float, z_wide, box, nullptr);
    const auto dr = on_device(r), dq = on_device(q);
    const auto dz_float = on_device(z_float);
    const auto dz_wide = on_device(z_wide);
    EXPECT_EQ(mg::dot(r, z_float, box, nullptr), mg::dot(r, z_wide, box, nullptr));
    EXPECT_EQ(mg::dot(dr, dz_float, box, stream.get()), mg::dot(dr, dz_wide, box, stream.get())) << "dot on the device";
    EXPECT_EQ(mg::dot2(r, z_float, q, box, nullptr), mg::dot2(r, z_wide, q, box, nullptr));
    EXPECT_EQ(mg::dot2(dr, dz_float, dq, box, stream.get()), mg::dot2(dr, dz_wide, dq, box, stream.get())) << "dot2 on the device";

    auto p_sep = host_field<double>(points, 2, 0.3), p = host_field<double>(points, 2, 0.3);
    auto dp = on_device(p);
    mg::xpby(z_wide, 0.61, p_sep, box, nullptr);
    mg::xpby(z_float, 0.61, p, box, nullptr);
    mg::xpby(dz_float, 0.61, dp, box, stream.get());
    gridflow::mesh::synchronize(stream.get());
    EXPECT_EQ(differing(p_sep, on_device(p)), 0u) << "xpby from a float x";
    EXPECT_EQ(differing(p_sep, dp), 0u) << "xpby from a float x on the device";

    // cg_update that rounds r against cg_update then convert.
    const auto u0 = [&] { return host_field<double>(points, 1, 0.6); };
    const auto r0 = [&] { return host_field<double>(points, 3, 1.9); };
    const auto rounded0 = [&] { return host_field<float>(points, 1, 0.7); };
    auto u_sep = u0(), r_sep = r0();
    auto rounded_sep = rounded0();
    const double rr_sep = mg::cg_update(0.37, p_sep, q, u_sep, r_sep, box, nullptr);
    mg::convert(r_sep, rounded_sep, box, nullptr);
    auto u = u0(), rr = r0();
    auto rounded = rounded0();
    EXPECT_EQ(mg::cg_update(0.37, p_sep, q, u, rr, rounded, box, nullptr), rr_sep);
    EXPECT_EQ(differing(u_sep, on_device(u)), 0u);
    EXPECT_EQ(differing(r_sep, on_device(rr)), 0u);
    EXPECT_EQ(differing(rounded_sep, on_device(rounded)), 0u) << "r rounded";
    auto du = on_device(u0()), drr = on_device(r0()), du_sep = on_device(u0()), dr_sep = on_device(r0());
    auto drounded = on_device(rounded0());
    const auto dp_sep = on_device(p_sep);
    const double drr_sep = mg::cg_update(0.37, dp_sep, dq, du_sep, dr_sep, box, stream.get());
    EXPECT_EQ(mg::cg_update(0.37, dp_sep, dq, du, drr, drounded, box, stream.get()), drr_sep) << "the same sum on the device";
    EXPECT_EQ(differing(u_sep, du), 0u) << "u on the device";
    EXPECT_EQ(differing(r_sep, drr), 0u) << "r on the device";
    EXPECT_EQ(differing(rounded_sep, drounded), 0u) << "r rounded on the device";
  }
  // The solver on the device: the rounded preconditioner takes the converting one's iterates.
  const auto c = support::poisson_config(support::sine_deck(32), {"poisson.tolerance=1e-10"});
  const auto rounded = support::cg_with_float_multigrid(c, MemorySpace::device, true);
  const auto converted = support::cg_with_float_multigrid(c, MemorySpace::device, false);
  EXPECT_LT(rounded.residuals.back(), 1e-10);
  EXPECT_EQ(rounded.residuals, converted.residuals);
  EXPECT_EQ(rounded.u, converted.u);
}

TYPED_TEST(MultigridGpu, SolversOnTheDeviceMatchTheHost) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const bool single = sizeof(T) == 4;
  const std::vector<std::string> common = {std::string("precision=") + (single ? "float" : "double"),
                                           single ? "poisson.tolerance=1e-5" : "poisson.tolerance=1e-9"};
  const double agree = single ? 1e-5 : 1e-11;
  for (const char* variant : {"multigrid.smoother=rbgs", "multigrid.smoother=jacobi", "multigrid.cycle=F", "grid.length=[1,16,1]",
                              "grid.length=[0.0625,1,1]", "multigrid.mixed_precision=false"}) {
    auto overrides = common;
    overrides.push_back(variant);
    const auto config = support::poisson_config(support::sine_deck(32), overrides);
    const auto host = support::solve_with<gridflow::solver::MultigridSolver<T>, T>(config, MPI_COMM_SELF, MemorySpace::host);
    const auto device = support::solve_with<gridflow::solver::MultigridSolver<T>, T>(config, MPI_COMM_SELF, MemorySpace::device);
    EXPECT_TRUE(device.report.converged) << variant;
    EXPECT_EQ(device.report.iterations, host.report.iterations) << variant;
    double diff = 0, size = 0;
    for (std::size_t q = 0; q < host.u.size(); ++q) {
      diff = std::max(diff, std::abs(static_cast<double>(host.u[q]) - device.u[q]));
      size = std::max(size, std::abs(static_cast<double>(host.u[q])));
    }
    EXPECT_LT(diff, agree * size) << variant;

    const auto cg_host = support::solve_with<gridflow::solver::CgMultigridSolver<T>, T>(config, MPI_COMM_SELF, MemorySpace::host);
    const auto cg_device = support::solve_with<gridflow::solver::CgMultigridSolver<T>, T>(config, MPI_COMM_SELF, MemorySpace::device);
    EXPECT_TRUE(cg_device.report.converged) << variant;
    EXPECT_LE(std::abs(cg_device.report.iterations - cg_host.report.iterations), 1) << variant;
  }
}

// Under mpirun (ranks may share one GPU): device fields through the host-staged halo exchanges
// and the gather of the coarse levels onto rank 0, against the same ranks on host fields.
TEST(MultigridGpuRanks, DeviceFieldsOnAllRanksMatchHostFields) {
  GRIDFLOW_REQUIRE_GPU();
  gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);  // a GPU each where there are enough
  const int ranks = gridflow::testing::world_size();
  for (const std::string& dims : {std::string("decomposition=[0,0,0]"), "decomposition=[" + std::to_string(ranks) + ",1,1]"}) {
    const auto config = support::poisson_config(support::sine_deck(32), {dims, "multigrid.coarse_points=2"});
    const auto host = support::solve_with<gridflow::solver::MultigridSolver<double>, double>(config, MPI_COMM_WORLD, MemorySpace::host);
    const auto device = support::solve_with<gridflow::solver::MultigridSolver<double>, double>(config, MPI_COMM_WORLD, MemorySpace::device);
    EXPECT_TRUE(device.report.converged) << dims;
    EXPECT_EQ(device.report.iterations, host.report.iterations) << dims;
    double diff = 0;
    for (std::size_t q = 0; q < host.u.size(); ++q) diff = std::max(diff, std::abs(host.u[q] - device.u[q]));
    EXPECT_LT(diff, 1e-11) << dims;
    const auto cg = support::solve_with<gridflow::solver::CgMultigridSolver<double>, double>(config, MPI_COMM_WORLD, MemorySpace::device);
    EXPECT_TRUE(cg.report.converged) << dims;
  }
}
