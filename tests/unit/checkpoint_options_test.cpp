// The durations and [checkpoint] / run.* keys a user writes, and those Slurm and PBS print.
#include <gtest/gtest.h>

#include "app/deck/checkpoint_options.hpp"
#include "app/deck/duration.hpp"
#include "mesh/check.hpp"

using gridflow::InputError;
using gridflow::app::Deck;
using gridflow::app::parse_clock_duration;
using gridflow::app::parse_duration;
using gridflow::app::read_checkpoint_options;

TEST(Duration, DeckForms) {
  EXPECT_EQ(parse_duration("90s"), 90.0);
  EXPECT_EQ(parse_duration("30m"), 1800.0);
  EXPECT_EQ(parse_duration("2h"), 7200.0);
  EXPECT_EQ(parse_duration("1h30m"), 5400.0);
  EXPECT_EQ(parse_duration("1d12h"), 129600.0);
  EXPECT_EQ(parse_duration("45"), 45.0);
  EXPECT_EQ(parse_duration("0.5m"), 30.0);
  for (const char* bad : {"", "h", "1x", "1h30", "ten minutes", "-5m", "1h-30m"}) EXPECT_FALSE(parse_duration(bad)) << bad;
}

TEST(Duration, BatchSystemForms) {
  EXPECT_EQ(parse_clock_duration("1-02:03:04"), 86400.0 + 2 * 3600 + 3 * 60 + 4);
  EXPECT_EQ(parse_clock_duration("02:03:04"), 2 * 3600.0 + 3 * 60 + 4);
  EXPECT_EQ(parse_clock_duration("03:04\n"), 3 * 60.0 + 4);
  EXPECT_EQ(parse_clock_duration("1-02"), 86400.0 + 2 * 3600);
  EXPECT_EQ(parse_clock_duration("7200"), 7200.0);
  for (const char* bad : {"", "UNLIMITED", "NOT_SET", "1:2:3:4", "a-01:00:00"}) EXPECT_FALSE(parse_clock_duration(bad)) << bad;
}

TEST(CheckpointOptions, KeysAndDefaults) {
  Deck plain = Deck::parse("problem = 'heat2d'\n", "t.toml");
  const auto d = read_checkpoint_options(plain, "out");
  EXPECT_EQ(d.every_steps, 0);
  EXPECT_EQ(d.every_seconds, 0);
  EXPECT_EQ(d.keep, 2);
  EXPECT_EQ(d.dir, "out");
  EXPECT_EQ(d.restart, "");
  EXPECT_EQ(d.wall_limit, 0);
  EXPECT_EQ(d.margin_for(3600), 120);

  Deck by_steps = Deck::parse("[checkpoint]\nevery = 500\nkeep = 3\ndir = 'ck'\n[run]\nwall_limit = '1h30m'\nwall_margin = 0.1\n", "t.toml");
  by_steps.apply_override("restart=latest");
  const auto s = read_checkpoint_options(by_steps, "out");
  EXPECT_EQ(s.every_steps, 500);
  EXPECT_EQ(s.keep, 3);
  EXPECT_EQ(s.dir, "ck");
  EXPECT_EQ(s.restart, "latest");
  EXPECT_EQ(s.wall_limit, 5400);
  EXPECT_DOUBLE_EQ(s.margin_for(5400), 540);

  Deck by_clock = Deck::parse("[checkpoint]\nevery = '30m'\n[run]\nwall_margin = '5m'\n", "t.toml");
  const auto c = read_checkpoint_options(by_clock, "out");
  EXPECT_EQ(c.every_steps, 0);
  EXPECT_EQ(c.every_seconds, 1800);
  EXPECT_EQ(c.margin_for(3600), 300);
}

TEST(CheckpointOptions, BadValuesNameTheKey) {
  const auto message = [](const std::string& text) -> std::string {
    Deck deck = Deck::parse(text, "t.toml");
    try {
      read_checkpoint_options(deck, "out");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message("[checkpoint]\nevery = 0\n").find("'checkpoint.every'"), std::string::npos);
  EXPECT_NE(message("[checkpoint]\nevery = 'soon'\n").find("'checkpoint.every'"), std::string::npos);
  EXPECT_NE(message("[checkpoint]\nkeep = 0\n").find("'checkpoint.keep'"), std::string::npos);
  EXPECT_NE(message("[run]\nwall_limit = -5\n").find("'run.wall_limit'"), std::string::npos);
  EXPECT_NE(message("[run]\nwall_margin = -0.5\n").find("'run.wall_margin'"), std::string::npos);
  EXPECT_NE(message("restart = ''\n").find("'restart'"), std::string::npos);
}
