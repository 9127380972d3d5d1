// filter_scipy_cases OUTDIR: runs the filters' host reference on 1D, 2D and 3D double arrays for
// every built-in and boundary mode and writes, for check_filter_scipy.py to repeat with
// scipy.ndimage, each input and output as .npy (numpy axis order: z, y, x) and a manifest
// (cases.json) saying which scipy call each output stands for.
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kernels/filter/correlate.hpp"
#include "kernels/filter/filter_weights.hpp"

using namespace gridflow;
using namespace gridflow::kernels::filter;
using nlohmann::json;

namespace {

/// numpy's .npy format, version 1.0, little-endian float64 in C order.
void write_npy(const std::string& path, const std::vector<long>& shape, const std::vector<double>& values) {
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
  for (long n : shape) dict += std::to_string(n) + ", ";
  dict += "), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict += std::string((64 - unpadded % 64) % 64, ' ') + '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(dict.size());
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(len_bytes, 2);
  f << dict;
  f.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(double)));
  if (!f) throw std::runtime_error("cannot write " + path);
}

struct Array {
  std::vector<long> numpy_shape;  // (z,) y, x; 1D arrays are a field of one row
  std::array<long, 3> n{1, 1, 1}; // x, y, z
  std::vector<double> v;          // x fastest
};

Array random_array(int dims, std::array<long, 3> n, unsigned seed) {
  Array a;
  a.n = n;
  for (int d = dims - 1; d >= 0; --d) a.numpy_shape.push_back(n[d]);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  a.v.resize(static_cast<std::size_t>(n[0] * n[1] * n[2]));
  for (double& x : a.v) x = u(gen);
  return a;
}

template <int Dim>
std::vector<double> run(const Array& a, const FilterWeights<Dim>& w, const Boundary& b) {
  mesh::Box<Dim> global;
  for (int d = 0; d < Dim; ++d) global.lo[d] = 0, global.hi[d] = a.n[d] - 1;
  mesh::Field<double, Dim> in(global, 0, mesh::MemorySpace::host), out(global, 0, mesh::MemorySpace::host);
  std::size_t q = 0;
  for (long k = 0; k < a.n[2]; ++k)
    for (long j = 0; j < a.n[1]; ++j)
      for (long i = 0; i < a.n[0]; ++i, ++q) {
        if constexpr (Dim == 2) in(i, j) = a.v[q];
        else in(i, j, k) = a.v[q];
      }
  FilterPlan<double, Dim>(w, b, global).apply(in, out, global, nullptr);
  std::vector<double> r(a.v.size());
  q = 0;
  for (long k = 0; k < a.n[2]; ++k)
    for (long j = 0; j < a.n[1]; ++j)
      for (long i = 0; i < a.n[0]; ++i, ++q) {
        if constexpr (Dim == 2) r[q] = out(i, j);
        else r[q] = out(i, j, k);
      }
  return r;
}

std::vector<double> weights_of(int count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> w(static_cast<std::size_t>(count));
  for (double& x : w) x = u(gen);
  return w;
}

/// Per-axis values in numpy's axis order (z, y, x) for the first `dims` axes.
template <class V>
json numpy_order(const V& per_axis, int dims) {
  json j = json::array();
  for (int d = dims - 1; d >= 0; --d) j.push_back(per_axis[d]);
  return j;
}

struct Writer {
  std::string dir;
  json cases = json::array();
  int count = 0;

  template <int Dim>
  void add(int dims, const std::string& input_file, const Array& a, const FilterWeights<Dim>& w, const Boundary& b, json call) {
    const std::string out_file = "out_" + std::to_string(count++) + ".npy";
    write_npy(dir + "/" + out_file, a.numpy_shape, run<Dim>(a, w, b));
    call["dims"] = dims;
    call["input"] = input_file;
    call["output"] = out_file;
    call["mode"] = to_string(b.mode);
    call["cval"] = b.cval;
    cases.push_back(call);
  }
};

const Boundary boundaries[] = {{BoundaryMode::reflect, 0.0}, {BoundaryMode::constant, 0.0}, {BoundaryMode::constant, 0.5},
                               {BoundaryMode::nearest, 0.0}, {BoundaryMode::mirror, 0.0},   {BoundaryMode::wrap, 0.0}};

