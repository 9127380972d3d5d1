// The CUDA pack/unpack kernels (the halo exchange's pack path) against the host oracle, bitwise,
// and both against the definition (buffer order x fastest, then y, then z): float and double, 2D
// and 3D, on a field whose owned box starts at negative and odd indices, with 3 ghost layers. The
// boxes: the send/recv boxes of every halo region of a rank inside a 3 x 3 (x 3) process grid at
// widths 1..3 (the boxes HaloExchange packs), the owned and ghosted boxes, one-cell boxes in the
// corners, ragged boxes, an empty box, and one box of more points than the kernels launch threads
// (65535 blocks of 256), so the grid-stride loop wraps. Buffers sit one element past a 256-byte
// boundary with sentinels on both sides, so a kernel writing outside its box.size() is caught.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "box_iteration.hpp"
#include "gpu_test_support.hpp"
#include "typed_cases.hpp"
#include "halo/halo_region.hpp"
#include "kernels/pack/box_copy.hpp"
#include "mesh/device.hpp"
#include "mesh/field.hpp"

namespace {

using gridflow::mesh::Box;
using gridflow::mesh::Field;
using gridflow::mesh::Index;
using gridflow::mesh::MemorySpace;
namespace pack = gridflow::kernels::pack;

using gridflow::testing::at;
using gridflow::testing::Case;

template <class C>
class PackGpu : public ::testing::Test {};
using Cases = gridflow::testing::PrecisionDimCases;
TYPED_TEST_SUITE(PackGpu, Cases);

constexpr int ghost = 3;
constexpr std::size_t lead = 256 / sizeof(double) + 1;  // elements before the box's values: unaligned start
constexpr std::size_t tail = 64;                        // sentinel elements after them

template <int Dim>
Box<Dim> owned_box() {
  if constexpr (Dim == 2) return {{-7, 5}, {52, 44}};
  else return {{-7, 5, -2}, {24, 21, 17}};
}

/// For every point of the ghosted box a value exact in float (quarter steps, |value| < 2^20),
/// distinct for the first 4e6 points of the box in x, y, z order (all of them but in the one box
/// larger than that), signs alternating; `salt` tells fields apart.
template <class T, int Dim>
Field<T, Dim> filled(const Box<Dim>& owned, int salt) {
  Field<T, Dim> f(owned, ghost, MemorySpace::host, "filled");
  Index id = 0;
  gridflow::testing::for_each_point<Dim>(f.ghosted(), [&](const auto& p) {
    const Index k = (id++ % 4000000) + salt;
    at<decltype(f.view()), Dim>(f.view(), p) = static_cast<T>((k % 2 ? -0.25 : 0.25) * static_cast<double>(k + 1));
  });
  return f;
}

/// The boxes to pack and unpack for a field over `owned` (all inside its ghosted box).
template <int Dim>
std::vector<Box<Dim>> boxes(const Box<Dim>& owned) {
  const Box<Dim> g = owned.grow(ghost);
  std::vector<Box<Dim>> out{owned, g};
  // HaloExchange's boxes: those of the centre rank of 3 (x 3 x 3) ranks, each owning a box of
  // `owned`'s extents, moved from the centre rank's owned box onto `owned`.
  std::array<Index, Dim> points{};
  std::array<int, Dim> dims{}, coords{};
  for (int d = 0; d < Dim; ++d) {
    points[d] = 3 * owned.extent(d);
    dims[d] = 3;
    coords[d] = 1;
  }
  const Box<Dim> centre = gridflow::halo::owned_box<Dim>(points, dims, coords);
  for (int width = 1; width <= ghost; ++width)
    for (const auto& r : gridflow::halo::halo_regions<Dim>(points, dims, coords, width))
      for (Box<Dim> b : {r.send, r.recv}) {
        for (int d = 0; d < Dim; ++d) {
          b.lo[d] += owned.lo[d] - centre.lo[d];
          b.hi[d] += owned.lo[d] - centre.lo[d];
        }
        out.push_back(b);
      }
  out.push_back({g.lo, g.lo});  // one cell in each outer corner of the ghosts
  out.push_back({g.hi, g.hi});
  Box<Dim> ragged = owned, thin = g, empty = owned;
  ragged.lo[0] += 3;  // 55 x 38 (27 x 16 x 19): rows no multiple of anything the kernels use
  ragged.hi[0] -= 2;
  ragged.hi[1] -= 1;
  ragged.lo[Dim - 1] += 1;
  thin.lo[0] = thin.hi[0] = owned.lo[0] + 1;  // one point wide in x, the whole ghosted extent in the others
  empty.hi[Dim - 1] = empty.lo[Dim - 1] - 1;
  out.push_back(ragged);
  out.push_back(thin);
  out.push_back(empty);
  return out;
}

/// A buffer of box.size() values in `space`, `lead` elements after a 256-byte boundary, with
/// sentinels before and after.
template <class T>
struct PackBuffer {
  PackBuffer(std::size_t n, MemorySpace space)
      : count(n), memory((lead + n + tail) * sizeof(T), space), host_image(lead + n + tail, sentinel()) {
    gridflow::mesh::copy_bytes(memory.data(), space, host_image.data(), MemorySpace::host, memory.bytes());
  }
  static T sentinel() { return static_cast<T>(-12345.5); }
  T* values() { return static_cast<T*>(memory.data()) + lead; }
  /// The whole allocation back on the host (device work on every stream finished first).
  const std::vector<T>& read() {
    gridflow::mesh::copy_bytes(host_image.data(), MemorySpace::host, memory.data(), memory.space(), memory.bytes());
    return host_image;
  }
  std::size_t count;
  gridflow::mesh::Buffer memory;
  std::vector<T> host_image;
};

template <class T>
std::size_t sentinels_overwritten(const std::vector<T>& image, std::size_t count) {
  std::size_t n = 0;
  for (std::size_t q = 0; q < lead; ++q) n += image[q] != PackBuffer<T>::sentinel();
  for (std::size_t q = lead + count; q < image.size(); ++q) n += image[q] != PackBuffer<T>::sentinel();
  return n;
}

template <class T, int Dim>
void expect_pack_matches(const Field<T, Dim>& host, const Field<T, Dim>& device, const Box<Dim>& box, gridflow::StreamHandle stream) {
  SCOPED_TRACE(::testing::Message() << "pack of box " << box);
  const auto n = static_cast<std::size_t>(box.size());
  PackBuffer<T> on_host(n, MemorySpace::host), on_device(n, MemorySpace::device);
  pack::pack<T, Dim>(host, box, on_host.values(), nullptr);
  pack::pack<T, Dim>(device, box, on_device.values(), stream);
  gridflow::mesh::synchronize(stream);
  const auto& h = on_host.read();
  const auto& d = on_device.read();
  EXPECT_EQ(std::memcmp(h.data(), d.data(), h.size() * sizeof(T)), 0) << "device and host buffers differ";
  EXPECT_EQ(sentinels_overwritten(d, n), 0u) << "the device kernel wrote outside the buffer's box.size() values";
  EXPECT_EQ(sentinels_overwritten(h, n), 0u);
  // The definition, independent of both: x fastest, then y, then z.
  std::size_t q = lead, wrong = 0;
  const auto v = host.view();
  gridflow::testing::for_each_point<Dim>(box, [&](const auto& p) { wrong += d[q++] != at<decltype(v), Dim>(v, p); });
  EXPECT_EQ(wrong, 0u) << "device buffer values not in x, y, z order of the box";
}

template <class T, int Dim>
void expect_unpack_matches(const Box<Dim>& owned, const Box<Dim>& box, gridflow::StreamHandle stream) {
  SCOPED_TRACE(::testing::Message() << "unpack into box " << box);
  const auto n = static_cast<std::size_t>(box.size());
  std::vector<T> values(n);
  // Odd eighths: never equal to a background value (quarter steps), exact in float.
  for (std::size_t q = 0; q < n; ++q) values[q] = static_cast<T>(-0.5 * static_cast<double>(q % 4000000) - 0.125);
  PackBuffer<T> on_host(n, MemorySpace::host), on_device(n, MemorySpace::device);
  if (n) {
    std::memcpy(on_host.values(), values.data(), n * sizeof(T));
    gridflow::mesh::copy_bytes(on_device.values(), MemorySpace::device, values.data(), MemorySpace::host, n * sizeof(T));
  }
  const Field<T, Dim> background = filled<T, Dim>(owned, 7);
  Field<T, Dim> host(owned, ghost, MemorySpace::host, "host"), device(owned, ghost, MemorySpace::device, "device"),
      back(owned, ghost, MemorySpace::host, "back");
  host.copy_from(background);
  device.copy_from(background);
  pack::unpack<T, Dim>(on_host.values(), box, host, nullptr);
  pack::unpack<T, Dim>(on_device.values(), box, device, stream);
  gridflow::mesh::synchronize(stream);
  back.copy_from(device);
  // Every allocated byte, padding included: the device wrote exactly what the host did.
  EXPECT_EQ(std::memcmp(host.allocation(), back.allocation(), host.allocated_bytes()), 0) << "device and host fields differ";
  std::size_t q = 0, wrong_inside = 0, wrong_outside = 0;
  const auto got = back.view();
  const auto was = background.view();
  using V = decltype(got);
  gridflow::testing::for_each_point<Dim>(box, [&](const auto& p) { wrong_inside += at<V, Dim>(got, p) != values[q++]; });
  gridflow::testing::for_each_point<Dim>(owned.grow(ghost), [&](const auto& p) {
    if (!gridflow::testing::inside<Dim>(box, p)) wrong_outside += at<V, Dim>(got, p) != at<decltype(was), Dim>(was, p);
  });
  EXPECT_EQ(wrong_inside, 0u) << "unpacked values not in x, y, z order of the box";
  EXPECT_EQ(wrong_outside, 0u) << "unpack changed points outside its box";
}

}  // namespace

