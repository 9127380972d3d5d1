// The in-situ whitening filter with device fields (the ring on rank 0's GPU) against the host
// Whitener on whole frames: to rounding, not bitwise (the CUDA whitening sums in an order of its
// own, fixed by the launch shape: kernels/filter/whiten_cuda.hpp), at 1 rank and at 2 ranks
// sharing the GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "insitu_whiten_test_support.hpp"
#include "mesh/device.hpp"

TEST(InsituWhitenGpu, DeviceRingEqualsTheHostReferenceToRounding) {
  GRIDFLOW_REQUIRE_GPU();
  gridflow::mesh::Stream stream;
  gridflow::testing::expect_insitu_whiten_equals_whole_frames<double>(gridflow::mesh::MemorySpace::device, stream.get(), false, 1e-8);
  gridflow::testing::expect_insitu_whiten_equals_whole_frames<float>(gridflow::mesh::MemorySpace::device, stream.get(), false, 1e-5);
}
