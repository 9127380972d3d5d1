// RunLoop on N ranks with a counting steppable and recording observers: observers act at the
// steps they ask for and at the end exactly once, in the order they were added; the stepping
// stops only where some observer (or the warm-up's end) needs it; a stop or a flag raised on one
// rank acts on every rank at the same step; the fields observers read are the run's.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "app/loop/run_loop.hpp"
#include "mesh/check.hpp"
#include "mpi_test_support.hpp"
#include "run_loop_test_support.hpp"

namespace {

namespace app = gridflow::app;
namespace mesh = gridflow::mesh;
using gridflow::testing::world_rank;
using gridflow::testing::world_size;
using gridflow::testing::CountingSteps;
using gridflow::testing::decomposition;
using State = app::RunState<double, 2>;

struct Event {
  std::string observer, hook;
  std::int64_t step;
  bool ending;
  bool operator==(const Event& o) const { return observer == o.observer && hook == o.hook && step == o.step && ending == o.ending; }
};

/// Acts every `every` steps (0: never) and, when asked, at the end; logs every call. `on_act`
/// and `flag` let a test request stops and raise flags.
class Recorder final : public app::Observer<double, 2> {
 public:
  Recorder(std::string name, std::vector<Event>& log, std::int64_t every, bool at_end)
      : m_name(std::move(name)), m_log(log), m_every(every), m_at_end(at_end) {}

  std::string name() const override { return m_name; }
  void on_start(const State& s) override { m_log.push_back({m_name, "start", s.step, s.ending}); }
  std::int64_t next_step(const State& s) const override { return app::next_multiple(s.step, m_every); }
  bool acts_at_end() const override { return m_at_end; }
  bool flag_raised() const override { return flag && flag(); }
  void act(const State& s, app::RunControl& control) override {
    m_log.push_back({m_name, "act", s.step, s.ending});
    if (on_act) on_act(s, control);
  }
  void on_finish(const State& s) override { m_log.push_back({m_name, "finish", s.step, s.ending}); }

  std::function<void(const State&, app::RunControl&)> on_act;
  std::function<bool()> flag;

