#pragma once
// Field<T, Dim>: the values of one scalar on this rank's owned box plus `ghost` layers around it,
// in host memory (a Kokkos View) or device memory (cudaMalloc).
//
// Layout (2D, ghost width g = 2, x contiguous; rows padded so every owned row starts on a
// 128-byte boundary and the row pitch is a multiple of 128 bytes):
//
//        pad  g g  owned x ...............  g g  pad
//   y=hi+2 .   G G  G G G G G G G G G G G G  G G  .     G: ghost (neighbour's or unused at a
//   y=hi+1 .   G G  G G G G G G G G G G G G  G G  .        physical boundary)
//   y=hi   .   G G  O O O O O O O O O O O O  G G  .     O: owned by this rank
//   ...    .   G G  O O O O O O O O O O O O  G G  .
//   y=lo   .   G G  O O O O O O O O O O O O  G G  .
//   y=lo-1 .   G G  G G G G G G G G G G G G  G G  .
//   y=lo-2 .   G G  G G G G G G G G G G G G  G G  .
//          ^ data()                     <- pitch = stride[1] ->
//
// The "owned" and "ghost" index spaces are named that way everywhere; both are inclusive boxes.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include "mesh/box.hpp"
#include "mesh/check.hpp"
#include "mesh/device.hpp"
#include "mesh/field_view.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::mesh {

template <class T, int Dim>
class Field {
 public:
  static constexpr std::size_t row_alignment_bytes = 128;

  Field() = default;
  /// Allocates owned.grow(ghost) in `space`, zero-filled. Throws for an empty box or ghost < 0.
  Field(const Box<Dim>& owned, int ghost, MemorySpace space, std::string label = "field")
      : m_owned(owned), m_ghost(ghost), m_space(space), m_label(std::move(label)) {
    GRIDFLOW_REQUIRE(!owned.empty(), "field '" + m_label + "' needs a non-empty owned box");
    GRIDFLOW_REQUIRE(ghost >= 0, "field '" + m_label + "' needs a ghost width >= 0");
    const Box<Dim> g = ghosted();
    m_front_pad = front_pad(ghost);
    const Index pitch = row_pitch(g, ghost);
    m_stride[0] = 1;
    m_stride[1] = pitch;
    if constexpr (Dim == 3) m_stride[2] = pitch * g.extent(1);
    m_elements = static_cast<std::size_t>(m_stride[Dim - 1] * g.extent(Dim - 1));
    if (space == MemorySpace::host) {
      m_host = Kokkos::View<T*, Kokkos::HostSpace>(m_label, m_elements);
    } else {
      m_device = Buffer(m_elements * sizeof(T), MemorySpace::device);
      zero_device_bytes(m_device.data(), m_device.bytes());
    }
  }

  /// The elements a field over `owned` with `ghost` layers allocates (padding included), without
  /// allocating it: what a run's memory estimate counts.
  static std::size_t allocated_elements_for(const Box<Dim>& owned, int ghost) {
    const Box<Dim> g = owned.grow(ghost);
    std::size_t n = static_cast<std::size_t>(row_pitch(g, ghost));
    for (int d = 1; d < Dim; ++d) n *= static_cast<std::size_t>(g.extent(d));
    return n;
  }

  const Box<Dim>& owned() const { return m_owned; }
  Box<Dim> ghosted() const { return m_owned.grow(m_ghost); }
  int ghost_width() const { return m_ghost; }
  MemorySpace space() const { return m_space; }
  const std::string& label() const { return m_label; }
  /// Elements allocated (padding included) and their byte count.
  std::size_t allocated_elements() const { return m_elements; }
  std::size_t allocated_bytes() const { return m_elements * sizeof(T); }
  Index stride(int axis) const { return m_stride[axis]; }

  /// The allocation as a box of the view's indices: whole padded rows (x from front_pad elements
  /// before the ghosted lo corner, one row pitch long), every row and plane of the ghosted box.
  Box<Dim> allocated_box() const {
    Box<Dim> b = ghosted();
    b.lo[0] -= m_front_pad;
    b.hi[0] = b.lo[0] + m_stride[1] - 1;
    return b;
  }

  /// First allocated element (the padding before the ghosted lo corner included).
  T* allocation() { return m_space == MemorySpace::host ? m_host.data() : static_cast<T*>(m_device.data()); }
  const T* allocation() const { return const_cast<Field*>(this)->allocation(); }

  FieldView<T, Dim> view() { return make_view<T>(allocation()); }
  FieldView<const T, Dim> view() const { return make_view<const T>(allocation()); }

  /// Host access by global index (ghosts included); only for host fields.
  template <class... I>
  T& operator()(I... index) {
    return view()(static_cast<std::int64_t>(index)...);
  }
  template <class... I>
  const T& operator()(I... index) const {
    return view()(static_cast<std::int64_t>(index)...);
  }

  /// Same owned box, ghost width and layout as `other`.
  bool same_layout(const Field& other) const { return m_owned == other.m_owned && m_ghost == other.m_ghost; }

  /// Copies every allocated value (ghosts included) from a field of the same layout in any space.
  void copy_from(const Field& other) {
    GRIDFLOW_REQUIRE(same_layout(other), "copy between fields '" + other.m_label + "' and '" + m_label + "' of different layouts");
    copy_bytes(allocation(), m_space, other.allocation(), other.m_space, allocated_bytes());
  }

 private:
  template <class U>
  FieldView<U, Dim> make_view(U* base) const {
    FieldView<U, Dim> v;
    v.data = base + m_front_pad;
    for (int d = 0; d < Dim; ++d) {
      v.lo[d] = m_owned.lo[d] - m_ghost;
      v.stride[d] = m_stride[d];
    }
    return v;
  }

  Box<Dim> m_owned{};
  int m_ghost = 0;
  MemorySpace m_space = MemorySpace::host;
  std::string m_label;
  static constexpr Index align_elements = static_cast<Index>(row_alignment_bytes / sizeof(T));
  /// Elements before the ghosted lo corner that put owned lo on an aligned address.
  static Index front_pad(int ghost) { return (align_elements - ghost % align_elements) % align_elements; }
  /// Elements from one row to the next: the padded ghosted row, a whole number of alignments.
  static Index row_pitch(const Box<Dim>& ghosted, int ghost) {
    return ((front_pad(ghost) + ghosted.extent(0) + align_elements - 1) / align_elements) * align_elements;
  }

  Index m_front_pad = 0;
  Index m_stride[Dim] = {};
  std::size_t m_elements = 0;
  Kokkos::View<T*, Kokkos::HostSpace> m_host;
  Buffer m_device;
};

}  // namespace gridflow::mesh
