// The output series lock: held by one OutputLock at a time (flock on separate opens conflicts
// even within one process), named in the refusal, removed by its holder, and taken over when left
// behind unheld (a killed run's).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "io/output_lock.hpp"
#include "mesh/check.hpp"

namespace fs = std::filesystem;

namespace {

class OutputLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("gridflow_output_lock_" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_path = (m_dir / "heat2d.lock").string();
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
  std::string m_path;
};

TEST_F(OutputLockTest, ASecondHolderIsRefusedWithTheFirstNamed) {
  std::optional<gridflow::io::OutputLock> first;
  first.emplace(m_path);
  EXPECT_TRUE(first->note().empty()) << first->note();
  std::ifstream record(m_path);
  std::string holder;
  std::getline(record, holder);
  EXPECT_NE(holder.find("pid " + std::to_string(::getpid()) + ", started "), std::string::npos) << holder;
  try {
    gridflow::io::OutputLock second(m_path);
    FAIL() << "a second lock was granted";
  } catch (const gridflow::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(m_path + " is locked by " + holder), std::string::npos) << e.what();
  }
  first.reset();
  EXPECT_FALSE(fs::exists(m_path)) << "the holder removes its lock file";
  gridflow::io::OutputLock again(m_path);
  EXPECT_TRUE(fs::exists(m_path));
}

TEST_F(OutputLockTest, AFileLeftUnheldIsTakenOver) {
  std::ofstream(m_path) << "host elsewhere, pid 1, started 2000-01-01T00:00:00Z, command killed -9\n";
  gridflow::io::OutputLock lock(m_path);
  std::ifstream record(m_path);
  std::string holder;
  std::getline(record, holder);
  EXPECT_NE(holder.find("pid " + std::to_string(::getpid())), std::string::npos) << holder;
}

}  // namespace
