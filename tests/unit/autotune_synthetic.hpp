#pragma once
// Synthetic kernels for the autotune tests: a cost landscape that is a plain function of the
// parameters, served through the Evaluator and Timer interfaces, optionally with seeded
// multiplicative noise per timed run. The test fails if the tuner ever hands it an illegal
// configuration.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "autotune/evaluator.hpp"
#include "autotune/search_space.hpp"
#include "autotune/timer.hpp"
#include "mesh/check.hpp"

namespace gridflow::autotune::testing {

using Landscape = std::function<double(const Configuration&)>;

class SyntheticKernel : public Evaluator, public Timer {
 public:
  SyntheticKernel(const SearchSpace& space, Landscape cost, double noise = 0, std::uint64_t seed = 1)
      : m_space(space), m_cost(std::move(cost)), m_noise(noise), m_rng(seed) {}

  CheckResult check(const Configuration& c) override {
    expect_legal(c, "check");
    ++checks[c];
    if (throwing.count(c)) throw Error("too many resources requested for launch");
    if (wrong.count(c)) return CheckResult::fail("max |u - oracle| = 0.5");
    return CheckResult::pass();
  }
  void run(const Configuration& c) override {
    expect_legal(c, "run");
    ++runs[c];
    run_log.push_back(c);
    const double factor = m_noise > 0 ? 1 + m_noise * std::normal_distribution<double>()(m_rng) : 1.0;
    m_last_s = m_cost(c) * factor;
  }
  void start() override {}
  double stop() override { return m_last_s; }

  double true_cost(const Configuration& c) const { return m_cost(c); }
  /// The smallest true cost over the legal configurations that pass their check.
  double optimum() const {
    double best = INFINITY;
    for (const auto& c : m_space.enumerate())
      if (!throwing.count(c) && !wrong.count(c)) best = std::min(best, m_cost(c));
    return best;
  }

  std::set<Configuration> throwing;  ///< check throws gridflow::Error, as a failed launch does
  std::set<Configuration> wrong;     ///< check fails, as a wrong result does
  std::map<Configuration, int> checks, runs;
  std::vector<Configuration> run_log;  ///< every run(), in order

 private:
  void expect_legal(const Configuration& c, const char* call) const {
    if (const auto why = m_space.violation(c)) ADD_FAILURE() << call << "() with illegal " << c.to_string() << ": " << *why;
  }

  const SearchSpace& m_space;
  Landscape m_cost;
  double m_noise;
  std::mt19937_64 m_rng;
  double m_last_s = 0;
};

/// Shaped like the CUDA Jacobi kernel's tunables: block x and y (x*y <= 1024 threads), z-cells
/// per thread, shared tile on or off, where the tile (with a one-cell halo, in doubles) must fit
/// in 48 KiB. 200 legal configurations of 360. Default bx=64, by=4, cz=4, smem=0.
inline SearchSpace jacobi_like_space() {
  SearchSpace space;
  space.add(Parameter::integers("bx", {32, 64, 128, 256, 512, 1024}, 64))
      .add(Parameter::integers("by", {1, 2, 4, 8, 16, 32}, 4))
      .add(Parameter::integers("cz", {1, 2, 4, 8, 16}, 4))
      .add(Parameter::boolean("smem", false))
      .require("bx*by <= 1024", [](const Configuration& c) { return c.at("bx") * c.at("by") <= 1024; })
      .require("shared tile <= 48 KiB", [](const Configuration& c) {
        return !c.at("smem") || (c.at("bx") + 2) * (c.at("by") + 2) * 3 * 8 <= 48 * 1024;
      });
  return space;
}

/// log2 of the parameters relative to their smallest value: the axes the landscapes are built on.
struct Axes {
  double u, v, w, s;
  explicit Axes(const Configuration& c)
      : u(std::log2(c.at("bx") / 32.0)), v(std::log2(c.at("by"))), w(std::log2(c.at("cz"))), s(c.at("smem")) {}
};

/// Separable quadratic bowl, optimum bx=256, by=2, cz=8, smem=0 (cost 1).
inline double bowl(const Configuration& c) {
  const Axes a(c);
  return 1 + 0.05 * (a.u - 3) * (a.u - 3) + 0.04 * (a.v - 1) * (a.v - 1) + 0.03 * (a.w - 3) * (a.w - 3) + 0.1 * a.s;
}

/// A narrow valley along bx*by = 512 threads (u + v = 4) that descends slowly towards wide
/// blocks: optimum bx=512, by=1, cz=8, smem=1. From the default no single parameter can move
/// along the valley floor.
inline double valley(const Configuration& c) {
  const Axes a(c);
  const double across = a.u + a.v - 4, along = a.u - a.v - 4;
  return 1 + 0.2 * across * across + 0.02 * along * along + 0.03 * (a.w - 3) * (a.w - 3) + 0.04 * (1 - a.s);
}

/// Terraces: a bowl (optimum bx=512, by=1, cz=16, smem=0) cut off at 1.6 and rounded up to steps
/// of 2%, so the default sits on a wide plateau where no neighbour is faster: only a walk across
/// two equal values reaches the slope.
inline double plateaus(const Configuration& c) {
  const Axes a(c);
  const double b = 1 + 0.06 * (a.u - 4) * (a.u - 4) + 0.06 * a.v * a.v + 0.05 * (a.w - 4) * (a.w - 4) + 0.2 * a.s;
  return std::ceil(std::min(1.6, b) * 50) / 50;
}

}  // namespace gridflow::autotune::testing
