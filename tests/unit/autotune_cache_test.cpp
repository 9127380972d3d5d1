// The tuning cache: keys, round trips through the file, invalidation, damaged files, concurrent
// writers, and find_or_tune on top of it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "autotune/cache_key.hpp"
#include "autotune/coordinate_descent.hpp"
#include "autotune/tuner.hpp"
#include "autotune/tuning_cache.hpp"
#include "autotune_synthetic.hpp"
#include "gridflow/config.hpp"
#include "mesh/check.hpp"

namespace {

using namespace gridflow::autotune;
using namespace gridflow::autotune::testing;
namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards.
class AutotuneCache : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("gridflow_autotune_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path file() const { return m_dir / "sub" / "tuning.json"; }
  /// A cache on file() whose warnings are collected.
  TuningCache cache() { return TuningCache(file(), [this](const std::string& w) { warnings.push_back(w); }); }
  nlohmann::json on_disk() const {
    std::ifstream in(file());
    return nlohmann::json::parse(in);
  }

  static CacheKey key(const std::string& device = "NVIDIA H200 (sm_90)") {
    return {device, "stencil::heat::cuda", "double", "8192x8192", "0.1.0+abc"};
  }
  static CacheEntry entry(int bx) {
    return {{{"bx", bx}, {"by", 2}}, 1.5e-3, 1.8e-3, "coordinate-descent", 30, {}};
  }

  fs::path m_dir;
  std::vector<std::string> warnings;
};

TEST(AutotuneCacheKey, FieldsAndHelpers) {
  EXPECT_EQ(extents_key({8192, 8192}), "8192x8192");
  EXPECT_EQ(extents_key({256, 128, 64}), "256x128x64");
  EXPECT_THROW(extents_key({}), gridflow::Error);
  EXPECT_THROW(extents_key({64, 0}), gridflow::Error);
  EXPECT_EQ(device_key(gridflow::mesh::MemorySpace::host), "cpu");
  const CacheKey k{"cpu", "stencil::heat::host", "float", "64x64"};
  EXPECT_EQ(k.code_version, std::string(GRIDFLOW_VERSION) + "+" + GRIDFLOW_GIT_HASH);
  EXPECT_EQ(k.id(), "cpu|stencil::heat::host|float|64x64");
  EXPECT_THROW((CacheKey{"cpu", "", "float", "64x64"}.id()), gridflow::Error);
}

TEST_F(AutotuneCache, StoreThenLookUpFromANewObject) {
  EXPECT_FALSE(cache().lookup(key()));  // no file yet: a miss, no warning
  cache().store(key(), entry(128));
  const std::optional<CacheEntry> hit = cache().lookup(key());
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->config.to_string(), "bx=128,by=2");
  EXPECT_DOUBLE_EQ(hit->median_s, 1.5e-3);
  EXPECT_DOUBLE_EQ(*hit->default_median_s, 1.8e-3);
  EXPECT_EQ(hit->strategy, "coordinate-descent");
  EXPECT_EQ(hit->evaluations, 30u);
  EXPECT_EQ(hit->tuned_at.size(), std::string("2025-01-01T00:00:00Z").size());
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(fs::exists(file().string() + ".tmp." + std::to_string(::getpid())));

  cache().store(key(), entry(256));  // same key: replaced, not duplicated
  EXPECT_EQ(cache().lookup(key())->config.at("bx"), 256);
  EXPECT_EQ(on_disk().at("entries").size(), 1u);
}

TEST_F(AutotuneCache, EveryKeyFieldSeparatesEntries) {
  cache().store(key(), entry(128));
  CacheKey other_gpu = key("NVIDIA H100 80GB HBM3 (sm_90)");
  CacheKey other_kernel = key(), other_precision = key(), other_grid = key();
  other_kernel.kernel = "stencil::jacobi::cuda";
  other_precision.precision = "float";
  other_grid.extents = "8192x4096";
  for (const CacheKey& k : {other_gpu, other_kernel, other_precision, other_grid})
    EXPECT_FALSE(cache().lookup(k)) << k.id();
  cache().store(other_gpu, entry(512));
  EXPECT_EQ(cache().lookup(key())->config.at("bx"), 128);
  EXPECT_EQ(cache().lookup(other_gpu)->config.at("bx"), 512);
}

TEST_F(AutotuneCache, AnotherCodeVersionMissesAndItsEntriesArePruned) {
  cache().store(key(), entry(128));
  CacheKey newer = key();
  newer.code_version = "0.2.0+def";
  EXPECT_FALSE(cache().lookup(newer));
  CacheKey newer_other_grid = newer;
  newer_other_grid.extents = "4096x4096";
  cache().store(newer_other_grid, entry(64));
  EXPECT_FALSE(cache().lookup(key()));  // the old version's entry is gone from the file
  const auto entries = on_disk().at("entries");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].at("code_version"), "0.2.0+def");
  EXPECT_TRUE(warnings.empty());
}

TEST_F(AutotuneCache, ACorruptedFileCountsAsEmptyWithAWarning) {
  fs::create_directories(file().parent_path());
  for (const char* damage : {"{\"format\": \"gridflow-tuning-cache/1\", \"entries\": [", "not json at all", "[1, 2]",
                             "{\"format\": 7, \"entries\": []}", "{\"format\": \"gridflow-tuning-cache/1\"}"}) {
    std::ofstream(file()) << damage;
    warnings.clear();
    EXPECT_FALSE(cache().lookup(key())) << damage;
    ASSERT_EQ(warnings.size(), 1u) << damage;
    EXPECT_NE(warnings[0].find(file().string()), std::string::npos) << warnings[0];
  }
  cache().store(key(), entry(128));  // rewrites the file whole
  warnings.clear();
  EXPECT_EQ(cache().lookup(key())->config.at("bx"), 128);
  EXPECT_TRUE(warnings.empty());
}

