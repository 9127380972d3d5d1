// DistributedFft on device fields (cuFFT lines, transposes staged through pinned buffers over MPI,
// and over NCCL where each rank has its own GPU) against the same transform on host fields
// (FFTW): 2D and 3D, complex and real values, slab and pencil; forward to rounding, and
// inverse(forward(x)) = N x.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "gpu_test_support.hpp"
#include "halo/gpu_binding.hpp"
#include "halo/transport.hpp"
#include "mesh/decomposition.hpp"
#include "transform/distributed_fft.hpp"

namespace {

using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
using gridflow::transform::DistributedFft;
using gridflow::transform::DistributedFftOptions;
using gridflow::transform::FftDecomposition;
using gridflow::transform::FftValues;

// Max |a - b| over two host fields' common box, and max |b| there.
template <class T, int Dim>
std::array<double, 2> difference(const Field<T, Dim>& a, const Field<T, Dim>& b, double scale_b = 1.0) {
  double diff = 0, size = 0;
  const auto box = a.owned();
  for (Index q = 0; q < box.size(); ++q) {
    Index rest = q;
    std::array<Index, 3> p{0, 0, 0};
    for (int d = 0; d < Dim; ++d) {
      p[d] = box.lo[d] + rest % box.extent(d);
      rest /= box.extent(d);
    }
    auto value = [&](const Field<T, Dim>& f) -> double {
      if constexpr (Dim == 2) return f(p[0], p[1]);
      else return f(p[0], p[1], p[2]);
    };
    const double x = value(a), y = scale_b * value(b);
    diff = std::max(diff, std::abs(x - y));
    size = std::max(size, std::abs(y));
  }
  return {diff, size};
}

template <class T, int Dim>
void check_device(const std::array<Index, Dim>& intervals, FftValues values, FftDecomposition decomposition,
                  gridflow::halo::Transport transport) {
  gridflow::mesh::Grid<Dim> grid;
  grid.n = intervals;
  for (int d = 0; d < Dim; ++d) grid.length[d] = 1.0;
  const gridflow::mesh::Decomposition<Dim> d(grid, MPI_COMM_WORLD);
  const bool complex = values == FftValues::complex;
  const auto owned = complex ? gridflow::transform::interleaved(d.owned()) : d.owned();
  Field<T, Dim> input(owned, 1, MemorySpace::host, "input");
  for (std::size_t q = 0; q < input.allocated_elements(); ++q)
    input.allocation()[q] = static_cast<T>(std::sin(0.37 * q + 0.1 * d.rank()) + 0.5);
  Field<T, Dim> device_input(owned, 1, MemorySpace::device, "device_input");
  device_input.copy_from(input);

  gridflow::mesh::Stream stream;
  DistributedFftOptions on_device;
  on_device.decomposition = decomposition;
  on_device.transport = transport;
  DistributedFftOptions on_host;
  on_host.decomposition = decomposition;
  DistributedFft<T, Dim> host_fft(d, values, MemorySpace::host, nullptr, on_host);
  DistributedFft<T, Dim> device_fft(d, values, MemorySpace::device, stream.get(), on_device);
  host_fft.forward(input);
  device_fft.forward(device_input);
  gridflow::mesh::synchronize(stream.get());
  const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  if (host_fft.spectrum()) {
    Field<T, Dim> spectrum(host_fft.spectrum()->owned(), 0, MemorySpace::host, "device_spectrum");
    spectrum.copy_from(*device_fft.spectrum());
    const auto [diff, size] = difference(spectrum, *host_fft.spectrum());
    EXPECT_LE(diff, tolerance * size) << "spectrum on the device differs from the host's";
  }
  Field<T, Dim> device_back(owned, 2, MemorySpace::device, "device_back");
  device_fft.inverse(device_back);
  gridflow::mesh::synchronize(stream.get());
  Field<T, Dim> back(owned, 2, MemorySpace::host, "back");
  back.copy_from(device_back);
  const double total = static_cast<double>(grid.points().size());
  const auto [diff, size] = difference(back, input, total);
  EXPECT_LE(diff, 10 * tolerance * size) << "inverse(forward(x)) is not N x";
}

template <class T>
class DistributedFftGpu : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DistributedFftGpu, Precisions);

}  // namespace

TYPED_TEST(DistributedFftGpu, DeviceMatchesHost) {
  GRIDFLOW_REQUIRE_GPU();
  using T = TypeParam;
  gridflow::halo::bind_gpu_by_local_rank(MPI_COMM_WORLD, /*allow_sharing=*/true);
  const std::string no_nccl = gridflow::testing::nccl_unusable_reason(MPI_COMM_WORLD);
  gridflow::testing::note_nccl_not_tested(no_nccl);
  std::vector<gridflow::halo::Transport> transports{gridflow::halo::Transport::mpi};
  if (no_nccl.empty()) transports.push_back(gridflow::halo::Transport::nccl);
  for (const auto transport : transports) {
    for (const auto values : {FftValues::complex, FftValues::real}) {
      check_device<T, 2>({40, 27}, values, FftDecomposition::slab, transport);
      check_device<T, 3>({16, 11, 9}, values, FftDecomposition::slab, transport);
      check_device<T, 3>({15, 12, 10}, values, FftDecomposition::pencil, transport);
    }
  }
}
