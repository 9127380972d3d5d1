// Deck formulas evaluated on the device (translated to CUDA, compiled with NVRTC) against muParser
// on the host, float and double fields, 2D and 3D, on every point a rank sees:
//  - bitwise where both sides perform the same IEEE operations: + - * /, signs, comparisons, logic,
//    ternaries, sqrt (correctly rounded on both), abs, min, max, sign, rint, sum, avg, constants;
//  - within a stated ulp bound for the transcendental functions: the CUDA math library's documented
//    maximum error for doubles (CUDA C++ Programming Guide, "Mathematical Functions": sin cos tan
//    asin acos atan sinh pow 2 ulp; cosh tanh exp log log10 1 ulp) plus glibc's documented maximum
//    for x86_64 (glibc manual, "Known Maximum Errors in Math Functions": sin cos tan asin acos atan
//    exp log pow 1 ulp; sinh cosh tanh log10 2 ulp). muParser's asinh, acosh, atanh are log of an
//    argument both sides compute alike (log's bound); log2 is log(v)/log(2), two logs and a
//    division: 5 ulp; 2^-x^2 carries the inner pow's error into the outer one's exponent: 6 ulp.
//    A float field rounds the double value once more: 1 float ulp.
// Then the largest difference of a field from a formula (bitwise the host's where the operations are
// exact, NaN kept), the disk cache (a second evaluation compiles nothing, a corrupt entry is
// compiled again), NVRTC's error report, the non-finite record, and the heat and Poisson set-up paths.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/deck/expression.hpp"
#include "gpu_test_support.hpp"
#include "heat_test_support.hpp"
#include "kernels/core/runtime_kernel.hpp"
#include "kernels/core/space_dispatch.hpp"
#include "mesh/check.hpp"
#include "mesh/field.hpp"
#include "poisson_test_support.hpp"
#include "solver/evaluate_on_box.hpp"
#include "solver/evaluate_on_device.hpp"
#include "solver/heat_solver.hpp"
#include "solver/poisson_problem.hpp"

