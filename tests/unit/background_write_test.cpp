// BackgroundWrite: the write runs on another thread, its error comes back on the caller's thread
// through finish(), failed() says so without blocking, and a second write waits for the first.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "app/output/background_write.hpp"
#include "mesh/check.hpp"

namespace gridflow::app {
namespace {

TEST(BackgroundWrite, RunsOnAnotherThreadAndReportsItsTime) {
  BackgroundWrite writing;
  EXPECT_FALSE(writing.busy());
  EXPECT_EQ(writing.finish(), 0.0);
  std::thread::id ran_on;
  writing.start([&] {
    ran_on = std::this_thread::get_id();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  });
  EXPECT_TRUE(writing.busy());
  EXPECT_GE(writing.finish(), 0.015);
  EXPECT_NE(ran_on, std::this_thread::get_id());
  EXPECT_FALSE(writing.busy());
  EXPECT_FALSE(writing.failed());
}

TEST(BackgroundWrite, ItsErrorIsRaisedAndRethrownByFinish) {
  BackgroundWrite writing;
  writing.start([] { throw Error("writing out/heat2d_00000100.h5 failed: No space left on device (errno 28)"); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!writing.failed() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  EXPECT_TRUE(writing.failed());
  try {
    writing.finish();
    FAIL() << "finish() did not rethrow the write's error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "writing out/heat2d_00000100.h5 failed: No space left on device (errno 28)");
  }
  EXPECT_FALSE(writing.failed());
  writing.start([] {});  // the next write starts clean
  EXPECT_NO_THROW(writing.finish());
}

TEST(BackgroundWrite, OneWriteAtATime) {
  BackgroundWrite writing;
  std::atomic<bool> release{false};
  writing.start([&] {
    while (!release) std::this_thread::yield();
  });
  EXPECT_THROW(writing.start([] {}), Error);
  release = true;
  writing.finish();
}

TEST(BackgroundWrite, TheDestructorWaitsForTheWrite) {
  std::atomic<bool> done{false};
  {
    BackgroundWrite writing;
    writing.start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = true;
    });
  }
  EXPECT_TRUE(done);
}

}  // namespace
}  // namespace gridflow::app