TEST_F(AutotuneCache, AMalformedEntryIsSkippedTheOthersKept) {
  cache().store(key(), entry(128));
  nlohmann::json document = on_disk();
  nlohmann::json broken = document["entries"][0];
  broken["device"] = "other GPU";
  broken["config"] = "bx=64";  // not an object
  document["entries"].push_back(broken);
  std::ofstream(file()) << document.dump();
  EXPECT_EQ(cache().lookup(key())->config.at("bx"), 128);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("malformed entry"), std::string::npos) << warnings[0];
}

TEST_F(AutotuneCache, ConcurrentWritersLoseNothing) {
  // Each thread opens the lock file itself, so flock serialises them as it does processes.
  constexpr int writers = 6, stores_each = 5;
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([this, w] {
      TuningCache c(file(), [](const std::string&) {});
      for (int s = 0; s < stores_each; ++s) {
        CacheKey k = key();
        k.extents = std::to_string(w) + "x" + std::to_string(s);
        c.store(k, entry(32 * (w + 1)));
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(on_disk().at("entries").size(), static_cast<std::size_t>(writers * stores_each));
  for (int w = 0; w < writers; ++w) {
    CacheKey k = key();
    k.extents = std::to_string(w) + "x" + std::to_string(stores_each - 1);
    ASSERT_TRUE(cache().lookup(k)) << k.id();
    EXPECT_EQ(cache().lookup(k)->config.at("bx"), 32 * (w + 1));
  }
  EXPECT_TRUE(warnings.empty());
}

/// Sets an environment variable for the scope, restoring the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { m_old ? ::setenv(m_name, m_old->c_str(), 1) : ::unsetenv(m_name); }

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

TEST(AutotuneCachePath, ExplicitThenXdgThenHome) {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv explicit_path("GRIDFLOW_TUNING_CACHE", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/scratch/cache");
    EXPECT_EQ(default_cache_path(), fs::path("/scratch/cache/gridflow/tuning.json"));
  }
  {
    ScopedEnv explicit_path("GRIDFLOW_TUNING_CACHE", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/ignored");
    EXPECT_EQ(default_cache_path(), fs::path("/home/someone/.cache/gridflow/tuning.json"));
  }
  {
    ScopedEnv explicit_path("GRIDFLOW_TUNING_CACHE", "/project/tuning.json");
    ScopedEnv xdg("XDG_CACHE_HOME", "/scratch/cache");
    EXPECT_EQ(default_cache_path(), fs::path("/project/tuning.json"));
  }
  {
    ScopedEnv explicit_path("GRIDFLOW_TUNING_CACHE", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    ScopedEnv no_home("HOME", nullptr);
    EXPECT_THROW(default_cache_path(), gridflow::Error);
  }
}

TEST_F(AutotuneCache, FindOrTuneTunesOnceThenUsesTheCache) {
  const SearchSpace space = jacobi_like_space();
  TuningCache c = cache();
  {
    SyntheticKernel kernel(space, bowl);
    CoordinateDescent strategy;
    const TuningReport first = find_or_tune(c, key(), space, kernel, kernel, strategy);
    EXPECT_FALSE(first.from_cache);
    EXPECT_EQ(first.kernel, "stencil::heat::cuda");
    EXPECT_EQ(first.chosen.to_string(), "bx=256,by=2,cz=8,smem=0");
  }
  SyntheticKernel kernel(space, bowl);
  CoordinateDescent strategy;
  const TuningReport second = find_or_tune(c, key(), space, kernel, kernel, strategy);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.chosen.to_string(), "bx=256,by=2,cz=8,smem=0");
  EXPECT_DOUBLE_EQ(*second.speedup(), 1.27);
  EXPECT_EQ(second.evaluations, 30u);
  EXPECT_TRUE(kernel.runs.empty()) << "a cache hit timed something";
  EXPECT_EQ(kernel.checks.size(), 1u) << "a cache hit is checked against the oracle once";
  EXPECT_NE(second.to_text().find("from the tuning cache"), std::string::npos) << second.to_text();
}

TEST_F(AutotuneCache, FindOrTuneRetunesWhenTheCachedChoiceNoLongerHolds) {
  const SearchSpace space = jacobi_like_space();
  TuningCache c = cache();
  const Configuration optimum{{"bx", 256}, {"by", 2}, {"cz", 8}, {"smem", 0}};
  c.store(key(), {optimum, 1.0, 1.27, "coordinate-descent", 30, {}});

  SyntheticKernel now_wrong(space, bowl);
  now_wrong.wrong = {optimum};
  CoordinateDescent strategy;
  const TuningReport report = find_or_tune(c, key(), space, now_wrong, now_wrong, strategy);
  EXPECT_FALSE(report.from_cache);
  EXPECT_NE(report.chosen, optimum);
  EXPECT_NE(c.lookup(key())->config, optimum);

  // A cached configuration the space no longer allows is not even checked.
  c.store(key(), {{{"bx", 1024}, {"by", 32}, {"cz", 1}, {"smem", 0}}, 1.0, 1.27, "exhaustive", 200, {}});
  SyntheticKernel kernel(space, bowl);  // fails the test on an illegal check()
  EXPECT_FALSE(find_or_tune(c, key(), space, kernel, kernel, strategy).from_cache);
}

}  // namespace
