// The disk cache of compiled kernels: what is stored loads back byte for byte, and a file that is
// truncated, altered or holds another identity loads as nothing (the kernel is compiled again).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "kernels/core/kernel_cache.hpp"

using gridflow::kernels::core::KernelCache;

namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("gridflow_kernel_cache_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST(KernelCache, StoredBinaryLoadsBackExactly) {
  const auto dir = fresh_dir("roundtrip");
  const KernelCache cache(dir / "nested");  // folders are made as needed
  std::string binary("\x7f" "ELF\0\1\2\n\xff", 9);
  binary += std::string(1000, '\0');
  bool corrupt = true;
  EXPECT_FALSE(cache.load("source A", &corrupt));
  EXPECT_FALSE(corrupt);  // absent is not corrupt
  ASSERT_TRUE(cache.store("source A", binary));
  EXPECT_EQ(cache.load("source A", &corrupt), binary);
  EXPECT_FALSE(corrupt);
  EXPECT_FALSE(cache.load("source B"));
  EXPECT_NE(cache.path_of("source A"), cache.path_of("source B"));
  for (const auto& entry : std::filesystem::directory_iterator(dir / "nested"))  // no temporary left behind
    EXPECT_EQ(entry.path().extension(), ".cubin") << entry.path();
  std::filesystem::remove_all(dir);
}

TEST(KernelCache, DamagedOrForeignFilesLoadAsNothing) {
  const auto dir = fresh_dir("damaged");
  const KernelCache cache(dir);
  const std::string binary(4096, 'k');
  ASSERT_TRUE(cache.store("identity", binary));
  const auto path = cache.path_of("identity");
  const std::string good = read_all(path);

  auto damaged_loads_nothing = [&](const std::string& text, const char* what) {
    write_all(path, text);
    bool corrupt = false;
    EXPECT_FALSE(cache.load("identity", &corrupt)) << what;
    EXPECT_TRUE(corrupt) << what;
  };
  damaged_loads_nothing(good.substr(0, good.size() - 1), "truncated");
  std::string flipped = good;
  flipped[flipped.size() - 10] ^= 1;
  damaged_loads_nothing(flipped, "one bit of the binary");
  damaged_loads_nothing("", "empty");
  damaged_loads_nothing("gridflow-kernel 1\nnot numbers\n", "garbled header");
  // Another identity under the same name (a hash collision) is never taken for this one.
  std::string foreign = good;
  foreign.replace(foreign.find("identity"), 8, "IDENTITY");
  damaged_loads_nothing(foreign, "another identity");

  ASSERT_TRUE(cache.store("identity", binary));  // a new store replaces the damaged file
  EXPECT_EQ(cache.load("identity"), binary);
  std::filesystem::remove_all(dir);
}

TEST(KernelCache, NoFolderKeepsNothing) {
  const KernelCache cache{std::filesystem::path()};
  EXPECT_FALSE(cache.store("identity", "binary"));
  EXPECT_FALSE(cache.load("identity"));
}

TEST(KernelCache, DefaultFolderFollowsTheEnvironment) {
  const char* saved = std::getenv("GRIDFLOW_KERNEL_CACHE");
  const std::string keep = saved ? saved : "";
  ::setenv("GRIDFLOW_KERNEL_CACHE", "/tmp/somewhere", 1);
  EXPECT_EQ(gridflow::kernels::core::default_kernel_cache_dir(), "/tmp/somewhere");
  ::unsetenv("GRIDFLOW_KERNEL_CACHE");
  const auto fallback = gridflow::kernels::core::default_kernel_cache_dir();
  if (std::getenv("XDG_CACHE_HOME") == nullptr && std::getenv("HOME") != nullptr) {
    EXPECT_EQ(fallback, std::filesystem::path(std::getenv("HOME")) / ".cache" / "gridflow" / "kernels");
  }
  if (saved) ::setenv("GRIDFLOW_KERNEL_CACHE", keep.c_str(), 1);
}
