// The CUDA whitening variant against the CPU reference on the same stream of star-field frames,
// and against itself: two device runs of one stream agree bitwise (no floating-point atomics).
// Not bitwise against the host: the device adds its sums in another order (block slots) and
// solves by Gauss-Jordan where the host uses Cholesky; the aligned samples themselves are the
// same T operations on both sides (no FMA contraction). So shifts agree to 1e-4 px and outputs to
// a bound from the weights' rounding times the frames' magnitude (about 500 here): 2e-3 in float,
// 1e-6 in double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "kernels/filter/whiten.hpp"
#include "mesh/device.hpp"
#include "whiten_test_support.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
using gridflow::testing::make_star_field;
using gridflow::testing::StarFieldSpec;

namespace {

template <class T>
void expect_device_matches_host(const StarFieldSpec& spec, const WhitenParams& params, const WhitenTunables& tunables, bool in_place) {
  const auto field = make_star_field(spec);
  const std::size_t n = static_cast<std::size_t>(spec.ny) * spec.nx;
  Whitener<T> host(spec.ny, spec.nx, params, mesh::MemorySpace::host);
  Whitener<T> device(spec.ny, spec.nx, params, mesh::MemorySpace::device, tunables);
  mesh::Stream stream;
  mesh::Buffer d_in(n * sizeof(T), mesh::MemorySpace::device), d_out(n * sizeof(T), mesh::MemorySpace::device);
  const double tol = sizeof(T) == 4 ? 2e-3 : 1e-6;
  double worst = 0.0;
  for (int t = 0; t < spec.frames; ++t) {
    const std::vector<T> in(field.frames[t].begin(), field.frames[t].end());
    std::vector<T> want(n), got(n);
    host.push(in.data(), want.data(), nullptr);
    mesh::copy_bytes(d_in.data(), mesh::MemorySpace::device, in.data(), mesh::MemorySpace::host, n * sizeof(T));
    T* out = in_place ? static_cast<T*>(d_in.data()) : static_cast<T*>(d_out.data());
    device.push(static_cast<const T*>(d_in.data()), out, stream.get());
    mesh::copy_bytes(got.data(), mesh::MemorySpace::host, out, mesh::MemorySpace::device, n * sizeof(T));
    double diff = 0.0;
    for (std::size_t i = 0; i < n; ++i) diff = std::max(diff, std::fabs(static_cast<double>(got[i]) - want[i]));
    worst = std::max(worst, diff);
    EXPECT_LE(diff, tol) << "frame " << t;
    const auto hw = host.last_weights(), dw = device.last_weights();
    ASSERT_EQ(hw.size(), dw.size());
    for (std::size_t k = 0; k < hw.size(); ++k) EXPECT_NEAR(dw[k], hw[k], 1e-6 * (1.0 + std::fabs(hw[k]))) << "frame " << t << " k " << k;
  }
  const auto hs = host.shifts(), ds = device.shifts();
  const auto hr = host.refinements(), dr = device.refinements();
  ASSERT_EQ(ds.size(), hs.size());
  double worst_shift = 0.0;
  for (std::size_t t = 0; t < hs.size(); ++t) {
    EXPECT_NEAR(ds[t].y, hs[t].y, 1e-4) << "frame " << t;
    EXPECT_NEAR(ds[t].x, hs[t].x, 1e-4) << "frame " << t;
    EXPECT_EQ(dr[t], hr[t]) << "frame " << t;
    worst_shift = std::max({worst_shift, std::fabs(ds[t].y - hs[t].y), std::fabs(ds[t].x - hs[t].x)});
  }
  EXPECT_EQ(device.anchor_moves(), host.anchor_moves());
  std::cout << "  " << (sizeof(T) == 4 ? "float" : "double") << ' ' << spec.ny << 'x' << spec.nx << " N=" << params.memory << ' '
            << to_string(params.weights) << ' ' << tunables << ": largest output difference " << worst << ", shift difference "
            << worst_shift << " px, anchor moves " << host.anchor_moves() << "\n";
}

StarFieldSpec small_field(int ny, int nx, int frames) {
  StarFieldSpec s;
  s.ny = ny;
  s.nx = nx;
  s.frames = frames;
  s.stars = std::max(4, ny * nx / 270);
  return s;
}

// A scene drifting 0.3 px a frame in y and -0.45 in x: the anchor moves every 10-15 frames.
StarFieldSpec drifting_field(int ny, int nx, int frames) {
  StarFieldSpec s = small_field(ny, nx, frames);
  s.drift_y = 0.3;
  s.drift_x = -0.45;
  return s;
}

}  // namespace