 private:
  std::string m_name;
  std::vector<Event>& m_log;
  std::int64_t m_every;
  bool m_at_end;
};

std::vector<std::int64_t> acts_of(const std::vector<Event>& log, const std::string& observer) {
  std::vector<std::int64_t> steps;
  for (const auto& e : log)
    if (e.observer == observer && e.hook == "act") steps.push_back(e.step);
  return steps;
}

/// Whether `value` is the same on every rank.
bool same_on_every_rank(std::int64_t value) {
  std::int64_t lo = 0, hi = 0;
  MPI_Allreduce(&value, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

}  // namespace

TEST(RunLoop, EveryNActsAtItsMultiplesAndTheLastStepExactlyOnce) {
  const auto d = decomposition();
  for (const std::int64_t last : {17, 20}) {
    std::vector<Event> log;
    CountingSteps steps(d, last);
    Recorder output("output", log, 5, true), plain("plain", log, 5, false);
    app::RunLoop<double, 2> loop(d);
    loop.add(output);
    loop.add(plain);
    const auto outcome = loop.run(steps);
    EXPECT_EQ(outcome.step, last);
    EXPECT_FALSE(outcome.stop);
    EXPECT_EQ(outcome.exit_status(), 0);
    using Steps = std::vector<std::int64_t>;
    const Steps multiples = last == 17 ? Steps{5, 10, 15} : Steps{5, 10, 15, 20};
    Steps with_end = multiples;
    if (last == 17) with_end.push_back(17);
    EXPECT_EQ(acts_of(log, "output"), with_end) << "last step " << last;
    EXPECT_EQ(acts_of(log, "plain"), multiples) << "last step " << last;
    EXPECT_EQ(steps.concluded, 1);
  }
}

TEST(RunLoop, SteppingStopsOnlyWhereAnObserverOrTheWarmUpAsks) {
  const auto d = decomposition();
  std::vector<Event> log;
  Recorder three("three", log, 3, false), five("five", log, 5, false), quiet("quiet", log, 0, true);
  {
    CountingSteps steps(d, 16);
    app::RunLoop<double, 2> loop(d);
    for (auto* o : {&three, &five, &quiet}) loop.add(*o);
    loop.run(steps);
    EXPECT_EQ(steps.targets, (std::vector<std::int64_t>{3, 5, 6, 9, 10, 12, 15, 16}));
  }
  {
    CountingSteps steps(d, 16);
    app::RunLoop<double, 2> loop(d, {4});
    for (auto* o : {&three, &five, &quiet}) loop.add(*o);
    const auto outcome = loop.run(steps);
    EXPECT_EQ(steps.targets, (std::vector<std::int64_t>{3, 4, 5, 6, 9, 10, 12, 15, 16}));
    EXPECT_EQ(outcome.timed_from, 4);
  }
  {
    // Steps taken before the loop (an on-line tuning's) are not timed either.
    CountingSteps steps(d, 16, 7);
    app::RunLoop<double, 2> loop(d, {4});
    loop.add(five);
    const auto outcome = loop.run(steps);
    EXPECT_EQ(steps.targets, (std::vector<std::int64_t>{10, 15, 16}));
    EXPECT_EQ(outcome.timed_from, 7);
  }
}

TEST(RunLoop, ObserversAreCalledInTheOrderTheyWereAdded) {
  const auto d = decomposition();
  std::vector<Event> log;
  CountingSteps steps(d, 4);
  Recorder a("a", log, 2, true), b("b", log, 2, true), c("c", log, 0, true);
  app::RunLoop<double, 2> loop(d);
  loop.add(a);
  loop.add(b);
  loop.add(c);
  loop.run(steps);
  const std::vector<Event> expected{{"a", "start", 0, false},  {"b", "start", 0, false}, {"c", "start", 0, false},
                                    {"a", "act", 2, false},    {"b", "act", 2, false},   {"a", "act", 4, true},
                                    {"b", "act", 4, true},     {"c", "act", 4, true},    {"a", "finish", 4, true},
                                    {"b", "finish", 4, true},  {"c", "finish", 4, true}};
  EXPECT_EQ(log, expected);
}

TEST(RunLoop, StopRequestedOnOneRankStopsEveryRankAtThatStep) {
  const auto d = decomposition();
  // On the last rank only, and on rank 0 only: either way every rank stops at step 6.
  for (const int requester : {world_size() - 1, 0}) {
    std::vector<Event> log;
    CountingSteps steps(d, 30);
    Recorder limit("wall-clock limit", log, 3, false), output("output", log, 5, true);
    limit.on_act = [&](const State& s, app::RunControl& control) {
      if (s.step == 6 && world_rank() == requester) control.request_stop("wall-clock limit reached", 3);
    };
    app::RunLoop<double, 2> loop(d);
    loop.add(limit);
    loop.add(output);
    const auto outcome = loop.run(steps);
    EXPECT_EQ(outcome.step, 6) << "requested by rank " << requester;
    EXPECT_TRUE(same_on_every_rank(outcome.step));
    ASSERT_TRUE(outcome.stop);
    EXPECT_EQ(outcome.stop->reason, "wall-clock limit reached");
    EXPECT_EQ(outcome.exit_status(), 3);
    EXPECT_EQ(steps.step(), 6);
    EXPECT_EQ(steps.concluded, 1);
    // The output acted at its step 5 and once more at the end, which the stop made step 6.
    EXPECT_EQ(acts_of(log, "output"), (std::vector<std::int64_t>{5, 6}));
    EXPECT_EQ(log.back(), (Event{"output", "finish", 6, true}));
  }
}

TEST(RunLoop, TheLowestRequestingRanksStopWins) {
  const auto d = decomposition();
  std::vector<Event> log;
  CountingSteps steps(d, 30);
  Recorder signals("signals", log, 4, false);
  signals.on_act = [&](const State& s, app::RunControl& control) {
    if (s.step == 8) control.request_stop("signal on rank " + std::to_string(world_rank()), 10 + world_rank());
  };
  app::RunLoop<double, 2> loop(d);
  loop.add(signals);
  const auto outcome = loop.run(steps);
  EXPECT_EQ(outcome.step, 8);
  ASSERT_TRUE(outcome.stop);
  EXPECT_EQ(outcome.stop->reason, "signal on rank 0");
  EXPECT_EQ(outcome.exit_status(), 10);
}

TEST(RunLoop, AFlagRaisedOnOneRankActsOnEveryRankAtThatBoundary) {
  const auto d = decomposition();
  for (const bool stop_when_flagged : {false, true}) {
    std::vector<Event> log;
    CountingSteps steps(d, 12);
    Recorder cadence("cadence", log, 3, false), checkpoint("checkpoint", log, 0, true);
    const int raiser = world_size() - 1;
    checkpoint.flag = [&] { return world_rank() == raiser && steps.step() == 6; };
    checkpoint.on_act = [&](const State& s, app::RunControl& control) {
      if (stop_when_flagged && !s.ending && world_rank() == raiser) control.request_stop("SIGTERM", 143);
    };
    app::RunLoop<double, 2> loop(d);
    loop.add(cadence);
    loop.add(checkpoint);
    const auto outcome = loop.run(steps);
    if (stop_when_flagged) {
      // The stop the flagged act asked for is honoured at the same boundary; the checkpoint, which
      // acted there already, does not act again at the end.
      EXPECT_EQ(outcome.step, 6);
      EXPECT_EQ(outcome.exit_status(), 143);
      EXPECT_EQ(acts_of(log, "checkpoint"), (std::vector<std::int64_t>{6}));
    } else {
      EXPECT_EQ(outcome.step, 12);
      EXPECT_FALSE(outcome.stop);
      EXPECT_EQ(acts_of(log, "checkpoint"), (std::vector<std::int64_t>{6, 12}));
    }
    EXPECT_TRUE(same_on_every_rank(outcome.step));
  }
}

TEST(RunLoop, AStepperEndingByItsOwnRuleEndsTheRunThere) {
  const auto d = decomposition();
  std::vector<Event> log;
  CountingSteps steps(d, 100, 0, 13);  // converges at 13
  Recorder progress("progress", log, 5, true);
  app::RunLoop<double, 2> loop(d);
  loop.add(progress);
  const auto outcome = loop.run(steps);
  EXPECT_EQ(outcome.step, 13);
  EXPECT_EQ(acts_of(log, "progress"), (std::vector<std::int64_t>{5, 10, 13}));
  EXPECT_EQ(steps.concluded, 1);

  // Finished before the loop: no step, the end's acts at the start step.
  std::vector<Event> log0;
  CountingSteps done(d, 100, 0, 0);
  Recorder output("output", log0, 5, true);
  app::RunLoop<double, 2> loop0(d);
  loop0.add(output);
  EXPECT_EQ(loop0.run(done).step, 0);
  EXPECT_TRUE(done.targets.empty());
  EXPECT_EQ(log0, (std::vector<Event>{{"output", "start", 0, false}, {"output", "act", 0, true}, {"output", "finish", 0, true}}));
}

TEST(RunLoop, AnObserverAskingForAStepNotAheadIsAnError) {
  struct Stuck final : app::Observer<double, 2> {
    std::string name() const override { return "stuck"; }
    std::int64_t next_step(const State& s) const override { return s.step; }
    void act(const State&, app::RunControl&) override {}
  };
  const auto d = decomposition();
  CountingSteps steps(d, 10);
  Stuck stuck;
  app::RunLoop<double, 2> loop(d);
  loop.add(stuck);
  EXPECT_THROW(loop.run(steps), gridflow::Error);
}

TEST(RunLoop, ObserversReadTheRunsStateAndFields) {
  const auto d = decomposition();
  std::vector<Event> log;
  CountingSteps steps(d, 9);
  Recorder probe("probe", log, 4, true);
  std::vector<std::string> seen;
  probe.on_act = [&](const State& s, app::RunControl&) {
    const auto range = s.fields.range("u");
    const auto& host = s.fields.host("u");
    seen.push_back(std::to_string(s.step) + " t=" + std::to_string(s.time) + " dt=" + std::to_string(s.dt) + " last=" +
                   std::to_string(s.last_step) + " u in [" + std::to_string(range.min) + ", " + std::to_string(range.max) +
                   "] here " + std::to_string(host(d.owned().lo[0], d.owned().lo[1]) - world_rank()));
    EXPECT_EQ(s.comm(), d.comm());
  };
  app::RunLoop<double, 2> loop(d);
  loop.add(probe);
  loop.run(steps);
  const auto line = [&](int step, const char* t) {
    return std::to_string(step) + " t=" + t + " dt=0.500000 last=9 u in [" + std::to_string(static_cast<double>(step)) + ", " +
           std::to_string(static_cast<double>(step + world_size() - 1)) + "] here " + std::to_string(static_cast<double>(step));
  };
  EXPECT_EQ(seen, (std::vector<std::string>{line(4, "2.000000"), line(8, "4.000000"), line(9, "4.500000")}));
}

TEST(RunLoop, AStepperThatTakesNoStepIsAnErrorNotAHang) {
  struct Stalled final : app::Steppable<double, 2> {
    explicit Stalled(const mesh::Decomposition<2>& d) : field(d.owned(), 1, mesh::MemorySpace::host) {}
    std::int64_t step() const override { return 0; }
    std::int64_t last_step() const override { return 10; }
    double time() const override { return 0; }
    double dt() const override { return 0; }
    bool finished() const override { return false; }
    void advance_to(std::int64_t) override {}
    std::vector<app::NamedField<double, 2>> fields() const override { return {{"u", &field}}; }
    gridflow::StreamHandle stream() const override { return nullptr; }
    mesh::Field<double, 2> field;
  };
  const auto d = decomposition();
  Stalled stalled(d);
  app::RunLoop<double, 2> loop(d);
  EXPECT_THROW(loop.run(stalled), gridflow::Error);
}
