#pragma once
// GPU tests call GRIDFLOW_REQUIRE_GPU() first: without CUDA in the build, or without a visible
// device, the test is skipped with the reason instead of failing.
#include <gtest/gtest.h>

#include "gridflow/config.hpp"
#include "mesh/device.hpp"

#define GRIDFLOW_REQUIRE_GPU()                                                               \
  do {                                                                                       \
    if (!GRIDFLOW_HAVE_CUDA) GTEST_SKIP() << "gridflow was built without CUDA";              \
    if (!::gridflow::mesh::gpu_available()) GTEST_SKIP() << "no CUDA device is visible";     \
  } while (0)
