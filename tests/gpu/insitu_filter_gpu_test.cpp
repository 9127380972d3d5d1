// The in-situ filter on device fields (exchanges and filter on the GPU, the result copied to the
// host for the write) equals the whole-array host filter bit for bit: the CUDA filter variants
// are built without FMA contraction (filter_gpu_test.cpp), and the exchanges only move values.
// At 1 rank and at 2 ranks sharing the GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "insitu_filter_test_support.hpp"
#include "mesh/device.hpp"

namespace {
template <class C>
class InsituFilterGpu : public ::testing::Test {};
TYPED_TEST_SUITE(InsituFilterGpu, gridflow::testing::PrecisionDimCases);
}  // namespace

TYPED_TEST(InsituFilterGpu, DeviceFieldsEqualTheWholeArrayHostFilterBitwise) {
  GRIDFLOW_REQUIRE_GPU();
  gridflow::mesh::Stream stream;
  gridflow::testing::expect_insitu_equals_whole_array<typename TypeParam::value_type, TypeParam::dim>(
      gridflow::mesh::MemorySpace::device, stream.get());
}
