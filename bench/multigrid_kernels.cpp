// bench/multigrid_kernels: every kernel of a mixed-precision multigrid or CG-multigrid solve at
// the finest level, timed alone against the copy bandwidth measured in the same run.
//
// The solve's wall time is the sum of these passes (and of the coarse levels'); each pass's
// figure of merit is its modelled traffic (bytes a point it must read and write, neighbours from
// caches) over its time, as a fraction of the copy roof. A pass far below the roof is where a
// solve's time goes beyond its bytes.
//
//   multigrid_kernels [--n 513] [--repeats 7] [--calls 5] [--json FILE]
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "bench/device_timing.hpp"
#include "kernels/multigrid/mixed_precision.hpp"
#include "kernels/multigrid/residual.hpp"
#include "kernels/multigrid/smoother.hpp"
#include "kernels/multigrid/transfer.hpp"
#include "kernels/multigrid/vector_ops.hpp"
#include "kernels/stencil/jacobi.hpp"
#include "mesh/field.hpp"

using namespace gridflow;
namespace mg = kernels::multigrid;

namespace {

/// A field of the solver's layout (one ghost layer) on the device, nonzero values everywhere.
template <class T>
mesh::Field<T, 3> nonzero_field(const mesh::Box<3>& owned, int seed) {
  mesh::Field<T, 3> host(owned, 1, mesh::MemorySpace::host);
  const auto g = host.ghosted();
  for (auto k = g.lo[2]; k <= g.hi[2]; ++k)
    for (auto j = g.lo[1]; j <= g.hi[1]; ++j)
      for (auto i = g.lo[0]; i <= g.hi[0]; ++i)
        host(i, j, k) = static_cast<T>(1e-2 * static_cast<double>(1 + (seed + 7 * i + 13 * j + 5 * k) % 101));
  mesh::Field<T, 3> device(owned, 1, mesh::MemorySpace::device);
  device.copy_from(host);
  return device;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  CLI::App app{"multigrid_kernels: the passes of a multigrid solve against the copy roof"};
  long n = 513;
  int repeats = 7, calls = 5;
  std::string json_path;
  app.add_option("--n", n, "points per axis of the finest grid (odd)");
  app.add_option("--repeats", repeats, "timings per pass (median)");
  app.add_option("--calls", calls, "back-to-back calls per timing");
  app.add_option("--json", json_path, "write the figures here");
  CLI11_PARSE(app, argc, argv);

  const mesh::Stream owner;  // the kernels refuse the legacy default stream
  const StreamHandle stream = owner.get();
  const mesh::Box<3> owned{{0, 0, 0}, {n - 1, n - 1, n - 1}}, interior = owned.grow(-1);
  const long nc = (n + 1) / 2;
  const mesh::Box<3> coarse_owned{{0, 0, 0}, {nc - 1, nc - 1, nc - 1}}, coarse_interior = coarse_owned.grow(-1);
  const double points = static_cast<double>(interior.size());
  const double h = 1.0 / static_cast<double>(n - 1);
  const auto kd = kernels::stencil::poisson_coefficients<double>(h, h, h);
  const auto kf = kernels::stencil::poisson_coefficients<float>(h, h, h);

  auto u = nonzero_field<double>(owned, 1), f = nonzero_field<double>(owned, 2), r = nonzero_field<double>(owned, 3);
  auto p = nonzero_field<double>(owned, 4), q = nonzero_field<double>(owned, 5);
  auto rf = nonzero_field<float>(owned, 6), zf = nonzero_field<float>(owned, 7), ff = nonzero_field<float>(owned, 8);
  auto ef = nonzero_field<float>(owned, 9), coarse = nonzero_field<float>(coarse_owned, 10);

  const double roof = bench::copy_bandwidth(std::size_t{1} << 30, repeats, stream, calls);
  nlohmann::json out;
  out["n"] = n;
  out["copy_GBps"] = roof / 1e9;
  out["calls_per_timing"] = calls;
  std::printf("copy roof %.0f GB/s; %ld^3 points, interior %.3g points\n", roof / 1e9, n, points);
  std::printf("%-58s %9s %7s %8s %6s\n", "pass", "us", "B/pt", "GB/s", "roof");

  // The values change call after call (u grows, r shrinks...) but stay finite over the few calls timed.
  const auto time = [&](const std::string& name, double bytes_per_point, const std::function<void()>& pass) {
    const double s = bench::time_median_per_call(repeats, calls, stream, pass);
    const double bandwidth = bytes_per_point * points / s;
    std::printf("%-58s %9.1f %7.1f %8.0f %5.1f%%\n", name.c_str(), 1e6 * s, bytes_per_point, bandwidth / 1e9,
                100 * bandwidth / roof);
    out["passes"].push_back({{"pass", name}, {"us", 1e6 * s}, {"bytes_per_point", bytes_per_point},
                             {"GBps", bandwidth / 1e9}, {"fraction_of_copy", bandwidth / roof}});
  };

  // Conjugate gradients in double, the preconditioner's z in float.
  time("cg laplacian_and_dot q = A p, (p, q) [double]", 16, [&] { mg::laplacian_and_dot(p, q, interior, kd, stream); });
  time("cg cg_update u += a p, r -= a q, (r, r), r to float", 52,
       [&] { mg::cg_update(1e-3, p, q, u, r, rf, interior, stream); });
  time("cg cg_update u += a p, r -= a q, (r, r)", 48, [&] { mg::cg_update(1e-3, p, q, u, r, interior, stream); });
  time("cg dot2 (r, z), (z, q) [z float]", 20, [&] { mg::dot2(r, zf, q, interior, stream); });
  time("cg xpby p = z + b p [z float]", 20, [&] { mg::xpby(zf, 0.5, p, interior, stream); });
  time("cg dot (r, r)", 8, [&] { mg::dot(r, r, interior, stream); });
  time("copy [double, multigrid::copy]", 16, [&] { mg::copy(p, q, interior, stream); });
  // The mixed-precision outer loop.
  time("mixed residual_and_norm r = float(f - A u), |r|", 20, [&] { mg::residual_and_norm(u, f, rf, interior, kd, stream); });
  time("mixed add_correction u += double(e)", 20, [&] { mg::add_correction(ef, u, interior, stream); });
  time("mixed convert double -> float", 12, [&] { mg::convert(r, rf, interior, stream); });
  time("mixed convert float -> double", 12, [&] { mg::convert(zf, p, interior, stream); });
  time("residual r = f - A u [double]", 24, [&] { mg::residual(u, f, r, interior, kd, stream); });
  // The float cycle's finest level.
  time("cycle first sweep from zero [float]", 8,
       [&] { mg::gauss_seidel_sweep_out_of_place_from_zero(ef, ff, interior, 0, kf, stream); });
  time("cycle sweep out of place (march) [float]", 12,
       [&] { mg::gauss_seidel_sweep_out_of_place(ef, zf, ff, interior, 0, kf, stream); });
  time("cycle red-black sweep in place, one colour [float]", 10,
       [&] { mg::red_black_gauss_seidel_sweep(ef, ff, interior, 0, kf, stream); });
  time("cycle residual restriction onto the coarse grid [float]", 8.5,
       [&] { mg::restrict_residual_full_weighting(ef, ff, coarse, coarse_interior, kf, stream); });
  time("cycle prolong_and_add from the coarse grid [float]", 8.5,
       [&] { mg::prolong_and_add(coarse, ef, interior, stream); });

  if (!json_path.empty()) {
    std::ofstream file(json_path);
    file << out.dump(2) << "\n";
  }
  return 0;
}
