#include "io/step_dataset.hpp"

#include "io/h5_handle.hpp"
#include "mesh/check.hpp"

namespace gridflow::io {

void write_step_dataset(hid_t file, const StepDataset& dataset, int rank) {
  const bool integers = std::holds_alternative<std::vector<std::int64_t>>(dataset.values);
  const void* data = integers ? static_cast<const void*>(std::get<0>(dataset.values).data())
                              : static_cast<const void*>(std::get<1>(dataset.values).data());
  const hsize_t count = integers ? std::get<0>(dataset.values).size() : std::get<1>(dataset.values).size();
  H5Plist links(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_LINK_CREATE)));
  GRIDFLOW_H5_CHECK(H5Pset_create_intermediate_group(links, 1));
  H5Space file_space(GRIDFLOW_H5_CHECK(H5Screate_simple(1, &count, nullptr)));
  H5Dataset d(GRIDFLOW_H5_CHECK(H5Dcreate2(file, dataset.path.c_str(), integers ? H5T_STD_I64LE : H5T_IEEE_F64LE,
                                           file_space, links, H5P_DEFAULT, H5P_DEFAULT)));
  // An empty table (a solve that needed no iteration has no residual history) is the dataset of
  // shape (0,): nothing to write, and H5Dwrite refuses the null buffer an empty vector gives.
  if (count == 0) return;
  // One writer, in a collective call: the other ranks select nothing.
  H5Space memory_space(GRIDFLOW_H5_CHECK(H5Screate_simple(1, &count, nullptr)));
  if (rank != 0) {
    GRIDFLOW_H5_CHECK(H5Sselect_none(file_space));
    GRIDFLOW_H5_CHECK(H5Sselect_none(memory_space));
  }
  H5Plist transfer(GRIDFLOW_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)));
  GRIDFLOW_H5_CHECK(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE));
  GRIDFLOW_H5_CHECK(H5Dwrite(d, integers ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, memory_space, file_space, transfer, data));
}

}  // namespace gridflow::io