namespace {

using namespace gridflow;
using mesh::MemorySpace;

template <int Dim>
mesh::Grid<Dim> test_grid() {
  mesh::Grid<Dim> g;
  if constexpr (Dim == 2) {
    g.n = {173, 91};
    g.length = {1.3, 0.7};
    g.origin = {-0.45, 0.2};
  } else {
    g.n = {37, 29, 23};
    g.length = {1.3, 0.7, 2.1};
    g.origin = {-0.45, 0.2, -1.0};
  }
  return g;
}

template <int Dim>
std::vector<std::string> coordinates() {
  if constexpr (Dim == 2) return {"x", "y"};
  else return {"x", "y", "z"};
}

/// Distance in units in the last place (0 for equal bits, and for two NaNs).
template <class T>
std::int64_t ulps(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::int64_t>::max();
  using Bits = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  Bits ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  const auto ordered = [](Bits i) { return i < 0 ? static_cast<std::int64_t>(std::numeric_limits<Bits>::min()) - i : static_cast<std::int64_t>(i); };
  return std::abs(ordered(ia) - ordered(ib));
}

/// The largest ulp distance between muParser on the host and the device, over every allocated value
/// of a field of a rank's box (ghosts included; values outside the box must stay 0 on both).
template <class T, int Dim>
std::int64_t max_ulps(const app::Expression& e) {
  const auto grid = test_grid<Dim>();
  mesh::Box<Dim> owned = grid.points();
  owned.lo[0] += 5;  // a rank's box, not the whole grid: its offsets must be taken into account
  owned.hi[1] -= 4;
  mesh::Field<T, Dim> host(owned, 2, MemorySpace::host), device(owned, 2, MemorySpace::device), back(owned, 2, MemorySpace::host);
  const auto box = host.ghosted().intersect(grid.points());
  const auto view = host.view();
  solver::evaluate_on_box(e, grid, box, [&](const auto& p, double v) {
    if constexpr (Dim == 2) view(p[0], p[1]) = static_cast<T>(v);
    else view(p[0], p[1], p[2]) = static_cast<T>(v);
  });
  EXPECT_TRUE(solver::has_device_form(e)) << e.text();
  mesh::Stream stream;
  solver::evaluate_on_device<T, Dim>(e, grid, box, device.view(), stream.get());
  back.copy_from(device);  // waits for every stream
  std::int64_t worst = 0;
  for (std::size_t k = 0; k < host.allocated_elements(); ++k) worst = std::max(worst, ulps(host.allocation()[k], back.allocation()[k]));
  return worst;
}

template <class T>
class EvaluateOnDeviceGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(EvaluateOnDeviceGpu, Precisions);

const std::map<std::string, double> constants{{"a", 0.37}};

TYPED_TEST(EvaluateOnDeviceGpu, ExactOperationsAgreeBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const std::vector<std::string> both = {
      "x + y*2 - 3/(y + 1.5)", "3*(x+1) - y/7 + 0.1", "(x - 0.3)*(y + 0.7)/1.3 - a", "-x*y - -x/3",
      "x < y ? x*y : (x >= 0.1) + (y == 0.2) + (x != y) + (x <= y) + (x > 0)", "(x > 0) && (y < 0.5) || (x < -0.2)",
      "abs(x - y) + min(x, y, 0.1) - max(x*y, 0.05) + sign(x) + rint(10*x)", "sum(x, y, 0.3) + avg(x, y, a)",
      "sqrt(x*x + y*y)", "_pi*x + pi*y - e*_e", "x/(y - y)", "2.5e-3", "a*7/3"};
  for (const auto& f : both) {
    EXPECT_EQ((max_ulps<T, 2>(app::Expression("k", f, coordinates<2>(), constants))), 0) << f << " (2D)";
    EXPECT_EQ((max_ulps<T, 3>(app::Expression("k", f, coordinates<3>(), constants))), 0) << f << " (3D)";
  }
  for (const std::string f : {"x*y*z - z/3 + 1", "z < 0 ? -z : x*z", "sqrt(x*x + y*y + z*z) / (1 + z*z)"})
    EXPECT_EQ((max_ulps<T, 3>(app::Expression("k", f, coordinates<3>(), constants))), 0) << f;
}

TYPED_TEST(EvaluateOnDeviceGpu, TranscendentalFunctionsWithinTheirUlpBound) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const bool single = sizeof(T) == 4;
  const std::vector<std::pair<std::string, int>> bounds = {
      {"sin(7*x)", 3},       {"cos(7*x)", 3},   {"tan(x)", 3},       {"asin(x/2)", 3},  {"acos(x/2)", 3},
      {"atan(5*x)", 3},      {"sinh(2*x)", 4},  {"cosh(2*x)", 3},    {"tanh(3*x)", 3},  {"exp(x)", 2},
      {"log(y + 1)", 2},     {"ln(y + 1)", 2},  {"log10(y + 1)", 3}, {"log2(y + 1)", 5}, {"asinh(x)", 2},
      {"acosh(y + 1.5)", 2}, {"atanh(x/2)", 2}, {"(y + 0.5)^x", 3},  {"x^2", 3},        {"2^-x^2", 6}};
  for (const auto& [f, bound] : bounds) {
    const std::int64_t allowed = single ? 1 : bound;
    const auto in2 = max_ulps<T, 2>(app::Expression("k", f, coordinates<2>()));
    const auto in3 = max_ulps<T, 3>(app::Expression("k", f, coordinates<3>()));
    EXPECT_LE(in2, allowed) << f << " (2D)";
    EXPECT_LE(in3, allowed) << f << " (3D)";
    std::printf("  %-16s %s: at most %lld ulp apart (bound %lld)\n", f.c_str(), single ? "float" : "double",
                static_cast<long long>(std::max(in2, in3)), static_cast<long long>(allowed));
  }
}

