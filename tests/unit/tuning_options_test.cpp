// The [tuning] deck keys: defaults, accepted values, and an InputError naming the key otherwise.
#include <gtest/gtest.h>

#include <string>

#include "app/deck/run_options_deck.hpp"
#include "app/deck/tuning_options_deck.hpp"
#include "mesh/check.hpp"
#include "solver/run_options.hpp"
#include "autotune/tuning_options.hpp"

namespace {

using gridflow::app::Deck;
using gridflow::autotune::TuningMode;
using gridflow::autotune::TuningStrategy;

gridflow::autotune::TuningOptions read(const std::string& extra) {
  auto deck = Deck::parse("[tuning]\n" + extra, "test deck");
  auto options = gridflow::app::read_tuning_options(deck);
  deck.require_all_used();
  return options;
}

void expect_input_error(const std::string& extra, const std::string& key) {
  try {
    read(extra);
    FAIL() << "no error for " << extra;
  } catch (const gridflow::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + key + "'"), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(TuningOptions, Defaults) {
  const auto o = read("");
  EXPECT_EQ(o.mode, TuningMode::online);
  EXPECT_TRUE(o.cache.empty());
  EXPECT_EQ(o.strategy, TuningStrategy::automatic);
  EXPECT_EQ(o.budget, 30u);
  EXPECT_EQ(o.repeats, 3);
  EXPECT_EQ(o.policy().repeats, 3);
}

TEST(TuningOptions, AcceptsEveryDocumentedValue) {
  EXPECT_EQ(read("mode = 'cached'").mode, TuningMode::cached);
  EXPECT_EQ(read("mode = 'off'").mode, TuningMode::off);
  EXPECT_EQ(read("strategy = 'exhaustive'").strategy, TuningStrategy::exhaustive);
  EXPECT_EQ(read("strategy = 'local'").strategy, TuningStrategy::local);
  EXPECT_EQ(read("cache = '/tmp/x.json'").cache, "/tmp/x.json");
  EXPECT_EQ(read("budget = 7").budget, 7u);
  EXPECT_EQ(read("repeats = 9").repeats, 9);
}

TEST(TuningOptions, RejectsBadValuesNamingTheKey) {
  expect_input_error("mode = 'sometimes'", "tuning.mode");
  expect_input_error("mode = 3", "tuning.mode");
  expect_input_error("cache = ''", "tuning.cache");
  expect_input_error("strategy = 'random'", "tuning.strategy");
  expect_input_error("budget = 1", "tuning.budget");
  expect_input_error("budget = 'many'", "tuning.budget");
  expect_input_error("repeats = 0", "tuning.repeats");
  expect_input_error("repeats = 1.5", "tuning.repeats");
}

TEST(TuningOptions, AnUnknownTuningKeyIsAnError) {
  auto deck = Deck::parse("[tuning]\nmodee = 'off'\n", "test deck");
  gridflow::app::read_tuning_options(deck);
  EXPECT_THROW(deck.require_all_used(), gridflow::InputError);
}

TEST(TuningOptions, RunOptionsKnowWhetherTheDeckSetsTheGhostWidth) {
  auto unset = Deck::parse("problem = 'heat2d'\n", "test deck");
  EXPECT_FALSE(gridflow::app::read_run_options(unset, 2).halo_width_given);
  auto set = Deck::parse("problem = 'heat2d'\n[halo]\nwidth = 1\n", "test deck");
  EXPECT_TRUE(gridflow::app::read_run_options(set, 2).halo_width_given);
}
