#include <gtest/gtest.h>

#include "mesh/check.hpp"
#include "app/deck/deck.hpp"

using gridflow::InputError;
using gridflow::app::Deck;

namespace {
// The message of the InputError `f` throws ("" if none), to check it names the key.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Deck, TypedReadsAndDefaults) {
  Deck d = Deck::parse("problem = 'heat2d'\n[grid]\nn = [10, 20]\nlength = [1, 2.5]\n[heat]\na = 2\n", "t.toml");
  EXPECT_EQ(d.string("problem"), "heat2d");
  EXPECT_EQ(d.integers("grid.n", 2), (std::vector<std::int64_t>{10, 20}));
  EXPECT_EQ(d.numbers("grid.length", 2), (std::vector<double>{1.0, 2.5}));
  EXPECT_DOUBLE_EQ(d.number("heat.a"), 2.0);  // an integer is a number
  EXPECT_DOUBLE_EQ(d.number("heat.safety", 0.9), 0.9);
  EXPECT_FALSE(d.optional_number("heat.dt").has_value());
  EXPECT_NO_THROW(d.require_all_used());
  const auto used = d.used_toml();
  EXPECT_NE(used.find("safety = 0.9"), std::string::npos) << used;  // defaults are recorded
  EXPECT_EQ(used.find("dt"), std::string::npos) << used;             // unset optionals are not
}

TEST(Deck, ErrorsNameTheKey) {
  Deck d = Deck::parse("n = 'ten'\nm = [1, 2, 3]\nflag = 1\nchoice = 'gpu2'\n[heat]\nsteps = 1.5\n", "t.toml");
  EXPECT_NE(input_error([&] { d.integer("n"); }).find("key 'n': expected an integer, got a string"), std::string::npos);
  EXPECT_NE(input_error([&] { d.integers("m", 2); }).find("key 'm': expected an array of 2 integers"), std::string::npos);
  EXPECT_NE(input_error([&] { d.boolean("flag"); }).find("key 'flag'"), std::string::npos);
  EXPECT_NE(input_error([&] { d.string("choice", "cpu", {"cpu", "gpu"}); }).find("'gpu2' is not one of 'cpu', 'gpu'"),
            std::string::npos);
  EXPECT_NE(input_error([&] { d.integer("heat.steps"); }).find("key 'heat.steps'"), std::string::npos);
  EXPECT_NE(input_error([&] { d.number("missing"); }).find("key 'missing' is required"), std::string::npos);
  EXPECT_NE(input_error([] { Deck::parse("a = [1,\n", "bad.toml"); }).find("bad.toml:"), std::string::npos);
}

TEST(Deck, IntegersOutsideTheirRangeAreRefused) {
  using gridflow::app::IntegerRange;
  Deck d = Deck::parse("w = 4294967296\nd = [4294967296, 0]\nk = -1\n", "t.toml");
  EXPECT_NE(input_error([&] { d.integer("w", 1, IntegerRange::of<int>()); }).find("key 'w': 4294967296 is out of range"),
            std::string::npos);
  EXPECT_NE(input_error([&] { d.integers("d", 2, std::nullopt, IntegerRange::of<int>()); }).find("key 'd': 4294967296"),
            std::string::npos);
  EXPECT_NE(input_error([&] { d.optional_integer("k", {0, 10}); }).find("key 'k': -1 is out of range (0 to 10)"), std::string::npos);
  EXPECT_EQ(d.integer("missing", 7, {0, 1}), 7);  // the fallback is the reader's own choice
}

TEST(Deck, UnknownKeysAreReported) {
  Deck d = Deck::parse("problem = 'heat2d'\n[heat]\na = 1\nalpha = 2\n", "t.toml");
  d.string("problem");
  d.number("heat.a");
  EXPECT_NE(input_error([&] { d.require_all_used(); }).find("unknown key 'heat.alpha'"), std::string::npos);
}

TEST(Deck, OverridesReplaceAndAdd) {
  Deck d = Deck::parse("[grid]\nn = [10, 10]\n[output]\ndir = 'a'\n", "t.toml");
  d.apply_override("grid.n=[2049,2049]");
  d.apply_override("output.dir=/tmp/some where");
  d.apply_override("device=gpu");
  d.apply_override("heat.dt=1e-3");
  EXPECT_EQ(d.integers("grid.n", 2), (std::vector<std::int64_t>{2049, 2049}));
  EXPECT_EQ(d.string("output.dir"), "/tmp/some where");
  EXPECT_EQ(d.string("device"), "gpu");
  EXPECT_DOUBLE_EQ(d.number("heat.dt"), 1e-3);
  EXPECT_NE(input_error([&] { d.apply_override("novalue"); }).find("expected key=value"), std::string::npos);
  EXPECT_NE(input_error([&] { d.apply_override("output.dir.x=1"); }).find("'dir' is not a table"), std::string::npos);
}

TEST(Deck, UsedAttributesCarryTypes) {
  Deck d = Deck::parse("a = 1\nb = 2.5\nc = 'x'\nd = true\ne = [1, 2]\nf = [1.5, 2]\n", "t.toml");
  d.integer("a");
  d.number("b");
  d.string("c");
  d.boolean("d");
  d.integers("e", 2);
  d.numbers("f", 2);
  const auto attrs = d.used_attributes();
  ASSERT_EQ(attrs.size(), 7u);  // the TOML text plus one per key
  EXPECT_EQ(attrs[0].first, "deck");
  for (const auto& [k, v] : attrs) {
    if (k == "a") {
      EXPECT_EQ(std::get<std::int64_t>(v), 1);
    }
    if (k == "b") {
      EXPECT_EQ(std::get<double>(v), 2.5);
    }
    if (k == "d") {
      EXPECT_EQ(std::get<bool>(v), true);
    }
    if (k == "f") {
      EXPECT_EQ(std::get<std::vector<double>>(v), (std::vector<double>{1.5, 2.0}));
    }
  }
}

TEST(Deck, ExpressionsAcceptNumbers) {
  Deck d = Deck::parse("a = 2\nb = 0.5\nc = 'sin(x)'\nd = true\n", "t.toml");
  EXPECT_EQ(d.expression("a", "0"), "2");
  EXPECT_EQ(d.expression("b", "0"), "0.5");
  EXPECT_EQ(d.expression("c", "0"), "sin(x)");
  EXPECT_EQ(d.expression("missing", "x + 1"), "x + 1");
  EXPECT_NE(input_error([&] { d.expression("d", "0"); }).find("key 'd': expected a formula"), std::string::npos);
}
