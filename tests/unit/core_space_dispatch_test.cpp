// core::run_on_space: host fields run the host variant; device fields run the device variant in a
// build with CUDA (no GPU needed: the variants here only count), and throw in a build without;
// device work is refused the legacy default stream.
#include <gtest/gtest.h>

#include "kernels/core/space_dispatch.hpp"
#include "mesh/check.hpp"

namespace {

using gridflow::mesh::MemorySpace;
namespace core = gridflow::kernels::core;

// A stream handle that is not the legacy default stream; nothing is ever launched on it.
gridflow::StreamHandle some_stream() {
  static char token;
  return reinterpret_cast<gridflow::StreamHandle>(&token);
}

}  // namespace

TEST(CoreSpaceDispatch, HostFieldsRunTheHostVariant) {
  int host = 0, device = 0;
  const auto result = core::run_on_space(
      "test::kernel", MemorySpace::host, nullptr,
      [&] {
        ++host;
        return 1;
      },
      [&](auto) {
        ++device;
        return 2;
      });
  EXPECT_EQ(result, 1);
  EXPECT_EQ(host, 1);
  EXPECT_EQ(device, 0);
}

TEST(CoreSpaceDispatch, DeviceFieldsRunTheDeviceVariantOnlyInACudaBuild) {
  int host = 0, device = 0;
  const auto run = [&] {
    return core::run_on_space(
        "test::kernel", MemorySpace::device, some_stream(),
        [&] {
          ++host;
          return 1;
        },
        [&](auto) {
          ++device;
          return 2;
        });
  };
  if (core::cuda_built) {
    EXPECT_EQ(run(), 2);
    EXPECT_EQ(device, 1);
  } else {
    EXPECT_THROW(run(), gridflow::Error);
    EXPECT_EQ(device, 0);
  }
  EXPECT_EQ(host, 0);
}

TEST(CoreSpaceDispatch, DeviceWorkIsRefusedTheLegacyDefaultStream) {
  int calls = 0;
  EXPECT_THROW(core::run_on_space(
                   "test::kernel", MemorySpace::device, nullptr, [&] { ++calls; }, [&](auto) { ++calls; }),
               gridflow::Error);
  EXPECT_EQ(calls, 0);
  EXPECT_NO_THROW(core::run_on_space("test::kernel", MemorySpace::host, nullptr, [&] { ++calls; }, [&](auto) {}));
  EXPECT_EQ(calls, 1);
}