TEST(WhitenGpu, LeastSquaresMatchesTheHostReference) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  WhitenParams p;
  p.memory = 8;
  expect_device_matches_host<float>(small_field(128, 128, 30), p, {}, false);
  expect_device_matches_host<double>(small_field(128, 128, 30), p, {}, false);
  expect_device_matches_host<float>(small_field(128, 128, 30), p, {256, 4, 16}, false);
  expect_device_matches_host<double>(drifting_field(128, 128, 40), p, {}, false);  // the anchor moves
  p.memory = 20;
  expect_device_matches_host<float>(small_field(97, 131, 26), p, {128, 1, 4}, true);  // odd sizes, in place, other tunables
}

TEST(WhitenGpu, PolynomialWeightsMatchTheHostReference) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  WhitenParams p;
  p.memory = 8;
  p.weights = WhitenWeights::polynomial;
  expect_device_matches_host<double>(small_field(128, 128, 20), p, {}, false);
  p.degree = 3;
  expect_device_matches_host<float>(drifting_field(128, 128, 30), p, {64, 3, 4}, false);  // the anchor moves
}

TEST(WhitenGpu, LargestMemoryMatchesTheHostReference) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  WhitenParams p;
  p.memory = max_whiten_memory;
  expect_device_matches_host<float>(small_field(48, 56, 68), p, {}, false);
  expect_device_matches_host<double>(drifting_field(48, 56, 68), p, {256, 2, 16}, false);
}

TEST(WhitenGpu, TinyFramesMatchTheHostReference) {
  // No pixel is counted once the margins are taken: the shift passes sum nothing (the shift
  // stays at its guess) and the join and prediction still run on every pixel.
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  WhitenParams p;
  p.memory = 4;
  for (const auto& [ny, nx] : {std::pair{3, 3}, std::pair{5, 4}}) {
    StarFieldSpec s = small_field(ny, nx, 12);
    s.stars = 0;  // the object alone: stars kept 8 px from its path cannot fit
    expect_device_matches_host<double>(s, p, {}, false);
    expect_device_matches_host<float>(s, p, {64, 1, 4}, true);
  }
}

TEST(WhitenGpu, FieldsOnTheDeviceGiveTheContiguousResult) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const auto field = make_star_field(small_field(64, 80, 6));
  const int ny = 64, nx = 80;
  WhitenParams p;
  p.memory = 3;
  Whitener<float> plain(ny, nx, p, mesh::MemorySpace::device), fields(ny, nx, p, mesh::MemorySpace::device);
  mesh::Stream stream;
  const mesh::Box<2> owned{{{2, 7}}, {{2 + nx - 1, 7 + ny - 1}}};
  mesh::Field<float, 2> hin(owned, 1, mesh::MemorySpace::host), din(owned, 1, mesh::MemorySpace::device),
      dout(owned, 2, mesh::MemorySpace::device), hout(owned, 2, mesh::MemorySpace::host);
  mesh::Buffer d_in(ny * nx * sizeof(float), mesh::MemorySpace::device), d_out(ny * nx * sizeof(float), mesh::MemorySpace::device);
  for (int t = 0; t < 6; ++t) {
    const std::vector<float> in(field.frames[t].begin(), field.frames[t].end());
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) hin(2 + x, 7 + y) = in[y * nx + x];
    din.copy_from(hin);
    mesh::copy_bytes(d_in.data(), mesh::MemorySpace::device, in.data(), mesh::MemorySpace::host, in.size() * sizeof(float));
    plain.push(static_cast<const float*>(d_in.data()), static_cast<float*>(d_out.data()), stream.get());
    fields.push(din, dout, stream.get());
    std::vector<float> want(in.size());
    mesh::copy_bytes(want.data(), mesh::MemorySpace::host, d_out.data(), mesh::MemorySpace::device, want.size() * sizeof(float));
    hout.copy_from(dout);
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)  // the same sums in the same order: bitwise
        ASSERT_EQ(hout(2 + x, 7 + y), want[y * nx + x]) << "frame " << t << " at " << y << ", " << x;
  }
}

