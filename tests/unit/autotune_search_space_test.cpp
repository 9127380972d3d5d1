#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "autotune/configuration.hpp"
#include "autotune/parameter.hpp"
#include "autotune/search_space.hpp"
#include "autotune_synthetic.hpp"
#include "mesh/check.hpp"

using gridflow::Error;
using gridflow::autotune::Configuration;
using gridflow::autotune::Parameter;
using gridflow::autotune::SearchSpace;
using gridflow::autotune::testing::jacobi_like_space;

TEST(AutotuneConfiguration, PrintsParsesAndRoundTripsThroughJson) {
  const Configuration c{{"by", 2}, {"bx", 64}, {"cpt", 4}};
  EXPECT_EQ(c.to_string(), "bx=64,by=2,cpt=4");
  EXPECT_EQ(Configuration::parse("bx=64,by=2,cpt=4"), c);
  EXPECT_EQ(Configuration::parse("bx=-3"), (Configuration{{"bx", -3}}));
  EXPECT_EQ(Configuration::parse(""), Configuration{});
  EXPECT_EQ(c.at("cpt"), 4);
  EXPECT_THROW(c.at("smem"), Error);
  for (const char* bad : {"bx", "bx=", "=4", "bx=4x", "bx=1,bx=2", "bx=99999999999"})
    EXPECT_THROW(Configuration::parse(bad), Error) << bad;

  const nlohmann::json j = c;
  EXPECT_EQ(j.dump(), R"({"bx":64,"by":2,"cpt":4})");
  EXPECT_EQ(j.get<Configuration>(), c);
  EXPECT_THROW(nlohmann::json::parse(R"({"bx":1.5})").get<Configuration>(), Error);
  EXPECT_THROW(nlohmann::json::parse(R"([1,2])").get<Configuration>(), Error);
}

TEST(AutotuneConfiguration, EqualityAndHashFollowTheValues) {
  const Configuration a{{"bx", 64}, {"by", 2}};
  Configuration b;
  b.set("by", 2);
  b.set("bx", 64);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.stable_hash(), b.stable_hash());
  b.set("by", 4);
  EXPECT_NE(a, b);
  EXPECT_NE(a.stable_hash(), b.stable_hash());
  // Every configuration of a realistic space hashes apart.
  std::unordered_set<std::uint64_t> hashes;
  const auto all = jacobi_like_space().enumerate();
  for (const auto& c : all) hashes.insert(c.stable_hash());
  EXPECT_EQ(hashes.size(), all.size());
}

