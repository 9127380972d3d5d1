#pragma once
// TuningCacheTest: a test fixture whose tuning options write their cache into a folder of the
// test's own (removed before and after it), measuring with 2 repeats.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "autotune/tuning_options.hpp"

namespace gridflow::testing {

class TuningCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("gridflow_tuning_" + std::to_string(::getpid()) + "_" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  autotune::TuningOptions options(autotune::TuningMode mode = autotune::TuningMode::online) const {
    autotune::TuningOptions o;
    o.mode = mode;
    o.cache = (m_dir / "tuning.json").string();
    o.repeats = 2;
    return o;
  }
  std::filesystem::path m_dir;
};

}  // namespace gridflow::testing
