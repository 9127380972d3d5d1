// A whole heat2d run (run_heat2d, as gridflow runs it) whose device is tuned: every output file,
// step 0 included, holds the same bits as an untuned CPU run's, and its /Info names the device that
// ran the steps after the tuning, the same in every file, with the device choice's report.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "heat_handover_test_support.hpp"
#include "io/h5_handle.hpp"
#include "mesh/device.hpp"
#include "app/deck/deck.hpp"
#include "app/run/heat2d_run.hpp"

namespace {

namespace fs = std::filesystem;
using gridflow::io::H5Attr;
using gridflow::io::H5Dataset;
using gridflow::io::H5File;
using gridflow::io::H5Type;

void run(const std::vector<std::string>& overrides) {
  auto d = gridflow::app::Deck::parse("problem = 'heat2d'\n" + gridflow::testing::moving_boundary_deck(255, 191, 6000),
                                         "test deck");
  for (const auto& o : overrides) d.apply_override(o);
  gridflow::app::run_heat2d(d, MPI_COMM_SELF);
}

std::string info_text(hid_t file, const std::string& name) {
  if (H5Aexists_by_name(file, "Info", name.c_str(), H5P_DEFAULT) <= 0) return "(missing)";
  H5Attr attr(H5Aopen_by_name(file, "Info", name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  H5Type type(H5Aget_type(attr));  // gridflow writes variable-length UTF-8; reading needs that cset
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) <= 0) return "(not a string)";
  char* text = nullptr;
  H5Aread(attr, type, &text);
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

std::vector<double> field_u(hid_t file) {
  H5Dataset set(H5Dopen2(file, "u", H5P_DEFAULT));
  std::vector<double> u(256 * 192);
  H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, u.data());
  return u;
}

}  // namespace

TEST(HeatDeviceRunGpu, TheFilesOfADeviceTunedRunHoldTheCpuRunsBitsAndNameTheDeviceUsed) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  const fs::path base = fs::temp_directory_path() / ("gridflow_device_run_" + std::to_string(::getpid()));
  run({"output.every=3000", "output.dir=" + (base / "tuned").string(), "tuning.repeats=1", "tuning.cache=" + (base / "cache.json").string()});
  run({"output.every=3000", "output.dir=" + (base / "cpu").string(), "device=cpu", "tuning.mode=off"});

  const std::string gpu = gridflow::mesh::current_gpu_description(), cpu = "cpu (Kokkos host)";
  std::string device;
  for (const char* name : {"heat2d_00000000.h5", "heat2d_00003000.h5", "heat2d_00006000.h5"}) {
    SCOPED_TRACE(name);
    H5File tuned(H5Fopen((base / "tuned" / name).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    H5File untuned(H5Fopen((base / "cpu" / name).c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    ASSERT_GE(tuned.get(), 0);
    ASSERT_GE(untuned.get(), 0);
    const auto a = field_u(tuned), b = field_u(untuned);
    std::size_t differ = 0;
    for (std::size_t k = 0; k < a.size(); ++k) differ += a[k] != b[k];
    EXPECT_EQ(differ, 0u);
    const std::string used = info_text(tuned, "device");
    EXPECT_TRUE(used == gpu || used == cpu) << used;
    if (device.empty()) device = used;
    EXPECT_EQ(used, device) << "every file names the device that ran the steps after the tuning";
    EXPECT_EQ(info_text(tuned, "autotune.device.kernel"), "heat2d:device");
    EXPECT_NE(info_text(tuned, "autotune.device.strategy"), "(missing)") << "the choice was measured";
    EXPECT_EQ(info_text(tuned, "autotune.device.chosen"), used == cpu ? "gpu=0" : "gpu=1");
    EXPECT_EQ(info_text(untuned, "device"), cpu);
  }
  fs::remove_all(base);
}
