#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "autotune/measurement.hpp"
#include "autotune/timer.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"

namespace {

using namespace gridflow::autotune;

TEST(AutotuneMeasurement, Median) {
  EXPECT_DOUBLE_EQ(median({3.0}), 3.0);
  EXPECT_DOUBLE_EQ(median({5.0, 1.0, 100.0}), 5.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 100.0}), 3.5);
  EXPECT_THROW(median({}), gridflow::Error);
  EXPECT_DOUBLE_EQ((Measurement{{}, {2.0, 9.0, 1.0}}.median_s()), 2.0);
}

TEST(AutotuneMeasurement, PolicyValidation) {
  EXPECT_NO_THROW(MeasurementPolicy{}.validate());
  EXPECT_THROW((MeasurementPolicy{-1, 5, 3}.validate()), gridflow::Error);
  EXPECT_THROW((MeasurementPolicy{1, 0, 3}.validate()), gridflow::Error);
  EXPECT_THROW((MeasurementPolicy{1, 5, -1}.validate()), gridflow::Error);
}

TEST(AutotuneTimer, SteadyClockWithoutAStream) {
  const auto timer = make_timer(std::nullopt);
  ASSERT_NE(dynamic_cast<SteadyTimer*>(timer.get()), nullptr);
  timer->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double seconds = timer->stop();
  EXPECT_GE(seconds, 0.020);
  EXPECT_LT(seconds, 2.0);
}

TEST(AutotuneTimer, EventsOnAStream) {
  if (gridflow::mesh::gpu_available()) {
    const gridflow::mesh::Stream stream;
    const auto timer = make_timer(stream.get());
    EXPECT_NE(dynamic_cast<EventTimer*>(timer.get()), nullptr);
    timer->start();
    EXPECT_GE(timer->stop(), 0.0);
  } else {
    EXPECT_THROW(make_timer(nullptr), gridflow::Error);  // events need CUDA and a device
  }
}

}  // namespace