namespace {

// Two Whiteners, the same stream, the same tunables: bitwise equal outputs, shifts, pass counts
// and weights, for several tunables, both weightings and a moving anchor (a sum finished by atomics differs in
// its last bits from run to run, and the output follows it).
template <class T>
void expect_two_runs_bitwise_equal(const StarFieldSpec& spec, const WhitenParams& params, const WhitenTunables& tunables) {
  const auto field = make_star_field(spec);
  const std::size_t n = static_cast<std::size_t>(spec.ny) * spec.nx;
  Whitener<T> first(spec.ny, spec.nx, params, mesh::MemorySpace::device, tunables);
  Whitener<T> second(spec.ny, spec.nx, params, mesh::MemorySpace::device, tunables);
  mesh::Stream stream;
  mesh::Buffer d_in(n * sizeof(T), mesh::MemorySpace::device), d_a(n * sizeof(T), mesh::MemorySpace::device),
      d_b(n * sizeof(T), mesh::MemorySpace::device);
  std::size_t differing = 0;
  for (int t = 0; t < spec.frames; ++t) {
    const std::vector<T> in(field.frames[t].begin(), field.frames[t].end());
    mesh::copy_bytes(d_in.data(), mesh::MemorySpace::device, in.data(), mesh::MemorySpace::host, n * sizeof(T));
    first.push(static_cast<const T*>(d_in.data()), static_cast<T*>(d_a.data()), stream.get());
    second.push(static_cast<const T*>(d_in.data()), static_cast<T*>(d_b.data()), stream.get());
    std::vector<T> a(n), b(n);
    mesh::copy_bytes(a.data(), mesh::MemorySpace::host, d_a.data(), mesh::MemorySpace::device, n * sizeof(T));
    mesh::copy_bytes(b.data(), mesh::MemorySpace::host, d_b.data(), mesh::MemorySpace::device, n * sizeof(T));
    for (std::size_t i = 0; i < n; ++i) differing += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
    const auto wa = first.last_weights(), wb = second.last_weights();
    ASSERT_EQ(wa.size(), wb.size());
    for (std::size_t k = 0; k < wa.size(); ++k) EXPECT_EQ(std::memcmp(&wa[k], &wb[k], sizeof(double)), 0) << "frame " << t << " k " << k;
  }
  EXPECT_EQ(differing, 0u) << tunables << ": output values that differ between the two runs";
  const auto sa = first.shifts(), sb = second.shifts();
  ASSERT_EQ(sa.size(), sb.size());
  for (std::size_t t = 0; t < sa.size(); ++t) {
    EXPECT_EQ(std::memcmp(&sa[t].y, &sb[t].y, sizeof(double)), 0) << "frame " << t << ": " << sa[t].y << " vs " << sb[t].y;
    EXPECT_EQ(std::memcmp(&sa[t].x, &sb[t].x, sizeof(double)), 0) << "frame " << t << ": " << sa[t].x << " vs " << sb[t].x;
  }
  EXPECT_EQ(first.refinements(), second.refinements());
  EXPECT_EQ(first.anchor_moves(), second.anchor_moves());
}

}  // namespace

TEST(WhitenGpu, TwoRunsOfOneStreamAreBitwiseEqual) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  WhitenParams p;
  p.memory = 20;
  WhitenTunables rows4, rows16;
  rows4.rows = 4;
  rows16.rows = 16;
  expect_two_runs_bitwise_equal<float>(small_field(256, 256, 30), p, rows4);
  expect_two_runs_bitwise_equal<float>(small_field(256, 256, 30), p, rows16);
  expect_two_runs_bitwise_equal<double>(small_field(97, 131, 24), p, {128, 1, 8});
  expect_two_runs_bitwise_equal<float>(drifting_field(128, 128, 30), p, {});  // the anchor moves
  p.memory = 6;
  p.weights = WhitenWeights::polynomial;
  expect_two_runs_bitwise_equal<float>(small_field(128, 128, 12), p, rows4);
}