TYPED_TEST(EvaluateOnDeviceGpu, NonFiniteValuesAreRecordedAtTheFirstWatchedPoint) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const auto grid = test_grid<2>();
  char x0[64];
  std::snprintf(x0, sizeof x0, "%.17g", grid.coordinate(0, 50));  // the coordinate of column 50, exactly
  const app::Expression e("heat.initial", std::string("1/(x - ") + x0 + ") + y", {"x", "y"});
  const mesh::Box<2> owned = grid.points();
  mesh::Field<T, 2> field(owned, 1, MemorySpace::device), back(owned, 1, MemorySpace::host);
  const mesh::Box<2> watched{{40, 7}, {60, 80}};
  mesh::Stream stream;
  for (const bool store : {true, false}) {
    const kernels::core::NonFiniteFlag flag(grid, MemorySpace::device);
    solver::evaluate_on_device<T, 2>(e, grid, owned, store ? field.view() : mesh::FieldView<T, 2>{}, stream.get(),
                                     {flag.watch(3), watched});
    const auto at = flag.decode(flag.read(stream.get()));
    EXPECT_EQ(at.step, 3);
    EXPECT_EQ(at.i, 50);
    EXPECT_EQ(at.j, 7);
    back.copy_from(field);
    EXPECT_TRUE(std::isinf(back(50, 30)));
    EXPECT_EQ(back(49, 30), static_cast<T>(e.eval(grid.coordinate(0, 49), grid.coordinate(1, 30))));
  }
}

/// The host's max |u - f| (as app::ExactError takes it: NaN kept) and the device's, over a rank's
/// box of a field whose values are `values` rounded to T.
template <class T, int Dim>
std::pair<double, double> max_differences(const app::Expression& values, const app::Expression& f) {
  const auto grid = test_grid<Dim>();
  mesh::Box<Dim> owned = grid.points();
  owned.lo[0] += 5;
  owned.hi[1] -= 4;
  mesh::Field<T, Dim> host(owned, 2, MemorySpace::host), device(owned, 2, MemorySpace::device);
  const auto view = host.view();
  solver::evaluate_on_box(values, grid, owned, [&](const auto& p, double v) {
    if constexpr (Dim == 2) view(p[0], p[1]) = static_cast<T>(v);
    else view(p[0], p[1], p[2]) = static_cast<T>(v);
  });
  device.copy_from(host);
  double on_host = 0;
  solver::evaluate_on_box(f, grid, owned, [&](const auto& p, double v) {
    double u;
    if constexpr (Dim == 2) u = view(p[0], p[1]);
    else u = view(p[0], p[1], p[2]);
    const double diff = std::abs(u - v);
    if (std::isnan(diff) || diff > on_host) on_host = diff;
  });
  mesh::Stream stream;
  const mesh::Field<T, Dim>& readonly = device;
  return {on_host, solver::max_difference_on_device<T, Dim>(f, grid, owned, readonly.view(), stream.get())};
}

TYPED_TEST(EvaluateOnDeviceGpu, MaxDifferenceFromAFieldEqualsTheHostsBitwiseAndKeepsNaN) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const app::Expression values2("u", "x*y + 0.5*x", coordinates<2>()), values3("u", "x*y*z - z/3 + 1", coordinates<3>());
  // Exact operations: the same bits; a difference that is 0 everywhere gives +0.
  for (const std::string f : {"x*y + 0.5*x - 3/(y + 1.5)", "x*y + 0.5*x"}) {
    const auto [host, device] = max_differences<T, 2>(values2, app::Expression("k", f, coordinates<2>()));
    EXPECT_EQ(host, device) << f;
  }
  const auto [host3, device3] = max_differences<T, 3>(values3, app::Expression("k", "x*y*z - 2*x + 1/3", coordinates<3>()));
  EXPECT_EQ(host3, device3);
  EXPECT_GT(device3, 0.1);
  const auto [zero_host, zero_device] = max_differences<T, 3>(values3, values3);
  if (sizeof(T) == 8) {
    EXPECT_EQ(zero_device, 0.0);  // a double field holds the formula's values exactly
  }
  EXPECT_EQ(zero_host, zero_device);
  // 1/(x - x0) is infinite on column 50 (so the difference is), and 0/0 there where y = y0 as well: NaN wins.
  const auto grid = test_grid<2>();
  char x0[64], y0[64];
  std::snprintf(x0, sizeof x0, "%.17g", grid.coordinate(0, 50));
  std::snprintf(y0, sizeof y0, "%.17g", grid.coordinate(1, 30));
  const auto [inf_host, inf_device] = max_differences<T, 2>(values2, app::Expression("k", std::string("1/(x - ") + x0 + ")", coordinates<2>()));
  EXPECT_TRUE(std::isinf(inf_host) && std::isinf(inf_device));
  const auto [nan_host, nan_device] =
      max_differences<T, 2>(values2, app::Expression("k", std::string("(y - ") + y0 + ")/(x - " + x0 + ")", coordinates<2>()));
  EXPECT_TRUE(std::isnan(nan_host));
  EXPECT_TRUE(std::isnan(nan_device));
}