TEST(AutotuneParameter, FactoriesAndValidation) {
  const Parameter flag = Parameter::boolean("smem", true);
  EXPECT_EQ(flag.values, (std::vector<int>{0, 1}));
  EXPECT_EQ(flag.default_value, 1);
  const Parameter load = Parameter::choice("load", {"l1", "shared", "texture"}, "shared");
  EXPECT_EQ(load.values, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(load.default_value, 1);
  EXPECT_EQ(load.describe(2), "texture");
  EXPECT_EQ(Parameter::integers("bx", {32, 64}, 64).index_of(64), 1);
  EXPECT_EQ(Parameter::integers("bx", {32, 64}, 64).index_of(48), -1);

  EXPECT_THROW(Parameter::integers("bx", {}, 0), Error);
  EXPECT_THROW(Parameter::integers("bx", {32, 64, 32}, 32), Error);
  EXPECT_THROW(Parameter::integers("bx", {32, 64}, 128), Error);
  EXPECT_THROW(Parameter::integers("b x", {1}, 1), Error);
  EXPECT_THROW(Parameter::integers("1bx", {1}, 1), Error);
  EXPECT_THROW(Parameter::choice("load", {"l1", "shared"}, "texture"), Error);
}

TEST(AutotuneSearchSpace, LegalityNamesTheReason) {
  const SearchSpace space = jacobi_like_space();
  EXPECT_TRUE(space.legal(Configuration{{"bx", 64}, {"by", 4}, {"cz", 4}, {"smem", 0}}));
  const auto why = [&](const Configuration& c) { return space.violation(c).value_or("legal"); };
  EXPECT_EQ(why({{"bx", 64}, {"by", 32}, {"cz", 4}, {"smem", 0}}), "violates bx*by <= 1024");
  EXPECT_EQ(why({{"bx", 512}, {"by", 2}, {"cz", 4}, {"smem", 1}}), "violates shared tile <= 48 KiB");
  EXPECT_EQ(why({{"bx", 48}, {"by", 4}, {"cz", 4}, {"smem", 0}}), "bx=48 is not a listed value");
  EXPECT_EQ(why({{"bx", 64}, {"by", 4}, {"smem", 0}}), "no value for parameter 'cz'");
  EXPECT_EQ(why({{"bx", 64}, {"by", 4}, {"cz", 4}, {"smem", 0}, {"unroll", 2}}), "unknown parameter 'unroll'");
  EXPECT_THROW(SearchSpace(space).add(Parameter::integers("bx", {1}, 1)), Error);
  EXPECT_THROW(space.parameter("unroll"), Error);
}

TEST(AutotuneSearchSpace, EnumeratesExactlyTheLegalConfigurations) {
  const SearchSpace space = jacobi_like_space();
  EXPECT_EQ(space.unconstrained_size(), 360u);
  const auto all = space.enumerate();
  // Counted by hand: 21 (bx, by) pairs with at most 1024 threads, 5 cz, 2 smem, less the 2 pairs
  // (1024x1, 512x2) whose shared tile exceeds 48 KiB, times 5 cz.
  EXPECT_EQ(all.size(), 21u * 5 * 2 - 2 * 5);
  EXPECT_EQ(std::set<Configuration>(all.begin(), all.end()).size(), all.size());
  for (const auto& c : all) EXPECT_TRUE(space.legal(c)) << c.to_string();
  EXPECT_EQ(all.front().to_string(), "bx=32,by=1,cz=1,smem=0");
  EXPECT_EQ(all.back().to_string(), "bx=1024,by=1,cz=16,smem=0");
  EXPECT_THROW(space.enumerate(100), Error);
}

TEST(AutotuneSearchSpace, DefaultMustBeLegal) {
  SearchSpace space = jacobi_like_space();
  EXPECT_EQ(space.default_configuration().to_string(), "bx=64,by=4,cz=4,smem=0");
  space.require("cz >= 8", [](const Configuration& c) { return c.at("cz") >= 8; });
  try {
    space.default_configuration();
    FAIL() << "an illegal default was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("violates cz >= 8"), std::string::npos) << e.what();
  }
}

TEST(AutotuneSearchSpace, NeighboursMoveOneParameterToAnAdjacentLegalValue) {
  const SearchSpace space = jacobi_like_space();
  const auto around = [&](const Configuration& c) {
    std::set<std::string> names;
    for (const auto& n : space.neighbours(c)) names.insert(n.to_string());
    return names;
  };
  EXPECT_EQ(around({{"bx", 64}, {"by", 4}, {"cz", 4}, {"smem", 0}}),
            (std::set<std::string>{"bx=32,by=4,cz=4,smem=0", "bx=128,by=4,cz=4,smem=0", "bx=64,by=2,cz=4,smem=0",
                                   "bx=64,by=8,cz=4,smem=0", "bx=64,by=4,cz=2,smem=0", "bx=64,by=4,cz=8,smem=0",
                                   "bx=64,by=4,cz=4,smem=1"}));
  // At a corner and against both constraints: 512x2 may not grow (threads) nor take smem (tile).
  EXPECT_EQ(around({{"bx", 512}, {"by", 2}, {"cz", 16}, {"smem", 0}}),
            (std::set<std::string>{"bx=256,by=2,cz=16,smem=0", "bx=512,by=1,cz=16,smem=0", "bx=512,by=2,cz=8,smem=0"}));
}

TEST(AutotuneSearchSpace, IndicesAndLabels) {
  SearchSpace space;
  space.add(Parameter::integers("bx", {32, 64, 128}, 64)).add(Parameter::choice("load", {"l1", "shared"}, "l1"));
  const Configuration c{{"bx", 128}, {"load", 1}};
  EXPECT_EQ(space.indices(c), (SearchSpace::Indices{2, 1}));
  EXPECT_EQ(space.at({2, 1}), c);
  EXPECT_EQ(space.describe(c), "bx=128,load=shared");
  EXPECT_THROW(space.indices(Configuration{{"bx", 48}, {"load", 0}}), Error);
  EXPECT_THROW(space.at({1}), Error);
}
