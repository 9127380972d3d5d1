#pragma once
// A steppable for tests of the run loop and its observers: it counts steps, and its one field "u"
// holds a value of the step and the rank at every point of the rank's box.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "app/loop/steppable.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/field.hpp"
#include "mpi_test_support.hpp"

namespace gridflow::testing {

/// A 25 x 19 point grid over MPI_COMM_WORLD, split as MPI_Dims_create likes.
inline mesh::Decomposition<2> decomposition() {
  mesh::Grid<2> g;
  g.n = {24, 18};
  g.length = {1.0, 1.0};
  return mesh::Decomposition<2>(g, MPI_COMM_WORLD, {0, 0}, 1);
}

/// Counts steps up to `last`, or fewer when its own rule (`finishes_at`) ends it first, like a
/// converging solve. Time is step / 2. Its field holds value(step, rank), by default step + rank,
/// so a range over the ranks is [step, step + ranks - 1].
class CountingSteps final : public app::Steppable<double, 2> {
 public:
  static constexpr std::int64_t never = std::numeric_limits<std::int64_t>::max();
  using Value = std::function<double(std::int64_t step, int rank)>;

  CountingSteps(const mesh::Decomposition<2>& d, std::int64_t last, std::int64_t start = 0, std::int64_t finishes_at = never,
                Value value = [](std::int64_t step, int rank) { return static_cast<double>(step + rank); })
      : m_field(d.owned(), 1, mesh::MemorySpace::host, "u"),
        m_last(last),
        m_finishes_at(finishes_at),
        m_step(start),
        m_value(std::move(value)) {
    fill();
  }

  std::int64_t step() const override { return m_step; }
  std::int64_t last_step() const override { return m_last; }
  double time() const override { return 0.5 * static_cast<double>(m_step); }
  double dt() const override { return 0.5; }
  bool finished() const override { return m_step >= std::min(m_last, m_finishes_at); }
  void advance_to(std::int64_t target) override {
    targets.push_back(target);
    m_step = std::min(target, m_finishes_at);
    fill();
  }
  void conclude() override { ++concluded; }
  std::vector<app::NamedField<double, 2>> fields() const override { return {{"u", &m_field}}; }
  StreamHandle stream() const override { return nullptr; }

  std::vector<std::int64_t> targets;  ///< every advance_to
  int concluded = 0;

 private:
  void fill() {
    auto v = m_field.view();
    const auto b = m_field.ghosted();
    for (std::int64_t j = b.lo[1]; j <= b.hi[1]; ++j)
      for (std::int64_t i = b.lo[0]; i <= b.hi[0]; ++i) v(i, j) = m_value(m_step, world_rank());
  }

  mesh::Field<double, 2> m_field;
  std::int64_t m_last, m_finishes_at, m_step;
  Value m_value;
};

}  // namespace gridflow::testing