// Runtime kernels exist in builds with CUDA only (the cases skip without it, and these keep a build
// without CUDA from needing them).
void forget_kernels() {
  if constexpr (kernels::core::cuda_built) kernels::core::forget_runtime_kernels();
}
kernels::core::RuntimeKernelCounts kernel_counts() {
  if constexpr (kernels::core::cuda_built) return kernels::core::runtime_kernel_counts();
  else return {};
}

/// Runs with a kernel cache folder of their own, and none of this process's kernels loaded.
class FreshKernelCache {
 public:
  FreshKernelCache() : m_dir(std::filesystem::temp_directory_path() / ("gridflow_kernels_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(m_dir);
    const char* saved = std::getenv("GRIDFLOW_KERNEL_CACHE");
    if (saved) m_saved = saved;
    ::setenv("GRIDFLOW_KERNEL_CACHE", m_dir.c_str(), 1);
    forget_kernels();
  }
  ~FreshKernelCache() {
    forget_kernels();
    if (m_saved.empty()) ::unsetenv("GRIDFLOW_KERNEL_CACHE");
    else ::setenv("GRIDFLOW_KERNEL_CACHE", m_saved.c_str(), 1);
    std::filesystem::remove_all(m_dir);
  }
  const std::filesystem::path& dir() const { return m_dir; }

 private:
  std::filesystem::path m_dir;
  std::string m_saved;
};

TEST(RuntimeKernelGpu, ASecondEvaluationCompilesNothingAndACorruptEntryIsCompiledAgain) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const FreshKernelCache cache;
  const app::Expression e("poisson.rhs", "x*y*z - 0.125", {"x", "y", "z"});
  const auto counts = kernel_counts;
  const auto start = counts();
  EXPECT_EQ((max_ulps<double, 3>(e)), 0);
  EXPECT_EQ(counts().compiled, start.compiled + 1);
  EXPECT_EQ((max_ulps<double, 3>(e)), 0);  // loaded in this process already
  EXPECT_EQ(counts().compiled, start.compiled + 1);
  EXPECT_EQ(counts().reused, start.reused + 1);

