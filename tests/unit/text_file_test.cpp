// Text files beside the output (XDMF index, residual CSV) are replaced whole or not at all: a
// write that fails leaves the earlier file as it was, no temporary file, and a message naming the
// file, the errno text and what to do.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/text_file.hpp"
#include "mesh/check.hpp"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class TextFile : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("gridflow_text_file_" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(m_dir), {})); }
  fs::path m_dir;
};

TEST_F(TextFile, ReplacesTheFileWhole) {
  const auto path = m_dir / "run.xmf";
  gridflow::io::write_text_file_atomically(path.string(), "first", "output.dir");
  gridflow::io::write_text_file_atomically(path.string(), "second, longer", "output.dir");
  EXPECT_EQ(read(path), "second, longer");
  EXPECT_EQ(entries(), 1u);  // no temporary file left
}

TEST_F(TextFile, AFailedWriteKeepsTheEarlierFileAndSaysWhy) {
  const auto path = m_dir / "run.xmf";
  gridflow::io::write_text_file_atomically(path.string(), "complete index", "output.dir");
  // A file size limit makes the write fail as a full disk does, at a known point (EFBIG).
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    gridflow::io::write_text_file_atomically(path.string(), std::string(100000, 'x'), "output.dir");
  } catch (const gridflow::Error& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(message, "writing " + path.string() + " failed: File too large (errno 27); free space in output.dir or "
                     "choose another folder");
  EXPECT_EQ(read(path), "complete index");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(TextFile, AMissingFolderIsNamed) {
  const auto path = m_dir / "gone" / "run.xmf";
  try {
    gridflow::io::write_text_file_atomically(path.string(), "x", "output.dir");
    FAIL() << "no error";
  } catch (const gridflow::Error& e) {
    EXPECT_NE(std::string(e.what()).find("writing " + path.string() + " failed: open("), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory; check output.dir"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
