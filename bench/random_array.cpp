// random_array OUT.h5 NAME float32|float64 N0 [N1 [N2]]: a dataset of uniform random values in
// [-1, 1] (fixed seed), the input of `gridflow filter` timings on machines without h5py.
#include <hdf5.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5 || argc > 7) {
    std::fprintf(stderr, "usage: random_array OUT.h5 NAME float32|float64 N0 [N1 [N2]]\n");
    return 2;
  }
  const std::string type = argv[3];
  if (type != "float32" && type != "float64") {
    std::fprintf(stderr, "random_array: type '%s': float32 or float64\n", type.c_str());
    return 2;
  }
  std::vector<hsize_t> dims;
  hsize_t count = 1;
  for (int i = 4; i < argc; ++i) {
    dims.push_back(std::strtoull(argv[i], nullptr, 10));
    count *= dims.back();
  }
  std::vector<double> values(count);
  std::mt19937_64 gen(14);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : values) v = u(gen);
  const hid_t file = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t stored = type == "float32" ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  const hid_t dataset = H5Dcreate2(file, argv[2], stored, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = file >= 0 && dataset >= 0 && H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0;
  H5Dclose(dataset);
  H5Sclose(space);
  if (H5Fclose(file) < 0 || !ok) {
    std::fprintf(stderr, "random_array: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