TYPED_TEST(PackGpu, PackAndUnpackMatchTheHostOracleBitwiseOnEveryBox) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Box<Dim> owned = owned_box<Dim>();
  const Field<T, Dim> host = filled<T, Dim>(owned, 0);
  Field<T, Dim> device(owned, ghost, MemorySpace::device, "device");
  device.copy_from(host);
  gridflow::mesh::Stream stream;  // HaloExchange packs on its own stream
  const auto all = boxes<Dim>(owned);
  EXPECT_GT(all.size(), 2u * (Dim == 2 ? 8u : 26u) * ghost) << "the halo regions are among the boxes";
  for (const auto& box : all) {
    ASSERT_TRUE(host.ghosted().contains(box)) << box;
    expect_pack_matches<T, Dim>(host, device, box, stream.get());
    expect_unpack_matches<T, Dim>(owned, box, stream.get());
  }
}

TYPED_TEST(PackGpu, ABoxOfMoreThanOneLaunchOfThreadsIsPackedWhole) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  // 65535 blocks x 256 threads = 16776960 points per sweep of the grid-stride loop.
  Box<Dim> owned;
  if constexpr (Dim == 2) owned = {{-1, 2}, {4200, 4002}};
  else owned = {{-1, 2, 0}, {263, 256, 258}};
  ASSERT_GT(owned.size(), 65535ll * 256);
  const Field<T, Dim> host = filled<T, Dim>(owned, 3);
  Field<T, Dim> device(owned, ghost, MemorySpace::device, "device");
  device.copy_from(host);
  gridflow::mesh::Stream stream;
  expect_pack_matches<T, Dim>(host, device, owned, stream.get());
  expect_unpack_matches<T, Dim>(owned, owned, stream.get());
}

