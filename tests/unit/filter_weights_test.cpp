// The built-in filters' weights against scipy's definitions, and the refusal of bad arguments.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/filter/boundary_mode.hpp"
#include "kernels/filter/filter_weights.hpp"
#include "mesh/check.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;

TEST(FilterWeights, MeanIsSizeEqualWeightsWithScipysOriginForEvenSizes) {
  for (int size : {1, 2, 4, 5, 65}) {
    const auto w = mean_weights(size);
    ASSERT_EQ(static_cast<int>(w.size()), size);
    for (double v : w) EXPECT_EQ(v, 1.0 / size);
  }
  const auto f = mean_filter<2>({4, 5});
  EXPECT_EQ(f.lo_reach(0), 2);  // uniform_filter1d(size=4) reads i-2 .. i+1
  EXPECT_EQ(f.hi_reach(0), 1);
  EXPECT_EQ(f.lo_reach(1), 2);
  EXPECT_EQ(f.hi_reach(1), 2);
}

TEST(FilterWeights, GaussianMatchesScipysKernelAndRadius) {
  struct Case {
    double sigma, truncate;
    int radius;  // int(truncate * sigma + 0.5)
  };
  for (const Case c : {Case{1.0, 4.0, 4}, Case{4.0, 4.0, 16}, Case{0.3, 4.0, 1}, Case{0.1, 4.0, 0}, Case{2.5, 3.0, 8}, Case{8.0, 4.0, 32}}) {
    const auto w = gaussian_weights(c.sigma, c.truncate);
    ASSERT_EQ(static_cast<int>(w.size()), 2 * c.radius + 1) << "sigma " << c.sigma;
    double sum = 0;
    for (int x = -c.radius; x <= c.radius; ++x) sum += std::exp(-0.5 * x * x / (c.sigma * c.sigma));
    for (int x = -c.radius; x <= c.radius; ++x)
      EXPECT_NEAR(w[static_cast<std::size_t>(x + c.radius)], std::exp(-0.5 * x * x / (c.sigma * c.sigma)) / sum, 1e-16)
          << "sigma " << c.sigma << " x " << x;
  }
  // scipy.ndimage.gaussian_filter1d's weights for sigma 1, printed by scipy 1.10 (the filter of an impulse)
  const double scipy_sigma1[] = {0.00013383062461474175, 0.0044318616200312664, 0.053991127420704395, 0.24197144565660073,
                                 0.39894346935609776};
  // sigma^2 underflows to 0: the limit of the normalised weights, an impulse (the fuzzer's
  // `--sigma 1e-300` once gave NaN weights and an abort).
  EXPECT_EQ(gaussian_weights(1e-300, 3.0), std::vector<double>{1.0});
  EXPECT_EQ(gaussian_weights(1e-300, 1e300), (std::vector<double>{0.0, 1.0, 0.0}));  // radius int(1.5)
  const auto w = gaussian_weights(1.0);
  for (int x = 0; x <= 4; ++x) {
    EXPECT_NEAR(w[static_cast<std::size_t>(x)], scipy_sigma1[x], 1e-15);
    EXPECT_EQ(w[static_cast<std::size_t>(x)], w[static_cast<std::size_t>(8 - x)]);
  }
}

TEST(FilterWeights, BadArgumentsAreRefusedWithAReason) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { gaussian_weights(0.0); }).find("sigma must be > 0"), std::string::npos);
  EXPECT_NE(message([] { gaussian_weights(-1.0); }).find("sigma must be > 0"), std::string::npos);
  EXPECT_NE(message([] { gaussian_weights(1.0, 0.0); }).find("truncate"), std::string::npos);
  EXPECT_NE(message([] { gaussian_weights(9.0); }).find("more than 32"), std::string::npos);
  // A radius past any integer (sigma 1e300) is still named as a number, not a wrapped integer.
  EXPECT_NE(message([] { gaussian_weights(1e300); }).find("needs radius 4e+300"), std::string::npos);
  EXPECT_NE(message([] { gaussian_weights(9.0); }).find("needs radius 36,"), std::string::npos);
  EXPECT_NE(message([] { gaussian_filter<3>({1.0, 0.0, 1.0}); }).find("sigma must be > 0"), std::string::npos);
  EXPECT_NE(message([] { mean_weights(0); }).find("size must be >= 1"), std::string::npos);
  EXPECT_NE(message([] { mean_filter<2>({3, -2}); }).find("size must be >= 1"), std::string::npos);
  EXPECT_NE(message([] { mean_weights(66); }).find("mean size 66 is more than 65 (radius 32)"), std::string::npos);
  EXPECT_NE(message([] { mean_weights(2147483647); }).find("radius 32"), std::string::npos);  // refused, not allocated
  EXPECT_EQ(message([] { mean_weights(65); }), "no error");
  EXPECT_NE(message([] { separable_weights<2>({std::vector<double>(66, 1.0), identity_weights()}); }).find("radius 32"), std::string::npos);
  EXPECT_NE(message([] { separable_weights<2>({std::vector<double>{}, identity_weights()}); }).find("empty"), std::string::npos);
  EXPECT_NE(message([] { separable_weights<2>({std::vector<double>{1.0, NAN}, identity_weights()}); }).find("not finite"), std::string::npos);
  EXPECT_NE(message([] { full_weights<2>({3, 2}, std::vector<double>(5, 1.0)); }).find("5 values for a shape of 6"), std::string::npos);
  EXPECT_NE(message([] { full_weights<3>({3, 0, 1}, {}); }).find("extents >= 1"), std::string::npos);
  EXPECT_NE(message([] { parse_boundary_mode("periodic"); }).find("unknown boundary mode 'periodic'"), std::string::npos);
  EXPECT_EQ(message([] { gaussian_weights(8.0); }), "no error");  // radius 32 exactly
}

TEST(FilterWeights, ModeNamesRoundTrip) {
  for (auto m : {BoundaryMode::constant, BoundaryMode::nearest, BoundaryMode::reflect, BoundaryMode::mirror, BoundaryMode::wrap})
    EXPECT_EQ(parse_boundary_mode(to_string(m)), m);
  EXPECT_EQ(Boundary{}.mode, BoundaryMode::reflect);  // scipy's default
}
