// Attributes live in their object's header, 64 KiB at most: a longer array is refused with its
// name (arrays of any length, such as a residual history, are datasets), shorter ones round-trip.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/h5_attributes.hpp"
#include "io/h5_handle.hpp"
#include "mesh/check.hpp"

namespace {

TEST(H5Attributes, AnArrayOverTheHeaderLimitIsRefusedByName) {
  const auto path = std::filesystem::temp_directory_path() / ("gridflow_attributes_" + std::to_string(::getpid()) + ".h5");
  {
    gridflow::io::H5File file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    ASSERT_GE(file.get(), 0);
    const std::vector<double> fits(7000, 1.5);  // 56000 bytes
    gridflow::io::write_attribute(file, "fits", fits);
    std::vector<double> back(fits.size());
    gridflow::io::H5Attr a(H5Aopen(file, "fits", H5P_DEFAULT));
    ASSERT_GE(H5Aread(a, H5T_NATIVE_DOUBLE, back.data()), 0);
    EXPECT_EQ(back, fits);
    try {
      gridflow::io::write_attribute(file, "residual_history", std::vector<double>(9000, 1.0));
      FAIL() << "a 72000-byte attribute was accepted";
    } catch (const gridflow::Error& e) {
      EXPECT_NE(std::string(e.what()).find("attribute 'residual_history' would hold 72000 bytes"), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove(path);
}

}  // namespace