TYPED_TEST(PackGpu, BoxesOutsideTheGhostedBoxAreRefusedOnBothSpaces) {
  GRIDFLOW_REQUIRE_GPU();
  GRIDFLOW_ONE_RANK_CASE();
  using T = typename TypeParam::value_type;
  constexpr int Dim = TypeParam::dim;
  const Box<Dim> owned = owned_box<Dim>();
  Box<Dim> outside = owned.grow(ghost);
  outside.hi[Dim - 1] += 1;  // one layer past the ghosts
  PackBuffer<T> buffer(static_cast<std::size_t>(outside.size()), MemorySpace::device);
  gridflow::mesh::Stream stream;  // a real one: a null stream is refused for device fields anyway
  for (const MemorySpace space : {MemorySpace::host, MemorySpace::device}) {
    Field<T, Dim> f(owned, ghost, space, "f");
    std::vector<T> host_buffer(static_cast<std::size_t>(outside.size()));
    T* values = space == MemorySpace::device ? buffer.values() : host_buffer.data();
    const gridflow::StreamHandle s = space == MemorySpace::device ? stream.get() : nullptr;
    EXPECT_THROW((pack::pack<T, Dim>(f, outside, values, s)), gridflow::Error) << to_string(space);
    EXPECT_THROW((pack::unpack<T, Dim>(values, outside, f, s)), gridflow::Error) << to_string(space);
  }
}
