#include "autotune/coordinate_descent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "mesh/check.hpp"

namespace gridflow::autotune {

namespace {

using Indices = SearchSpace::Indices;
using Direction = std::vector<long>;  // a step in index space

/// One search: the objective seen through index vectors, with the budget enforced.
class Descent {
 public:
  Descent(Objective& objective, const CoordinateDescentOptions& options)
      : m_f(objective), m_space(objective.space()), m_options(options), m_rng(options.seed) {}

  void run() {
    std::optional<Indices> start = m_space.indices(m_space.default_configuration());
    while (start && affordable()) {
      descend(*start);
      start = restart_point();
    }
  }

 private:
  bool affordable() const { return m_f.tried_count() < m_options.budget; }

  /// Cost at `x`: nullopt when illegal, rejected, or untried with the budget spent.
  std::optional<double> cost(const Indices& x) {
    const Configuration c = m_space.at(x);
    if (!m_f.tried(c) && (!affordable() || !m_space.legal(c))) return std::nullopt;
    return m_f.cost(c);
  }

  void descend(Indices x) {
    std::optional<double> fx = cost(x);
    if (!fx) return;
    // Where each parameter's last walk ended: no need to walk it again until x moves.
    std::vector<std::optional<Indices>> walked(x.size());
    while (affordable()) {
      const Indices sweep_start = x;
      for (std::size_t k = 0; k < x.size() && affordable(); ++k) {
        if (walked[k] == x) continue;
        if (!walk(x, *fx, unit(k, +1))) walk(x, *fx, unit(k, -1));
        walked[k] = x;
      }
      if (x != sweep_start) {
        walk(x, *fx, difference(x, sweep_start));
      } else if (!diagonal_step(x, *fx)) {
        return;
      }
    }
  }

  /// Walks from x along d (x + d, x + 2d, ...) while costs stay within the tolerance of the best
  /// one seen, and moves x to that best one. Illegal and rejected points are stepped over; the
  /// walk ends at the edge of the space. True when x moved.
  bool walk(Indices& x, double& fx, const Direction& d) {
    const Indices origin = x;
    for (Indices y = origin; advance(y, d);) {
      const std::optional<double> fy = cost(y);
      if (!fy) continue;
      if (*fy < fx) {
        x = y;
        fx = *fy;
      } else if (*fy > fx * (1 + m_options.tolerance)) {
        break;
      }
    }
    return x != origin;
  }

  /// At a point no single parameter improves, walks along two parameters at once: in a valley
  /// running across the axes, such as a fixed product bx*by, only such a step follows the valley
  /// floor. Pairs are tried in the order of the sum of what their two single moves cost (the
  /// walks measured them), the cheapest first, until one finds a cheaper point (true) or none is
  /// left: all of them are worth a try before a restart far away.
  bool diagonal_step(Indices& x, double& fx) {
    struct Move {
      std::size_t k;
      long sign;
      double rise;
    };
    std::vector<Move> moves;
    for (std::size_t k = 0; k < x.size(); ++k)
      for (const long sign : {+1L, -1L}) {
        Indices y = x;
        if (!advance(y, unit(k, sign))) continue;
        // A constraint hides what lies beyond it, and optima often sit on constraints (the
        // largest legal block): an illegal single move counts as costing nothing.
        const Configuration c = m_space.at(y);
        if (!m_space.legal(c))
          moves.push_back({k, sign, 0.0});
        else if (m_f.tried(c))
          if (const auto fy = m_f.cost(c)) moves.push_back({k, sign, *fy - fx});
      }
    std::vector<std::pair<Move, Move>> pairs;
    for (std::size_t i = 0; i < moves.size(); ++i)
      for (std::size_t j = i + 1; j < moves.size(); ++j)
        if (moves[i].k != moves[j].k) pairs.emplace_back(moves[i], moves[j]);
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
      return a.first.rise + a.second.rise < b.first.rise + b.second.rise;
    });
    for (const auto& [a, b] : pairs) {
      if (!affordable()) break;
      Direction d(x.size(), 0);
      d[a.k] = a.sign;
      d[b.k] = b.sign;
      if (walk(x, fx, d)) return true;
    }
    return false;
  }

  Direction unit(std::size_t k, long sign) const {
    Direction d(m_space.parameters().size(), 0);
    d[k] = sign;
    return d;
  }

  static Direction difference(const Indices& to, const Indices& from) {
    Direction d(to.size());
    for (std::size_t k = 0; k < to.size(); ++k) d[k] = static_cast<long>(to[k]) - static_cast<long>(from[k]);
    return d;
  }

  /// y += d; false (y unchanged) when that leaves some parameter's range.
  bool advance(Indices& y, const Direction& d) const {
    Indices next = y;
    for (std::size_t k = 0; k < y.size(); ++k) {
      const long i = static_cast<long>(y[k]) + d[k];
      if (i < 0 || i >= static_cast<long>(m_space.parameters()[k].values.size())) return false;
      next[k] = static_cast<std::size_t>(i);
    }
    y = std::move(next);
    return true;
  }

  /// The legal untried configuration farthest from every tried one (distance in index steps,
  /// each axis scaled to [0, 1]), among all of them in a small space, else among random draws;
  /// nullopt when there is none.
  std::optional<Indices> restart_point() {
    std::vector<Indices> tried;
    for (const auto& m : m_f.measurements()) tried.push_back(m_space.indices(m.config));
    for (const auto& r : m_f.rejections()) tried.push_back(m_space.indices(r.config));

    std::optional<Indices> best;
    double best_distance = -1;
    const auto consider = [&](const Indices& y) {
      const Configuration c = m_space.at(y);
      if (m_f.tried(c) || !m_space.legal(c)) return;
      double nearest = std::numeric_limits<double>::infinity();
      for (const Indices& t : tried) nearest = std::min(nearest, distance(y, t));
      if (nearest > best_distance) best = y, best_distance = nearest;
    };
    constexpr std::size_t small_space = 4096;
    if (m_space.unconstrained_size() <= small_space) {
      for (const Configuration& c : m_space.enumerate()) consider(m_space.indices(c));
    } else {
      constexpr int draws = 256;
      for (int n = 0; n < draws; ++n) {
        Indices y(m_space.parameters().size());
        for (std::size_t k = 0; k < y.size(); ++k)
          y[k] = std::uniform_int_distribution<std::size_t>(0, m_space.parameters()[k].values.size() - 1)(m_rng);
        consider(y);
      }
    }
    return best;
  }

  double distance(const Indices& a, const Indices& b) const {
    double sum = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double span = std::max<double>(1, static_cast<double>(m_space.parameters()[k].values.size() - 1));
      const double d = (static_cast<double>(a[k]) - static_cast<double>(b[k])) / span;
      sum += d * d;
    }
    return std::sqrt(sum);
  }

  Objective& m_f;
  const SearchSpace& m_space;
  const CoordinateDescentOptions& m_options;
  std::mt19937_64 m_rng;
};

}  // namespace

CoordinateDescent::CoordinateDescent(CoordinateDescentOptions options) : m_options(options) {
  if (m_options.budget < 1) throw Error("coordinate descent: the budget must be at least 1 configuration");
  if (!(m_options.tolerance >= 0)) throw Error("coordinate descent: tolerance " + std::to_string(m_options.tolerance) + " < 0");
}

void CoordinateDescent::search(Objective& objective) { Descent(objective, m_options).run(); }

}  // namespace gridflow::autotune