// 1D: a field of one row, the y axis left alone.
void one_dimensional(Writer& out) {
  const Array a = random_array(1, {101, 1, 1}, 11);
  write_npy(out.dir + "/in_1d.npy", a.numpy_shape, a.v);
  auto along_x = [](std::vector<double> w, const std::string& name) { return separable_weights<2>({std::move(w), identity_weights()}, name); };
  for (const auto& b : boundaries) {
    for (int size : {1, 4, 5}) out.add<2>(1, "in_1d.npy", a, along_x(mean_weights(size), "mean"), b, {{"call", "uniform_filter1d"}, {"size", size}});
    for (double sigma : {0.6, 1.5, 8.0})
      out.add<2>(1, "in_1d.npy", a, along_x(gaussian_weights(sigma), "gaussian"), b, {{"call", "gaussian_filter1d"}, {"sigma", sigma}, {"truncate", 4.0}});
    out.add<2>(1, "in_1d.npy", a, along_x(gaussian_weights(2.0, 2.5), "gaussian"), b,
               {{"call", "gaussian_filter1d"}, {"sigma", 2.0}, {"truncate", 2.5}});
    for (int length : {2, 3, 64, 65}) {
      const auto w = weights_of(length, 100u + length);
      out.add<2>(1, "in_1d.npy", a, along_x(w, "correlate"), b, {{"call", "correlate1d"}, {"weights", w}});
    }
  }
}

template <int Dim>
void multi_dimensional(Writer& out, std::array<long, 3> n) {
  const Array a = random_array(Dim, n, 10u + Dim);
  const std::string input = "in_" + std::to_string(Dim) + "d.npy";
  write_npy(out.dir + "/" + input, a.numpy_shape, a.v);
  const std::array<int, 3> sizes{3, 4, 5};
  const std::array<double, 3> sigmas{1.0, 0.7, 1.3};
  std::array<int, Dim> size{}, ones{}, shape{};
  std::array<double, Dim> sigma{};
  std::array<std::vector<double>, Dim> user;
  int count = 1;
  for (int d = 0; d < Dim; ++d) {
    size[d] = sizes[d];
    ones[d] = 1;
    sigma[d] = sigmas[d];
    user[d] = weights_of(d == 0 ? 2 : 5 - d, 200u + d);
    shape[d] = d == 0 ? 3 : d == 1 ? 4 : 2;
    count *= shape[d];
  }
  const auto full = weights_of(count, 300u);
  for (const auto& b : boundaries) {
    out.add<Dim>(Dim, input, a, mean_filter<Dim>(size), b, {{"call", "uniform_filter"}, {"size", numpy_order(size, Dim)}});
    out.add<Dim>(Dim, input, a, mean_filter<Dim>(ones), b, {{"call", "uniform_filter"}, {"size", numpy_order(ones, Dim)}});
    out.add<Dim>(Dim, input, a, gaussian_filter<Dim>(sigma), b,
                 {{"call", "gaussian_filter"}, {"sigma", numpy_order(sigma, Dim)}, {"truncate", 4.0}});
    out.add<Dim>(Dim, input, a, gaussian_filter<Dim>(sigma, 3.0), b,
                 {{"call", "gaussian_filter"}, {"sigma", numpy_order(sigma, Dim)}, {"truncate", 3.0}});
    json per_axis = json::array();  // correlate1d along numpy axis ndim-1-d with user[d]
    for (int d = 0; d < Dim; ++d) per_axis.push_back({{"axis", Dim - 1 - d}, {"weights", user[d]}});
    out.add<Dim>(Dim, input, a, separable_weights<Dim>(user), b, {{"call", "correlate1d_per_axis"}, {"passes", per_axis}});
    out.add<Dim>(Dim, input, a, full_weights<Dim>(shape, full), b,
                 {{"call", "correlate"}, {"weights", full}, {"shape", numpy_order(shape, Dim)}});
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: filter_scipy_cases OUTDIR\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  Writer out{argv[1]};
  one_dimensional(out);
  multi_dimensional<2>(out, {23, 19, 1});
  multi_dimensional<3>(out, {13, 12, 11});
  std::ofstream(out.dir + "/cases.json") << out.cases.dump(1) << '\n';
  std::printf("filter_scipy_cases: %d cases in %s\n", out.count, argv[1]);
  return 0;
}