  forget_kernels();  // as a new run would start: from the disk cache
  EXPECT_EQ((max_ulps<double, 3>(e)), 0);
  EXPECT_EQ(counts().compiled, start.compiled + 1);
  EXPECT_EQ(counts().loaded_from_disk, start.loaded_from_disk + 1);

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(cache.dir())) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 1u);
  std::string bytes;
  {
    std::ifstream in(files[0], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (std::size_t k = bytes.size() / 2; k < bytes.size(); k += 97) bytes[k] = static_cast<char>(~bytes[k]);
  std::ofstream(files[0], std::ios::binary | std::ios::trunc) << bytes;
  forget_kernels();
  EXPECT_EQ((max_ulps<double, 3>(e)), 0);
  EXPECT_EQ(counts().corrupt_entries, start.corrupt_entries + 1);
  EXPECT_EQ(counts().compiled, start.compiled + 2);
  forget_kernels();
  EXPECT_EQ((max_ulps<double, 3>(e)), 0);  // the entry was replaced by a good one
  EXPECT_EQ(counts().loaded_from_disk, start.loaded_from_disk + 2);
  EXPECT_EQ(counts().compiled, start.compiled + 2);
}

/// A formula whose device source does not compile: NVRTC's log reaches the message, with the key.
class BrokenDeviceSource final : public solver::CoordinateFunction {
 public:
  double eval(double, double, double, double) const override { return 0; }
  void eval_bulk(int, const std::vector<const double*>&, double*) const override {}
  bool uses(const std::string&) const override { return true; }
  bool constant() const override { return false; }
  const std::string& text() const override { return m_text; }
  const std::string& key() const override { return m_key; }
  std::string device_source() const override {
    return "__device__ double gridflow_formula(double v0, double, double, double) { return v0 * no_such_name; }\n";
  }

 private:
  std::string m_text = "x * no_such_name", m_key = "heat.initial";
};

TEST(RuntimeKernelGpu, ACompileErrorNamesTheKeyAndCarriesNvrtcsLog) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const auto grid = test_grid<2>();
  mesh::Field<double, 2> field(grid.points(), 1, MemorySpace::device);
  mesh::Stream stream;
  try {
    solver::evaluate_on_device<double, 2>(BrokenDeviceSource(), grid, grid.points(), field.view(), stream.get());
    FAIL() << "a source that does not compile must be reported";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("key 'heat.initial'"), std::string::npos) << m;
    EXPECT_NE(m.find("NVRTC"), std::string::npos) << m;
    EXPECT_NE(m.find("no_such_name"), std::string::npos) << m;  // the log names the identifier
  }
}

// The set-up paths: a device heat solver's start and a device Poisson problem's f equal the host's
// bitwise for formulas of exact operations, and a non-finite start value is flagged at the host's point.
TYPED_TEST(EvaluateOnDeviceGpu, HeatStartAndPoissonRightHandSideMatchTheHostPath) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = TypeParam;
  const std::string precision = std::string("precision=") + (sizeof(T) == 4 ? "float" : "double");
  for (const std::string initial : {"x*y + 0.5*x - y/3", "1/(x - 0.5)"}) {
    const auto config = gridflow::testing::heat_config(
        "[grid]\nn = [200, 150]\n[heat]\nsteps = 1\ninitial = '" + initial + "'\n[heat.boundary]\nleft = 'y'\n",
        {precision, "expressions.device=true", "halo.width=2"});
    const mesh::Decomposition<2> d(config.grid, MPI_COMM_SELF, {0, 0}, 1);
    mesh::Stream stream;
    const solver::HeatSolver<T> host(config, d, MemorySpace::host, nullptr, halo::Transport::mpi);
    const solver::HeatSolver<T> device(config, d, MemorySpace::device, stream.get(), halo::Transport::mpi);
    mesh::Field<T, 2> back(host.solution().owned(), host.solution().ghost_width(), MemorySpace::host);
    back.copy_from(device.solution());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < back.allocated_elements(); ++k) differ += ulps(back.allocation()[k], host.solution().allocation()[k]) != 0;
    EXPECT_EQ(differ, 0u) << initial;
    EXPECT_EQ(device.non_finite().read(stream.get()), host.non_finite().read(nullptr)) << initial;
  }
  const auto config = gridflow::testing::poisson_config(
      "[grid]\nn = [40, 30, 20]\n[poisson]\nrhs = 'x*y*z - 2*x + 1/3'\n[poisson.boundary]\nx_low = 'y'\n",
      {precision, "expressions.device=true", "halo.width=2"});
  const mesh::Decomposition<3> d(config.grid, MPI_COMM_SELF, {0, 0, 0}, 1);
  mesh::Stream stream;
  const solver::PoissonProblem<T> host(config, d, MemorySpace::host, nullptr, 2);
  const solver::PoissonProblem<T> device(config, d, MemorySpace::device, stream.get(), 2);
  mesh::Field<T, 3> back(host.f().owned(), 2, MemorySpace::host);
  back.copy_from(device.f());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < back.allocated_elements(); ++k) differ += ulps(back.allocation()[k], host.f().allocation()[k]) != 0;
  EXPECT_EQ(differ, 0u);
  EXPECT_NEAR(device.b_norm(), host.b_norm(), (sizeof(T) == 4 ? 1e-5 : 1e-12) * host.b_norm());  // summed in another order
}

}  // namespace
