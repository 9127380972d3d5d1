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
    const Indices origin = m_space.indices(m_space.default_configuration());
    std::optional<Indices> start = origin;
    if (const auto variants = variant_parameters(); !variants.empty()) {
      // One descent per variant, the variant held: its share of what is left of the budget, one
      // share kept for the free descent after them. Variants nearest the default's come first,
      // and each starts from the best shape of the one before: neighbouring variants (2 and 4
      // fused steps) want similar shapes, more alike than the default's variant and theirs.
      m_held = variants;
      const auto combinations = variant_combinations(origin, variants);
      std::size_t phase_start = 0;  // into the measurements
      for (std::size_t i = 0; i < combinations.size() && m_f.tried_count() < m_options.budget; ++i) {
        const std::size_t left = m_options.budget - m_f.tried_count();
        m_phase_limit = m_f.tried_count() + left / (combinations.size() - i + 1);
        Indices x = i == 0 ? origin : best_tried(phase_start);
        for (std::size_t k : variants) x[k] = combinations[i][k];
        phase_start = m_f.measurements().size();
        if (const auto legal = nearest_legal(x)) descend(*legal, /*poll=*/true);
      }
      m_held.clear();
      m_phase_limit = m_options.budget;
      start = best_tried(0);
    }
    // The free descent from the default polls; restarts, far from anything known, do not.
    for (bool poll = m_held.empty() && start == origin; start && affordable(); poll = false) {
      descend(*start, poll);
      start = restart_point();
    }
  }

 private:
  bool affordable() const { return m_f.tried_count() < std::min(m_options.budget, m_phase_limit); }
  bool held(std::size_t k) const { return std::find(m_held.begin(), m_held.end(), k) != m_held.end(); }

  std::vector<std::size_t> variant_parameters() const {
    std::vector<std::size_t> v;
    for (std::size_t k = 0; k < m_space.parameters().size(); ++k)
      if (m_space.parameters()[k].selects_variant) v.push_back(k);
    return v;
  }

  /// Every combination of the variant parameters' values (the other entries as in `origin`),
  /// origin's own first, then by their distance from it.
  std::vector<Indices> variant_combinations(const Indices& origin, const std::vector<std::size_t>& variants) const {
    std::vector<Indices> all{origin};
    for (std::size_t k : variants) {
      std::vector<Indices> grown;
      for (const Indices& c : all)
        for (std::size_t v = 0; v < m_space.parameters()[k].values.size(); ++v) {
          Indices d = c;
          d[k] = v;
          grown.push_back(d);
        }
      all = std::move(grown);
    }
    std::stable_sort(all.begin(), all.end(),
                     [&](const Indices& a, const Indices& b) { return distance(a, origin) < distance(b, origin); });
    return all;
  }

  /// The cheapest configuration measured since the `from`th measurement (the default is measured
  /// before the search); the default when there is none.
  Indices best_tried(std::size_t from) const {
    const auto& all = m_f.measurements();
    const Measurement* best = nullptr;
    for (std::size_t k = from; k < all.size(); ++k)
      if (!best || all[k].median_s() < best->median_s()) best = &all[k];
    return best ? m_space.indices(best->config) : m_space.indices(m_space.default_configuration());
  }

  /// `x` when legal, else the legal configuration with x's held (variant) values nearest to it;
  /// nullopt when there is none. A space too large to enumerate is searched among the points
  /// that change one, then two, of the other parameters (a fused variant is legal once the ghost
  /// layer is as wide as its steps: one change).
  std::optional<Indices> nearest_legal(const Indices& x) const {
    if (m_space.legal(m_space.at(x))) return x;
    std::optional<Indices> best;
    double best_distance = std::numeric_limits<double>::infinity();
    auto consider = [&](const Indices& y) {
      if (distance(y, x) < best_distance && m_space.legal(m_space.at(y))) best = y, best_distance = distance(y, x);
    };
    constexpr std::size_t small_space = 4096;
    if (m_space.unconstrained_size() <= small_space) {
      for (const Configuration& c : m_space.enumerate()) {
        const Indices y = m_space.indices(c);
        bool same_variant = true;
        for (std::size_t k : m_held) same_variant = same_variant && y[k] == x[k];
        if (same_variant) consider(y);
      }
      return best;
    }
    const auto& parameters = m_space.parameters();
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (held(k)) continue;
      for (std::size_t v = 0; v < parameters[k].values.size(); ++v) {
        Indices y = x;
        y[k] = v;
        consider(y);
      }
    }
    if (best) return best;
    for (std::size_t k = 0; k < x.size(); ++k)
      for (std::size_t l = k + 1; l < x.size(); ++l) {
        if (held(k) || held(l)) continue;
        for (std::size_t v = 0; v < parameters[k].values.size(); ++v)
          for (std::size_t w = 0; w < parameters[l].values.size(); ++w) {
            Indices y = x;
            y[k] = v;
            y[l] = w;
            consider(y);
          }
      }
    return best;
  }

  /// Cost at `x`: nullopt when illegal, rejected, or untried with the budget spent.
  std::optional<double> cost(const Indices& x) {
    const Configuration c = m_space.at(x);
    if (!m_f.tried(c) && (!affordable() || !m_space.legal(c))) return std::nullopt;
    return m_f.cost(c);
  }

  /// Walks from x until no walk or diagonal step finds a cheaper point; `poll`: order the first
  /// sweep's walks by a poll of x's neighbours (steepest_first).
  void descend(Indices x, bool poll) {
    std::optional<double> fx = cost(x);
    if (!fx) return;
    // Where each parameter's last walk ended: no need to walk it again until x moves.
    std::vector<std::optional<Indices>> walked(x.size());
    for (bool first = true; affordable(); first = false) {
      const Indices sweep_start = x;
      for (const std::size_t k : steepest_first(x, *fx, first && poll)) {
        if (!affordable()) break;
        if (walked[k] == x || held(k)) continue;
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

  /// The parameters in the order their walks go from x (cost fx): those whose one step gains more
  /// than the walks' tolerance first, the largest gain first, then the others in their order, so
  /// that the walk that matters is not preceded by a walk that moves x, on a gain within timing
  /// noise, towards another basin. Without a clear gain (a plateau, noise) the order stays fixed.
  /// `poll`: measure the steps, in order, as walks start (up, then down when up is no cheaper),
  /// until one gains clearly (the walk then starts from it); else only steps measured already count.
  std::vector<std::size_t> steepest_first(const Indices& x, double fx, bool poll) {
    std::vector<std::pair<double, std::size_t>> clear;
    std::vector<std::size_t> rest;
    for (std::size_t k = 0; k < x.size(); ++k) {
      double best = std::numeric_limits<double>::infinity();
      const bool measure = poll && clear.empty();
      for (const long sign : {+1L, -1L}) {
        if (held(k) || best < fx) break;
        Indices y = x;
        if (!advance(y, unit(k, sign))) continue;
        if (!measure && !m_f.tried(m_space.at(y))) continue;
        if (const auto fy = cost(y)) best = std::min(best, *fy);
      }
      if (best * (1 + m_options.tolerance) < fx) clear.emplace_back(best, k);
      else rest.push_back(k);
    }
    std::stable_sort(clear.begin(), clear.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::size_t> order;
    for (const auto& [cost_of_step, k] : clear) order.push_back(k);
    order.insert(order.end(), rest.begin(), rest.end());
    return order;
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
        if (held(k)) continue;
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
  std::vector<std::size_t> m_held;  // parameters a variant's descent does not move
  std::size_t m_phase_limit = std::numeric_limits<std::size_t>::max();  // tried configurations
};

}  // namespace

CoordinateDescent::CoordinateDescent(CoordinateDescentOptions options) : m_options(options) {
  if (m_options.budget < 1) throw Error("coordinate descent: the budget must be at least 1 configuration");
  if (!(m_options.tolerance >= 0)) throw Error("coordinate descent: tolerance " + std::to_string(m_options.tolerance) + " < 0");
}

void CoordinateDescent::search(Objective& objective) { Descent(objective, m_options).run(); }

}  // namespace gridflow::autotune
