// gridflow tune through the real executable on CPU decks: it exits 0, says what it did, and
// writes the cache file it is pointed at (or says there is nothing to tune). A Jacobi run tunes
// on-line, reports it, and stores the report in its output file's /Info.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status;
  std::string output;
};

Outcome run(const std::string& arguments, int ranks) {
  const std::string launch = ranks == 1 ? std::string(GRIDFLOW_EXECUTABLE)
                                        : std::string(GRIDFLOW_MPIEXEC) + " -np " + std::to_string(ranks) +
                                              " --oversubscribe " + GRIDFLOW_EXECUTABLE;
  FILE* pipe = popen(("cd " GRIDFLOW_SOURCE_DIR " && " + launch + " " + arguments + " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pipe ? pclose(pipe) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class TuneCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::path(GRIDFLOW_SCRATCH_DIR) / ("tune_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "deck.toml") << "problem = 'heat2d'\n[grid]\nn = [120, 90]\n[heat]\nsteps = 10\n"
                                          "[output]\ndir = '" << (m_dir / "out").string() << "'\n";
  }
  std::string arguments(const std::string& extra = "") const {
    return "tune " + (m_dir / "deck.toml").string() + " tuning.cache=" + cache().string() + " " + extra;
  }
  fs::path cache() const { return m_dir / "cache.json"; }
  fs::path m_dir;
};

}  // namespace

TEST_F(TuneCli, SeveralCpuRanksTuneTheGhostWidthAndStoreIt) {
  const auto first = run(arguments(), 2);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("ghost_width="), std::string::npos) << first.output;
  EXPECT_NE(first.output.find("stored in"), std::string::npos) << first.output;
  ASSERT_TRUE(fs::exists(cache())) << first.output;
  EXPECT_NE(read_file(cache()).find("heat2d:host:ghost_width/"), std::string::npos);
  EXPECT_FALSE(fs::exists(m_dir / "out")) << "tuning writes no output";

  // Tuning again updates the entry; a run in cached mode then takes it without measuring.
  const auto again = run(arguments("precision=float"), 2);
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(read_file(cache()).find("\"float\""), std::string::npos);
  const auto cached = run((m_dir / "deck.toml").string() + " tuning.cache=" + cache().string() + " tuning.mode=cached", 2);
  ASSERT_EQ(cached.status, 0) << cached.output;
  EXPECT_NE(cached.output.find("from the tuning cache"), std::string::npos) << cached.output;
}

TEST_F(TuneCli, OneCpuRankHasNothingToTuneAndSaysSo) {
  const auto o = run(arguments(), 1);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("nothing to tune"), std::string::npos) << o.output;
  EXPECT_EQ(o.output.find("[rank"), std::string::npos) << o.output;
}

TEST_F(TuneCli, BadTuningKeysAreInputErrors) {
  const auto o = run(arguments("tuning.strategy=random"), 1);
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("tuning.strategy"), std::string::npos) << o.output;
  const auto missing = run("tune", 1);
  EXPECT_NE(missing.status, 0) << missing.output;
}

TEST_F(TuneCli, PoissonSolversOtherThanJacobiSayThereIsNothingToTune) {
  const auto o = run("tune inputs/poisson3d_small.toml tuning.cache=" + cache().string(), 1);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("nothing to tune for solver = \"multigrid\""), std::string::npos) << o.output;
  EXPECT_FALSE(fs::exists(cache()));
}

class JacobiTuneCli : public TuneCli {
 protected:
  void SetUp() override {
    TuneCli::SetUp();
    std::ofstream(m_dir / "jacobi.toml") << "problem = 'poisson3d'\nsolver = 'jacobi'\n[grid]\nn = [40, 36, 32]\n"
                                             "[poisson]\nrhs = '1 + x*y'\ntolerance = 1e-6\n[output]\ndir = '"
                                          << (m_dir / "out").string() << "'\n";
  }
  std::string deck(const std::string& extra) const {
    return (m_dir / "jacobi.toml").string() + " tuning.cache=" + cache().string() + " " + extra;
  }
  /// h5dump's view of one /Info attribute of the run's solution file ("" when there is none).
  std::string info_attribute(const std::string& name) const {
    for (const auto& entry : fs::directory_iterator(m_dir / "out"))
      if (entry.path().extension() == ".h5") return run_shell("h5dump -a /Info/" + name + " " + entry.path().string());
    return "";
  }
  static std::string run_shell(const std::string& command) {
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    std::string output;
    char buffer[4096];
    while (pipe && fgets(buffer, sizeof buffer, pipe)) output += buffer;
    if (pipe) pclose(pipe);
    return output;
  }
};

TEST_F(JacobiTuneCli, SeveralCpuRanksTuneTheExchangeWidthOnlineOfflineAndFromTheCache) {
  // A run measures during its first sweeps, says so, and keeps the report in /Info.
  const auto online = run(deck(""), 2);
  ASSERT_EQ(online.status, 0) << online.output;
  EXPECT_NE(online.output.find("autotune jacobi3d:host:ghost_width/"), std::string::npos) << online.output;
  EXPECT_NE(online.output.find("tuning took the first"), std::string::npos) << online.output;
  EXPECT_NE(online.output.find("converged: jacobi"), std::string::npos) << online.output;
  EXPECT_NE(info_attribute("autotune.kernel").find("jacobi3d:host:ghost_width/"), std::string::npos)
      << info_attribute("autotune.kernel");
  EXPECT_NE(info_attribute("autotune.chosen.ghost_width").find("(0): "), std::string::npos);

  // gridflow tune measures again and stores; a cached run then takes the entry without measuring.
  fs::remove_all(m_dir / "out");
  const auto tuned = run("tune " + deck(""), 2);
  ASSERT_EQ(tuned.status, 0) << tuned.output;
  EXPECT_NE(tuned.output.find("ghost_width="), std::string::npos) << tuned.output;
  EXPECT_NE(tuned.output.find("stored in"), std::string::npos) << tuned.output;
  EXPECT_NE(read_file(cache()).find("jacobi3d:host:ghost_width/"), std::string::npos);
  EXPECT_FALSE(fs::exists(m_dir / "out")) << "tuning writes no output";
  const auto cached = run(deck("tuning.mode=cached"), 2);
  ASSERT_EQ(cached.status, 0) << cached.output;
  EXPECT_NE(cached.output.find("from the tuning cache"), std::string::npos) << cached.output;
  EXPECT_EQ(cached.output.find("tuning took"), std::string::npos) << cached.output;
}

TEST_F(JacobiTuneCli, OneCpuRankHasNothingToTuneAndSaysSo) {
  const auto o = run("tune " + deck(""), 1);
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("nothing to tune"), std::string::npos) << o.output;
  EXPECT_FALSE(fs::exists(cache()));
}
